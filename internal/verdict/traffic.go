package verdict

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcpward/mcpward/internal/calls"
	"github.com/mcpward/mcpward/internal/diff"
	"github.com/mcpward/mcpward/internal/plural"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/rules"
	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/traffic"
)

// DefaultTrafficFailOn is the traffic gate without --fail-on, mcpsnoop's
// default, applied as if given: every finding feeding these signals fails
// a check, so a session with failed calls (error responses, isError
// results, HTTP statuses of 400 and above: the error signal) fails with
// exit 1, as mcpsnoop's check did. An error response stays an info
// finding (no MUST is broken), so it never exits 3.
const DefaultTrafficFailOn = "error,invalid,warn"

// MaxResults is how many traffic findings a report keeps by default
// (--max-results); the rest are counted.
const MaxResults = 1000

// A TrafficGate selects the traffic findings that fail a check.
type TrafficGate struct {
	signals map[traffic.Signal]bool
	ids     map[string]bool
	levels  map[string]bool
	classes map[string]bool
}

// ParseTrafficGate reads --fail-on: any mix of signals, rule ids (the
// protocol rules' and the diff rules'), levels (must, should, may) and
// classes (violation, risky, info), comma-separated; "none" selects
// nothing. The default, [DefaultTrafficFailOn], is read like any other
// spec: what a report prints as its gate is what the gate did.
func ParseTrafficGate(spec string) (TrafficGate, error) {
	g := TrafficGate{signals: map[traffic.Signal]bool{}, ids: map[string]bool{}, levels: map[string]bool{}, classes: map[string]bool{}}
	for _, w := range strings.Split(spec, ",") {
		w = strings.TrimSpace(w)
		switch {
		case w == "":
			return g, fmt.Errorf("--fail-on %q: empty entry", spec)
		case w == "none":
		case slices.Contains(traffic.Signals(), traffic.Signal(w)):
			g.signals[traffic.Signal(w)] = true
		case strings.EqualFold(w, rules.MUST) || strings.EqualFold(w, rules.SHOULD) || strings.EqualFold(w, rules.MAY):
			g.levels[strings.ToUpper(w)] = true
		case w == rules.Violation || w == rules.Risky || w == rules.Info:
			g.classes[w] = true
		default:
			if r, ok := rules.Lookup(w); ok {
				g.ids[r.ID] = true
			} else if _, ok := diff.LookupRule(w); ok {
				g.ids[w] = true
			} else {
				return g, fmt.Errorf("--fail-on %q: %q is not a signal (%s), a level (must, should, may), a class (violation, risky, info) or a rule id", spec, w, SignalNames())
			}
		}
	}
	return g, nil
}

// SignalNames lists the traffic signals, comma-separated.
func SignalNames() string {
	var s []string
	for _, x := range traffic.Signals() {
		s = append(s, string(x))
	}
	return strings.Join(s, ", ")
}

// Selects reports whether the gate selects a finding that fed signal sig.
func (g TrafficGate) Selects(rf result.RuleFinding, sig traffic.Signal) bool {
	return g.signals[sig] || g.ids[rf.RuleID] || g.levels[rf.Level] || g.classes[rf.Class]
}

// SelectsDrift reports whether the gate selects tool drift: the drift
// signal, or ruleID (a baseline comparison's finding; "" for a baseline
// that could not be read) by name.
func (g TrafficGate) SelectsDrift(ruleID string) bool {
	return g.signals[traffic.SignalDrift] || (ruleID != "" && g.ids[ruleID])
}

// A Collector keeps at most max findings, violations first, then risky,
// then info, and counts the rest; of the selected findings it keeps only
// what decides the exit code (one per class and level), so memory stays
// bounded however long the log.
type Collector struct {
	max      int
	buckets  [3][]result.RuleFinding
	total    int
	selected []result.RuleFinding
	drift    bool
}

// NewCollector keeps at most max findings.
func NewCollector(max int) *Collector { return &Collector{max: max} }

