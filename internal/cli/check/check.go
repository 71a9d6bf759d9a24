// Package check implements `mcpward check [target]`: observe the server
// live with the stored snapshot's probe spec, diff stored → live, gate, and
// exit with the contract's code (2 > 3 > 1 > 0). With --update it accepts
// the live surface as the new snapshot, but only from complete evidence.
package check

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/cli/fleetrun"
	"github.com/mcpward/mcpward/internal/contract"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/snapshot"
	"github.com/mcpward/mcpward/internal/target"
	"github.com/mcpward/mcpward/internal/transport"
	"github.com/mcpward/mcpward/internal/verdict"
)

// CompatFunc runs the compat engine (profiles, transport, x-mcp-header and
// degradation rules) against the live target and returns its rule
// findings, and what it observed besides them (era, assertions, verdicts;
// may be nil), which the Result carries for reports; a "violation"-class
// finding makes check exit 3 (unless the evidence is incomplete, which
// wins with 2).
type CompatFunc func(ctx context.Context, t *contract.Target, live *snapshot.Snapshot) ([]result.RuleFinding, *result.Compat, error)

// CheckOptions are the inputs of `mcpward check`.
type CheckOptions struct {
	IO      *iostreams.IOStreams
	Env     target.Env
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
		Env:     target.Env{Environ: f.Environ, LookupEnv: f.LookupEnv},
		Now:     f.Now,
		Version: f.Version,
	}
	opts.Compat = runCompat(opts.Env, opts.Version)
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
	if opts.Fleet.All || len(opts.Names) > 0 {
		if opts.Target.Timeout <= 0 {
			return cmdutil.FlagErrorf("--timeout must be positive, got %s", opts.Target.Timeout)
		}
		_, err := verdict.ParseGate(opts.FailOn, opts.Only, opts.Ignore)
		if err != nil {
			return cmdutil.FlagErrorWrap(err)
		}
		return nil
	}
	if _, err := verdict.ParseGate(opts.FailOn, opts.Only, opts.Ignore); err != nil {
		return cmdutil.FlagErrorWrap(err)
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
	r, obs, err := checkTarget(ctx, opts, rt, progress.Show, progress.Stop)
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

// checkTarget checks one resolved target and returns its Result (not yet
// rendered) and the live observation (what the server wrote to stderr,
// why it could not be observed). show and stop drive the progress line
// while the server is observed.
func checkTarget(ctx context.Context, opts *CheckOptions, rt *contract.Resolved, show func(string), stop func()) (*result.Result, *contract.Observation, error) {
	failOn := opts.FailOn
	if failOn == "" {
		failOn = rt.FailOn
	}
	if err := verdict.CheckRuleIDs(rt.Ignore); err != nil {
		return nil, nil, fault.Input(fmt.Errorf("the ignore list of target %q in the config: %w", rt.Target.Name, err))
	}
	gate, err := verdict.ParseGate(failOn, opts.Only, append(slices.Clone(rt.Ignore), opts.Ignore...))
	if err != nil {
		return nil, nil, cmdutil.FlagErrorWrap(err)
	}
	stored, err := contract.ReadSnapshot(rt.Path, opts.Migrate)
	if err != nil {
		switch {
		case errors.Is(err, contract.ErrNoSnapshot):
			return nil, nil, fault.WithHint(fault.Input(fmt.Errorf("no stored snapshot for %s at %s", rt.Name, rt.Path)),
				fmt.Sprintf("run 'mcpward record %s' first", rt.Name))
		case errors.Is(err, snapshot.ErrNeedsMigration):
			return nil, nil, fault.WithHint(err, "re-run with --migrate to upgrade the stored snapshot")
		}
		return nil, nil, err
	}
	// The probe spec is known before probing: refuse an incomparable pair
	// without touching the server.
	if want, err := rt.ProbeSpec().Hash(); err != nil {
		return nil, nil, fault.Input(err)
	} else if want != stored.ProbeSpecHash {
		return nil, nil, fault.WithHint(fault.Input(fmt.Errorf("probe spec of %s differs from the stored snapshot %s (%.12s… vs %.12s…)", rt.Name, rt.Path, want, stored.ProbeSpecHash)),
			fmt.Sprintf("the probes or profiles changed: re-record with 'mcpward record %s'", rt.Name))
	}

	if opts.StrictNet {
		// The live observation and compat's session both dial the
		// address checked; a refused target is never contacted.
		pinned, err := contract.StrictNet(ctx, rt.Spec, nil, nil)
		if err != nil {
			return nil, nil, err
		}
		if pinned != nil {
			defer pinned.CloseIdleConnections()
		}
	}
	obs, err := contract.Observe(ctx, rt.Target, &contract.ObserveOptions{
		Version:  opts.Version,
		Now:      contract.Clock(opts.Now, opts.RecordedAt),
		Env:      opts.Env,
		Progress: show,
	})
	stop()
	if err != nil {
		return nil, nil, err
	}
	res := &result.Target{Name: rt.Name, Transport: rt.Spec.Info().Transport, Endpoint: contract.Describe(rt.Spec)}
	var r *result.Result
	if obs.Snapshot == nil {
		r = unreachable(opts, res, stored, rt.Path, gate, obs.Problems)
	} else {
		if err := snapshot.Comparable(stored, obs.Snapshot); err != nil {
			return nil, nil, fault.Input(err)
		}
		problems := append(verdict.SideProblems("stored", stored), obs.Problems...)
		r = verdict.Compare(&verdict.Comparison{
			Command:     "check",
			Version:     opts.Version,
			Target:      res,
			Old:         stored,
			New:         obs.Snapshot,
			OldPath:     rt.Path,
			FindingFile: rt.Path,
			Gate:        gate,
			Problems:    problems,
		})
		if opts.Compat != nil && r.Evidence.Complete {
			vs, observed, err := opts.Compat(ctx, rt.Target, obs.Snapshot)
			if err != nil {
				return nil, nil, err
			}
			r.Compat = observed
			// What the observation itself already proves (a probe that
			// asked for a capability the call did not declare) is judged
			// too, not only what compat's profiles provoke.
			vs = append(slices.Clone(obs.Findings), vs...)
			var ignored int
			r.Violations, ignored = gateRuleFindings(vs, gate.Ignore)
			r.Ignored += ignored
			for _, v := range r.Violations {
				if v.Class == "violation" {
					r.Summary.Violations++
				} else if v.Class == "risky" {
					r.Summary.RiskyRules++
				}
			}
		}
		if opts.Update && r.Evidence.Complete {
			if err := contract.WriteSnapshot(rt.Path, obs.Snapshot); err != nil {
				return nil, nil, fault.Input(err)
			}
			r.Updated = true
			r.New.Path = rt.Path
		}
		// One verdict over everything the run judged: the drift that
		// --update accepted no longer counts; a violation still stands.
		r.ExitCode = result.Decide(result.Outcome{
			Incomplete: !r.Evidence.Complete,
			Violation:  r.Summary.Violations > 0,
			Drift:      r.Gate.Failed && !r.Updated,
		})
	}
	return r, obs, nil
}

// unreachable is the Result of a check whose server could not be observed
// at all: no findings, incomplete evidence, exit 2.
func unreachable(opts *CheckOptions, t *result.Target, stored *snapshot.Snapshot, path string, gate verdict.Gate, problems []string) *result.Result {
	r := &result.Result{
		SchemaVersion: result.SchemaVersion,
		Tool:          "mcpward",
		Version:       opts.Version,
		Command:       "check",
		Target:        t,
		Old:           &result.SnapshotRef{Path: path, RecordedAt: stored.Observation.RecordedAt, SurfaceDigest: stored.SurfaceDigest, Status: stored.Observation.Status},
		Findings:      []result.Finding{},
		Gate:          result.Gate{FailOn: gate.FailOn.String(), Ignore: gate.Ignore},
		Evidence:      result.Evidence{Complete: false, Problems: problems},
		ExitCode:      result.Decide(result.Outcome{Incomplete: true}),
	}
	for _, o := range gate.Only {
		r.Gate.Only = append(r.Gate.Only, o.String())
	}
	return r
}

// gateRuleFindings keeps the compat findings check reports: violations and
// risky findings whose rule id is not ignored (--ignore and the target's
// ignore list apply to rule ids of both engines). Info-class observations
// (the era, profiles the server does not serve) belong to 'mcpward compat'.
func gateRuleFindings(vs []result.RuleFinding, ignore []string) (kept []result.RuleFinding, ignored int) {
	for _, v := range vs {
		switch {
		case slices.Contains(ignore, v.RuleID):
			ignored++
		case v.Class != "info":
			kept = append(kept, v)
		}
	}
	return kept, ignored
}
