package wrap

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// A Target says where one config file keeps its servers: the key paths
// of the servers object, tried in order (VS Code's settings.json may say
// "mcp": {"servers": …} or "mcp.servers": …).
type Target struct {
	Containers [][]string
}

// A Spec is how to wrap: the mcpward binary and the proxy flags that go
// before "--".
type Spec struct {
	Mcpward string
	Flags   []string
}

// Sentinel outcomes and refusals. Callers branch on them with errors.Is.
var (
	// ErrAlreadyWrapped: wrap found the entry already running through
	// mcpward; nothing was changed.
	ErrAlreadyWrapped = errors.New("already wrapped")
	// ErrNotWrapped: unwrap found an entry that does not run through
	// mcpward; nothing was changed.
	ErrNotWrapped = errors.New("not wrapped")
	// ErrRemote: the entry is a remote (HTTP) server, which the stdio
	// shim cannot wrap.
	ErrRemote = errors.New("a remote server cannot run through the stdio shim")
)

// A NotFoundError says the server is not in the file, and which are.
type NotFoundError struct {
	Server    string
	Available []string
}

func (e *NotFoundError) Error() string {
	if len(e.Available) == 0 {
		return fmt.Sprintf("no server %q (the file has no servers)", e.Server)
	}
	return fmt.Sprintf("no server %q (available: %s)", e.Server, strings.Join(e.Available, ", "))
}

// An entry is a located server entry.
type entry struct {
	root, obj *node
	command   *node // "command" value, nil if absent
	args      *node // "args" value, nil if absent
	argsIdx   int   // index of args among obj.members, -1 if absent
	cmd       string
	argv      []string
	name      string // the member that holds the entry (stdioEntries)
}

// find locates server's entry in doc.
func find(doc []byte, t Target, server string) (*entry, error) {
	root, err := parse(doc)
	if err != nil {
		return nil, err
	}
	if root.kind != '{' {
		return nil, errors.New("the file is not a JSON object")
	}
	var names []string
	var obj *node
	found := false
	for _, c := range t.Containers {
		n := root
		for _, k := range c {
			v, dup := n.get(k)
			if dup {
				return nil, fmt.Errorf("key %q appears twice (ambiguous)", k)
			}
			if v == nil || v.kind != '{' {
				n = nil
				break
			}
			n = v
		}
		if n == nil {
			continue
		}
		v, dup := n.get(server)
		if dup {
			return nil, fmt.Errorf("server %q appears twice in %s (ambiguous)", server, strings.Join(c, "."))
		}
		if v != nil {
			obj, found = v, true
			break
		}
		for _, m := range n.members {
			names = append(names, m.key)
		}
	}
	if !found {
		slices.Sort(names)
		return nil, &NotFoundError{Server: server, Available: slices.Compact(names)}
	}
	if obj.kind != '{' {
		return nil, fmt.Errorf("server %q is not an object", server)
	}
	e := &entry{root: root, obj: obj, argsIdx: obj.index("args")}
	for _, k := range []string{"command", "args", "url", "serverUrl", "httpUrl", "type"} {
		if _, dup := obj.get(k); dup {
			return nil, fmt.Errorf("server %q has %q twice (ambiguous)", server, k)
		}
	}
	if typ, _ := obj.get("type"); typ != nil {
		if s, _ := typ.str(doc); s != "" && s != "stdio" {
			return nil, fmt.Errorf("server %q is of type %s: %w", server, s, ErrRemote)
		}
	}
	for _, k := range []string{"url", "serverUrl", "httpUrl"} {
		if v, _ := obj.get(k); v != nil {
			return nil, fmt.Errorf("server %q has a %s: %w", server, k, ErrRemote)
		}
	}
	e.command, _ = obj.get("command")
	var ok bool
	if e.cmd, ok = e.command.str(doc); !ok || e.cmd == "" {
		return nil, fmt.Errorf("server %q has no command string", server)
	}
	e.args, _ = obj.get("args")
	if e.args != nil {
		if e.args.kind != '[' {
			return nil, fmt.Errorf("server %q: args is not an array", server)
		}
		for i, el := range e.args.elems {
			s, ok := el.str(doc)
			if !ok {
				return nil, fmt.Errorf("server %q: args[%d] is not a string", server, i)
			}
			e.argv = append(e.argv, s)
		}
	}
	return e, nil
}

