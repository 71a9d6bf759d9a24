package baseline

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpward/mcpward/internal/diff"
	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/snapshot"
)

func tools(t *testing.T, defs ...string) *Baseline {
	t.Helper()
	var raws []json.RawMessage
	for _, d := range defs {
		raws = append(raws, json.RawMessage(d))
	}
	b, err := FromTools(Identity{Label: "demo", Server: "srv", Endpoint: "srv --stdio"}, raws)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestCompare(t *testing.T) {
	tests := []struct {
		name     string
		old, new []string
		want     []string
	}{
		{"same, member order and whitespace ignored",
			[]string{`{"name":"a","description":"x","inputSchema":{"type":"object","properties":{}}}`},
			[]string{`{"inputSchema":{"properties":{},"type":"object"}, "name":"a","description":"x"}`}, nil},
		{"added, removed, description",
			[]string{`{"name":"a","description":"x","inputSchema":{}}`, `{"name":"b","inputSchema":{}}`},
			[]string{`{"name":"a","description":"y","inputSchema":{}}`, `{"name":"c","inputSchema":{}}`},
			[]string{"breaking tool.removed tools.b", "risky tool.added tools.c", "risky tool.description.changed tools.a.description"}},
		{"hints",
			[]string{`{"name":"a","inputSchema":{},"annotations":{"readOnlyHint":true}}`},
			[]string{`{"name":"a","inputSchema":{},"annotations":{"destructiveHint":true}}`},
			[]string{"breaking annotation.destructiveHint.raised tools.a.annotations.destructiveHint", "breaking annotation.readOnlyHint.revoked tools.a.annotations.readOnlyHint"}},
		{"output schema added, icons",
			[]string{`{"name":"a","inputSchema":{"type":"object"}}`},
			[]string{`{"name":"a","inputSchema":{"type":"object"},"outputSchema":{},"icons":[{"src":"x"}]}`},
			[]string{"compatible tool.output.schema.added tools.a.outputSchema", "cosmetic tool.icons.changed tools.a.icons"}},
		// issue 13 item 3: the tier follows the change, as in mcpward diff.
		{"new required input is breaking, new optional input compatible",
			[]string{`{"name":"a","inputSchema":{"type":"object","properties":{"x":{"type":"string"}}}}`},
			[]string{`{"name":"a","inputSchema":{"type":"object","properties":{"x":{"type":"string"},"y":{"type":"string"},"z":{"type":"string"}},"required":["y"]}}`},
			[]string{"breaking tool.input.required.added tools.a.inputSchema.required.y", "compatible tool.input.optional.added tools.a.inputSchema.properties.z"}},
		{"members outside the named fields: _meta and execution",
			[]string{`{"name":"a","inputSchema":{},"_meta":{"v":1},"execution":{"taskSupport":"forbidden"}}`},
			[]string{`{"name":"a","inputSchema":{},"_meta":{"v":2},"execution":{"taskSupport":"required"}}`},
			[]string{"risky tool.field.changed tools.a.execution", "cosmetic _meta.vendor.changed tools.a._meta"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, f := range Compare(tools(t, tt.old...), tools(t, tt.new...)) {
				got = append(got, f.Tier.String()+" "+f.RuleID+" "+f.Subject)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("Compare() mismatch (-want +got):\n%s", d)
			}
		})
	}
}

// pageSnapshot builds a snapshot from one tools/list page, as a probe's
// evidence is built into the snapshot files `mcpward diff` compares.
func pageSnapshot(t *testing.T, defs ...string) *snapshot.Snapshot {
	t.Helper()
	page := `{"tools":[` + strings.Join(defs, ",") + `]}`
	s, err := snapshot.Build(&snapshot.Evidence{Tools: snapshot.ListEvidence{Attempted: true, Pages: []json.RawMessage{json.RawMessage(page)}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// One voice (issue 13 item 3): the same pair of tool definitions gets the
// same rule ids, tiers and subjects from a baseline comparison (sessions
// baseline, sessions check, sessions diff, the UI) as from the snapshot
// diff (mcpward diff, check).
func TestCompareSpeaksAsDiff(t *testing.T) {
	pairs := []struct{ old, new string }{
		{`{"name":"a","inputSchema":{"type":"object","properties":{"x":{"type":"string"}}}}`,
			`{"name":"a","inputSchema":{"type":"object","properties":{"x":{"type":"string"},"y":{"type":"string"}},"required":["y"]}}`},
		{`{"name":"a","inputSchema":{"type":"object","properties":{"x":{"type":"string"}}}}`,
			`{"name":"a","inputSchema":{"type":"object","properties":{"x":{"type":"string"},"z":{"type":"string"}}}}`},
		{`{"name":"a","inputSchema":{"type":"object","properties":{"x":{"type":"string","enum":["p","q"]}},"required":["x"]}}`,
			`{"name":"a","inputSchema":{"type":"object","properties":{"x":{"type":["string","number"],"enum":["p"]}}},"outputSchema":{"type":"object"}}`},
		{`{"name":"a","description":"d","title":"T","inputSchema":{"type":"object","properties":{"h":{"type":"string","x-mcp-header":"Region"}}},"annotations":{"idempotentHint":true,"openWorldHint":false}}`,
			`{"name":"a","description":"d ","title":"U","inputSchema":{"type":"object","properties":{"h":{"type":"string","x-mcp-header":"Zone"}}},"annotations":{"readOnlyHint":true,"openWorldHint":true},"_meta":{"k":1}}`},
		{`{"name":"a","inputSchema":{"type":"object","additionalProperties":false}}`,
			`{"name":"a","inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{"r":{"type":"string"}},"required":["r"]}}`},
	}
	for i, p := range pairs {
		want := diff.Diff(pageSnapshot(t, p.old), pageSnapshot(t, p.new))
		got := Compare(tools(t, p.old), tools(t, p.new))
		if len(want) == 0 {
			t.Fatalf("pair %d: diff finds nothing; the case proves nothing", i)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("pair %d: Compare() differs from diff.Diff (-diff +baseline):\n%s", i, d)
		}
	}
}

// A version 1 baseline kept only the named fields: against it, members
// outside them are not drift (upgrading mcpward is not a change).
func TestCompareVersion1(t *testing.T) {
	old := tools(t, `{"name":"a","inputSchema":{}}`)
	old.Version = 1
	old.Tools[0].Other = nil
	cur := tools(t, `{"name":"a","inputSchema":{},"_meta":{"v":2},"execution":{"taskSupport":"required"}}`)
	if got := Compare(old, cur); len(got) != 0 {
		t.Errorf("Compare(v1, v2) = %v, want nothing", got)
	}
	cur = tools(t, `{"name":"a","description":"new","inputSchema":{}}`)
	if got := Compare(old, cur); len(got) != 1 || got[0].RuleID != "tool.description.changed" {
		t.Errorf("Compare(v1, v2) = %v, want tool.description.changed", got)
	}
}

func TestStoreKeyedByIdentity(t *testing.T) {
	dir := t.TempDir()
	a := tools(t, `{"name":"a","inputSchema":{}}`)
	if _, err := Read(dir, a.Identity); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Read before Write: %v, want ErrNotFound", err)
	}
	if err := Write(dir, a); err != nil {
		t.Fatal(err)
	}
	other := a.Identity
	other.Endpoint = "other --stdio" // same label, another server
	if _, err := Read(dir, other); !errors.Is(err, ErrNotFound) {
		t.Errorf("same label, other endpoint: %v, want ErrNotFound", err)
	}
	got, err := Read(dir, a.Identity)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(a, got); d != "" {
		t.Errorf("round trip mismatch (-want +got):\n%s", d)
	}
	if err := Remove(dir, a.Identity); err != nil {
		t.Fatal(err)
	}
	if err := Remove(dir, a.Identity); err != nil {
		t.Errorf("second Remove: %v", err)
	}
}

// TestPredates: a session predates a baseline when it started before the
// baseline's source session, told by SourceStart or, in a baseline written
// before that was recorded, by the time in the source's session id.
func TestPredates(t *testing.T) {
	t0 := time.Date(2026, 8, 2, 12, 0, 0, 0, time.UTC)
	b := &Baseline{}
	b.SetSource("B", t0)
	id, err := session.NewID(t0, strings.NewReader(strings.Repeat("x", 10)))
	if err != nil {
		t.Fatal(err)
	}
	old := &Baseline{Source: id}
	for _, tt := range []struct {
		name  string
		b     *Baseline
		id    string
		start time.Time
		want  bool
	}{
		{"older", b, "A", t0.Add(-time.Second), true},
		{"newer", b, "C", t0.Add(time.Second), false},
		{"the source itself", b, "B", t0.Add(-time.Second), false},
		{"start unknown", b, "A", time.Time{}, false},
		{"older, time from the source id", old, "A", t0.Add(-time.Second), true},
		{"newer, time from the source id", old, "C", t0.Add(time.Second), false},
		{"no source time", &Baseline{Source: "mcpsnoop tool baseline"}, "A", t0, false},
	} {
		if got := tt.b.Predates(tt.id, tt.start); got != tt.want {
			t.Errorf("%s: Predates() = %v, want %v", tt.name, got, tt.want)
		}
	}
}
