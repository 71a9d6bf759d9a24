// Package sessprunecmd implements `mcpward sessions prune --older-than AGE`.
package sessprunecmd

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/cli/sessionscmd/sessionargs"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/plural"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/sessionlog"
)

// PruneOptions are the inputs of `sessions prune`.
type PruneOptions struct {
	IO        *iostreams.IOStreams
	Factory   *cmdutil.Factory
	Now       func() time.Time
	OlderThan time.Duration
	DryRun    bool
	Yes       bool
	// Interactive reports whether stdin is a real terminal (not /dev/null,
	// which is a character device too: mcpsnoop prompted there, read EOF
	// and exited 0).
	Interactive func() bool
}

// NewCmdPrune builds `mcpward sessions prune`.
func NewCmdPrune(f *cmdutil.Factory, runF func(*PruneOptions) error) *cobra.Command {
	opts := &PruneOptions{IO: f.IOStreams, Factory: f, Now: f.Now}
	opts.Interactive = func() bool { return interactive(opts.IO) }
	var age string
	cmd := &cobra.Command{
		Use:   "prune --older-than AGE",
		Short: "Delete session logs older than an age",
		Long: `Delete whole session logs in <state>/sessions whose last write is older than
AGE ("30d" for whole days, or a Go duration such as "12h"). It asks first; a
non-interactive stdin (a pipe, /dev/null) refuses unless --yes is given.`,
		Example: `  mcpward sessions prune --older-than 30d --dry-run
  mcpward sessions prune --older-than 7d --yes`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return cmdutil.FlagErrorf("prune takes no arguments")
			}
			d, err := parseAge(age)
			if err != nil {
				return cmdutil.FlagErrorWrap(err)
			}
			opts.OlderThan = d
			if runF != nil {
				return runF(opts)
			}
			return pruneRun(opts)
		},
	}
	cmd.Flags().StringVar(&age, "older-than", "", "delete logs last written more than `AGE` ago (30d, 12h)")
	cmd.Flags().BoolVar(&opts.DryRun, "dry-run", false, "list what would be deleted")
	cmd.Flags().BoolVar(&opts.Yes, "yes", false, "do not ask")
	cmdutil.AddStateDirFlag(cmd, f)
	return cmd
}

func parseAge(s string) (time.Duration, error) {
	if s == "" {
		return 0, errors.New("--older-than is required")
	}
	var d time.Duration
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.Atoi(days)
		if err != nil {
			return 0, fmt.Errorf("--older-than %q: want whole days (30d) or a duration (12h)", s)
		}
		d = time.Duration(n) * 24 * time.Hour
	} else {
		var err error
		if d, err = time.ParseDuration(s); err != nil {
			return 0, fmt.Errorf("--older-than %q: want whole days (30d) or a duration (12h)", s)
		}
	}
	if d <= 0 {
		return 0, fmt.Errorf("--older-than %q: must be more than zero", s)
	}
	return d, nil
}

// interactive is a TTY stdin that is not the null device.
func interactive(io *iostreams.IOStreams) bool {
	if !io.IsStdinTTY() {
		return false
	}
	f, ok := io.In.(*os.File)
	if !ok {
		return true
	}
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	if null, err := os.Stat(os.DevNull); err == nil && os.SameFile(fi, null) {
		return false
	}
	return true
}

func pruneRun(opts *PruneOptions) error {
	state, err := sessionargs.Layout(opts.Factory)
	if err != nil {
		return err
	}
	files, err := sessionlog.List(state.Sessions())
	if err != nil {
		return err
	}
	cutoff := opts.Now().Add(-opts.OlderThan)
	var old []sessionlog.File
	var total int64
	for _, f := range files {
		if f.ModTime.Before(cutoff) {
			old = append(old, f)
			total += f.Size
		}
	}
	if len(old) == 0 {
		fmt.Fprintln(opts.IO.ErrOut, "nothing to prune")
		return nil
	}
	for _, f := range old {
		fmt.Fprintln(opts.IO.Out, f.Path)
	}
	fmt.Fprintf(opts.IO.ErrOut, "%s, %s older than %s\n", plural.Count(len(old), "log"), plural.Count(total, "byte"), cutoff.UTC().Format(time.RFC3339))
	if opts.DryRun {
		return nil
	}
	if !opts.Yes {
		if !opts.Interactive() {
			// A refusal is a usage matter (exit 4), not a finding (exit 1).
			return fault.WithHint(cmdutil.FlagErrorf("prune: stdin is not a terminal; refusing to delete %s without --yes", plural.Count(len(old), "log")),
				"mcpward sessions prune --older-than AGE --yes")
		}
		fmt.Fprintf(opts.IO.ErrOut, "delete %s? [y/N] ", plural.Count(len(old), "log"))
		ans, _ := bufio.NewReader(opts.IO.In).ReadString('\n')
		if a := strings.TrimSpace(strings.ToLower(ans)); a != "y" && a != "yes" {
			fmt.Fprintln(opts.IO.ErrOut, "aborted")
			return nil
		}
	}
	failed := 0
	for _, f := range old {
		// os.Remove unlinks the whole file at once: a log is never left
		// half deleted.
		if err := os.Remove(f.Path); err != nil && !errors.Is(err, os.ErrNotExist) {
			fmt.Fprintf(opts.IO.ErrOut, "remove %s: %v\n", f.Path, err)
			failed++
		}
	}
	fmt.Fprintf(opts.IO.ErrOut, "pruned %s\n", plural.Count(len(old)-failed, "log"))
	if failed > 0 {
		return &cmdutil.VerdictError{Code: result.Drift, Reason: fmt.Sprintf("prune: %s could not be removed", plural.Count(failed, "log"))}
	}
	return nil
}
