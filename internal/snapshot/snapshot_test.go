package snapshot

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpward/mcpward/internal/fault"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

func mustBuild(t *testing.T, ev *Evidence, opts *BuildOptions) *Snapshot {
	t.Helper()
	s, err := Build(ev, opts)
	if err != nil {
		t.Fatalf("Build() error: %v", err)
	}
	return s
}

func mustMarshal(t *testing.T, s *Snapshot) []byte {
	t.Helper()
	b, err := Marshal(s)
	if err != nil {
		t.Fatalf("Marshal() error: %v", err)
	}
	return b
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden (run with -update): %v", err)
	}
	if d := cmp.Diff(string(want), string(got)); d != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", path, d)
	}
}

func TestBuildGolden(t *testing.T) {
	partial := cleanEvidence()
	partial.Prompts.Err = &SectionError{Kind: "timeout", Message: "prompts/list timed out after 10s"}
	partial.Probes[0] = ProbeEvidence{ID: "weather", Tool: "get_weather", Failure: &SectionError{Kind: "exited", Message: "server exited"}}

	gated := &Evidence{
		Era:       EraModern,
		Discover:  json.RawMessage(`{"supportedVersions":["2026-07-28"],"capabilities":{},"serverInfo":{"name":"g","version":"1"}}`),
		Tools:     ListEvidence{Attempted: true, Pages: []json.RawMessage{json.RawMessage(`{"tools":[]}`)}},
		Resources: ListEvidence{Attempted: true, Pages: []json.RawMessage{json.RawMessage(`{"resources":[]}`)}},
		Stderr:    "starting\nAuthentication required: no auth token provided. API key sk_live_abcdefghijklmnopqrstuvwxyz0123\n",
	}
	crashed := &Evidence{
		Target:        TargetInfo{Transport: "stdio", Command: "python3", Args: []string{"srv.py"}},
		DiscoverError: &SectionError{Kind: "exited", Message: "server exited with status 1"},
		Stderr:        "Traceback (most recent call last):\n  File \"srv.py\", line 3, in <module>\n    import mcp\nModuleNotFoundError: No module named 'mcp'\n",
	}
	tests := []struct {
		name string
		ev   *Evidence
		opts *BuildOptions
	}{
		{"clean", cleanEvidence(), &BuildOptions{MCPWardVersion: "0.0.0-test", ProbeSpec: cleanSpec()}},
		{"legacy", legacyEvidence(), &BuildOptions{MCPWardVersion: "0.0.0-test"}},
		{"partial", partial, &BuildOptions{MCPWardVersion: "0.0.0-test", ProbeSpec: cleanSpec()}},
		{"auth_gated", gated, nil},
		{"startup_error", crashed, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			golden(t, tt.name, mustMarshal(t, mustBuild(t, tt.ev, tt.opts)))
		})
	}
}

func TestBuildStatus(t *testing.T) {
	partial := cleanEvidence()
	partial.Resources.Err = &SectionError{Kind: "timeout", Message: "t"}
	auth := cleanEvidence()
	auth.Tools.Err = &SectionError{Kind: "auth", Message: "401", HTTPStatus: 401}
	timeout := &Evidence{DiscoverError: &SectionError{Kind: "timeout", Message: "t"}}
	unstable := cleanEvidence()
	unstable.ToolsRepeats[1].Pages = []json.RawMessage{reverseTools(t, cleanTools)}

	tests := []struct {
		name       string
		ev         *Evidence
		status     string
		digest     bool
		orderStabl bool
	}{
		{"clean", cleanEvidence(), StatusOK, true, true},
		{"section timeout", partial, StatusPartial, false, true},
		{"section auth", auth, StatusAuthRequired, false, true},
		{"handshake timeout", timeout, StatusTimeout, false, false},
		{"order unstable", unstable, StatusOK, true, false},
		{"legacy", legacyEvidence(), StatusOK, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := mustBuild(t, tt.ev, nil)
			if s.Observation.Status != tt.status {
				t.Errorf("status = %q, want %q", s.Observation.Status, tt.status)
			}
			if got := s.SurfaceDigest != ""; got != tt.digest {
				t.Errorf("has surfaceDigest = %v, want %v", got, tt.digest)
			}
			if s.Surface.ToolsList != nil && s.Surface.ToolsList.OrderStable != tt.orderStabl {
				t.Errorf("orderStable = %v, want %v", s.Surface.ToolsList.OrderStable, tt.orderStabl)
			}
		})
	}
}

