// Package checkcmd implements `mcpward check [target]`: observe the server
// live with the stored snapshot's probe spec, diff stored → live, gate, and
// exit with the contract's code (2 > 3 > 1 > 0). With --update it accepts
// the live surface as the new snapshot, but only from complete evidence.
package checkcmd

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/cli/fleetrun"
	"github.com/mcpward/mcpward/internal/compat"
	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/contract"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/transport"
	"github.com/mcpward/mcpward/internal/verdict"
)

// CompatFunc runs the compat engine on the live target (contract.CompatFunc).
type CompatFunc = contract.CompatFunc

// CheckOptions are the inputs of `mcpward check`.
type CheckOptions struct {
	IO      *iostreams.IOStreams
	Env     connect.Env
	Now     func() time.Time
	Version string

	// Name is the target name ("" : the config's only target).
	Name string
	// All checks every target of the config; Names (two or more) checks
	// those. Either runs the targets in parallel (Jobs at a time, each
	// bounded by TargetTimeout) into one fleet Result.
	Names []string
	Fleet fleetrun.Flags
	// SnapshotPath is set in the `check SNAPSHOT.json -- <command…>` form:
	// the stored snapshot is that file and no config is read.
	SnapshotPath string
	ConfigPath   string
	Dir          string
	Target       cmdutil.TargetFlags
	TimeoutSet   bool

	// FailOn is "" unless --fail-on was given (then the target's failOn,
	// else risky, applies).
	FailOn   string
	Only     []string
	Ignore   []string
	Reporter string
	Update   bool
	Migrate  bool
	// RecordedAt pins the live snapshot's time (zero: now).
	RecordedAt time.Time
	// StrictNet refuses a URL target on a non-public address and dials
	// only the address checked (snapgauge's --strict-net).
	StrictNet bool

	// Compat runs the compat engine on the live target; check lists its
	// findings and exits 3 on a violation. Tests replace it (nil skips it).
	Compat CompatFunc
}

