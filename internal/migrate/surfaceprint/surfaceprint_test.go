package surfaceprint_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpward/mcpward/internal/diff"
	"github.com/mcpward/mcpward/internal/migrate/surfaceprint"
	"github.com/mcpward/mcpward/internal/snapshot"
)

// The files under testdata/snapshots and testdata/conformance are
// mcp-surfaceprint's own (see /work/shared/reference/samples/README.md);
// testdata/legacy holds legacy reports written from the format's
// description.

func read(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", path))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func convert(t *testing.T, data []byte) *snapshot.Snapshot {
	t.Helper()
	s, err := surfaceprint.Snapshot(data)
	if err != nil {
		t.Fatalf("Snapshot: %v", err)
	}
	// Whatever the converter makes must be a valid mcpward snapshot:
	// migrate --write stores it, and the strict reader reads it back.
	b, err := snapshot.Marshal(s)
	if err != nil {
		t.Fatalf("Marshal: %v", err)
	}
	if _, err := snapshot.Unmarshal(b); err != nil {
		t.Fatalf("the converted snapshot does not read back: %v\n%s", err, b)
	}
	return s
}

// wrap makes a complete surfaceprint snapshot around a bare surface, as
// the conformance fixtures hold them.
func wrap(t *testing.T, surface json.RawMessage) []byte {
	t.Helper()
	doc := map[string]any{
		"snapshotFormatVersion": "1",
		"surfaceCompleteness":   "complete",
		"surface":               surface,
		"observation": map[string]any{
			"generatedAt": "2026-01-01T00:00:00Z", "protocolVersion": "2025-11-25", "serverName": "s",
			"command": []string{"srv"}, "status": "ok", "coverage": map[string]any{},
			"capabilities": map[string]bool{"tools": true, "resources": true, "prompts": true},
		},
	}
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func notesOf(s *snapshot.Snapshot, rule string) []string {
	var out []string
	for _, n := range s.Observation.Notes {
		if n.Kind == "import" && n.Rule == rule {
			out = append(out, n.Snippet)
		}
	}
	return out
}

func TestToyOpen(t *testing.T) {
	s := convert(t, read(t, "snapshots/toy-open.snapshot.json"))
	o := s.Observation
	if o.Status != snapshot.StatusOK || s.SurfaceDigest == "" {
		t.Fatalf("status %q digest %q, want ok with a digest (notes %v)", o.Status, s.SurfaceDigest, o.Notes)
	}
	if got := s.Surface.ToolNames(); !slices.Equal(got, []string{"create_item", "delete_item", "frobnicate", "get_item", "list_items"}) {
		t.Errorf("tools %v", got)
	}
	if len(s.Surface.Resources) != 1 || len(s.Surface.ResourceTemplates) != 1 || len(s.Surface.Prompts) != 1 {
		t.Errorf("resources %d, templates %d, prompts %d; want 1 each", len(s.Surface.Resources), len(s.Surface.ResourceTemplates), len(s.Surface.Prompts))
	}
	// surfaceprint's null title and annotations were absent on the wire.
	want := snapshot.Object{"uri": "toy://items", "name": "items", "description": "All items", "mimeType": "text/plain"}
	if diff := cmp.Diff(want, s.Surface.Resources[0]); diff != "" {
		t.Errorf("resource (-want +got):\n%s", diff)
	}
	if o.RecordedAt != "2026-06-27T12:29:52.543541Z" {
		t.Errorf("recordedAt %q", o.RecordedAt)
	}
	if o.Target.Command != "python" || !slices.Equal(o.Target.Args, []string{"tests/toy_servers/toy_open.py"}) {
		t.Errorf("target %+v", o.Target)
	}
	if d := s.Surface.Discover; d == nil || snapshot.Str(d.ServerInfo, "name") != "toy-open" || d.ProtocolVersion != "2025-11-25" {
		t.Errorf("discover %+v", d)
	}
	if got := notesOf(s, "surfaceprint_digest"); len(got) != 1 || !strings.Contains(got[0], "sha256:de40748c7be9ddd81ebedffde343e19d396bab7656c1b2bf5053ca9969a1f251") || !strings.Contains(got[0], "not verified") {
		t.Errorf("the original digest is not named (as not verified): %v", got)
	}
	if len(notesOf(s, "heuristics_not_carried")) != 1 || len(notesOf(s, "not_captured")) != 1 {
		t.Errorf("notes %v", o.Notes)
	}
	// An mcpward snapshot without probes has the same probe spec, so
	// check compares a live recording with it.
	var none snapshot.ProbeSpec
	if h, _ := none.Hash(); s.ProbeSpecHash != h {
		t.Errorf("probeSpecHash %s, want that of no probes %s", s.ProbeSpecHash, h)
	}
	if f := diff.Diff(s, convert(t, read(t, "snapshots/toy-open.snapshot.json"))); len(f) != 0 {
		t.Errorf("toy-open against itself: %v", f)
	}
}

// TestConformanceChanges: each change case of surfaceprint's conformance
// suite gives the mcpward findings that correspond to its expected
// records, and nothing else.
func TestConformanceChanges(t *testing.T) {
	type finding struct{ Rule, Subject string }
	tests := []struct {
		file string
		// record is the expected record, for the reader of a failure.
		record string
		want   []finding
	}{
		{"manifest_description_changed", "value_changed manifest_tool task /description",
			[]finding{{"manifest.description.changed", "manifest.tools.task.description"}}},
		{"manifest_operation_added", "value_added manifest_tool task /operations delete",
			// 'delete' reads as destructive: the risky rule of issue 24 beside snapgauge's tier.
			[]finding{{"manifest.operation.added", "manifest.tools.task.operations.delete"}, {"manifest.operation.added_destructive", "manifest.tools.task.operations.delete"}}},
		{"prompt_argument_required_changed", "value_changed prompt analyze /arguments/project/required",
			[]finding{{"prompt.argument.required.added", "prompts.analyze.arguments.project.required"}}},
		{"resource_description_changed", "value_changed resource toy://r /description",
			[]finding{{"resource.metadata.changed", "resources.toy://r.description"}}},
		{"tool_schema_enum_expanded", "value_changed tool t /inputSchema",
			[]finding{{"tool.input.enum.added_destructive", "tools.t.inputSchema.properties.action.enum.delete"}, {"tool.input.enum.added", "tools.t.inputSchema.properties.action.enum.delete"}}},
	}
	files, _ := filepath.Glob("testdata/conformance/changes/*.json")
	if len(files) != len(tests) {
		t.Errorf("%d change cases on disk, %d in the table", len(files), len(tests))
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			var c struct {
				Before, After   json.RawMessage
				ExpectedRecords []map[string]any
			}
			if err := json.Unmarshal(read(t, "conformance/changes/"+tt.file+".json"), &c); err != nil {
				t.Fatal(err)
			}
			r := c.ExpectedRecords[0]
			if got := strings.TrimSpace(strings.Join([]string{r["type"].(string), r["entityType"].(string), r["entityId"].(string), r["path"].(string), valueOf(r)}, " ")); got != tt.record {
				t.Fatalf("the case's record is %q, the table says %q", got, tt.record)
			}
			old, cur := convert(t, wrap(t, c.Before)), convert(t, wrap(t, c.After))
			if old.SurfaceDigest == cur.SurfaceDigest {
				t.Errorf("equal digests %s for a change", old.SurfaceDigest)
			}
			var got []finding
			for _, f := range diff.Diff(old, cur) {
				got = append(got, finding{f.RuleID, f.Subject})
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("findings (-want +got):\n%s", d)
			}
		})
	}
}

