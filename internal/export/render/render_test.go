package render

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpward/mcpward/internal/diff"
	"github.com/mcpward/mcpward/internal/result"
)

func TestOneLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text — ok §5", "plain text — ok §5"},
		{"a\nb\r\tc", `a\nb\r\tc`},
		{"\x1b[31mred", `\x1b[31mred`},
		{"\x7f\u0085", `\x7f\x85`},
		{"bidi \u202e and \u2028", `bidi \u{202e} and \u{2028}`},
		{"bad \xff utf8", "bad \uFFFD utf8"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := OneLine(tt.in); got != tt.want {
			t.Errorf("OneLine(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

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
