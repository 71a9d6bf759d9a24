package sessiondiff

import (
	"bytes"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpward/mcpward/internal/diff"
)

func call(tool, key, status string, d time.Duration) Call {
	return Call{Tool: tool, Key: key, Args: key, Status: status, Duration: d, Finished: status != "pending"}
}

func TestCompare(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		name    string
		a, b    []Call
		opts    Options
		calls   []StatusChange
		durs    []DurationChange
		reg     bool
		onlyA   int
		onlyB   int
		matched int
	}{
		{name: "same", a: []Call{call("t", "{}", "ok", 10*ms)}, b: []Call{call("t", "{}", "ok", 12*ms)},
			opts: Options{Threshold: 100 * ms, Ratio: 2}, matched: 1},
		{name: "ok to error is a regression",
			a: []Call{call("t", `{"x":1}`, "ok", 10*ms)}, b: []Call{call("t", `{"x":1}`, "error", 10*ms)},
			opts:  Options{Threshold: 100 * ms, Ratio: 2},
			calls: []StatusChange{{Tool: "t", Args: `{"x":1}`, Occurrence: 1, Before: "ok", After: "error", Regression: true}},
			reg:   true, matched: 1},
		{name: "error to ok is not",
			a: []Call{call("t", "{}", "error", 10*ms)}, b: []Call{call("t", "{}", "ok", 10*ms)},
			opts:  Options{Threshold: 100 * ms, Ratio: 2},
			calls: []StatusChange{{Tool: "t", Args: "{}", Occurrence: 1, Before: "error", After: "ok"}}, matched: 1},
		{name: "occurrences pair in order; different args do not pair",
			a:     []Call{call("t", "{}", "ok", 10*ms), call("t", "{}", "ok", 10*ms), call("t", `{"a":1}`, "ok", 1*ms)},
			b:     []Call{call("t", "{}", "ok", 10*ms), call("t", "{}", "pending", 0), call("t", `{"a":2}`, "ok", 1*ms)},
			opts:  Options{Threshold: 100 * ms, Ratio: 2},
			calls: []StatusChange{{Tool: "t", Args: "{}", Occurrence: 2, Before: "ok", After: "pending", Regression: true}},
			reg:   true, onlyA: 1, onlyB: 1, matched: 2},
		{name: "slower past threshold and ratio",
			a:    []Call{call("t", "{}", "ok", 100*ms), call("u", "{}", "ok", 100*ms), call("v", "{}", "ok", 500*ms)},
			b:    []Call{call("t", "{}", "ok", 300*ms), call("u", "{}", "ok", 190*ms), call("v", "{}", "ok", 100*ms)},
			opts: Options{Threshold: 100 * ms, Ratio: 2},
			durs: []DurationChange{
				{Tool: "t", Args: "{}", Occurrence: 1, BeforeMs: 100, AfterMs: 300, Slower: true},
				{Tool: "v", Args: "{}", Occurrence: 1, BeforeMs: 500, AfterMs: 100},
			},
			reg: true, matched: 3},
		{name: "zero to something", a: []Call{call("t", "{}", "ok", 0)}, b: []Call{call("t", "{}", "ok", 150*ms)},
			opts: Options{Threshold: 100 * ms, Ratio: 2},
			durs: []DurationChange{{Tool: "t", Args: "{}", Occurrence: 1, AfterMs: 150, Slower: true}}, reg: true, matched: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Compare(&Side{Name: "A", Calls: tt.a}, &Side{Name: "B", Calls: tt.b}, &tt.opts)
			if tt.calls == nil {
				tt.calls = []StatusChange{}
			}
			if tt.durs == nil {
				tt.durs = []DurationChange{}
			}
			if d := cmp.Diff(tt.calls, r.Calls); d != "" {
				t.Errorf("calls (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.durs, r.Durations); d != "" {
				t.Errorf("durations (-want +got):\n%s", d)
			}
			if r.Regression != tt.reg || r.OnlyInA != tt.onlyA || r.OnlyInB != tt.onlyB || r.Matched != tt.matched {
				t.Errorf("regression %v onlyA %d onlyB %d matched %d, want %v %d %d %d", r.Regression, r.OnlyInA, r.OnlyInB, r.Matched, tt.reg, tt.onlyA, tt.onlyB, tt.matched)
			}
		})
	}
}