func valueOf(r map[string]any) string {
	if v, ok := r["value"].(string); ok {
		return v
	}
	return ""
}

// TestConformanceEquivalence: reordered schema keys, enums, prompt
// arguments and manifest operations are the same surface.
func TestConformanceEquivalence(t *testing.T) {
	var c struct{ A, B json.RawMessage }
	if err := json.Unmarshal(read(t, "conformance/equivalence/reordered_manifest_ops_and_prompt_args.json"), &c); err != nil {
		t.Fatal(err)
	}
	a, b := convert(t, wrap(t, c.A)), convert(t, wrap(t, c.B))
	if f := diff.Diff(a, b); len(f) != 0 {
		t.Errorf("findings %v, want none", f)
	}
	if a.SurfaceDigest == "" || a.SurfaceDigest != b.SurfaceDigest {
		t.Errorf("digests %q and %q, want equal", a.SurfaceDigest, b.SurfaceDigest)
	}
}

// TestConformanceCanonical: a surface and its canonical form are the same
// surface, manifest included.
func TestConformanceCanonical(t *testing.T) {
	var c struct{ Surface, ExpectedCanonical json.RawMessage }
	if err := json.Unmarshal(read(t, "conformance/canonical/basic_surface.json"), &c); err != nil {
		t.Fatal(err)
	}
	a, b := convert(t, wrap(t, c.Surface)), convert(t, wrap(t, c.ExpectedCanonical))
	if f := diff.Diff(a, b); len(f) != 0 {
		t.Errorf("findings %v, want none", f)
	}
	m := a.Surface.Manifest
	if m == nil || m.URI != "toy://mcp/manifest" || len(m.Tools) != 2 || !slices.Equal(m.Tools[1].Operations, []string{"list", "get", "create"}) {
		t.Errorf("manifest %+v", m)
	}
	if a.Observation.Status != snapshot.StatusOK {
		t.Errorf("status %q, notes %v", a.Observation.Status, a.Observation.Notes)
	}
}

