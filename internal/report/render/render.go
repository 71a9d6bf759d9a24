package render

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpward/mcpward/internal/diff"
	"github.com/mcpward/mcpward/internal/plural"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/rules"
	"github.com/mcpward/mcpward/internal/termsafe"
)

// A Verdict is the outcome a Result records: its exit code and the word
// reports print for it.
type Verdict struct {
	Code  int
	Label string
}

// String returns "DRIFT (exit 1)".
func (v Verdict) String() string { return fmt.Sprintf("%s (exit %d)", v.Label, v.Code) }

// VerdictOf returns the verdict of r. The exit code inside the Result is the
// truth (it is what the producing command exited with); the label names
// what decided it, worst first: "2 MUST violations", "DRIFT" (only when a
// surface finding passed the gate), "1 risky finding" — so a run that
// failed on rule findings alone never says DRIFT. A Result that does not
// say which findings gated (an older sessions check) gets a plain word.
func VerdictOf(r *result.Result) Verdict {
	switch r.ExitCode {
	case result.Clean:
		if r.Updated && len(r.Findings) > 0 {
			// check --update took the drift in: "PASS" under breaking
			// findings read as if they did not matter.
			return Verdict{result.Clean, "ACCEPTED"}
		}
		return Verdict{result.Clean, "PASS"}
	case result.Drift, result.Violation:
		if l := gateLabel(r); l != "" {
			return Verdict{r.ExitCode, l}
		}
		switch {
		case r.ExitCode == result.Violation:
			return Verdict{result.Violation, "VIOLATION"}
		case r.Command == "compat":
			return Verdict{result.Drift, "RISKY"}
		case r.Command == "sessions-check":
			return Verdict{result.Drift, "FINDINGS"}
		}
		return Verdict{result.Drift, "DRIFT"}
	case result.Incomplete:
		return Verdict{result.Incomplete, "INCOMPLETE"}
	case result.Usage:
		return Verdict{result.Usage, "UNUSABLE INPUT"}
	case result.Internal:
		return Verdict{result.Internal, "INTERNAL ERROR"}
	}
	return Verdict{r.ExitCode, "EXIT"}
}

// gateLabel names what failed r's gate: its violations by level, DRIFT when
// a surface finding passed the gate, the failed calls a sessions check's
// gate selected (the error signal: error responses, isError results, HTTP
// errors), then its other failing rule findings by class ("1 MUST
// violation, DRIFT, 5 failed calls, 2 risky findings"); "" when nothing in
// the Result explains the failure. A violation names its level (a MUST
// clause is what makes it one); other findings name their class, the word
// the report's counts use, not the spec keyword ("MAY finding" meant
// nothing to a reader).
func gateLabel(r *result.Result) string {
	var parts []string
	violations := map[string]int{}
	others := map[string]int{}
	failedCalls := 0
	for _, rf := range r.Violations {
		if !RuleFails(r, rf) {
			continue
		}
		switch {
		case rf.Class == "violation":
			violations[rf.Level]++
		case FailedCall(rf):
			failedCalls++
		case rf.Class == "risky":
			others["risky"]++
		default:
			others["info"]++
		}
	}
	levels := []string{"MUST", "SHOULD", "MAY"}
	for _, l := range append(levels, unknownLevels(violations)...) {
		if n := violations[l]; n > 0 {
			parts = append(parts, plural.Count(n, strings.TrimSpace(termsafe.Line(l)+" violation")))
		}
	}
	if DriftFails(r) {
		parts = append(parts, "DRIFT")
	}
	if failedCalls > 0 {
		parts = append(parts, plural.Count(failedCalls, "failed call"))
	}
	for _, c := range []string{"risky", "info"} {
		if n := others[c]; n > 0 {
			parts = append(parts, plural.Count(n, c+" finding"))
		}
	}
	return strings.Join(parts, ", ")
}

// FailedCall reports whether rf is a traffic finding of the error signal
// (a call that failed: a JSON-RPC error, an isError result, an HTTP error
// status), which is info about the server, not a violation.
func FailedCall(rf result.RuleFinding) bool {
	if rf.Class == "violation" {
		return false
	}
	r, ok := rules.Lookup(rf.RuleID)
	return ok && r.Traffic && r.Signal == rules.SignalError
}

// unknownLevels returns the levels counted in m other than MUST, SHOULD and
// MAY, sorted ("" for none given).
func unknownLevels(m map[string]int) []string {
	var out []string
	for l := range m {
		if l != "MUST" && l != "SHOULD" && l != "MAY" {
			out = append(out, l)
		}
	}
	slices.Sort(out)
	return out
}

