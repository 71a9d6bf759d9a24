// Package sessionargs is what the `mcpward sessions` verbs share on the
// command line: the state directory a command works in (--state-dir),
// which session logs its arguments name, and shell completion of session
// ids and labels. Reading the logs is internal/sessionlog's.
package sessionargs

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/sessionlog"
)

// Layout resolves mcpward's state directory the way the proxy does
// (--state-dir, else session.StateDir: $MCPWARD_HOME, $XDG_STATE_HOME/mcpward,
// ~/.local/state/mcpward).
func Layout(f *cmdutil.Factory) (session.Layout, error) {
	d, err := session.StateDir(f.StateEnv)
	if err != nil {
		return session.Layout{}, fault.Input(err)
	}
	return session.Layout{Root: d}, nil
}

// Stdin is the log argument that names standard input (as mcpsnoop's
// `check -` and `export -` did).
const Stdin = "-"

// ReadLog reads the log at path, or standard input (in) when path is
// Stdin, in any format sessionlog reads (mcpward's, mcpsnoop's).
func ReadLog(ctx context.Context, in io.Reader, path string, add func(rec *session.Record, line int)) ([]session.LineError, int, error) {
	if path == Stdin {
		if in == nil {
			return nil, 0, fault.Input(fmt.Errorf("read session log from stdin: no standard input"))
		}
		return sessionlog.ReadFrom(in, "stdin", add)
	}
	return sessionlog.ReadContext(ctx, path, add)
}

// Resolve turns command-line arguments into log paths: "-" is standard
// input (at most once), an existing path is used as is; anything else is a
// session id (or an id prefix, or a label) looked up in the state
// directory. No argument means every log there, narrowed by sessionID and
// label when set.
func Resolve(f *cmdutil.Factory, args []string, sessionID, label string) ([]string, error) {
	var out []string
	var dir string
	stdin := false
	listed := func() ([]sessionlog.File, error) {
		if dir == "" {
			state, err := Layout(f)
			if err != nil {
				return nil, err
			}
			dir = state.Sessions()
		}
		return sessionlog.List(dir)
	}
	for _, a := range args {
		if a == Stdin {
			if stdin {
				return nil, cmdutil.FlagErrorf("standard input (-) can be read only once")
			}
			if f.IOStreams != nil && f.IOStreams.IsStdinTTY() {
				return nil, cmdutil.FlagErrorf("- reads a session log from standard input, which is a terminal (pipe or redirect a log into it)")
			}
			stdin = true
			out = append(out, a)
			continue
		}
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
			if sessionlog.Matches(fl.Path, a, "") {
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
			if sessionlog.Matches(fl.Path, sessionID, label) {
				out = append(out, fl.Path)
			}
		}
		if len(out) == 0 {
			return nil, fault.Input(fault.WithHint(fmt.Errorf("no session logs in %s", dir),
				"record one with 'mcpward proxy -- <server command>'"))
		}
	}
	return out, nil
}

// ResolveLog picks the one log a single-log command reads: LOG if it is a
// file, else the log whose id, id prefix or label it names; with only a
// session id, the log named after it; with neither, the newest non-empty
// log of the state directory.
func ResolveLog(f *cmdutil.Factory, log, sessionID string) (string, error) {
	if log == "" && sessionID == "" {
		state, err := Layout(f)
		if err != nil {
			return "", err
		}
		dir := state.Sessions()
		files, err := sessionlog.List(dir)
		if err != nil {
			return "", err
		}
		var best *sessionlog.File
		for i := range files {
			if files[i].Size > 0 && (best == nil || !files[i].ModTime.Before(best.ModTime)) {
				best = &files[i]
			}
		}
		if best == nil {
			return "", fault.Input(fault.WithHint(fmt.Errorf("no session logs in %s", dir),
				"record one with 'mcpward proxy -- <server command>'"))
		}
		return best.Path, nil
	}
	var args []string
	if log != "" {
		args = []string{log}
	}
	paths, err := Resolve(f, args, sessionID, "")
	if err != nil {
		return "", err
	}
	if len(paths) > 1 {
		if newest, ok := newestLabelled(paths, log); ok && sessionID == "" {
			// A label names a server, whose latest session is meant (as
			// with no argument at all); which one is said.
			_, id := sessionlog.Name(newest)
			if f.IOStreams != nil {
				fmt.Fprintf(f.IOStreams.ErrOut, "%d sessions are labelled %s: using the newest, %s (name another by its id)\n", len(paths), log, id)
			}
			return newest, nil
		}
		return "", fault.Input(fault.WithHint(fmt.Errorf("%d session logs match %q", len(paths), log+sessionID),
			"name one log file or a longer session id"))
	}
	return paths[0], nil
}

// newestLabelled returns the newest of paths (session ids sort by start
// time) when every one of them is labelled label.
func newestLabelled(paths []string, label string) (string, bool) {
	var best, bestID string
	for _, p := range paths {
		l, id := sessionlog.Name(p)
		if l != label {
			return "", false
		}
		if id > bestID {
			best, bestID = p, id
		}
	}
	return best, best != ""
}

// CompleteSessions completes a session id from the logs in the state
// directory (--state-dir, else $MCPWARD_HOME…), newest first, each
// described by its label; a path is completed as a file too.
func CompleteSessions(f *cmdutil.Factory) cmdutil.CompleteFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		state, err := Layout(f)
		if err != nil {
			return nil, cobra.ShellCompDirectiveDefault
		}
		files, _ := sessionlog.List(state.Sessions())
		type entry struct{ id, label string }
		var found []entry
		for _, fl := range files {
			label, id := sessionlog.Name(fl.Path)
			if strings.HasPrefix(id, toComplete) {
				found = append(found, entry{id: id, label: label})
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
		state, err := Layout(f)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		files, _ := sessionlog.List(state.Sessions())
		var out []cobra.Completion
		for _, fl := range files {
			if label, _ := sessionlog.Name(fl.Path); label != "" && strings.HasPrefix(label, toComplete) && !slices.Contains(out, label) {
				out = append(out, label)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}
