package diff

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpward/mcpward/internal/snapshot"
)

var update = flag.Bool("update", false, "rewrite the findings section of testdata/*.txtar")

// archive is a minimal txtar: a comment, then "-- name --" sections.
type archive struct {
	comment string
	files   []section
}

type section struct {
	name string
	data []byte
}

func parseArchive(b []byte) archive {
	var a archive
	lines := strings.SplitAfter(string(b), "\n")
	cur := -1
	var buf strings.Builder
	flush := func() {
		if cur < 0 {
			a.comment = buf.String()
		} else {
			a.files[cur].data = []byte(buf.String())
		}
		buf.Reset()
	}
	for _, l := range lines {
		t := strings.TrimRight(l, "\n")
		if strings.HasPrefix(t, "-- ") && strings.HasSuffix(t, " --") && len(t) > 6 {
			flush()
			a.files = append(a.files, section{name: strings.TrimSpace(t[3 : len(t)-3])})
			cur = len(a.files) - 1
			continue
		}
		buf.WriteString(l)
	}
	flush()
	return a
}

func (a archive) format() []byte {
	var b bytes.Buffer
	b.WriteString(a.comment)
	for _, f := range a.files {
		fmt.Fprintf(&b, "-- %s --\n", f.name)
		b.Write(f.data)
	}
	return b.Bytes()
}

func (a archive) get(name string) []byte {
	for _, f := range a.files {
		if f.name == name {
			return f.data
		}
	}
	return nil
}

// loadSide reads a whole snapshot (when formatVersion is present) or a bare
// surface fragment.
func loadSide(t *testing.T, b []byte) *snapshot.Snapshot {
	t.Helper()
	if bytes.Contains(b, []byte(`"formatVersion"`)) {
		s, err := snapshot.Unmarshal(b)
		if err != nil {
			t.Fatalf("snapshot: %v", err)
		}
		return s
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	var s snapshot.Snapshot
	if err := dec.Decode(&s.Surface); err != nil {
		t.Fatalf("surface fragment: %v", err)
	}
	return &s
}

func findingLines(fs []Finding) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "%s %s %s\n", f.Tier, f.RuleID, f.Subject)
	}
	return b.String()
}

func TestRuleCases(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		rule := strings.TrimSuffix(filepath.Base(file), ".txtar")
		t.Run(rule, func(t *testing.T) {
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			a := parseArchive(raw)
			old, new := loadSide(t, a.get("old.json")), loadSide(t, a.get("new.json"))
			fs := Diff(old, new)
			got := findingLines(fs)
			if *update {
				for i := range a.files {
					if a.files[i].name == "findings" {
						a.files[i].data = []byte(got)
					}
				}
				if err := os.WriteFile(file, a.format(), 0o644); err != nil {
					t.Fatal(err)
				}
			} else if d := cmp.Diff(string(a.get("findings")), got); d != "" {
				t.Errorf("findings mismatch (-want +got):\n%s", d)
			}
			if _, ok := ruleByID[rule]; ok && !strings.Contains(got, " "+rule+" ") {
				t.Errorf("the case for rule %s does not produce it", rule)
			}
			for _, f := range fs {
				if _, ok := ruleByID[f.RuleID]; !ok {
					t.Errorf("finding with uncatalogued rule %q", f.RuleID)
				}
				if f.Message == "" {
					t.Errorf("finding %s %s has no message", f.RuleID, f.Subject)
				}
			}
			for _, side := range []*snapshot.Snapshot{old, new} {
				for _, f := range Diff(side, side) {
					// An unstable order is reported on the new side whatever
					// the old side was (snapgauge's semantics).
					if f.RuleID != "order.nondeterministic" {
						t.Errorf("a side diffed against itself gives %s %s", f.RuleID, f.Subject)
					}
				}
			}
		})
	}
}