// wrapped reports whether the entry runs through mcpward, and if so the
// original command and args and the mcpward flags.
func (e *entry) wrapped() (orig []string, flags []string, ok bool) {
	base := e.cmd
	if i := strings.LastIndexAny(base, `/\`); i >= 0 {
		base = base[i+1:]
	}
	base = strings.TrimSuffix(strings.ToLower(base), ".exe")
	if base != "mcpward" || len(e.argv) == 0 {
		return nil, nil, false
	}
	if e.argv[0] == "--" && len(e.argv) > 1 { // the short form, mcpward -- cmd
		return e.argv[1:], nil, true
	}
	if e.argv[0] != "proxy" {
		return nil, nil, false
	}
	dash := slices.Index(e.argv, "--")
	if dash < 0 || dash+1 >= len(e.argv) {
		return nil, nil, false
	}
	return e.argv[dash+1:], e.argv[1:dash], true
}

// Wrap rewrites server's entry so it runs through mcpward. It returns
// ErrAlreadyWrapped (and doc unchanged) when it already does, and the
// command and args the entry had. An entry wrapped by mcpsnoop is not
// wrapped twice: it runs through mcpward instead, with mcpsnoop's shim
// flags (the same flags of mcpward proxy) after spec's.
func Wrap(doc []byte, t Target, server string, spec Spec) (out []byte, err error) {
	e, err := find(doc, t, server)
	if err != nil {
		return doc, err
	}
	if _, _, ok := e.wrapped(); ok {
		return doc, fmt.Errorf("server %q: %w (command %s)", server, ErrAlreadyWrapped, e.cmd)
	}
	if spec.Mcpward == "" {
		return doc, errors.New("no mcpward path")
	}
	if s, ok := e.mcpsnoop(); ok {
		return fromMcpsnoop(doc, e, s, server, spec)
	}
	args := append([]string{"proxy"}, spec.Flags...)
	args = append(append(append(args, "--"), e.cmd), e.argv...)
	return e.rewrite(doc, spec.Mcpward, args), nil
}

// Unwrap restores server's entry to run without mcpward (or without
// mcpsnoop: an entry mcpsnoop wrapped gets the command after its "--"
// back). backup, if not nil, is the file as it was before the first wrap:
// when wrapping it again with the same binary and flags gives exactly doc
// (nothing else changed since), or the unwrapped file is the same JSON
// value as backup (mcpsnoop's wrap reformatted the entry), backup itself
// is returned (restored true), byte for byte. Otherwise only the entry's
// command and args are spliced back. It returns ErrNotWrapped when the
// entry runs through neither.
func Unwrap(doc, backup []byte, t Target, server string) (out []byte, restored bool, err error) {
	e, err := find(doc, t, server)
	if err != nil {
		return doc, false, err
	}
	orig, flags, ok := e.wrapped()
	if !ok {
		s, snoop := e.mcpsnoop()
		if !snoop {
			return doc, false, fmt.Errorf("server %q: %w", server, ErrNotWrapped)
		}
		orig = s.Orig
	} else if backup != nil && !wrappedByMcpsnoop(backup, t, server) {
		// (A backup taken when wrap replaced mcpsnoop holds mcpsnoop's
		// entry: unwrap restores the server's own command instead.)
		again, err := Wrap(backup, t, server, Spec{Mcpward: e.cmd, Flags: flags})
		if err == nil && bytes.Equal(again, doc) {
			return backup, true, nil
		}
	}
	args := orig[1:]
	if len(args) == 0 {
		args = nil
		if emptyArgs(backup, t, server, orig[0]) {
			// The entry had "args": [] before the first wrap: it stays.
			args = []string{}
		}
	}
	out = e.rewrite(doc, orig[0], args)
	if backup != nil && !bytes.Equal(out, backup) && sameJSON(out, backup) {
		// Nothing but the layout differs from the backup (mcpsnoop's
		// wrap reordered the entry's keys): the backup, byte for byte.
		return backup, true, nil
	}
	return out, false, nil
}

// WrappedByMcpsnoop reports whether server's entry in doc runs through
// mcpsnoop (Wrap would move it to mcpward).
func WrappedByMcpsnoop(doc []byte, t Target, server string) bool {
	return wrappedByMcpsnoop(doc, t, server)
}

// wrappedByMcpsnoop reports whether server's entry in doc runs through
// mcpsnoop.
func wrappedByMcpsnoop(doc []byte, t Target, server string) bool {
	e, err := find(doc, t, server)
	if err != nil {
		return false
	}
	_, ok := e.mcpsnoop()
	return ok
}

// Servers lists the server names in doc, sorted.
func Servers(doc []byte, t Target) ([]string, error) {
	_, err := find(doc, t, "\x00")
	var nf *NotFoundError
	if errors.As(err, &nf) {
		return nf.Available, nil
	}
	return nil, err
}

// emptyArgs reports whether server's entry in backup runs command with an
// empty "args" array.
func emptyArgs(backup []byte, t Target, server, command string) bool {
	if backup == nil {
		return false
	}
	e, err := find(backup, t, server)
	return err == nil && e.cmd == command && e.args != nil && len(e.argv) == 0
}

// rewrite splices a new command and args into the entry. An args member
// is removed when args is nil and kept ("args": []) when it is empty.
func (e *entry) rewrite(doc []byte, command string, args []string) []byte {
	nl := lineEnding(doc)
	type splice struct {
		start, end int
		text       string
	}
	var sp []splice
	sp = append(sp, splice{e.command.start, e.command.end, quote(command)})
	switch {
	case e.args != nil && args == nil:
		// Remove the member, with the separator before it (or after it
		// when it comes first).
		m := e.obj.members[e.argsIdx]
		if e.argsIdx > 0 {
			sp = append(sp, splice{e.obj.members[e.argsIdx-1].val.end, e.args.end, ""})
		} else if len(e.obj.members) > 1 {
			sp = append(sp, splice{m.keyStart, e.obj.members[1].keyStart, ""})
		} else {
			sp = append(sp, splice{m.keyStart, e.args.end, ""})
		}
	case e.args != nil:
		sp = append(sp, splice{e.args.start, e.args.end, renderArray(doc, e.args, args, nl)})
	case len(args) > 0:
		ci := e.obj.index("command")
		km := e.obj.members[ci]
		sep := ", "
		if ind, ok := lineIndent(doc, km.keyStart); ok {
			sep = "," + nl + ind
		}
		sp = append(sp, splice{e.command.end, e.command.end, sep + `"args": ` + renderArray(doc, nil, args, nl)})
	}
	slices.SortFunc(sp, func(a, b splice) int { return a.start - b.start })
	var out []byte
	last := 0
	for _, s := range sp {
		out = append(out, doc[last:s.start]...)
		out = append(out, s.text...)
		last = s.end
	}
	return append(out, doc[last:]...)
}

// renderArray renders args in the style of the array old: one line
// (keeping its separator) or one element per line (keeping its
// indentation).
func renderArray(doc []byte, old *node, args []string, nl string) string {
	if len(args) == 0 {
		return "[]"
	}
	if old != nil && len(old.elems) > 0 {
		if ind, ok := lineIndent(doc, old.elems[0].start); ok {
			closeInd, _ := lineIndent(doc, old.end-1)
			var b strings.Builder
			b.WriteString("[")
			for i, a := range args {
				if i > 0 {
					b.WriteString(",")
				}
				b.WriteString(nl + ind + quote(a))
			}
			// A trailing comma (JSONC) stays.
			last := old.elems[len(old.elems)-1]
			if t := bytes.TrimLeft(doc[last.end:old.end-1], " \t\r\n"); len(t) > 0 && t[0] == ',' {
				b.WriteString(",")
			}
			b.WriteString(nl + closeInd + "]")
			return b.String()
		}
	}
	sep := ", "
	if old != nil && len(old.elems) > 1 {
		sep = string(doc[old.elems[0].end:old.elems[1].start])
		if strings.ContainsAny(sep, "/\n") { // a comment: use the plain form
			sep = ", "
		}
	}
	var b strings.Builder
	inner := ""
	if old != nil && len(old.elems) > 0 && old.elems[0].start > old.start+1 && doc[old.start+1] == ' ' {
		inner = " "
	}
	b.WriteString("[" + inner)
	for i, a := range args {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(quote(a))
	}
	b.WriteString(inner + "]")
	return b.String()
}

// lineIndent returns the blanks before pos on its line, if only blanks
// precede it there.
func lineIndent(doc []byte, pos int) (string, bool) {
	i := pos
	for i > 0 && (doc[i-1] == ' ' || doc[i-1] == '\t') {
		i--
	}
	if i > 0 && doc[i-1] != '\n' {
		return "", false
	}
	return string(doc[i:pos]), true
}

func lineEnding(doc []byte) string {
	if i := bytes.IndexByte(doc, '\n'); i > 0 && doc[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}

// quote encodes s as a JSON string without HTML escaping (an & in an
// argument stays an &).
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// CommandLine returns server's command and args as one shell-like line,
// for showing a change.
func CommandLine(doc []byte, t Target, server string) (string, error) {
	e, err := find(doc, t, server)
	if err != nil {
		return "", err
	}
	parts := []string{shellQuote(e.cmd)}
	for _, a := range e.argv {
		parts = append(parts, shellQuote(a))
	}
	return strings.Join(parts, " "), nil
}

func shellQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`&|;<>()*?![]{}#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