// DriftFails reports whether a surface finding of r counted against its
// gate: one at or above the gate tier, or for sessions check (whose gate is
// a list of signals and rule ids) any tool drift when the list names the
// drift signal or the finding's rule id.
func DriftFails(r *result.Result) bool {
	for _, f := range r.Findings {
		if FindingFails(r, f) {
			return true
		}
	}
	return false
}

// FindingFails reports whether one surface finding of r counted against
// its gate: at or above the gate tier, or for sessions check (whose gate
// is a list of signals and rule ids) when the list names the drift signal
// or the finding's rule id.
func FindingFails(r *result.Result, f result.Finding) bool {
	if r.Command == "sessions-check" {
		for _, w := range strings.Split(r.Gate.FailOn, ",") {
			if w = strings.TrimSpace(w); w == "drift" || w == f.RuleID {
				return true
			}
		}
		return false
	}
	return AtOrAboveGate(r, f)
}

// FailOn returns the gate tier of r, or risky (the default gate) when the
// Result names none or an unknown one.
func FailOn(r *result.Result) diff.Tier {
	t, err := diff.ParseTier(r.Gate.FailOn)
	if err != nil {
		return diff.Risky
	}
	return t
}

// FailOnName returns the gate tier's name as recorded, or "risky".
func FailOnName(r *result.Result) string {
	if r.Gate.FailOn == "" {
		return diff.Risky.String()
	}
	return termsafe.Line(r.Gate.FailOn)
}

// AtOrAboveGate reports whether f is at or above r's gate, that is whether
// it counts against the run.
func AtOrAboveGate(r *result.Result, f result.Finding) bool { return f.Tier >= FailOn(r) }

// RuleFails reports whether a rule finding counts against the run: for
// sessions check, whether its gate selected it (RuleFinding.Gated);
// otherwise a violation always (exit 3), and a risky-class finding only in
// compat, which gates on it (exit 1), while check lists it without gating.
func RuleFails(r *result.Result, rf result.RuleFinding) bool {
	if r.Command == "sessions-check" || r.Command == "scan" || r.Command == "fuzz" {
		// Their gates select rule findings by more than class (scan:
		// --fail-on info or a rule id; fuzz: --fail-on violation): the
		// finding says.
		return rf.Gated
	}
	switch rf.Class {
	case "violation":
		return true
	case "risky":
		return r.Command == "compat"
	}
	return false
}

// classRank orders rule-finding classes, most severe first.
func classRank(c string) int {
	switch c {
	case "violation":
		return 0
	case "risky":
		return 1
	case "info":
		return 2
	}
	return 3
}

// RuleFindings returns r's rule findings grouped by class (violation,
// risky, info, anything else), then by rule id, subject (numbers in it
// compared as numbers: "seq 6" before "seq 10") and profile. The Result
// is not modified.
func RuleFindings(r *result.Result) []result.RuleFinding {
	out := slices.Clone(r.Violations)
	slices.SortStableFunc(out, func(a, b result.RuleFinding) int {
		return cmp.Or(
			cmp.Compare(classRank(a.Class), classRank(b.Class)),
			strings.Compare(a.Class, b.Class),
			strings.Compare(a.RuleID, b.RuleID),
			CompareNumbers(a.Subject, b.Subject),
			strings.Compare(a.Profile, b.Profile),
		)
	})
	return out
}

// CompareNumbers compares a and b as strings, except that runs of digits
// are compared as numbers, so "session S1 seq 6" sorts before "session S1
// seq 10". Equal numbers written differently ("7", "07") fall back to
// the plain comparison, so the order is total.
func CompareNumbers(a, b string) int {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if isDigit(a[i]) && isDigit(b[j]) {
			si, sj := i, j
			for i < len(a) && isDigit(a[i]) {
				i++
			}
			for j < len(b) && isDigit(b[j]) {
				j++
			}
			na, nb := strings.TrimLeft(a[si:i], "0"), strings.TrimLeft(b[sj:j], "0")
			if c := cmp.Or(cmp.Compare(len(na), len(nb)), strings.Compare(na, nb)); c != 0 {
				return c
			}
			continue
		}
		if a[i] != b[j] {
			return cmp.Compare(a[i], b[j])
		}
		i++
		j++
	}
	return cmp.Or(cmp.Compare(len(a)-i, len(b)-j), strings.Compare(a, b))
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// ClassCounts counts rule findings per class.
type ClassCounts struct{ Violation, Risky, Info int }