func reverseTools(t *testing.T, page string) json.RawMessage {
	t.Helper()
	var p map[string]any
	if err := json.Unmarshal([]byte(page), &p); err != nil {
		t.Fatal(err)
	}
	tools := p["tools"].([]any)
	for i, j := 0, len(tools)-1; i < j; i, j = i+1, j-1 {
		tools[i], tools[j] = tools[j], tools[i]
	}
	b, _ := json.Marshal(p)
	return b
}

func TestBuildDeterministic(t *testing.T) {
	opts := &BuildOptions{MCPWardVersion: "x", ProbeSpec: cleanSpec()}
	a := mustMarshal(t, mustBuild(t, cleanEvidence(), opts))
	b := mustMarshal(t, mustBuild(t, cleanEvidence(), opts))
	if !bytes.Equal(a, b) {
		t.Fatalf("two builds of the same evidence differ:\n%s", cmp.Diff(string(a), string(b)))
	}
}

func TestBuildKeyOrderIrrelevant(t *testing.T) {
	opts := &BuildOptions{ProbeSpec: cleanSpec()}
	a := mustBuild(t, cleanEvidence(), opts)
	b := mustBuild(t, shuffled(cleanEvidence()), opts)
	if a.SurfaceDigest == "" || a.SurfaceDigest != b.SurfaceDigest {
		t.Errorf("digests: %q vs %q", a.SurfaceDigest, b.SurfaceDigest)
	}
	if d := cmp.Diff(string(mustMarshal(t, a)), string(mustMarshal(t, b))); d != "" {
		t.Errorf("shuffled keys changed the snapshot (-plain +shuffled):\n%s", d)
	}
}

func TestDigestTreatsSetsAsSets(t *testing.T) {
	ev := cleanEvidence()
	s1 := mustBuild(t, ev, nil)
	ev2 := cleanEvidence()
	swapped := strings.NewReplacer(`"enum":["metric","imperial"]`, `"enum":["imperial","metric"]`,
		`{"name":"topic","required":true},{"name":"length","description":"words"}`, `{"name":"length","description":"words"},{"name":"topic","required":true}`)
	ev2.Tools.Pages[0] = json.RawMessage(swapped.Replace(cleanTools))
	ev2.Prompts.Pages[0] = json.RawMessage(swapped.Replace(cleanPrompts))
	ev2.Manifest.Text = strings.Replace(cleanManifest, `["archive","restore"]`, `["restore","archive"]`, 1)
	s2 := mustBuild(t, ev2, nil)
	if s1.SurfaceDigest != s2.SurfaceDigest {
		t.Errorf("reordering sets changed the digest")
	}
	ev3 := cleanEvidence()
	ev3.Tools.Pages[0] = json.RawMessage(strings.Replace(cleanTools, "Get the current weather", "Get weather", 1))
	if s3 := mustBuild(t, ev3, nil); s3.SurfaceDigest == s1.SurfaceDigest {
		t.Errorf("a description change did not change the digest")
	} else if s3.EntityDigests["tools/get_weather"] == s1.EntityDigests["tools/get_weather"] ||
		s3.EntityDigests["tools/list_notes"] != s1.EntityDigests["tools/list_notes"] {
		t.Errorf("entity digests: only tools/get_weather should change")
	}
}

func TestNumbersKeptAsWritten(t *testing.T) {
	b := mustMarshal(t, mustBuild(t, cleanEvidence(), nil))
	for _, want := range []string{`"x-vendor-rank": 1.50`, `"ttlMs": 60000`} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("snapshot lacks %s", want)
		}
	}
}

