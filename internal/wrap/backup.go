package wrap

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
)

// When the backup goes.
//
// <file>.mcpward-backup is the file as it was before mcpward's first wrap.
// It is there for two things: Unwrap restores it byte for byte when
// nothing else changed, and it is the user's way back should a wrap have
// gone wrong. Both end when no entry of the file runs through mcpward any
// more: there is nothing left to unwrap, and a backup kept after that goes
// stale (a later first wrap would not write a fresh one, since the first
// backup is the one kept), so it is removed, also when the file differs
// from it (the user's own edits since the wrap are in the file, and a
// server the user deleted by hand was deleted on purpose).
//
// Two things keep it:
//
//   - any entry of the whole file, not only the containers of this client
//     and scope, still runs through mcpward: Claude Code's ~/.claude.json
//     keeps one server list per project, all sharing the one backup;
//   - the backup alone holds something the user typed that neither the
//     file nor mcpsnoop's own backup has: shim flags of an entry mcpsnoop
//     wrapped (--redact-key, --otlp-endpoint, a trace file…). wrap carried
//     them into the mcpward entry, unwrap gives the server's own command
//     back without them, and mcpsnoop's .mcpsnoop.bak is the file from
//     before mcpsnoop's wrap. An entry in the form mcpsnoop's wrap writes
//     (`mcpsnoop -- cmd…`, no flags) is not such a thing: `mcpsnoop wrap`
//     writes it again.
//
// A backup or file that cannot be read as JSON(C) is kept too: nothing can
// be said about what it holds.

// BackupNeeded reports whether the backup must stay now that the file
// holds doc. why says what only the backup holds ("" when the backup is
// kept because an entry still runs through mcpward: there is nothing to
// tell the user then).
func BackupNeeded(doc, backup []byte) (need bool, why string) {
	if string(doc) == string(backup) {
		return false, ""
	}
	cur, err := stdioEntries(doc)
	if err != nil {
		return true, "the file cannot be read as JSON"
	}
	for _, e := range cur {
		if _, _, ok := e.wrapped(); ok {
			return true, ""
		}
	}
	old, err := stdioEntries(backup)
	if err != nil {
		return true, "it cannot be read as JSON"
	}
	for _, e := range old {
		s, ok := e.mcpsnoop()
		if !ok {
			continue
		}
		var flags []string // as typed, --history-limit too
		for _, a := range e.argv[:len(e.argv)-len(s.Orig)] {
			if a != "--" {
				flags = append(flags, a)
			}
		}
		if len(flags) == 0 || slices.ContainsFunc(cur, func(c *entry) bool { return c.cmd == e.cmd && slices.Equal(c.argv, e.argv) }) {
			continue
		}
		return true, fmt.Sprintf("it alone still has the mcpsnoop flags of server %q (%s)", e.name, strings.Join(flags, " "))
	}
	return false, ""
}

// stdioEntries returns every object of doc, at any depth, with a
// "command" string and string args (or none): the stdio server entries
// wherever the file keeps them, under the name of the member that holds
// each.
func stdioEntries(doc []byte) ([]*entry, error) {
	root, err := parse(doc)
	if err != nil {
		return nil, err
	}
	var out []*entry
	var walk func(n *node, name string)
	walk = func(n *node, name string) {
		switch n.kind {
		case '[':
			for _, el := range n.elems {
				walk(el, name)
			}
			return
		case '{':
		default:
			return
		}
		if e := stdioEntry(doc, n, name); e != nil {
			out = append(out, e)
		}
		for _, m := range n.members {
			walk(m.val, m.key)
		}
	}
	walk(root, "")
	return out, nil
}

// stdioEntry reads obj as a stdio server entry, nil if it is not one.
func stdioEntry(doc []byte, obj *node, name string) *entry {
	cmdNode, _ := obj.get("command")
	cmd, ok := cmdNode.str(doc)
	if !ok || cmd == "" {
		return nil
	}
	e := &entry{obj: obj, command: cmdNode, cmd: cmd, name: name}
	if args, _ := obj.get("args"); args != nil {
		if args.kind != '[' {
			return nil
		}
		for _, el := range args.elems {
			s, ok := el.str(doc)
			if !ok {
				return nil
			}
			e.argv = append(e.argv, s)
		}
	}
	return e
}

// TidyBackup removes the backup once the file holds doc, unless
// [BackupNeeded] says it must stay. It returns the note to show when it
// keeps one for what only it holds ("" otherwise). mcpsnoop's backup is
// never touched.
func (f *File) TidyBackup(doc []byte) (note string, err error) {
	backup, err := os.ReadFile(f.BackupPath())
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", pathErr(f.BackupPath(), err)
	}
	if need, why := BackupNeeded(doc, backup); need {
		if why == "" {
			return "", nil
		}
		return fmt.Sprintf("kept the backup %s: %s; delete it when you no longer need it", f.BackupPath(), why), nil
	}
	return "", f.RemoveBackup()
}
