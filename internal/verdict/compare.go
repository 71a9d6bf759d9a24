package verdict

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcpward/mcpward/internal/diff"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/rules"
	"github.com/mcpward/mcpward/internal/snapshot"
	"github.com/mcpward/mcpward/internal/suggest"
)

// A Gate is how findings are filtered and judged: --ignore drops rule ids,
// --only keeps tiers, then the gate fails when any kept finding is at or
// above FailOn.
type Gate struct {
	FailOn diff.Tier
	Only   []diff.Tier
	Ignore []string
}

// ParseGate reads the gate flags. failOn "" means risky; only and ignore
// are comma-separated lists (repeatable flags are joined by the caller).
func ParseGate(failOn string, only, ignore []string) (Gate, error) {
	t, err := ParseFailOn(failOn)
	g := Gate{FailOn: t}
	if err != nil {
		return g, err
	}
	for _, s := range splitList(only) {
		t, err := diff.ParseTier(s)
		if err != nil {
			return g, fmt.Errorf("--only: %w", err)
		}
		if !slices.Contains(g.Only, t) {
			g.Only = append(g.Only, t)
		}
	}
	g.Ignore = splitList(ignore)
	if err := CheckRuleIDs(g.Ignore); err != nil {
		return g, fmt.Errorf("--ignore: %w", err)
	}
	return g, nil
}

// ParseFailOn reads --fail-on alone ("" means risky), for a caller that
// offers no --only or --ignore: checking rule ids links the whole rule
// catalogue's suggestions, which the browser's engine need not carry.
func ParseFailOn(failOn string) (diff.Tier, error) {
	if failOn == "" {
		return diff.Risky, nil
	}
	t, err := diff.ParseGateTier(failOn)
	if err != nil {
		return diff.Risky, fmt.Errorf("--fail-on: %w", err)
	}
	return t, nil
}

// CheckRuleIDs reports the first of ids that is neither a diff rule nor a
// protocol rule, with the nearest ids. An ignore list with a typo would
// ignore nothing and let a gate pass for the wrong reason.
func CheckRuleIDs(ids []string) error {
	for _, id := range ids {
		if _, ok := diff.LookupRule(id); ok {
			continue
		}
		if _, ok := rules.Lookup(id); ok {
			continue
		}
		if near := suggest.Closest(id, RuleIDs(), 3, 3); len(near) > 0 {
			return fmt.Errorf("%q is no rule id (did you mean %s?)", id, strings.Join(near, ", "))
		}
		return fmt.Errorf("%q is no rule id: ids are the ruleId of a finding, or a protocol rule of 'mcpward rules'", id)
	}
	return nil
}

// RuleIDs are the rule ids a user can name (--ignore, --fail-on, 'mcpward
// rules ID', completion): the diff rules and the protocol rules with their
// aliases, sorted.
func RuleIDs() []string {
	var ids []string
	for _, r := range diff.Rules() {
		ids = append(ids, r.ID)
	}
	for _, r := range rules.All() {
		ids = append(ids, r.ID)
		ids = append(ids, r.Aliases...)
	}
	slices.Sort(ids)
	return slices.Compact(ids)
}