func TestMinimalDiff(t *testing.T) {
	old := convert(t, read(t, "snapshots/tests-minimal-empty.snapshot.json"))
	// The test suite's placeholder digest (sha256:000…) is named as it
	// is: the converter no longer recomputes surfaceprint's digest.
	if got := notesOf(old, "surfaceprint_digest"); len(got) != 1 || !strings.Contains(got[0], "sha256:000") {
		t.Errorf("digest notes %v, want one naming the stored digest", got)
	}
	cur := convert(t, read(t, "snapshots/tests-minimal-one-tool.snapshot.json"))
	var got []string
	for _, f := range diff.Diff(old, cur) {
		got = append(got, f.RuleID+" "+f.Subject)
	}
	if !slices.Equal(got, []string{"tool.added tools.t"}) {
		t.Errorf("findings %v, want tool.added tools.t", got)
	}
}

func TestUnsupportedVersion(t *testing.T) {
	_, err := surfaceprint.Snapshot(read(t, "snapshots/tests-version-999.snapshot.json"))
	if !errors.Is(err, surfaceprint.ErrUnsupportedVersion) || !strings.Contains(err.Error(), "snapshotFormatVersion: 999") {
		t.Errorf("err = %v, want the unsupported version named", err)
	}
	// A number is what Python's str() makes of it: 1 is version 1.
	if _, err := surfaceprint.Snapshot([]byte(`{"snapshotFormatVersion": 1, "surface": {}, "observation": {}}`)); err != nil {
		t.Errorf("version 1 as a number: %v", err)
	}
}

func TestBadInput(t *testing.T) {
	for _, in := range []string{`{"snapshotFormatVersion": "1"`, `[1]`, `{"snapshotFormatVersion": "1"} x`, `{"snapshotFormatVersion": "1", "surface": []}`} {
		if _, err := surfaceprint.Snapshot([]byte(in)); err == nil {
			t.Errorf("%s: no error", in)
		}
	}
}

