// Package diffcmd implements `mcpward diff OLD NEW`: an offline diff of two
// snapshot files through the tiered, direction-aware taxonomy, gated like
// check, rendered in any report format. It never touches the network.
package diffcmd

import (
	"context"
	"errors"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/contract"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/snapshot"
	"github.com/mcpward/mcpward/internal/verdict"
)

// DiffOptions are the inputs of `mcpward diff`.
type DiffOptions struct {
	IO      *iostreams.IOStreams
	Version string

	OldPath string
	NewPath string
	FailOn  string
	Only    []string
	Ignore  []string
	Format  string
	Migrate bool
}

// NewCmdDiff builds `mcpward diff`.
func NewCmdDiff(f *cmdutil.Factory, runF func(context.Context, *DiffOptions) error) *cobra.Command {
	opts := &DiffOptions{IO: f.IOStreams, Version: f.Version}
	cmd := &cobra.Command{
		Use:   "diff OLD.snapshot.json NEW.snapshot.json",
		Short: "Diff two snapshot files offline, tiered and direction-aware",
		Long: `Compare two snapshots of the same server (old → new) and classify every
difference as breaking, risky, compatible or cosmetic, from the point of view of
a client that holds the old contract. No network is used.

The two snapshots must have been recorded under the same probe spec
(probeSpecHash), else the command exits 4: re-record one side.

Exit codes: 0 nothing at or above the gate, 1 drift at or above the gate,
2 a snapshot is not complete evidence, 4 unreadable or incomparable input.`,
		Example: `  mcpward diff .mcpward/demo.snapshot.json /tmp/demo-v2.snapshot.json
  mcpward diff old.json new.json --fail-on cosmetic      # any change fails
  mcpward diff old.json new.json --only breaking --format sarif > drift.sarif`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.OldPath, opts.NewPath = args[0], args[1]
			if _, err := verdict.ParseGate(opts.FailOn, opts.Only, opts.Ignore); err != nil {
				return cmdutil.FlagErrorWrap(err)
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return diffRun(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.FailOn, "fail-on", "risky", "gate `tier`: breaking, risky, compatible or cosmetic (cosmetic: any change fails)")
	fl.StringSliceVar(&opts.Only, "only", nil, "keep only these `tiers` before gating (comma-separated)")
	fl.StringSliceVar(&opts.Ignore, "ignore", nil, "drop these rule `ids` before gating (comma-separated)")
	cmdutil.AddFormatFlags(cmd, &opts.Format, "diff")
	fl.BoolVar(&opts.Migrate, "migrate", false, "upgrade an older snapshot format before comparing")
	_ = cmd.RegisterFlagCompletionFunc("fail-on", cobra.FixedCompletions(cmdutil.GateTiers, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("only", cmdutil.CompleteList(cmdutil.Tiers...))
	_ = cmd.RegisterFlagCompletionFunc("ignore", cmdutil.CompleteLazyList(verdict.RuleIDs))
	return cmd
}

func diffRun(ctx context.Context, opts *DiffOptions) error {
	gate, err := verdict.ParseGate(opts.FailOn, opts.Only, opts.Ignore)
	if err != nil {
		return cmdutil.FlagErrorWrap(err)
	}
	old, err := contract.ReadSnapshotLazyContext(ctx, opts.OldPath, opts.Migrate)
	if err != nil {
		return withMigrateHint(err)
	}
	cur, err := contract.ReadSnapshotLazyContext(ctx, opts.NewPath, opts.Migrate)
	if err != nil {
		return withMigrateHint(err)
	}
	if err := snapshot.Comparable(old, cur); err != nil {
		return fault.WithHint(fault.Input(err), "record both sides with the same probes and profiles, then diff again")
	}
	problems := append(verdict.SideProblems("old", old), verdict.SideProblems("new", cur)...)
	r := verdict.Compare(&verdict.Comparison{
		Command:     "diff",
		Version:     opts.Version,
		Old:         old,
		New:         cur,
		OldPath:     opts.OldPath,
		NewPath:     opts.NewPath,
		FindingFile: opts.NewPath,
		Gate:        gate,
		Problems:    problems,
	})
	if err := contract.Render(opts.IO, opts.Format, r); err != nil {
		return err
	}
	return cmdutil.Verdict(r.ExitCode)
}

func withMigrateHint(err error) error {
	if errors.Is(err, snapshot.ErrNeedsMigration) {
		return fault.WithHint(err, "re-run with --migrate to upgrade the older snapshot format")
	}
	if errors.Is(err, snapshot.ErrNewerFormat) {
		return fault.WithHint(err, "upgrade mcpward to read this snapshot")
	}
	return err
}