func TestToolRegressions(t *testing.T) {
	findings := []diff.Finding{
		{RuleID: "tool.added", Tier: diff.Risky},
		{RuleID: "tool.icons.changed", Tier: diff.Cosmetic},
		{RuleID: "tool.output.schema.added", Tier: diff.Compatible},
	}
	cmpTools := func(a, b []ToolDef) []diff.Finding { return findings }
	r := Compare(&Side{Listed: true}, &Side{Listed: true}, &Options{CompareTools: cmpTools})
	if r.Regression || len(r.Tools) != 3 {
		t.Errorf("added/icons/output added: regression %v, %d tools", r.Regression, len(r.Tools))
	}
	findings = append(findings, diff.Finding{RuleID: "tool.removed", Tier: diff.Breaking})
	if r := Compare(&Side{Listed: true}, &Side{Listed: true}, &Options{CompareTools: cmpTools}); !r.Regression {
		t.Error("a removed tool is not a regression")
	}
	if r := Compare(&Side{Listed: true}, &Side{}, &Options{CompareTools: cmpTools}); r.ToolsCompared || len(r.Tools) != 0 {
		t.Error("tools compared without a tools/list on one side")
	}
}

func TestToolRegressionGate(t *testing.T) {
	risky, compatible := diff.Risky, diff.Compatible
	tests := []struct {
		name   string
		f      diff.Finding
		failOn *diff.Tier
		want   bool
	}{
		// mcpsnoop (no gate): any change to description, title, input or
		// output schema or annotations, whatever its tier.
		{"enum added", diff.Finding{RuleID: "tool.input.enum.added", Tier: diff.Compatible}, nil, true},
		{"optional added", diff.Finding{RuleID: "tool.input.optional.added", Tier: diff.Compatible}, nil, true},
		{"whitespace", diff.Finding{RuleID: "text.whitespace-only", Tier: diff.Cosmetic}, nil, true},
		{"annotation other", diff.Finding{RuleID: "annotation.other.changed", Tier: diff.Cosmetic}, nil, true},
		{"enum destructive", diff.Finding{RuleID: "tool.input.enum.added_destructive", Tier: diff.Risky}, nil, true},
		{"meta", diff.Finding{RuleID: "_meta.vendor.changed", Tier: diff.Cosmetic}, nil, false},
		{"field", diff.Finding{RuleID: "tool.field.changed", Tier: diff.Risky}, nil, false},
		{"added", diff.Finding{RuleID: "tool.added", Tier: diff.Risky}, nil, false},
		// --fail-on TIER: the tier decides.
		{"gate risky, compatible enum", diff.Finding{RuleID: "tool.input.enum.added", Tier: diff.Compatible}, &risky, false},
		{"gate risky, destructive enum", diff.Finding{RuleID: "tool.input.enum.added_destructive", Tier: diff.Risky}, &risky, true},
		{"gate risky, added", diff.Finding{RuleID: "tool.added", Tier: diff.Risky}, &risky, true},
		{"gate compatible, enum", diff.Finding{RuleID: "tool.input.enum.added", Tier: diff.Compatible}, &compatible, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmpTools := func(a, b []ToolDef) []diff.Finding { return []diff.Finding{tt.f} }
			r := Compare(&Side{Listed: true}, &Side{Listed: true}, &Options{CompareTools: cmpTools, FailOn: tt.failOn})
			if r.Regression != tt.want {
				t.Errorf("regression = %v, want %v", r.Regression, tt.want)
			}
		})
	}
}

func TestWriteText(t *testing.T) {
	r := Compare(&Side{Name: "a.jsonl", Calls: []Call{call("t", `{"x":1}`, "ok", 10*time.Millisecond)}},
		&Side{Name: "b.jsonl", Calls: []Call{call("t", `{"x":1}`, "error", 400*time.Millisecond)}},
		&Options{Threshold: 100 * time.Millisecond, Ratio: 2})
	var b bytes.Buffer
	WriteText(&b, r)
	want := `mcpward sessions diff a.jsonl -> b.jsonl
calls:
  status changed: t {"x":1} ok -> error
durations:
  slower: t {"x":1} 10.0ms -> 400.0ms
1 call matched, 0 only in a.jsonl, 0 only in b.jsonl
`
	if d := cmp.Diff(want, b.String()); d != "" {
		t.Errorf("text (-want +got):\n%s", d)
	}
	b.Reset()
	WriteText(&b, Compare(&Side{Name: "a"}, &Side{Name: "b"}, nil))
	if !bytes.Contains(b.Bytes(), []byte("no differences found")) {
		t.Errorf("empty: %s", b.String())
	}
}
