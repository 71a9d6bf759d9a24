package compat

import (
	"testing"

	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/rules"
)

// Report.Result is the one mapping of a report onto a Result: what
// `mcpward compat` renders and what `mcpward check` takes its Violations
// and Compat from.
func TestReportResult(t *testing.T) {
	rep := &Report{
		Era: "dual", Transport: "http", Server: "weather", Profiles: []string{"modern-full"},
		Assertions: []Assertion{{ID: "T1", Verdict: "fail", Detail: "GET answered 200"}},
		Problems:   []string{"tools/list timed out"},
		findings: []result.RuleFinding{
			{RuleID: "b", Class: rules.Risky, Level: rules.SHOULD},
			{RuleID: "a", Class: rules.Violation, Level: rules.MUST},
		},
	}
	tg := &result.Target{Name: "weather", Transport: "http"}
	r := rep.Result(tg, "v1")
	if r.Command != "compat" || r.Version != "v1" || r.Target != tg {
		t.Errorf("header = %q %q %v", r.Command, r.Version, r.Target)
	}
	if len(r.Violations) != 2 || r.Violations[0].RuleID != "a" || r.Summary.Violations != 1 || r.Summary.RiskyRules != 1 {
		t.Errorf("violations %+v, summary %+v: want the sorted findings counted by class", r.Violations, r.Summary)
	}
	if r.Evidence.Complete || r.Evidence.Status != "partial" || r.ExitCode != result.Incomplete || !r.Gate.Failed || r.Gate.FailOn != "risky" {
		t.Errorf("evidence %+v, exit %d, gate %+v: want partial, incomplete, a failed risky gate", r.Evidence, r.ExitCode, r.Gate)
	}
	if c := r.Compat; c == nil || c.Era != "dual" || c.Server != "weather" || len(c.Assertions) != 1 || c.Assertions[0].Detail != "GET answered 200" {
		t.Errorf("compat = %+v", r.Compat)
	}
}