// NewCmdCheck builds `mcpward check`.
func NewCmdCheck(f *cmdutil.Factory, runF func(context.Context, *CheckOptions) error) *cobra.Command {
	opts := &CheckOptions{
		IO:      f.IOStreams,
		Env:     connect.Env{Environ: f.Environ, LookupEnv: f.LookupEnv},
		Now:     f.Now,
		Version: f.Version,
	}
	opts.Compat = compat.ForCheck(opts.Env, opts.Version)
	var (
		recordedAt string
		noCompat   bool
	)
	cmd := &cobra.Command{
		Use:   "check [target… | --all | SNAPSHOT.json]",
		Short: "Probe live, diff against the stored snapshot, gate, exit code",
		Long: `Observe the server live under the stored snapshot's probe spec, diff the stored
snapshot (old) against the live surface (new), filter (--ignore drops rule ids,
--only keeps tiers), then gate on --fail-on (the target's failOn, else risky).
--fail-on any (the same as cosmetic) is mcp-surfaceprint's "any surface change
fails" gate; a target sets it with "failOn": "any".

The target comes from mcpward.json (or --config), or from flags with a NAME
(--fixture, --url, -- <command…>; the snapshot is <--dir>/<NAME>.snapshot.json),
or as 'check SNAPSHOT.json -- <command…>' against a snapshot file (also
mcp-surfaceprint's 'check BASELINE.json "uv run server.py"').

Exit codes: 0 clean, 1 drift at or above the gate, 2 evidence incomplete (never
"no change"), 3 a protocol violation, 4 usage/config/unusable snapshot.
Precedence 2 > 3 > 1 > 0.

--update writes the live surface as the new snapshot when the evidence is
complete: the drift is accepted and the command exits 0 (or 3 on a violation).

--all checks every target of the config (several NAMEs check those), --jobs at
a time, each bounded by --target-timeout: one report with a section per target
in config order, and one exit code, the worst of the targets' (5 > 4 > 2 > 3 >
1 > 0: a target whose config entry or snapshot is unusable exits 4 even when
the others pass). A target that fails or hangs does not stop the others.`,
		Example: `  mcpward check
  mcpward check weather --format github
  mcpward check --update                      # accept the new surface
  mcpward check --all --jobs 8 --format sarif > mcpward.sarif
  mcpward check baseline.snapshot.json -- node server.js`,
		RunE: func(cmd *cobra.Command, args []string) error {
			args = opts.Target.SetCommand(cmd, args)
			if len(args) > 1 && strings.HasSuffix(args[0], ".json") && len(opts.Target.Command) == 0 {
				// mcp-surfaceprint's form: check BASELINE.json "cmd …"
				// (one string, split like a shell would) or cmd words.
				opts.Target.Command, args = args[1:], args[:1]
			}
			switch {
			case len(args) == 1 && strings.HasSuffix(args[0], ".json"):
				opts.SnapshotPath = args[0]
			case len(args) == 1:
				opts.Name = args[0]
			case len(args) > 1:
				opts.Names = args
			}
			if err := opts.Fleet.Validate(cmd, args, opts.Target.Set()); err != nil {
				return err
			}
			opts.TimeoutSet = cmd.Flags().Changed("timeout")
			if noCompat {
				opts.Compat = nil
			}
			if !cmd.Flags().Changed("fail-on") {
				opts.FailOn = ""
			}
			if err := validate(opts); err != nil {
				return err
			}
			if recordedAt != "" {
				t, err := cmdutil.ParseRecordedAt(recordedAt)
				if err != nil {
					return err
				}
				opts.RecordedAt = t
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return checkRun(cmd.Context(), opts)
		},
	}
	cmdutil.AddTargetFlags(cmd, &opts.Target)
	fl := cmd.Flags()
	fl.StringVar(&opts.ConfigPath, "config", "", "config `file` (default mcpward.json)")
	fl.StringVar(&opts.Dir, "dir", "", "snapshot `dir`ectory (default: the config's snapshotDir, or .mcpward)")
	fl.StringVar(&opts.FailOn, "fail-on", "risky", "gate `tier`: breaking, risky, compatible, cosmetic, or any (= cosmetic: mcp-surfaceprint's \"any surface change fails\") (default: the target's failOn, else risky)")
	fl.StringSliceVar(&opts.Only, "only", nil, "keep only these `tiers` before gating (comma-separated)")
	fl.StringSliceVar(&opts.Ignore, "ignore", nil, "drop these rule `ids` before gating (merged with the target's ignore)")
	cmdutil.AddFormatFlags(cmd, &opts.Reporter, "check")
	fl.BoolVar(&noCompat, "no-compat", false, "skip the conformance rules (transport, x-mcp-header, degradation): drift only")
	fl.BoolVar(&opts.Update, "update", false, "accept the live surface: write it as the new snapshot (only from complete evidence)")
	fl.BoolVar(&opts.Migrate, "migrate", false, "upgrade an older stored snapshot format before comparing")
	fl.StringVar(&recordedAt, "recorded-at", "", "pin the live snapshot's time (RFC 3339)")
	fl.BoolVar(&opts.StrictNet, "strict-net", false, cmdutil.StrictNetUsage)
	fleetrun.AddFlags(cmd, &opts.Fleet)
	_ = cmd.RegisterFlagCompletionFunc("fail-on", cobra.FixedCompletions(cmdutil.GateTiers, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("only", cmdutil.CompleteList(cmdutil.Tiers...))
	_ = cmd.RegisterFlagCompletionFunc("ignore", cmdutil.CompleteLazyList(verdict.RuleIDs))
	_ = cmd.MarkFlagDirname("dir")
	return cmd
}

func validate(opts *CheckOptions) error {
	fleet := opts.Fleet.All || len(opts.Names) > 0
	if fleet && opts.Target.Timeout <= 0 {
		return cmdutil.FlagErrorf("--timeout must be positive, got %s", opts.Target.Timeout)
	}
	if _, err := verdict.ParseGate(opts.FailOn, opts.Only, opts.Ignore); err != nil {
		return cmdutil.FlagErrorWrap(err)
	}
	if fleet {
		return nil
	}
	if opts.Name != "" && !validName(opts.Name) {
		return cmdutil.FlagErrorf("target name %q is not allowed (letters, digits and . _ @ - only: it becomes a file name)", opts.Name)
	}
	if opts.SnapshotPath != "" {
		if !opts.Target.Set() {
			return cmdutil.FlagErrorf("check %s needs the server: add --fixture NAME, --url URL or -- <command…>", opts.SnapshotPath)
		}
		if opts.ConfigPath != "" || opts.Dir != "" {
			return cmdutil.FlagErrorf("--config and --dir do not apply to check SNAPSHOT.json")
		}
		return opts.Target.Validate()
	}
	if opts.Target.Set() {
		if opts.Name == "" {
			return cmdutil.FlagErrorf("name the target: mcpward check NAME --fixture/--url/-- <command…>, or check SNAPSHOT.json -- <command…>")
		}
		if opts.ConfigPath != "" {
			return cmdutil.FlagErrorf("--config and a target given by flags exclude each other")
		}
		return opts.Target.Validate()
	}
	if opts.Target.Timeout <= 0 {
		return cmdutil.FlagErrorf("--timeout must be positive, got %s", opts.Target.Timeout)
	}
	return nil
}

func validName(n string) bool {
	for _, r := range n {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._@-", r)) {
			return false
		}
	}
	return n != "" && n != "." && n != ".."
}

// resolve finds the target and its stored snapshot path.
func resolve(opts *CheckOptions) (*contract.Resolved, error) {
	if opts.SnapshotPath == "" {
		return contract.Resolve(opts.Name, opts.ConfigPath, opts.Dir, &opts.Target, opts.TimeoutSet, opts.Env.LookupEnv, opts.IO.ErrOut)
	}
	name := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(opts.SnapshotPath), ".json"), ".snapshot")
	if !validName(name) {
		name = "server"
	}
	spec, err := opts.Target.Spec(name, opts.Env.LookupEnv)
	if err != nil {
		return nil, err
	}
	t, err := contract.FromSpec(name, spec)
	if err != nil {
		return nil, err
	}
	return &contract.Resolved{Target: t, Path: opts.SnapshotPath}, nil
}