// CountClasses counts r's rule findings per class; unknown classes count
// as info.
func CountClasses(r *result.Result) ClassCounts {
	var c ClassCounts
	for _, v := range r.Violations {
		switch v.Class {
		case "violation":
			c.Violation++
		case "risky":
			c.Risky++
		default:
			c.Info++
		}
	}
	return c
}

// Counts returns "6 findings (2 breaking, 1 risky, 1 compatible, 2 cosmetic)"
// from the Result's summary.
func Counts(r *result.Result) string {
	s := r.Summary.Summary
	n := s.Breaking + s.Risky + s.Compatible + s.Cosmetic
	return fmt.Sprintf("%s (%d breaking, %d risky, %d compatible, %d cosmetic)",
		plural.Count(n, "finding"), s.Breaking, s.Risky, s.Compatible, s.Cosmetic)
}

// Accepted says what check --update took into the stored snapshot:
// "accepted 3 changes (1 breaking, 2 compatible) into PATH", or "no changes
// to accept; PATH rewritten"; "" when r was not updated.
func Accepted(r *result.Result) string {
	if !r.Updated {
		return ""
	}
	path := "the stored snapshot"
	if r.New != nil && r.New.Path != "" {
		path = termsafe.Line(r.New.Path)
	}
	if len(r.Findings) == 0 {
		return "no changes to accept; " + path + " rewritten (--update)"
	}
	s := r.Summary.Summary
	var tiers []string
	for _, t := range []struct {
		n    int
		name string
	}{{s.Breaking, "breaking"}, {s.Risky, "risky"}, {s.Compatible, "compatible"}, {s.Cosmetic, "cosmetic"}} {
		if t.n > 0 {
			tiers = append(tiers, fmt.Sprintf("%d %s", t.n, t.name))
		}
	}
	return fmt.Sprintf("accepted %s (%s) into %s", plural.Count(len(r.Findings), "change"), strings.Join(tiers, ", "), path)
}

// RuleCounts returns "2 rule findings (1 violation, 1 risky, 0 info)" ("2 violations"), or
// "" when there are none.
func RuleCounts(r *result.Result) string {
	if len(r.Violations) == 0 {
		return ""
	}
	c := CountClasses(r)
	return fmt.Sprintf("%s (%s, %d risky, %d info)",
		plural.Count(len(r.Violations), "rule finding"), plural.Count(c.Violation, "violation"), c.Risky, c.Info)
}

// SummaryLine returns the one line every human report ends with:
//
//	6 findings (2 breaking, 1 risky, 1 compatible, 2 cosmetic); gate fail-on=risky -> DRIFT (exit 1)
//
// with ", N ignored" after the counts when --ignore/--only dropped findings
// and a rule-findings part when there are any.
func SummaryLine(r *result.Result) string {
	var b strings.Builder
	rc := RuleCounts(r)
	if len(r.Findings) > 0 || r.Ignored > 0 || !NoSurfaceDiff(r) {
		b.WriteString(Counts(r))
		if r.Ignored > 0 {
			fmt.Fprintf(&b, ", %d ignored", r.Ignored)
		}
		if rc != "" {
			b.WriteString("; ")
		}
	} else if rc == "" {
		rc = "0 rule findings"
	}
	b.WriteString(rc)
	fmt.Fprintf(&b, "; gate fail-on=%s -> %s", FailOnName(r), VerdictOf(r))
	return b.String()
}

// NoSurfaceDiff reports whether r's command judges rules without diffing
// two surfaces (compat, sessions check, scan, fuzz): its summary counts surface
// findings only when it has some (a sessions check's tool drift).
func NoSurfaceDiff(r *result.Result) bool {
	return r.Command == "compat" || r.Command == "sessions-check" || r.Command == "scan" || r.Command == "fuzz"
}

// Problems returns the evidence problems of an incomplete Result, at least
// one line even when the producer listed none, so that incompleteness is
// never silent. A complete Result has none.
func Problems(r *result.Result) []string {
	if r.Evidence.Complete {
		return nil
	}
	if len(r.Evidence.Problems) > 0 {
		return r.Evidence.Problems
	}
	if r.Evidence.Status != "" {
		return []string{"observation status " + r.Evidence.Status}
	}
	return []string{"the observation did not complete"}
}