func TestEveryRuleHasACase(t *testing.T) {
	for _, r := range Rules() {
		if _, err := os.Stat(filepath.Join("testdata", r.ID+".txtar")); err != nil {
			t.Errorf("rule %s has no testdata/%s.txtar", r.ID, r.ID)
		}
		if r.Summary == "" || r.Rationale == "" {
			t.Errorf("rule %s lacks a summary or rationale", r.ID)
		}
	}
	if n := len(Rules()); n != len(ruleByID) {
		t.Errorf("duplicate rule ids in the catalogue")
	}
	sg := 0
	for _, r := range Rules() {
		if r.Origin == "snapgauge" {
			sg++
		}
	}
	if sg != 37 {
		t.Errorf("snapgauge rules = %d, want 37", sg)
	}
}

// mirrors pairs rules that a swap of old and new turns into each other.
var mirrors = map[string]string{
	"tool.removed":                              "tool.added",
	"tool.input.required.added":                 "required.removed",
	"tool.input.enum.removed":                   "tool.input.enum.added",
	"tool.input.type.narrowed":                  "tool.input.type.widened",
	"tool.output.required.added":                "tool.output.required.removed",
	"output.enum.added":                         "tool.output.enum.removed",
	"tool.output.type.widened":                  "tool.output.type.narrowed",
	"tool.output.schema.added":                  "tool.output.schema.removed",
	"xhdr.added":                                "xhdr.removed",
	"xhdr.invalidated":                          "xhdr.validated",
	"capability.removed":                        "capability.added",
	"capability.feature.removed":                "capability.feature.added",
	"version.dropped":                           "version.added",
	"annotation.readOnlyHint.revoked":           "annotation.readOnlyHint.relaxed",
	"annotation.destructiveHint.raised":         "annotation.destructiveHint.relaxed",
	"annotation.idempotentHint.revoked":         "annotation.idempotentHint.relaxed",
	"annotation.openWorldHint.raised":           "annotation.openWorldHint.lowered",
	"cacheScope.widened":                        "cacheScope.narrowed",
	"ttlMs.raised":                              "ttlMs.lowered",
	"resource.removed":                          "resource.added",
	"resourceTemplate.removed":                  "resourceTemplate.added",
	"prompt.removed":                            "prompt.added",
	"manifest.tool.removed":                     "manifest.tool.added",
	"manifest.operation.removed":                "manifest.operation.added",
	"behavior.error.appeared":                   "behavior.error.disappeared",
	"behavior.isError.raised":                   "behavior.isError.cleared",
	"tool.input.optional.added":                 "tool.input.optional.removed",
	"tool.output.property.added":                "tool.output.property.removed",
	"prompt.argument.optional.added":            "prompt.argument.removed",
	"tool.input.additionalProperties.tightened": "tool.input.additionalProperties.loosened",
	"tool.output.additionalProperties.loosened": "tool.output.additionalProperties.tightened",
}

func TestDirection(t *testing.T) {
	for a, b := range mirrors {
		for _, pair := range [][2]string{{a, b}, {b, a}} {
			raw, err := os.ReadFile(filepath.Join("testdata", pair[0]+".txtar"))
			if err != nil {
				t.Fatal(err)
			}
			ar := parseArchive(raw)
			old, new := loadSide(t, ar.get("old.json")), loadSide(t, ar.get("new.json"))
			got := findingLines(Diff(new, old))
			if !strings.Contains(got, " "+pair[1]+" ") {
				t.Errorf("swapping the %s case gives\n%swant %s", pair[0], got, pair[1])
			}
		}
	}
}

