// Package sessionlog is what the `mcpward sessions` verbs share: where
// session logs live, which logs a command line names, and reading a log
// record by record with its line numbers.
package sessionlog

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/session"
)

// StateDir resolves mcpward's state directory the way the proxy does
// (--state-dir, else session.StateDir: $MCPWARD_HOME, $XDG_STATE_HOME/mcpward,
// ~/.local/state/mcpward).
func StateDir(f *cmdutil.Factory) (string, error) {
	d, err := session.StateDir(f.StateEnv)
	if err != nil {
		return "", fault.Input(err)
	}
	return d, nil
}

// SessionsDir is the folder of the session logs in a state directory.
func SessionsDir(state string) string { return filepath.Join(state, "sessions") }

// A File is one log file in the sessions folder.
type File struct {
	Path    string
	Size    int64
	ModTime time.Time
}

// List returns the *.jsonl files of dir, oldest name first (session ids
// sort by start time). A missing dir is an empty list.
func List(dir string) ([]File, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fault.Input(fmt.Errorf("list session logs: %w", err))
	}
	var out []File
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".jsonl") {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		out = append(out, File{Path: filepath.Join(dir, e.Name()), Size: info.Size(), ModTime: info.ModTime()})
	}
	slices.SortFunc(out, func(a, b File) int { return strings.Compare(filepath.Base(a.Path), filepath.Base(b.Path)) })
	return out, nil
}

// Resolve turns command-line arguments into log paths: an existing path is
// used as is; anything else is a session id (or an id prefix, or a label)
// looked up in the state directory. No argument means every log there,
// narrowed by sessionID and label when set.
func Resolve(f *cmdutil.Factory, args []string, sessionID, label string) ([]string, error) {
	var out []string
	var dir string
	listed := func() ([]File, error) {
		if dir == "" {
			state, err := StateDir(f)
			if err != nil {
				return nil, err
			}
			dir = SessionsDir(state)
		}
		return List(dir)
	}
	for _, a := range args {
		if _, err := os.Stat(a); err == nil {
			out = append(out, a)
			continue
		}
		if strings.HasSuffix(a, ".jsonl") || strings.ContainsAny(a, `/\`) {
			return nil, fault.Input(fmt.Errorf("session log %s: no such file", a))
		}
		files, err := listed()
		if err != nil {
			return nil, err
		}
		n := len(out)
		for _, fl := range files {
			if matches(fl.Path, a, "") {
				out = append(out, fl.Path)
			}
		}
		if len(out) == n {
			return nil, fault.Input(fmt.Errorf("no session log named %q in %s", a, dir))
		}
	}
	if len(args) == 0 {
		files, err := listed()
		if err != nil {
			return nil, err
		}
		for _, fl := range files {
			if matches(fl.Path, sessionID, label) {
				out = append(out, fl.Path)
			}
		}
		if len(out) == 0 {
			return nil, fault.Input(cmdutil.WithHint(fmt.Errorf("no session logs in %s", dir),
				"record one with 'mcpward proxy -- <server command>'"))
		}
	}
	return out, nil
}

// matches compares a log file name "<label>-<id>.jsonl" with an id (or id
// prefix) and a label.
func matches(path, id, label string) bool {
	stem := strings.TrimSuffix(filepath.Base(path), ".jsonl")
	i := strings.LastIndexByte(stem, '-')
	fLabel, fID := "", stem
	if i >= 0 {
		fLabel, fID = stem[:i], stem[i+1:]
	}
	if label != "" && fLabel != label {
		return false
	}
	if id != "" && !strings.HasPrefix(fID, id) && fLabel != id {
		return false
	}
	return true
}

// lineFeeder hands the session reader one line per Read, so that after
// each record the lines it consumed are known exactly.
type lineFeeder struct {
	br      *bufio.Reader
	pending []byte // bytes of the current chunk not handed out yet
	perr    error
	lines   int
	partial bool
}

func (l *lineFeeder) Read(p []byte) (int, error) {
	if len(l.pending) == 0 {
		if l.perr != nil {
			return 0, l.perr
		}
		chunk, err := l.br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			err = nil
		}
		l.pending, l.perr = chunk, err
		if len(chunk) == 0 {
			l.perr = nil
			return 0, err
		}
	}
	n := copy(p, l.pending)
	l.pending = l.pending[n:]
	if n > 0 {
		if p[n-1] == '\n' {
			l.lines++
			l.partial = false
		} else {
			l.partial = true
		}
	}
	if len(l.pending) == 0 && l.perr != nil {
		err := l.perr
		l.perr = nil
		return n, err
	}
	return n, nil
}

// line is the 1-based line of the record the reader returned last.
func (l *lineFeeder) line() int {
	if l.partial {
		return l.lines + 1
	}
	return l.lines
}

// Read streams every record of the log at path to add, with its line, and
// returns the lines it skipped (torn or corrupt) and how many. An
// unreadable file is an input error (exit 4).
func Read(path string, add func(rec *session.Record, line int)) ([]session.LineError, int, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, 0, fault.Input(fmt.Errorf("read session log: %w", err))
	}
	defer fh.Close()
	return ReadFrom(fh, path, add)
}

// ReadFrom is Read over any reader (name is for messages).
func ReadFrom(r io.Reader, name string, add func(rec *session.Record, line int)) ([]session.LineError, int, error) {
	lf := &lineFeeder{br: bufio.NewReaderSize(r, 64<<10)}
	sr := session.NewReader(lf)
	for {
		rec, err := sr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return sr.Problems(), sr.Skipped(), fault.Input(fmt.Errorf("read session log %s: %w", name, err))
		}
		add(rec, lf.line())
	}
	return sr.Problems(), sr.Skipped(), nil
}

// CompleteSessions completes a session id from the logs in the state
// directory (--state-dir, else $MCPWARD_HOME…), newest first, each
// described by its label; a path is completed as a file too.
func CompleteSessions(f *cmdutil.Factory) cmdutil.CompleteFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		state, err := StateDir(f)
		if err != nil {
			return nil, cobra.ShellCompDirectiveDefault
		}
		files, _ := List(SessionsDir(state))
		type entry struct{ id, label string }
		var found []entry
		for _, fl := range files {
			stem := strings.TrimSuffix(filepath.Base(fl.Path), ".jsonl")
			e := entry{id: stem}
			if j := strings.LastIndexByte(stem, '-'); j >= 0 {
				e = entry{id: stem[j+1:], label: stem[:j]}
			}
			if strings.HasPrefix(e.id, toComplete) {
				found = append(found, e)
			}
		}
		// Session ids sort by start time: newest first.
		slices.SortFunc(found, func(a, b entry) int { return strings.Compare(b.id, a.id) })
		var out []cobra.Completion
		for _, e := range found {
			out = append(out, cobra.CompletionWithDesc(e.id, e.label))
		}
		if len(out) == 0 {
			// Not an id: let the shell complete a log file.
			return nil, cobra.ShellCompDirectiveDefault
		}
		return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveKeepOrder
	}
}

// CompleteLabels completes a server label from the logs in the state
// directory.
func CompleteLabels(f *cmdutil.Factory) cmdutil.CompleteFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		state, err := StateDir(f)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		files, _ := List(SessionsDir(state))
		var out []cobra.Completion
		for _, fl := range files {
			stem := strings.TrimSuffix(filepath.Base(fl.Path), ".jsonl")
			if j := strings.LastIndexByte(stem, '-'); j > 0 && strings.HasPrefix(stem[:j], toComplete) && !slices.Contains(out, stem[:j]) {
				out = append(out, stem[:j])
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}
