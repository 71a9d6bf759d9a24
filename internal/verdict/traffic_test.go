package verdict

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/rules"
	"github.com/mcpward/mcpward/internal/traffic"
)

func TestParseTrafficGate(t *testing.T) {
	for _, spec := range []string{"error,must,transport.server_request", "warn", "schema,should", "cache.hints_missing,tool.removed", "none"} {
		if _, err := ParseTrafficGate(spec); err != nil {
			t.Errorf("ParseTrafficGate(%q): %v", spec, err)
		}
	}
	for _, spec := range []string{"", "error,", "bogus"} {
		if _, err := ParseTrafficGate(spec); err == nil {
			t.Errorf("ParseTrafficGate(%q) accepted", spec)
		}
	}
}

// TestTrafficGateSelects: the default gate selects what the same spec
// given as --fail-on selects (issue 22 item 4): an info finding on a
// signal it names (an error response) fails the check.
func TestTrafficGateSelects(t *testing.T) {
	info := result.RuleFinding{RuleID: "x", Class: rules.Info, Level: rules.MAY}
	risky := result.RuleFinding{RuleID: "x", Class: rules.Risky, Level: rules.SHOULD}
	byDefault, _ := ParseTrafficGate(DefaultTrafficFailOn)
	named, _ := ParseTrafficGate("error")
	for _, tt := range []struct {
		name string
		g    TrafficGate
		rf   result.RuleFinding
		sig  traffic.Signal
		want bool
	}{
		{"default risky error", byDefault, risky, traffic.SignalError, true},
		{"default info error", byDefault, info, traffic.SignalError, true},
		{"default info observation", byDefault, info, "", false},
		{"default risky drift", byDefault, risky, traffic.SignalDrift, false},
		{"named info error", named, info, traffic.SignalError, true},
		{"named risky warn", named, risky, traffic.SignalWarn, false},
	} {
		if got := tt.g.Selects(tt.rf, tt.sig); got != tt.want {
			t.Errorf("%s: Selects() = %v, want %v", tt.name, got, tt.want)
		}
	}
	drift, _ := ParseTrafficGate("tool.removed")
	if !drift.SelectsDrift("tool.removed") || drift.SelectsDrift("") || byDefault.SelectsDrift("tool.removed") {
		t.Error("SelectsDrift: want only the named rule id selected")
	}
	explicit, _ := ParseTrafficGate("error,invalid,warn")
	if d := cmp.Diff(byDefault, explicit, cmp.AllowUnexported(TrafficGate{})); d != "" {
		t.Errorf("the default gate differs from the same spec given (-default +given):\n%s", d)
	}
}

// TestCollectorFinish: findings are kept worst first and capped with a
// notice; the verdict counts every selected one, incomplete evidence
// outranks them all.
func TestCollectorFinish(t *testing.T) {
	must := result.RuleFinding{RuleID: "m", Class: rules.Violation, Level: rules.MUST}
	should := result.RuleFinding{RuleID: "s", Class: rules.Risky, Level: rules.SHOULD}
	note := result.RuleFinding{RuleID: "i", Class: rules.Info, Level: rules.MAY}
	tests := []struct {
		name       string
		add        func(c *Collector)
		incomplete bool
		wantIDs    []string
		wantCode   int
	}{
		{"nothing", func(c *Collector) {}, false, nil, result.Clean},
		{"unselected", func(c *Collector) { c.Add(must, false) }, false, []string{"m"}, result.Clean},
		{"selected must", func(c *Collector) { c.Add(note, false); c.Add(should, true); c.Add(must, true) }, false, []string{"m", "s", "mcpward.report_truncated"}, result.Violation},
		{"selected should", func(c *Collector) { c.Add(should, true) }, false, []string{"s"}, result.Drift},
		{"drift", func(c *Collector) { c.SelectDrift() }, false, nil, result.Drift},
		{"incomplete", func(c *Collector) { c.Add(must, true) }, true, []string{"m"}, result.Incomplete},
		{"capped", func(c *Collector) {
			for range 3 {
				c.Add(note, false)
			}
			c.Add(must, true)
		}, false, []string{"m", "i", "mcpward.report_truncated"}, result.Violation},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := NewCollector(2)
			tt.add(c)
			res := NewTrafficResult("test")
			res.Evidence.Complete = !tt.incomplete
			c.Finish(res, "must")
			var ids []string
			for _, v := range res.Violations {
				ids = append(ids, v.RuleID)
			}
			if d := cmp.Diff(tt.wantIDs, ids); d != "" {
				t.Errorf("Violations mismatch (-want +got):\n%s", d)
			}
			if res.ExitCode != tt.wantCode || res.Gate.Failed != (tt.wantCode != result.Clean) {
				t.Errorf("exit %d failed %v, want exit %d", res.ExitCode, res.Gate.Failed, tt.wantCode)
			}
		})
	}
}