func TestVolatile(t *testing.T) {
	s := mustBuild(t, cleanEvidence(), &BuildOptions{Volatile: []string{
		"surface.discover.serverInfo.version",
		"tools.get_weather.description",
		"behavior.weather.structuredShape",
		"resources.*.size",
	}})
	if got := s.Surface.Discover.ServerInfo["version"]; got != "<string>" {
		t.Errorf("serverInfo.version = %v", got)
	}
	if got := s.Surface.Tools[1]["description"]; got != "<string>" {
		t.Errorf("get_weather description = %v", got)
	}
	if got := s.Surface.Behavior["weather"].StructuredShape; got != "<object>" {
		t.Errorf("structuredShape = %v", got)
	}
	if got := s.Surface.Resources[0]["size"]; got != "<number>" {
		t.Errorf("resource size = %v", got)
	}
	if _, err := Build(cleanEvidence(), &BuildOptions{Volatile: []string{"toolsList.pages"}}); err == nil {
		t.Errorf("a selector on a typed field should be an error")
	}
}

func TestRoundTrip(t *testing.T) {
	for _, ev := range []*Evidence{cleanEvidence(), legacyEvidence()} {
		b := mustMarshal(t, mustBuild(t, ev, &BuildOptions{ProbeSpec: cleanSpec()}))
		s, err := Unmarshal(b)
		if err != nil {
			t.Fatalf("Unmarshal(Marshal()) error: %v", err)
		}
		if d := cmp.Diff(string(b), string(mustMarshal(t, s))); d != "" {
			t.Errorf("round trip changed bytes:\n%s", d)
		}
		d, err := SurfaceDigest(&s.Surface)
		if err != nil || d != s.SurfaceDigest {
			t.Errorf("recomputed digest %q (err %v), stored %q", d, err, s.SurfaceDigest)
		}
	}
}

// A converted snapshot's uncaptured list is kept by every reader, and
// by the surface digest not at all (it is observation metadata).
func TestUncapturedRoundTrip(t *testing.T) {
	s := mustBuild(t, cleanEvidence(), &BuildOptions{ProbeSpec: cleanSpec()})
	digest := s.SurfaceDigest
	want := []string{"tools.*.title", "resources", "discover.serverInfo.!name|version", "tools.@nextPages"}
	s.Observation.Uncaptured = want
	b := mustMarshal(t, s)
	if !strings.Contains(string(b), `"uncaptured": [`) {
		t.Fatalf("Marshal wrote no uncaptured list:\n%s", b)
	}
	for name, read := range map[string]func([]byte) (*Snapshot, error){"Unmarshal": Unmarshal, "UnmarshalLazy": UnmarshalLazy, "strict": unmarshalStrict} {
		got, err := read(b)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if d := cmp.Diff(want, got.Observation.Uncaptured); d != "" {
			t.Errorf("%s: uncaptured (-want +got):\n%s", name, d)
		}
		if d, err := SurfaceDigest(&got.Surface); err != nil || d != digest {
			t.Errorf("%s: digest %q (err %v), want %q", name, d, err, digest)
		}
	}
}

func TestUnmarshalErrors(t *testing.T) {
	good := string(mustMarshal(t, mustBuild(t, cleanEvidence(), nil)))
	tests := []struct {
		name    string
		in      string
		is      error
		msgPart string
	}{
		{"empty", ``, ErrCorrupt, "corrupt snapshot"},
		{"not json", `{"formatVersion":1,`, ErrCorrupt, "corrupt snapshot"},
		{"array", `[]`, ErrCorrupt, "corrupt snapshot"},
		{"no version", `{}`, ErrCorrupt, "formatVersion is missing"},
		{"string version", `{"formatVersion":"1"}`, ErrCorrupt, "corrupt snapshot"},
		{"newer", `{"formatVersion":7}`, ErrNewerFormat, "snapshot format 7 is newer than this mcpward reads (1): upgrade mcpward"},
		{"unknown key", strings.Replace(good, `"formatVersion": 1,`, `"formatVersion": 1, "bogus": true,`, 1), ErrCorrupt, `unknown field "bogus"`},
		{"unknown nested key", strings.Replace(good, `"attempted"`, `"attemptd"`, 1), ErrCorrupt, `attemptd`},
		{"trailing data", good + "{}", ErrCorrupt, "after the snapshot"},
		{"bad hash", strings.Replace(good, `"probeSpecHash": "`, `"probeSpecHash": "X`, 1), ErrCorrupt, "probeSpecHash"},
		{"bad status", strings.Replace(good, `"status": "ok"`, `"status": "fine"`, 1), ErrCorrupt, "status"},
		{"unsorted tools", strings.Replace(good, `"name": "archive_note"`, `"name": "zz"`, 1), ErrCorrupt, "not sorted"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Unmarshal([]byte(tt.in))
			if err == nil {
				t.Fatal("Unmarshal() succeeded, want error")
			}
			if !errors.Is(err, tt.is) || !errors.Is(err, fault.ErrInput) {
				t.Errorf("error %v: want Is(%v) and fault.ErrInput", err, tt.is)
			}
			if !strings.Contains(err.Error(), tt.msgPart) {
				t.Errorf("error %q does not contain %q", err, tt.msgPart)
			}
		})
	}
}