func TestSeedExample(t *testing.T) {
	raw, err := os.ReadFile("testdata/seed/000-drift-breaking.txtar")
	if err != nil {
		t.Fatal(err)
	}
	a := parseArchive(raw)
	fs := Diff(loadSide(t, a.get("old.json")), loadSide(t, a.get("new.json")))
	if d := cmp.Diff(string(a.get("findings")), findingLines(fs)); d != "" {
		t.Errorf("seed findings mismatch (-want +got):\n%s", d)
	}
	msgs := map[string]string{}
	for _, f := range fs {
		msgs[f.RuleID] = f.Message
	}
	want := map[string]string{
		"tool.input.required.added":  `input "date" is now required — a client recorded against the old contract does not send it`,
		"tool.removed":               `tool "archive_note" was removed — a client holding the old contract will fail`,
		"tool.description.changed":   `description changed — the trigger surface a model routes on`,
		"tool.input.optional.added":  `optional input "cursor" was added`,
		"serverInfo.version.changed": `serverInfo.version changed`,
		"tool.icons.changed":         `icons changed`,
	}
	if d := cmp.Diff(want, msgs); d != "" {
		t.Errorf("seed messages mismatch (-want +got):\n%s", d)
	}
	if s := Summarize(fs); s != (Summary{Breaking: 2, Risky: 1, Compatible: 1, Cosmetic: 2}) {
		t.Errorf("summary = %+v", s)
	}
	if _, failed := Gate(fs, Risky, nil, nil); !failed {
		t.Error("the default gate should fail on the seed")
	}
}

func TestSelfDiffIsEmpty(t *testing.T) {
	s := genSnapshot(200, 0)
	if fs := Diff(s, s); len(fs) != 0 {
		t.Errorf("Diff(s, s) = %v", fs)
	}
}

func TestTier(t *testing.T) {
	for i, n := range []string{"cosmetic", "compatible", "risky", "breaking"} {
		tier, err := ParseTier(strings.ToUpper(n))
		if err != nil || tier != Tier(i) || tier.String() != n {
			t.Errorf("ParseTier(%q) = %v, %v", n, tier, err)
		}
	}
	if _, err := ParseTier("severe"); err == nil {
		t.Error("ParseTier(severe) should fail")
	}
	b, _ := json.Marshal(Finding{RuleID: "x", Tier: Breaking})
	if !bytes.Contains(b, []byte(`"tier":"breaking"`)) {
		t.Errorf("tier marshals as %s", b)
	}
}

func TestGate(t *testing.T) {
	fs := []Finding{
		{RuleID: "tool.removed", Tier: Breaking},
		{RuleID: "tool.description.changed", Tier: Risky},
		{RuleID: "tool.icons.changed", Tier: Cosmetic},
	}
	tests := []struct {
		name   string
		failOn Tier
		only   []Tier
		ignore []string
		kept   int
		failed bool
	}{
		{"default risky", Risky, nil, nil, 3, true},
		{"ignore the high ones", Risky, nil, []string{"tool.removed", "tool.description.changed"}, 1, false},
		{"only cosmetic", Risky, []Tier{Cosmetic}, nil, 1, false},
		{"any change", Cosmetic, []Tier{Cosmetic}, nil, 1, true},
		{"breaking gate", Breaking, nil, []string{"tool.removed"}, 2, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kept, failed := Gate(fs, tt.failOn, tt.only, tt.ignore)
			if len(kept) != tt.kept || failed != tt.failed {
				t.Errorf("Gate() = %d kept, failed %v; want %d, %v", len(kept), failed, tt.kept, tt.failed)
			}
		})
	}
	if s := Summarize(fs); s != (Summary{Breaking: 1, Risky: 1, Cosmetic: 1}) {
		t.Errorf("Summarize() = %+v", s)
	}
}

// genSnapshot builds a snapshot with n tools; variant 1 mutates every tenth.
func genSnapshot(n, variant int) *snapshot.Snapshot {
	s := &snapshot.Snapshot{}
	order := make([]string, 0, n)
	for i := range n {
		name := fmt.Sprintf("tool_%05d", i)
		desc := "Does thing " + name
		req := []any{"a"}
		enum := []any{"x", "y", "z"}
		if variant == 1 && i%10 == 0 {
			desc += " better"
			req = append(req, "b")
			enum = enum[:2]
		}
		s.Surface.Tools = append(s.Surface.Tools, snapshot.Object{
			"name":        name,
			"description": desc,
			"inputSchema": map[string]any{
				"type":     "object",
				"required": req,
				"properties": map[string]any{
					"a": map[string]any{"type": "string", "description": "first"},
					"b": map[string]any{"type": []any{"integer", "null"}, "enum": enum, "x-mcp-header": "X-B"},
					"c": map[string]any{"type": "object", "properties": map[string]any{"d": map[string]any{"type": "boolean"}}},
				},
			},
			"outputSchema": map[string]any{"type": "object", "properties": map[string]any{"ok": map[string]any{"type": "boolean"}}},
			"annotations":  map[string]any{"readOnlyHint": i%2 == 0},
			"_meta":        map[string]any{"vendor/id": json.Number(fmt.Sprint(i))},
		})
		order = append(order, name)
	}
	s.Surface.ToolsList = &snapshot.ToolsList{Order: order, OrderStable: true}
	return s
}

