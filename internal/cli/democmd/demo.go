// Package democmd implements `mcpward demo`: the offline tour. It records two
// embedded fixture servers (clean@v1 as the baseline, drift-breaking@v2 as
// "the next release") into a throw-away directory, diffs them, prints the
// findings and the gate verdict, and explains what the exit code means.
package democmd

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/config"
	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/contract"
	"github.com/mcpward/mcpward/internal/diff"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/snapshot"
	"github.com/mcpward/mcpward/internal/verdict"
)

// DemoOptions are the inputs of `mcpward demo`.
type DemoOptions struct {
	IO      *iostreams.IOStreams
	Version string
	// TempDir makes the throw-away directory (os.MkdirTemp by default).
	TempDir func() (string, error)

	// Base and Next are the fixtures recorded as old and new.
	Base string
	Next string
	// Strict exits with the gate's code instead of 0.
	Strict bool
	// UI plays a scripted session into the live view instead (demo --ui).
	UI bool
}

// RecordedAt is the time both demo snapshots are stamped with, so that the
// demo is the same bytes every run (snapgauge's /demo pins the same).
var RecordedAt = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// NewCmdDemo builds `mcpward demo`.
func NewCmdDemo(f *cmdutil.Factory, runF func(context.Context, *DemoOptions) error) *cobra.Command {
	opts := &DemoOptions{
		IO:      f.IOStreams,
		Version: f.Version,
		TempDir: func() (string, error) { return os.MkdirTemp("", "mcpward-demo-") },
		Base:    "clean@v1",
		Next:    "drift-breaking@v2",
	}
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Offline tour: record two embedded servers, diff them, gate",
		Long: `Record the embedded fixture server clean@v1 as a baseline and drift-breaking@v2
as its "next release" (one tool removed, a new required argument, a rewritten
description…) into a temporary directory, diff them, and print the findings and
the gate verdict. Nothing leaves the machine; the directory is removed afterwards.

The demo exits 0: it is a tour. With --strict it exits with the gate's code,
as 'mcpward diff' would.`,
		Example: `  mcpward demo
  mcpward demo --next drift-steering@v2
  mcpward fixture list        # the other planted drifts`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if opts.Base == "" || opts.Next == "" {
				return cmdutil.FlagErrorf("--base and --next must name fixtures")
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return demoRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.Base, "base", opts.Base, "fixture recorded as the baseline")
	cmd.Flags().StringVar(&opts.Next, "next", opts.Next, "fixture recorded as the next release")
	cmd.Flags().BoolVar(&opts.Strict, "strict", false, "exit with the gate's code (1 on drift) instead of 0")
	cmd.Flags().BoolVar(&opts.UI, "ui", false, "play a scripted session into the live view (mcpward ui) instead")
	_ = cmd.RegisterFlagCompletionFunc("base", cmdutil.FixtureNames)
	_ = cmd.RegisterFlagCompletionFunc("next", cmdutil.FixtureNames)
	return cmd
}

func demoRun(ctx context.Context, opts *DemoOptions) (err error) {
	dir, err := opts.TempDir()
	if err != nil {
		return fmt.Errorf("make demo directory: %w", err)
	}
	defer func() {
		if rerr := os.RemoveAll(dir); rerr != nil && err == nil {
			err = fmt.Errorf("remove demo directory: %w", rerr)
		}
	}()
	if opts.UI {
		return demoUI(ctx, opts, dir)
	}
	base, err := fixtureTarget("demo", opts.Base)
	if err != nil {
		return err
	}
	next, err := fixtureTarget("demo-v2", opts.Next)
	if err != nil {
		return err
	}
	// Both sides are probed under the baseline's probe spec, so that they
	// are always comparable (snapgauge's demo does the same).
	next.Probes = base.Probes

	oldPath := contract.SnapshotPath(dir, "demo")
	newPath := contract.SnapshotPath(dir, "demo-v2")
	old, err := recordOne(ctx, opts, base, oldPath)
	if err != nil {
		return err
	}
	cur, err := recordOne(ctx, opts, next, newPath)
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "diffing demo -> demo-v2 …\n")
	if err := snapshot.Comparable(old, cur); err != nil {
		return err
	}
	gate := verdict.Gate{FailOn: diff.Risky}
	r := verdict.Compare(&verdict.Comparison{
		Command:     "diff",
		Version:     opts.Version,
		Old:         old,
		New:         cur,
		OldPath:     filepath.Base(oldPath),
		NewPath:     filepath.Base(newPath),
		FindingFile: filepath.Base(newPath),
		Gate:        gate,
	})
	fmt.Fprintf(opts.IO.Out, "%s -> %s (embedded fixtures, offline)\n", opts.Base, opts.Next)
	if err := contract.Render(opts.IO, "text", r); err != nil {
		return err
	}
	fmt.Fprintln(opts.IO.Out)
	switch r.ExitCode {
	case result.Drift:
		fmt.Fprintf(opts.IO.Out, "exit 1 means drift at or above the gate (fail-on=%s): a client holding the old contract may break.\n", gate.FailOn)
		fmt.Fprintln(opts.IO.Out, "in a repository of your own (mcpward init, then mcpward record), an intended change is accepted with 'mcpward check --update'; the demo keeps no snapshot to update.")
	case result.Clean:
		fmt.Fprintf(opts.IO.Out, "exit 0 means nothing at or above the gate (fail-on=%s): CI passes.\n", gate.FailOn)
		fmt.Fprintln(opts.IO.Out, "lower the gate with --fail-on cosmetic to fail on any change.")
	}
	if opts.Strict {
		return cmdutil.Verdict(r.ExitCode)
	}
	return nil
}

func fixtureTarget(name, fx string) (*contract.Target, error) {
	return contract.FromEntry(name, &config.Target{Fixture: fx}, &connect.Source{})
}

func recordOne(ctx context.Context, opts *DemoOptions, t *contract.Target, path string) (*snapshot.Snapshot, error) {
	fmt.Fprintf(opts.IO.ErrOut, "recording %s …\n", t.Spec.Fixture)
	obs, err := contract.Observe(ctx, t, &contract.ObserveOptions{
		Version: opts.Version,
		Now:     func() time.Time { return RecordedAt },
	})
	if err != nil {
		return nil, err
	}
	if !obs.Complete() {
		for _, p := range obs.Problems {
			fmt.Fprintf(opts.IO.ErrOut, "incomplete: %s\n", p)
		}
		return nil, &cmdutil.VerdictError{Code: result.Incomplete, Reason: fmt.Sprintf("demo: %s could not be fully observed; missing evidence is never 'no change'", t.Spec.Fixture)}
	}
	if err := contract.WriteSnapshot(path, obs.Snapshot); err != nil {
		return nil, err
	}
	return obs.Snapshot, nil
}
