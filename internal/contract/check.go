package contract

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/snapshot"
	"github.com/mcpward/mcpward/internal/verdict"
)

// CompatFunc runs the compat engine (profiles, transport, x-mcp-header and
// degradation rules) against the live target and returns its rule
// findings, and what it observed besides them (era, assertions, verdicts;
// may be nil), which the Result carries for reports; a "violation"-class
// finding makes check exit 3 (unless the evidence is incomplete, which
// wins with 2).
type CompatFunc func(ctx context.Context, t *Target, live *snapshot.Snapshot) ([]result.RuleFinding, *result.Compat, error)

// CheckOptions are the choices of one [Check].
type CheckOptions struct {
	Version string
	Now     func() time.Time
	// RecordedAt pins the live snapshot's time (zero: now).
	RecordedAt time.Time
	Env        connect.Env

	// FailOn is the gate tier ("": the target's failOn, else risky).
	FailOn string
	// Only keeps these tiers; Ignore drops these rule ids (merged with
	// the target's ignore list).
	Only, Ignore []string
	// Migrate upgrades an older stored snapshot format before comparing.
	Migrate bool
	// Update writes the live surface as the new snapshot, only from
	// complete evidence.
	Update bool
	// StrictNet refuses a URL target on a non-public address and dials
	// only the address checked ([StrictNet]).
	StrictNet bool
	// Compat runs the compat engine on the live target (nil skips it).
	Compat CompatFunc

	// Progress shows what the observation is doing; Observed is called
	// when it ends. Either may be nil.
	Progress func(string)
	Observed func()
}

// Check is `mcpward check` on one resolved target: it reads the stored
// snapshot, refuses an incomparable probe spec before touching the server,
// observes the server live, diffs stored → live, gates, runs the compat
// rules when the evidence is complete, writes the new snapshot with
// Update, and returns the Result (not yet rendered, its exit code decided)
// and the live observation (what the server wrote to stderr, why it could
// not be observed).
func Check(ctx context.Context, rt *Resolved, opts *CheckOptions) (*result.Result, *Observation, error) {
	failOn := opts.FailOn
	if failOn == "" {
		failOn = rt.FailOn
	}
	if err := verdict.CheckRuleIDs(rt.Ignore); err != nil {
		return nil, nil, fault.Input(fmt.Errorf("the ignore list of target %q in the config: %w", rt.Target.Name, err))
	}
	// The config's failOn is checked when it is read and the flags before
	// the run: an error here is an unusable gate all the same.
	gate, err := verdict.ParseGate(failOn, opts.Only, append(slices.Clone(rt.Ignore), opts.Ignore...))
	if err != nil {
		return nil, nil, fault.Input(err)
	}
	stored, err := ReadSnapshot(rt.Path, opts.Migrate)
	if err != nil {
		switch {
		case errors.Is(err, ErrNoSnapshot):
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
		pinned, err := StrictNet(ctx, rt.Spec, nil, nil)
		if err != nil {
			return nil, nil, err
		}
		if pinned != nil {
			defer pinned.CloseIdleConnections()
		}
	}
	obs, err := Observe(ctx, rt.Target, &ObserveOptions{
		Version:  opts.Version,
		Now:      Clock(opts.Now, opts.RecordedAt),
		Env:      opts.Env,
		Progress: opts.Progress,
	})
	if opts.Observed != nil {
		opts.Observed()
	}
	if err != nil {
		return nil, nil, err
	}
	res := result.TargetOf(rt.Spec.Info())
	if obs.Snapshot == nil {
		return unreachable(opts.Version, res, stored, rt.Path, gate, obs.Problems), obs, nil
	}
	if err := snapshot.Comparable(stored, obs.Snapshot); err != nil {
		return nil, nil, fault.Input(err)
	}
	problems := append(verdict.SideProblems("stored", stored), obs.Problems...)
	r := verdict.Compare(&verdict.Comparison{
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
		if err := WriteSnapshot(rt.Path, obs.Snapshot); err != nil {
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
	return r, obs, nil
}

// unreachable is the Result of a check whose server could not be observed
// at all: no findings, incomplete evidence, exit 2.
func unreachable(version string, t *result.Target, stored *snapshot.Snapshot, path string, gate verdict.Gate, problems []string) *result.Result {
	r := &result.Result{
		SchemaVersion: result.SchemaVersion,
		Tool:          "mcpward",
		Version:       version,
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