// Add records a finding; selected says the gate selected it (it fails
// the check).
func (c *Collector) Add(rf result.RuleFinding, selected bool) {
	c.total++
	rf.Gated = selected
	if selected && !slices.ContainsFunc(c.selected, func(s result.RuleFinding) bool { return s.Class == rf.Class && s.Level == rf.Level }) {
		c.selected = append(c.selected, result.RuleFinding{Class: rf.Class, Level: rf.Level})
	}
	b := rules.ClassRank(rf.Class)
	if len(c.buckets[b]) < c.max {
		c.buckets[b] = append(c.buckets[b], rf)
	}
}

// SelectDrift records selected tool drift (a finding of a baseline
// comparison, or a baseline that could not be read): it fails the check
// as drift.
func (c *Collector) SelectDrift() { c.drift = true }

// Findings returns the kept findings, worst first, capped, with a notice
// when some were left out.
func (c *Collector) Findings() []result.RuleFinding {
	var out []result.RuleFinding
	for _, b := range c.buckets {
		out = append(out, b...)
	}
	if len(out) > c.max {
		out = out[:c.max]
	}
	if c.total > len(out) {
		out = append(out, result.RuleFinding{RuleID: "mcpward.report_truncated", Level: rules.MAY, Class: rules.Info,
			Subject: "report", Message: fmt.Sprintf("%d of %d findings shown (--max-results %d); the exit code counts them all", len(out), c.total, c.max)})
	}
	if out == nil {
		out = []result.RuleFinding{}
	}
	return out
}

// NewTrafficResult is the Result a traffic check fills: no findings yet,
// complete evidence until a log says otherwise.
func NewTrafficResult(version string) *result.Result {
	return &result.Result{SchemaVersion: result.SchemaVersion, Tool: "mcpward", Version: version,
		Command: "sessions-check", Findings: []result.Finding{}, Evidence: result.Evidence{Complete: true}}
}

// LogProblems records in res what reading the log called name found
// wrong: each torn or corrupt line makes the evidence incomplete, and
// lines skipped beyond those are counted.
func LogProblems(res *result.Result, name string, problems []session.LineError, skipped int) {
	for _, p := range problems {
		res.Evidence.Complete = false
		res.Evidence.Problems = append(res.Evidence.Problems, fmt.Sprintf("%s: %v", name, &p))
	}
	if skipped > len(problems) {
		res.Evidence.Problems = append(res.Evidence.Problems, fmt.Sprintf("%s: %d more %s skipped", name, skipped-len(problems), plural.Of(skipped-len(problems), "line", "lines")))
	}
}

// MissingFrames records in res a session of the log called name whose
// frames are not all in it (seq gaps, lost records): the evidence is
// incomplete.
func MissingFrames(res *result.Result, name string, ss *calls.Session) {
	if n := ss.MissingFrames(); n > 0 {
		res.Evidence.Complete = false
		res.Evidence.Problems = append(res.Evidence.Problems,
			fmt.Sprintf("%s: session %s: %s missing from the log (seq gaps %d; lost records declare %d)", name, ss.ID, plural.Count(n, "frame"), ss.Missing, ss.Lost))
	}
}

// Finish completes res with the collected findings and the verdict, from
// result.Decide: Incomplete when the evidence is (it outranks every
// finding: what the log lacks may hold anything), Violation for a
// selected MUST-level violation, Drift for any other selected finding or
// selected tool drift, else Clean. failOn is the gate as given.
func (c *Collector) Finish(res *result.Result, failOn string) {
	res.Violations = c.Findings()
	o := result.Outcome{Incomplete: !res.Evidence.Complete, Drift: c.drift}
	for _, v := range c.selected {
		if v.Class == rules.Violation && v.Level == rules.MUST {
			o.Violation = true
		} else {
			o.Drift = true
		}
	}
	res.ExitCode = result.Decide(o)
	res.Gate = result.Gate{FailOn: failOn, Failed: res.ExitCode != result.Clean}
	res.Summary.Violations = len(res.Violations)
	res.Summary.Summary = result.Summarize(res.Findings)
}