func TestLegacyReport(t *testing.T) {
	s := convert(t, read(t, "legacy/toy-open.report.json"))
	o := s.Observation
	if o.Status != snapshot.StatusPartial || s.SurfaceDigest != "" {
		t.Errorf("status %q digest %q, want partial without a digest", o.Status, s.SurfaceDigest)
	}
	if len(notesOf(s, "legacy_report")) != 1 {
		t.Errorf("no legacy_report note: %v", o.Notes)
	}
	if c := o.Coverage.Tools; !c.Attempted || c.Completed || c.Error == nil || c.Error.Kind != "legacy" {
		t.Errorf("tools coverage %+v, want incomplete (legacy)", c)
	}
	wantTool := snapshot.Object{"name": "create_item", "description": "Create a new item"}
	if d := cmp.Diff(wantTool, s.Surface.Tools[0]); d != "" {
		t.Errorf("tool (-want +got):\n%s", d)
	}
	if got := snapshot.Str(s.Surface.ResourceTemplates[0], "uriTemplate"); got != "toy://items/{item_id}" {
		t.Errorf("template %q", got)
	}
	wantPrompt := snapshot.Object{"name": "analyze_items", "description": "Analyze items for a project", "arguments": []any{map[string]any{"name": "project_name"}}}
	if d := cmp.Diff(wantPrompt, s.Surface.Prompts[0]); d != "" {
		t.Errorf("prompt (-want +got):\n%s", d)
	}

	// Against the versioned snapshot of the same server, the names match:
	// no tool, resource, template or prompt is added or removed. (What
	// the report lacks, such as schemas and argument details, does show as
	// changes; the legacy side is partial, so such a diff is incomplete
	// evidence, exit 2.)
	cur := convert(t, read(t, "snapshots/toy-open.snapshot.json"))
	for _, f := range diff.Diff(s, cur) {
		kind, change, _ := strings.Cut(f.RuleID, ".")
		if slices.Contains([]string{"tool", "resource", "resourceTemplate", "prompt"}, kind) && (change == "added" || change == "removed") {
			t.Errorf("legacy → current: %s %s", f.RuleID, f.Subject)
		}
	}

	m := convert(t, read(t, "legacy/capabilities.report.json"))
	if m.Surface.Manifest == nil || len(m.Surface.Manifest.Tools) != 2 {
		t.Fatalf("manifest %+v", m.Surface.Manifest)
	}
	if got := m.Surface.Manifest.Tools[1]; got.Tool != "task" || !slices.Equal(got.Operations, []string{"list", "get", "create"}) {
		t.Errorf("manifest task %+v", got)
	}
	var parsed string
	for _, n := range m.Observation.Notes {
		if n.Rule == "manifest_parsed" {
			parsed = n.Snippet
		}
	}
	if !strings.HasPrefix(parsed, "sha256:5d41402a") {
		t.Errorf("manifest provenance %q, want surfaceprint's hash of the raw text", parsed)
	}
}