func TestMigrate(t *testing.T) {
	old := []byte(`{"formatVersion":1,"x":1}`)
	bump := func(to int) func(map[string]any) (map[string]any, error) {
		return func(m map[string]any) (map[string]any, error) {
			m["formatVersion"] = json.Number(strings.TrimSpace(string(rune('0' + to))))
			m["migrated"] = true
			return m, nil
		}
	}
	got, err := migrateWith(old, []migration{{From: 1, Step: bump(2)}}, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"formatVersion\": 2,\n  \"migrated\": true,\n  \"x\": 1\n}\n"
	if string(got) != want {
		t.Errorf("migrated = %q, want %q", got, want)
	}
	if _, err := migrateWith(old, nil, 2); !errors.Is(err, fault.ErrInput) {
		t.Errorf("gap in chain: err = %v, want fault.ErrInput", err)
	}
	if _, err := migrateWith(old, []migration{{From: 1, Step: bump(3)}}, 2); err == nil || errors.Is(err, fault.ErrInput) {
		t.Errorf("bad stamp: err = %v, want an unmarked (internal) error", err)
	}
	if _, err := migrateWith([]byte(`{"formatVersion":3}`), nil, 2); !errors.Is(err, ErrNewerFormat) {
		t.Errorf("newer: err = %v", err)
	}
	if b, err := Migrate([]byte(`{"formatVersion":1}`)); err != nil || string(b) != `{"formatVersion":1}` {
		t.Errorf("Migrate at current version = %q, %v", b, err)
	}
	if _, err := Unmarshal([]byte(`{"formatVersion":0}`)); !errors.Is(err, ErrCorrupt) {
		t.Errorf("version 0: %v", err)
	}
}

func TestComparable(t *testing.T) {
	a := mustBuild(t, cleanEvidence(), &BuildOptions{ProbeSpec: cleanSpec()})
	b := mustBuild(t, cleanEvidence(), nil)
	if err := Comparable(a, a); err != nil {
		t.Errorf("Comparable(a, a) = %v", err)
	}
	err := Comparable(a, b)
	if !errors.Is(err, ErrSpecMismatch) || !errors.Is(err, fault.ErrInput) {
		t.Errorf("Comparable(a, b) = %v, want ErrSpecMismatch", err)
	}
}

func TestProbeSpecHashDefaults(t *testing.T) {
	h1, _ := ProbeSpec{Probes: []ProbeDecl{{ID: "a", Tool: "t"}}}.Hash()
	h2, _ := ProbeSpec{Probes: []ProbeDecl{{ID: "a", Tool: "t", Arguments: json.RawMessage(`{ }`), Capture: "shape"}}, Profiles: []string{}}.Hash()
	if h1 != h2 {
		t.Errorf("defaults should hash like explicit values")
	}
	h3, _ := ProbeSpec{Probes: []ProbeDecl{{ID: "a", Tool: "t"}}, Profiles: []string{"modern-full"}}.Hash()
	if h1 == h3 {
		t.Errorf("profiles must be part of the hash")
	}
}

func TestStderrNotes(t *testing.T) {
	tests := []struct {
		stderr string
		rules  []string
	}{
		{"", nil},
		{"listening on stdio\n", nil},
		{"Error: 401 Unauthorized\n", []string{"auth_hint"}},
		{"Warning: No authentication token found. Use auth_login tool to authenticate.\n", []string{"auth_hint"}},
		{"GITHUB_TOKEN is not set\n", []string{"auth_hint"}},
		{"missing API key\n", []string{"auth_hint"}},
		{"Traceback (most recent call last):\n  File \"x.py\"\n", []string{"stack_trace"}},
		{"/app/index.js:3\n    at Object.<anonymous> (/app/index.js:3:9)\n", []string{"stack_trace"}},
		{"panic: runtime error\n\ngoroutine 1 [running]:\n", []string{"stack_trace"}},
		{"ReferenceError: Cannot access 'server' before initialization\n", []string{"stack_trace"}},
		{"Fatal error: token is missing\n", []string{"auth_hint", "stack_trace"}},
	}
	for _, tt := range tests {
		var got []string
		for _, n := range stderrNotes(tt.stderr) {
			got = append(got, n.Rule)
		}
		if d := cmp.Diff(tt.rules, got); d != "" {
			t.Errorf("stderrNotes(%q) mismatch (-want +got):\n%s", tt.stderr, d)
		}
	}
	n := stderrNotes("Authentication required; key sk_live_abcdefghijklmnopqrstuvwxyz0123 rejected")
	if len(n) != 1 || strings.Contains(n[0].Snippet, "abcdefghijklmnop") {
		t.Errorf("secret-looking string not masked: %+v", n)
	}
}

func TestParseManifest(t *testing.T) {
	tests := []struct {
		name       string
		text       string
		wantErr    bool
		tools      []ManifestTool
		noDispatch []string
		dups       []string
	}{
		{name: "valid", text: cleanManifest, tools: []ManifestTool{
			{Tool: "archive_note", Description: "Archive operations", Operations: []string{"archive", "restore"}},
			{Tool: "list_notes", Description: "Listing"}}},
		{name: "no dispatch key keeps operations", text: `{"tools":{"task":{"operations":["list","get"]}}}`,
			tools: []ManifestTool{{Tool: "task", Operations: []string{"list", "get"}}}, noDispatch: []string{"task"}},
		{name: "duplicates kept and reported", text: `{"tools":{"task":{"dispatch_key":"action","operations":["list","get","get"]}}}`,
			tools: []ManifestTool{{Tool: "task", Operations: []string{"list", "get", "get"}}}, dups: []string{"task: get"}},
		{name: "empty tools", text: `{"tools":{}}`, tools: []ManifestTool{}},
		{name: "not json", text: `nope`, wantErr: true},
		{name: "no tools", text: `{"version":"1"}`, wantErr: true},
		{name: "tools not object", text: `{"tools":[]}`, wantErr: true},
		{name: "entry not object", text: `{"tools":{"a":1}}`, wantErr: true},
		{name: "non-string op", text: `{"tools":{"a":{"operations":[1]}}}`, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, nd, dups, err := parseManifest("x://mcp/manifest", tt.text)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			if d := cmp.Diff(tt.tools, m.Tools); d != "" {
				t.Errorf("tools mismatch (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.noDispatch, nd); d != "" {
				t.Errorf("noDispatch mismatch (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.dups, dups); d != "" {
				t.Errorf("dups mismatch (-want +got):\n%s", d)
			}
		})
	}
}

func TestShape(t *testing.T) {
	v, _ := decodeValue([]byte(`{"a":[1,"x",2,{"b":null}],"c":true}`))
	got := JCSString(Shape(v))
	want := `{"object":{"a":{"array":["number","string",{"object":{"b":"null"}}]},"c":"boolean"}}`
	if got != want {
		t.Errorf("Shape = %s, want %s", got, want)
	}
}

func TestDiscoverServerInfoFromMeta(t *testing.T) {
	tests := []struct {
		name, discover, want string
	}{
		{"final spec: in _meta", `{"supportedVersions":["2026-07-28"],"capabilities":{},"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"meta-srv","version":"2"}}}`, "meta-srv"},
		{"pre-release: top level", `{"supportedVersions":["2026-07-28"],"capabilities":{},"serverInfo":{"name":"top-srv","version":"1"}}`, "top-srv"},
		{"_meta wins over top level", `{"supportedVersions":["2026-07-28"],"capabilities":{},"serverInfo":{"name":"top"},"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"meta"}}}`, "meta"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			snap, err := Build(&Evidence{Era: EraModern, ProtocolVersion: "2026-07-28", Discover: json.RawMessage(tt.discover)}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := Str(snap.Surface.Discover.ServerInfo, "name"); got != tt.want {
				t.Errorf("serverInfo.name = %q, want %q", got, tt.want)
			}
		})
	}
}
