// Package sesslistcmd implements `mcpward sessions list`.
package sesslistcmd

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/calls"
	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/cli/sessionscmd/sessionargs"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/report"
	"github.com/mcpward/mcpward/internal/sessionlog"
)

// ListOptions are the inputs of `sessions list`.
type ListOptions struct {
	IO      *iostreams.IOStreams
	Factory *cmdutil.Factory
	Now     func() time.Time
	// Format is text (a table), json or tsv.
	Format string
	Logs   []string
}

// NewCmdList builds `mcpward sessions list`.
func NewCmdList(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {
	opts := &ListOptions{IO: f.IOStreams, Factory: f, Now: f.Now}
	cmd := &cobra.Command{
		Use:   "list [LOG…]",
		Short: "List recorded sessions",
		Long: `List the sessions in the state directory's logs (or the given logs): label,
id, transport, start, duration, frames, calls and errors. --json adds each
session's cost and latency summary (per tool: definition and result bytes,
estimated tokens, p50/p95/p99).`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Logs = args
			if runF != nil {
				return runF(opts)
			}
			return listRun(opts)
		},
	}
	cmdutil.AddFormatFlags(cmd, &opts.Format, "sessions list")
	cmdutil.AddStateDirFlag(cmd, f)
	cmd.ValidArgsFunction = sessionargs.CompleteSessions(f)
	return cmd
}

// Entry is one session in `sessions list --json`.
type Entry struct {
	File     string         `json:"file"`
	Session  *calls.Session `json:"session"`
	Duration time.Duration  `json:"durationNs"`
	Summary  calls.Summary  `json:"summary"`
	// Skipped counts torn or corrupt lines of the file.
	Skipped int `json:"skippedLines,omitempty"`
}

func listRun(opts *ListOptions) error {
	var paths []string
	if len(opts.Logs) > 0 {
		p, err := sessionargs.Resolve(opts.Factory, opts.Logs, "", "")
		if err != nil {
			return err
		}
		paths = p
	} else {
		state, err := sessionargs.Layout(opts.Factory)
		if err != nil {
			return err
		}
		files, err := sessionlog.List(state.Sessions())
		if err != nil {
			return err
		}
		for _, f := range files {
			paths = append(paths, f.Path)
		}
	}
	entries := []Entry{}
	for _, p := range paths {
		st := calls.New(nil)
		_, skipped, err := sessionlog.Read(p, st.Add)
		if err != nil {
			return err
		}
		st.Flush()
		for _, ss := range st.Sessions() {
			entries = append(entries, Entry{File: p, Session: ss, Duration: ss.End.Sub(ss.Start), Summary: ss.Summary(), Skipped: skipped})
		}
	}
	// Newest first, as a shell's history and mcpsnoop's list read: the
	// session just recorded is the first row, whatever its log is named.
	slices.SortStableFunc(entries, func(a, b Entry) int {
		return b.Session.Start.Compare(a.Session.Start)
	})
	if opts.Format == "json" {
		return report.WriteJSON(opts.IO.Out, entries)
	}
	if len(entries) == 0 {
		fmt.Fprintln(opts.IO.ErrOut, "no recorded sessions")
		return nil
	}
	return writeTable(opts, entries)
}

// writeTable prints one row per session: on a terminal with a header,
// relative start times and columns fitted to the width; piped (or with
// --format tsv) tab-separated, RFC 3339 times, whole ids and the log file
// as a last column.
func writeTable(opts *ListOptions, entries []Entry) error {
	tp := cmdutil.NewTablePrinter(opts.IO, opts.Format)
	tty := tp.IsTTY()
	tp.AddHeader("LABEL", "ID", "TRANSPORT", "STARTED", "DURATION", "FRAMES", "CALLS", "ERRORS")
	for _, e := range entries {
		ss := e.Session
		start := ss.Start.UTC().Format(time.RFC3339)
		if tty {
			start = ago(opts.Now(), ss.Start)
		}
		row := []string{ss.Label, ss.ID, string(ss.Transport), start, e.Duration.Round(time.Millisecond).String(),
			strconv.FormatInt(ss.Frames, 10), strconv.FormatInt(ss.Calls, 10), strconv.FormatInt(ss.Errors, 10)}
		if !tty {
			row = append(row, filepath.ToSlash(e.File))
		}
		tp.AddRow(row...)
	}
	return tp.Render()
}

func ago(now, t time.Time) string {
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh ago", int(d.Hours()))
	}
	return fmt.Sprintf("%dd ago", int(d.Hours()/24))
}