// TestStatuses covers the snapshots surfaceprint writes when inspection
// did not go well (the samples hold none; these follow §6 of the
// reference).
func TestStatuses(t *testing.T) {
	emptySurface := `{"tools":[],"resources":[],"resourceTemplates":[],"prompts":[],"declarationSources":[]}`
	section := func(att, comp bool, sup, rule string) string {
		s := `{"attempted":` + boolStr(att) + `,"completed":` + boolStr(comp) + `,"declaredSupported":` + sup
		if rule != "" {
			s += `,"errorRule":"` + rule + `"`
		}
		return s + `}`
	}
	allSections := func(s string) string {
		return `{"tools":` + s + `,"resources":` + s + `,"resourceTemplates":` + s + `,"prompts":` + s + `,"manifest":{"attempted":false,"completed":true,"declaredSupported":null}}`
	}
	doc := func(status, completeness, surface, coverage, notes, errs string) []byte {
		return []byte(`{"snapshotFormatVersion":"1","surfaceCompleteness":"` + completeness + `","surface":` + surface +
			`,"observation":{"generatedAt":"2026-01-01T00:00:00+00:00","protocolVersion":"2025-11-25","serverName":"toy","command":["toy"],"status":"` + status +
			`","capabilities":{"tools":true,"resources":true,"prompts":true},"coverage":` + coverage + `,"notes":` + notes + `,"errors":` + errs + `,"localAnnotations":{"tools":[],"risk":{},"signals":[]}}}`)
	}
	authNote := `[{"kind":"server","name":"stderr","rule":"auth_hint","snippet":"Authentication required: no auth token/credentials provided."}]`
	tests := []struct {
		name       string
		in         []byte
		wantStatus string
		check      func(t *testing.T, s *snapshot.Snapshot)
	}{
		{"auth gated", doc("auth_gated", "partial", emptySurface, allSections(section(true, true, "true", "")), authNote, `[]`), snapshot.StatusAuthGated, nil},
		{"auth required", doc("auth_required", "partial", emptySurface, allSections(section(false, false, "null", "")), authNote,
			`[{"kind":"mcp","name":"initialize","rule":"error","snippet":"Connection closed"}]`), snapshot.StatusAuthRequired,
			func(t *testing.T, s *snapshot.Snapshot) {
				if s.Surface.Discover != nil {
					t.Errorf("a server that never initialized has a discover section")
				}
			}},
		{"timeout", doc("timeout", "partial", emptySurface, allSections(section(false, false, "null", "")), `[]`,
			`[{"kind":"mcp","name":"initialize","rule":"timeout","snippet":"Timed out after 0.3s"}]`), snapshot.StatusTimeout, nil},
		{"startup error", doc("startup_error", "partial", emptySurface, allSections(section(false, false, "null", "")), `[]`,
			`[{"kind":"mcp","name":"initialize","rule":"error","snippet":"boom"}]`), snapshot.StatusStartupError, nil},
		{"resources timed out", doc("partial", "partial",
			`{"tools":[{"name":"ping","description":null,"inputSchema":{"type":"object"}}],"resources":[],"resourceTemplates":[],"prompts":[],"declarationSources":[]}`,
			`{"tools":`+section(true, true, "true", "")+`,"resources":`+section(true, false, "true", "timeout")+`,"resourceTemplates":`+section(true, true, "true", "")+`,"prompts":`+section(true, true, "true", "")+`,"manifest":`+section(false, false, "null", "")+`}`,
			`[{"kind":"mcp","name":"list_resources","rule":"timeout","snippet":"Timed out after 1.2s"}]`, `[]`), snapshot.StatusPartial,
			func(t *testing.T, s *snapshot.Snapshot) {
				if c := s.Observation.Coverage.Resources; c.Completed || c.Error == nil || c.Error.Kind != "timeout" {
					t.Errorf("resources coverage %+v", c)
				}
				if _, ok := s.Surface.Tools[0]["description"]; ok {
					t.Errorf("a null description was kept")
				}
			}},
		{"tools only", doc("ok", "complete",
			`{"tools":[{"name":"greet","description":"Say hello","inputSchema":{"type":"object"}}],"resources":[],"resourceTemplates":[],"prompts":[],"declarationSources":[]}`,
			`{"tools":`+section(true, true, "true", "")+`,"resources":`+section(true, true, "false", "")+`,"resourceTemplates":`+section(true, true, "false", "")+`,"prompts":`+section(true, true, "false", "")+`,"manifest":`+section(false, true, "null", "")+`}`,
			`[]`, `[]`), snapshot.StatusOK,
			func(t *testing.T, s *snapshot.Snapshot) {
				if c := s.Observation.Coverage.Prompts; !c.Unsupported || !c.Completed {
					t.Errorf("prompts coverage %+v, want unsupported", c)
				}
				if s.SurfaceDigest == "" {
					t.Errorf("no digest for a complete surface")
				}
			}},
		{"duplicate manifest operations", doc("partial", "partial",
			`{"tools":[{"name":"task","description":"t","inputSchema":{}}],"resources":[{"uri":"toy://mcp/manifest","name":"m"}],"resourceTemplates":[],"prompts":[],"declarationSources":[{"sourceType":"resource","name":"mcp_manifest","uri":"toy://mcp/manifest","status":"parsed","extracted":{"toolCapabilities":[{"tool":"task","description":"Task management","operations":["list","get","get"]}]}}]}`,
			`{"tools":`+section(true, true, "true", "")+`,"resources":`+section(true, true, "true", "")+`,"resourceTemplates":`+section(true, true, "true", "")+`,"prompts":`+section(true, true, "true", "")+`,"manifest":`+section(true, false, "null", "duplicate_operations")+`}`,
			`[]`, `[]`), snapshot.StatusPartial,
			func(t *testing.T, s *snapshot.Snapshot) {
				if c := s.Observation.Coverage.Manifest; c.Error == nil || c.Error.Kind != "duplicate_operations" {
					t.Errorf("manifest coverage %+v", c)
				}
			}},
		{"empty manifest (ok in surfaceprint, partial here)", doc("ok", "partial", emptySurface,
			`{"tools":`+section(true, true, "true", "")+`,"resources":`+section(true, true, "true", "")+`,"resourceTemplates":`+section(true, true, "true", "")+`,"prompts":`+section(true, true, "true", "")+`,"manifest":`+section(true, false, "null", "")+`}`,
			`[]`, `[]`), snapshot.StatusPartial,
			func(t *testing.T, s *snapshot.Snapshot) {
				if len(notesOf(s, "status_reread")) != 1 {
					t.Errorf("the changed status is not explained: %v", s.Observation.Notes)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := convert(t, tt.in)
			if s.Observation.Status != tt.wantStatus {
				t.Errorf("status %q, want %q (notes %v)", s.Observation.Status, tt.wantStatus, s.Observation.Notes)
			}
			if tt.wantStatus != snapshot.StatusOK && s.SurfaceDigest != "" {
				t.Errorf("digest %q on an incomplete surface", s.SurfaceDigest)
			}
			if tt.check != nil {
				tt.check(t, s)
			}
		})
	}
}

func boolStr(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// TestUnmappedIsNamed: nothing is dropped without a note.
func TestUnmappedIsNamed(t *testing.T) {
	in := []byte(`{"snapshotFormatVersion":"1","surfaceCompleteness":"complete","vendorExtra":{"a":1},
		"surface":{"tools":[{"name":"t","inputSchema":{}},"junk"],"resources":[7],"resourceTemplates":[],"prompts":[{"name":"p","arguments":[3]}],
		  "declarationSources":[{"sourceType":"framework","name":"fastmcp","uri":null,"extracted":{}},
		    {"sourceType":"resource","name":"mcp_manifest","uri":"x://mcp/manifest","rawHash":"h","extracted":{"toolCapabilities":[{"tool":"t","operations":["a"],"extra":1},5],"other":true}}],
		  "later":[]},
		"observation":{"generatedAt":"yesterday","status":"ok","coverage":{},"odd":1}}`)
	s := convert(t, in)
	var all []string
	for _, n := range s.Observation.Notes {
		if n.Kind == "import" {
			all = append(all, n.Snippet)
		}
	}
	text := strings.Join(all, "\n")
	for _, want := range []string{`"vendorExtra"`, `surface.tools[1]`, `surface.resources[0]`, `arguments[0]`, `fastmcp`, `rawHash`, `extracted.other`, `toolCapabilities[t].extra`, `toolCapabilities[1]`, `"later"`, `"odd"`, `yesterday`} {
		if !strings.Contains(text, want) {
			t.Errorf("no note names %s; notes:\n%s", want, text)
		}
	}
}

// The server's tools/list order is unknown (surfaceprint sorted by name,
// legacy reports by risk): an imported snapshot claims none, so a legacy
// report against the snapshot of the same server reports no order change.
func TestNoToolsOrder(t *testing.T) {
	old := convert(t, read(t, "legacy/toy-open.report.json"))
	cur := convert(t, read(t, "snapshots/toy-open.snapshot.json"))
	if old.Surface.ToolsList != nil || cur.Surface.ToolsList != nil {
		t.Errorf("toolsList %+v, %+v; want none", old.Surface.ToolsList, cur.Surface.ToolsList)
	}
	for _, f := range diff.Diff(old, cur) {
		if strings.HasPrefix(f.RuleID, "order.") {
			t.Errorf("%s %s", f.RuleID, f.Subject)
		}
	}
	if d, _ := snapshot.SurfaceDigest(&cur.Surface); d != cur.SurfaceDigest {
		t.Errorf("stored digest %s is not that of the surface (%s)", cur.SurfaceDigest, d)
	}
}