func BenchmarkDiff5000(b *testing.B) {
	old, new := genSnapshot(5000, 0), genSnapshot(5000, 1)
	b.ResetTimer()
	for b.Loop() {
		_ = Diff(old, new)
	}
}

// A version missing from a list that holds only the negotiated version
// proves nothing: checking server-everything 2026.8.31 (versions learned
// by one initialize per revision) against a 2025.1.14 snapshot (the
// negotiated 2024-11-05 only) must not report 2024-11-05 dropped (issue 11
// item 6). version.dropped needs the new list complete, version.added the
// old one; a snapshot without the source field is negotiated-only when
// legacy, discover otherwise.
func TestVersionsNeedCompleteLists(t *testing.T) {
	snap := func(era, source string, versions ...string) *snapshot.Snapshot {
		return &snapshot.Snapshot{
			Observation: snapshot.Observation{Era: era, SupportedVersionsSource: source},
			Surface: snapshot.Surface{Discover: &snapshot.Discover{SupportedVersions: versions,
				Capabilities: snapshot.Object{}, ServerInfo: snapshot.Object{}}},
		}
	}
	all := []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}
	tests := []struct {
		name     string
		old, new *snapshot.Snapshot
		want     string
	}{
		{"negotiated-only old (no source field) vs probed new", snap("legacy", "", "2024-11-05"), snap("legacy", snapshot.VersionsInitializeProbe, all...), ""},
		{"negotiated-only on both sides", snap("legacy", snapshot.VersionsNegotiated, "2024-11-05"), snap("legacy", snapshot.VersionsNegotiated, "2025-11-25"), ""},
		{"probed new lacks an accepted old version", snap("legacy", "", "2024-11-05"), snap("legacy", snapshot.VersionsInitializeProbe, "2025-11-25"),
			"breaking version.dropped discover.supportedVersions.2024-11-05\n"},
		{"probed on both sides", snap("legacy", snapshot.VersionsInitializeProbe, "2024-11-05", "2025-06-18"), snap("legacy", snapshot.VersionsInitializeProbe, "2025-06-18", "2025-11-25"),
			"breaking version.dropped discover.supportedVersions.2024-11-05\ncompatible version.added discover.supportedVersions.2025-11-25\n"},
		{"modern without the field lists from discover", snap("modern", "", "2025-11-25", "2026-07-28"), snap("modern", snapshot.VersionsDiscover, "2026-07-28"),
			"breaking version.dropped discover.supportedVersions.2025-11-25\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := findingLines(Diff(tt.old, tt.new)); got != tt.want {
				t.Errorf("Diff() =\n%swant\n%s", got, tt.want)
			}
		})
	}
}

func TestParseGateTier(t *testing.T) {
	tests := []struct {
		in      string
		want    Tier
		wantErr bool
	}{
		{"any", Cosmetic, false},
		{"ANY", Cosmetic, false},
		{"cosmetic", Cosmetic, false},
		{"risky", Risky, false},
		{"severe", 0, true},
	}
	for _, tt := range tests {
		got, err := ParseGateTier(tt.in)
		if (err != nil) != tt.wantErr || (err == nil && got != tt.want) {
			t.Errorf("ParseGateTier(%q) = %v, %v; want %v (error %v)", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
	if _, err := ParseTier("any"); err == nil {
		t.Errorf(`ParseTier("any") succeeded: "any" is a gate, not a tier (--only any means nothing)`)
	}
}
