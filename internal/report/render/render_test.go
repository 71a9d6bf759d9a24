package render

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpward/mcpward/internal/diff"
	"github.com/mcpward/mcpward/internal/result"
)

func TestVerdictOf(t *testing.T) {
	tests := []struct {
		command string
		code    int
		want    string
	}{
		{"check", 0, "PASS (exit 0)"},
		{"check", 1, "DRIFT (exit 1)"},
		{"compat", 1, "RISKY (exit 1)"},
		{"check", 2, "INCOMPLETE (exit 2)"},
		{"compat", 3, "VIOLATION (exit 3)"},
		{"check", 9, "EXIT (exit 9)"},
	}
	for _, tt := range tests {
		r := &result.Result{Command: tt.command, ExitCode: tt.code}
		if got := VerdictOf(r).String(); got != tt.want {
			t.Errorf("VerdictOf(%s, %d) = %q, want %q", tt.command, tt.code, got, tt.want)
		}
	}
}

func TestFailOn(t *testing.T) {
	for in, want := range map[string]diff.Tier{"": diff.Risky, "bogus": diff.Risky, "cosmetic": diff.Cosmetic, "Breaking": diff.Breaking} {
		if got := FailOn(&result.Result{Gate: result.Gate{FailOn: in}}); got != want {
			t.Errorf("FailOn(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestRuleFindingsOrder(t *testing.T) {
	r := &result.Result{Violations: []result.RuleFinding{
		{RuleID: "b", Class: "info"},
		{RuleID: "z", Class: "violation", Subject: "2"},
		{RuleID: "a", Class: "risky"},
		{RuleID: "z", Class: "violation", Subject: "1"},
		{RuleID: "q", Class: "weird"},
	}}
	var got []string
	for _, v := range RuleFindings(r) {
		got = append(got, v.Class+"/"+v.RuleID+"/"+v.Subject)
	}
	want := []string{"violation/z/1", "violation/z/2", "risky/a/", "info/b/", "weird/q/"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("RuleFindings() order mismatch (-want +got):\n%s", d)
	}
	if r.Violations[0].RuleID != "b" {
		t.Error("RuleFindings modified the Result")
	}
}

func TestProblems(t *testing.T) {
	tests := []struct {
		ev   result.Evidence
		want []string
	}{
		{result.Evidence{Complete: true, Problems: []string{"ignored"}}, nil},
		{result.Evidence{Problems: []string{"a", "b"}}, []string{"a", "b"}},
		{result.Evidence{Status: "partial"}, []string{"observation status partial"}},
		{result.Evidence{}, []string{"the observation did not complete"}},
	}
	for _, tt := range tests {
		if d := cmp.Diff(tt.want, Problems(&result.Result{Evidence: tt.ev})); d != "" {
			t.Errorf("Problems(%+v) mismatch (-want +got):\n%s", tt.ev, d)
		}
	}
}

func TestSummaryLineIgnored(t *testing.T) {
	r := &result.Result{Command: "check", Ignored: 3, ExitCode: 0, Gate: result.Gate{FailOn: "breaking"}}
	want := "0 findings (0 breaking, 0 risky, 0 compatible, 0 cosmetic), 3 ignored; gate fail-on=breaking -> PASS (exit 0)"
	if got := SummaryLine(r); got != want {
		t.Errorf("SummaryLine() = %q, want %q", got, want)
	}
}

// The verdict line names what failed the gate (issue 13 item 5): DRIFT
// only when a surface finding passed the gate, violations by level, other
// rule findings by class (not "MAY finding": issue 25 item 12); a
// sessions check names the findings its gate selected (issue 11 item 9: error responses and info findings are not
// drift), error responses as failed calls (issue 22 item 4).
func TestVerdictNamesWhatFailed(t *testing.T) {
	drift := []result.Finding{{Finding: diff.Finding{RuleID: "tool.removed", Tier: diff.Breaking}}}
	cosmetic := []result.Finding{{Finding: diff.Finding{RuleID: "tool.icons.changed", Tier: diff.Cosmetic}}}
	must := result.RuleFinding{RuleID: "xhdr.not_token", Level: "MUST", Class: "violation"}
	should := result.RuleFinding{RuleID: "transport.get_not_405", Level: "SHOULD", Class: "risky"}
	info := result.RuleFinding{RuleID: "message.error_response", Level: "MAY", Class: "info"}
	stale := result.RuleFinding{RuleID: "cache.stale_refetch", Level: "MAY", Class: "info"}
	gated := func(rf result.RuleFinding) result.RuleFinding { rf.Gated = true; return rf }
	tests := []struct {
		name string
		r    result.Result
		want string
	}{
		{"check drift", result.Result{Command: "check", ExitCode: 1, Findings: drift, Gate: result.Gate{FailOn: "risky"}}, "DRIFT (exit 1)"},
		{"check violation and drift", result.Result{Command: "check", ExitCode: 3, Findings: drift,
			Violations: []result.RuleFinding{must, should}, Gate: result.Gate{FailOn: "risky"}}, "1 MUST violation, DRIFT (exit 3)"},
		{"check violation, drift below the gate", result.Result{Command: "check", ExitCode: 3, Findings: cosmetic,
			Violations: []result.RuleFinding{must}, Gate: result.Gate{FailOn: "risky"}}, "1 MUST violation (exit 3)"},
		{"compat risky only", result.Result{Command: "compat", ExitCode: 1,
			Violations: []result.RuleFinding{should, should, info}, Gate: result.Gate{FailOn: "risky"}}, "2 risky findings (exit 1)"},
		{"compat violations", result.Result{Command: "compat", ExitCode: 3,
			Violations: []result.RuleFinding{must, must, should}}, "2 MUST violations, 1 risky finding (exit 3)"},
		{"sessions check, failed calls", result.Result{Command: "sessions-check", ExitCode: 1,
			Violations: []result.RuleFinding{gated(info), gated(info), should}, Gate: result.Gate{FailOn: "error,invalid,warn"}}, "2 failed calls (exit 1)"},
		{"sessions check, failed calls and other findings", result.Result{Command: "sessions-check", ExitCode: 3,
			Violations: []result.RuleFinding{gated(must), gated(info), gated(stale)}, Gate: result.Gate{FailOn: "error,must,cache.stale_refetch"}}, "1 MUST violation, 1 failed call, 1 info finding (exit 3)"},
		{"sessions check, failed calls not selected", result.Result{Command: "sessions-check", ExitCode: 0,
			Violations: []result.RuleFinding{info, info}, Gate: result.Gate{FailOn: "violation,risky"}}, "PASS (exit 0)"},
		{"sessions check, assertion", result.Result{Command: "sessions-check", ExitCode: 1,
			Violations: []result.RuleFinding{gated(should), info}, Gate: result.Gate{FailOn: "error,invalid,warn"}}, "1 risky finding (exit 1)"},
		{"sessions check, tool drift gated by the drift signal", result.Result{Command: "sessions-check", ExitCode: 1, Findings: cosmetic,
			Violations: []result.RuleFinding{info}, Gate: result.Gate{FailOn: "drift"}}, "DRIFT (exit 1)"},
		{"sessions check, drift not selected", result.Result{Command: "sessions-check", ExitCode: 3, Findings: drift,
			Violations: []result.RuleFinding{gated(must)}, Gate: result.Gate{FailOn: "must"}}, "1 MUST violation (exit 3)"},
		{"sessions check saved before gated existed", result.Result{Command: "sessions-check", ExitCode: 1,
			Violations: []result.RuleFinding{should}}, "FINDINGS (exit 1)"},
	}
	for _, tt := range tests {
		if got := VerdictOf(&tt.r).String(); got != tt.want {
			t.Errorf("%s: VerdictOf() = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// A run without a surface diff (compat, sessions check) does not count
// surface findings it cannot have.
func TestSummaryLineWithoutSurface(t *testing.T) {
	tests := []struct {
		r    result.Result
		want string
	}{
		{result.Result{Command: "sessions-check", Gate: result.Gate{FailOn: "error,invalid,warn"}},
			"0 rule findings; gate fail-on=error,invalid,warn -> PASS (exit 0)"},
		{result.Result{Command: "compat", ExitCode: 1, Violations: []result.RuleFinding{{Level: "SHOULD", Class: "risky"}}, Gate: result.Gate{FailOn: "risky"}},
			"1 rule finding (0 violations, 1 risky, 0 info); gate fail-on=risky -> 1 risky finding (exit 1)"},
		{result.Result{Command: "sessions-check", ExitCode: 1, Findings: []result.Finding{{Finding: diff.Finding{RuleID: "tool.added", Tier: diff.Risky}}},
			Summary: result.Summary{Summary: diff.Summary{Risky: 1}}, Gate: result.Gate{FailOn: "drift"}},
			"1 finding (0 breaking, 1 risky, 0 compatible, 0 cosmetic); gate fail-on=drift -> DRIFT (exit 1)"},
	}
	for _, tt := range tests {
		if got := SummaryLine(&tt.r); got != tt.want {
			t.Errorf("SummaryLine(%s) = %q, want %q", tt.r.Command, got, tt.want)
		}
	}
}

// Findings are ordered by seq as a number (issue 22 item 8): seq 10 sorted
// before seq 6 when subjects were compared as strings.
func TestRuleFindingsBySeqNumber(t *testing.T) {
	var r result.Result
	for _, s := range []string{"session S1 seq 10", "session S1 seq 6", "session S2 seq 1", "session S1 seq 100", "session S1 seq 9"} {
		r.Violations = append(r.Violations, result.RuleFinding{RuleID: "message.error_response", Class: "info", Subject: s})
	}
	var got []string
	for _, rf := range RuleFindings(&r) {
		got = append(got, rf.Subject)
	}
	want := []string{"session S1 seq 6", "session S1 seq 9", "session S1 seq 10", "session S1 seq 100", "session S2 seq 1"}
	if !slices.Equal(got, want) {
		t.Errorf("RuleFindings order = %q, want %q", got, want)
	}
	for _, tt := range []struct {
		a, b string
		want int
	}{
		{"seq 6", "seq 10", -1}, {"seq 10", "seq 6", 1}, {"seq 7", "seq 07", 1}, {"a2", "a2b", -1},
		{"tool b", "tool a", 1}, {"x", "x", 0}, {"seq 9 z", "seq 9 a", 1},
	} {
		if got := CompareNumbers(tt.a, tt.b); got != tt.want {
			t.Errorf("CompareNumbers(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

// check --update says what it took in, not "PASS" under breaking
// findings (issue 25 item 12).
func TestAccepted(t *testing.T) {
	findings := []result.Finding{
		{Finding: diff.Finding{RuleID: "tool.removed", Tier: diff.Breaking}},
		{Finding: diff.Finding{RuleID: "tool.input.optional.added", Tier: diff.Compatible}},
		{Finding: diff.Finding{RuleID: "tool.input.optional.added", Tier: diff.Compatible}},
	}
	r := &result.Result{Command: "check", Findings: findings, Updated: true, New: &result.SnapshotRef{Path: ".mcpward/w.snapshot.json"}}
	r.Summary.Summary.Breaking, r.Summary.Summary.Compatible = 1, 2
	if got, want := Accepted(r), "accepted 3 changes (1 breaking, 2 compatible) into .mcpward/w.snapshot.json"; got != want {
		t.Errorf("Accepted() = %q, want %q", got, want)
	}
	if got := VerdictOf(r).String(); got != "ACCEPTED (exit 0)" {
		t.Errorf("VerdictOf(updated) = %q, want ACCEPTED (exit 0)", got)
	}
	r.Findings, r.Summary.Summary.Breaking, r.Summary.Summary.Compatible = findings[:1], 1, 0
	if got, want := Accepted(r), "accepted 1 change (1 breaking) into .mcpward/w.snapshot.json"; got != want {
		t.Errorf("Accepted() = %q, want %q", got, want)
	}
	r.Findings = nil
	if got := VerdictOf(r).String(); got != "PASS (exit 0)" {
		t.Errorf("VerdictOf(updated, no changes) = %q, want PASS (exit 0)", got)
	}
	if got, want := Accepted(r), "no changes to accept; .mcpward/w.snapshot.json rewritten (--update)"; got != want {
		t.Errorf("Accepted() = %q, want %q", got, want)
	}
	if got := Accepted(&result.Result{Findings: findings}); got != "" {
		t.Errorf("Accepted(not updated) = %q, want empty", got)
	}
}