// splitList splits comma-separated values, trimming blanks and dropping
// duplicates while keeping order.
func splitList(vals []string) []string {
	var out []string
	for _, v := range vals {
		for _, s := range strings.Split(v, ",") {
			if s = strings.TrimSpace(s); s != "" && !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	return out
}

// A Comparison is two snapshots to diff and where they came from.
type Comparison struct {
	Command string // "diff" or "check"
	Version string // mcpward's version
	Target  *result.Target
	Old     *snapshot.Snapshot
	New     *snapshot.Snapshot
	// OldPath and NewPath name the files ("" for a live observation).
	OldPath, NewPath string
	// FindingFile is the file findings point at (SARIF, annotations).
	FindingFile string
	Gate        Gate
	// Problems are why the evidence is incomplete (empty: complete).
	Problems []string
}

// Compare diffs Old → New, applies the gate and returns the Result with
// the drift verdict, from result.Decide: Incomplete when evidence is
// incomplete (missing evidence is never "no change"), else Drift when the
// gate failed, else Clean. A caller that judges more (check's rule
// findings, --update) decides the code again from the whole outcome.
func Compare(c *Comparison) *result.Result {
	rep := diff.DiffReport(c.Old, c.New)
	all := rep.Findings
	kept, failed := diff.Gate(all, c.Gate.FailOn, c.Gate.Only, c.Gate.Ignore)
	r := &result.Result{
		SchemaVersion: result.SchemaVersion,
		Tool:          "mcpward",
		Version:       c.Version,
		Command:       c.Command,
		Target:        c.Target,
		Old:           ref(c.Old, c.OldPath),
		New:           ref(c.New, c.NewPath),
		Findings:      make([]result.Finding, 0, len(kept)),
		Ignored:       len(all) - len(kept),
		Gate: result.Gate{
			FailOn: c.Gate.FailOn.String(),
			Ignore: c.Gate.Ignore,
			Failed: failed,
		},
		Evidence: result.Evidence{
			Complete: len(c.Problems) == 0,
			Status:   c.New.Observation.Status,
			Problems: c.Problems,
		},
	}
	for _, t := range c.Gate.Only {
		r.Gate.Only = append(r.Gate.Only, t.String())
	}
	// What a converted snapshot never captured is not compared: one note,
	// never a finding.
	if what, why, ok := rep.Note(); ok {
		r.NotEvaluated = append(r.NotEvaluated, result.NotEvaluated{What: what, Why: why})
	}
	for _, f := range kept {
		rf := result.Finding{Finding: f}
		if f.Subject != "" {
			rf.Location = &result.Location{File: c.FindingFile, JSONPath: f.Subject}
		}
		r.Findings = append(r.Findings, rf)
	}
	r.Summary = result.Summary{Summary: diff.Summarize(kept)}
	r.ExitCode = result.Decide(result.Outcome{Incomplete: !r.Evidence.Complete, Drift: failed})
	return r
}

func ref(s *snapshot.Snapshot, path string) *result.SnapshotRef {
	r := &result.SnapshotRef{
		Path:          path,
		RecordedAt:    s.Observation.RecordedAt,
		SurfaceDigest: s.SurfaceDigest,
		Status:        s.Observation.Status,
	}
	if d := s.Surface.Discover; d != nil {
		name, version := snapshot.Str(d.ServerInfo, "name"), snapshot.Str(d.ServerInfo, "version")
		switch {
		case name != "" && version != "":
			r.Server = name + "@" + version
		default:
			r.Server = name + version
		}
	}
	return r
}

// SideProblems says why a stored snapshot cannot stand as complete
// evidence (it was written by inspect --json from a partial observation,
// or edited), prefixed with which side it is.
func SideProblems(side string, s *snapshot.Snapshot) []string {
	var out []string
	for _, p := range Problems(s, nil) {
		out = append(out, side+": "+p)
	}
	return out
}

// Problems says why a snapshot is not complete evidence, one line each:
// every section that was not read to its end, and every probe that got no
// answer (ev may be nil, then only the first failed probe is known).
func Problems(s *snapshot.Snapshot, ev *snapshot.Evidence) []string {
	var out []string
	cov := s.Observation.Coverage
	for _, sec := range []struct {
		name string
		cov  snapshot.SectionCoverage
	}{
		{"discover", cov.Discover},
		{"tools/list", cov.Tools},
		{"resources/list", cov.Resources},
		{"resources/templates/list", cov.ResourceTemplates},
		{"prompts/list", cov.Prompts},
		{"manifest", cov.Manifest},
	} {
		if sec.cov.Error != nil && !sec.cov.Completed {
			out = append(out, sec.name+": "+strings.TrimPrefix(sec.cov.Error.Message, sec.name+": "))
		} else if sec.cov.Attempted && !sec.cov.Completed {
			out = append(out, sec.name+": not read to its end")
		}
	}
	probeFailures := 0
	if ev != nil {
		for _, p := range ev.Probes {
			if p.Failure != nil {
				probeFailures++
				out = append(out, fmt.Sprintf("probe %s (tools/call %s): %s", p.ID, p.Tool, strings.TrimPrefix(p.Failure.Message, "tools/call: ")))
			}
		}
	}
	if probeFailures == 0 && cov.Probes.Error != nil {
		out = append(out, cov.Probes.Error.Message)
	}
	if len(out) == 0 && s.Observation.Status != snapshot.StatusOK {
		out = append(out, "observation status is "+s.Observation.Status)
	}
	if len(out) == 0 && s.SurfaceDigest == "" {
		out = append(out, "the surface digest could not be computed")
	}
	return out
}