func checkRun(ctx context.Context, opts *CheckOptions) error {
	if opts.Fleet.All || len(opts.Names) > 0 {
		return fleetRun(ctx, opts)
	}
	rt, err := resolve(opts)
	if err != nil {
		return err
	}
	progress := cmdutil.NewProgress(opts.IO)
	defer progress.Stop()
	r, obs, err := contract.Check(ctx, rt, opts.check(progress.Show, progress.Stop))
	if err != nil {
		return err
	}
	if err := contract.Render(opts.IO, opts.Reporter, r); err != nil {
		return err
	}
	if r.ExitCode == result.Incomplete {
		fmt.Fprint(opts.IO.ErrOut, transport.StderrBlock(obs.Stderr, contract.StderrLines))
		done := "nothing compared as unchanged"
		if opts.Update {
			done = "snapshot not updated"
		}
		reason := "missing evidence is never 'no change': " + done
		if obs.AuthRequired() {
			return contract.AuthRequiredError(reason)
		}
		return &cmdutil.VerdictError{Code: result.Incomplete, Reason: reason, TimedOut: obs.TimedOut()}
	}
	return cmdutil.Verdict(r.ExitCode)
}

// check is the contract.Check options of these flags; show and stop drive
// the progress line while the server is observed.
func (opts *CheckOptions) check(show func(string), stop func()) *contract.CheckOptions {
	return &contract.CheckOptions{
		Version: opts.Version, Now: opts.Now, RecordedAt: opts.RecordedAt, Env: opts.Env,
		FailOn: opts.FailOn, Only: opts.Only, Ignore: opts.Ignore,
		Migrate: opts.Migrate, Update: opts.Update, StrictNet: opts.StrictNet, Compat: opts.Compat,
		Progress: show, Observed: stop,
	}
}

// fleetRun checks several config targets (--all, or the NAMEs given) in
// parallel into one fleet Result (fleetrun.Check).
func fleetRun(ctx context.Context, opts *CheckOptions) error {
	plan, err := fleetrun.NewPlan(opts.ConfigPath, opts.Dir, &opts.Fleet, opts.Names, opts.Target.Timeout, opts.TimeoutSet, opts.Env.LookupEnv, opts.IO.ErrOut)
	if err != nil {
		return err
	}
	done := "nothing compared as unchanged"
	if opts.Update {
		done = "their snapshots not updated"
	}
	return fleetrun.Check(ctx, opts.IO, &opts.Fleet, plan, opts.Version, opts.Reporter, done, opts.check(nil, nil))
}
