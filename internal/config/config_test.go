package config

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpward/mcpward/internal/fault"
)

const full = `{
  "$schema": "https://mcpward.dev/schema/config.json",
  "snapshotDir": "contracts",
  "targets": {
    "weather": {
      "url": "https://mcp.example.com/mcp",
      "headers": {"Authorization": "Bearer ${TOKEN}"},
      "sse": false,
      "protocolVersion": "2026-07-28",
      "capabilities": {"elicitation": {}},
      "profiles": ["modern-full", "mine"],
      "probes": [{"id": "w", "tool": "get_weather", "arguments": {"location": "Seattle"}, "capture": "values"}],
      "volatile": ["behavior.w.structuredContent.time"],
      "failOn": "breaking",
      "ignore": ["tool.icons.changed"],
      "timeoutMs": 5000
    },
    "local": {"command": "node", "args": ["server.js"], "env": {"A": "1"}, "cwd": "srv", "home": "h", "isolateHome": true},
    "fx": {"fixture": "clean@v1"}
  },
  "profiles": {"mine": {"protocolVersion": "2026-07-28", "capabilities": {}}}
}`

func TestParseFull(t *testing.T) {
	f, err := Parse([]byte(full))
	if err != nil {
		t.Fatal(err)
	}
	want := &File{
		Schema:      "https://mcpward.dev/schema/config.json",
		SnapshotDir: "contracts",
		Targets: map[string]*Target{
			"weather": {
				URL:             "https://mcp.example.com/mcp",
				Headers:         map[string]string{"Authorization": "Bearer ${TOKEN}"},
				ProtocolVersion: "2026-07-28",
				Capabilities:    json.RawMessage(`{"elicitation": {}}`),
				Profiles:        []string{"modern-full", "mine"},
				Probes:          []Probe{{ID: "w", Tool: "get_weather", Arguments: json.RawMessage(`{"location": "Seattle"}`), Capture: "values"}},
				Volatile:        []string{"behavior.w.structuredContent.time"},
				FailOn:          "breaking",
				Ignore:          []string{"tool.icons.changed"},
				TimeoutMs:       5000,
			},
			"local": {Command: "node", Args: []string{"server.js"}, Env: map[string]string{"A": "1"}, Cwd: "srv", Home: "h", IsolateHome: true},
			"fx":    {Fixture: "clean@v1"},
		},
		Profiles: map[string]json.RawMessage{"mine": json.RawMessage(`{"protocolVersion": "2026-07-28", "capabilities": {}}`)},
	}
	if d := cmp.Diff(want, f); d != "" {
		t.Errorf("Parse() mismatch (-want +got):\n%s", d)
	}
	if f.Targets["fx"].Probes != nil {
		t.Error("an absent probes key must stay nil (inherit the fixture's probes)")
	}
}

func TestParseEmptyProbesIsNotInherit(t *testing.T) {
	f, err := Parse([]byte(`{"targets": {"a": {"fixture": "clean@v1", "probes": []}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if p := f.Targets["a"].Probes; p == nil || len(p) != 0 {
		t.Errorf("probes = %#v, want an empty non-nil list", p)
	}
}

// TestParseProbeEnabled pins the explicit switch init writes for probes of
// write and destructive tools: "enabled": false with a "reason" keeps the
// probe out of record and check, an edit to true turns it on, and an
// absent key means enabled.
func TestParseProbeEnabled(t *testing.T) {
	f, err := Parse([]byte(`{"targets": {"a": {"fixture": "clean@v1", "probes": [
	  {"id": "off", "tool": "delete_note", "enabled": false, "reason": "destructive"},
	  {"id": "on", "tool": "delete_note", "enabled": true, "reason": "reviewed"},
	  {"id": "plain", "tool": "list_notes"}
	]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	off, on := false, true
	want := []Probe{
		{ID: "off", Tool: "delete_note", Enabled: &off, Reason: "destructive"},
		{ID: "on", Tool: "delete_note", Enabled: &on, Reason: "reviewed"},
		{ID: "plain", Tool: "list_notes"},
	}
	ps := f.Targets["a"].Probes
	if d := cmp.Diff(want, ps); d != "" {
		t.Errorf("probes mismatch (-want +got):\n%s", d)
	}
	for i, wantOn := range []bool{false, true, true} {
		if got := ps[i].IsEnabled(); got != wantOn {
			t.Errorf("probe %s IsEnabled() = %v, want %v", ps[i].ID, got, wantOn)
		}
	}
	// What init writes reads back the same.
	b, err := Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	g, err := Parse(b)
	if err != nil {
		t.Fatalf("Parse(Marshal()) = %v\n%s", err, b)
	}
	if d := cmp.Diff(f, g); d != "" {
		t.Errorf("round trip mismatch (-want +got):\n%s", d)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"not json", `{`, `invalid JSON: unexpected EOF`},
		{"trailing", `{"targets": {}} {}`, `invalid JSON: unexpected data after the top-level object`},
		{"array", `[]`, `want an object, got an array`},
		{"no targets", `{}`, `missing key "targets"`},
		{"blank snapshotDir", `{"snapshotDir": " ", "targets": {}}`, `snapshotDir is empty in snapshotDir`},
		{"unknown top", `{"targets": {}, "snapshotdir": "x"}`, `unknown key "snapshotdir" in the top level (did you mean "snapshotDir"?)`},
		{"unknown target key", `{"targets": {"weather": {"url": "http://127.0.0.1/", "timeout": 5}}}`, `unknown key "timeout" in targets.weather (did you mean "timeoutMs"?)`},
		{"unknown no suggestion", `{"targets": {"w": {"url": "http://127.0.0.1/", "zzzzzz": 5}}}`, `unknown key "zzzzzz" in targets.w`},
		{"unknown probe key", `{"targets": {"w": {"fixture": "f", "probes": [{"id": "a", "tool": "t", "args": {}}]}}}`, `unknown key "args" in targets.w.probes[0]`},
		{"duplicate key", `{"targets": {"w": {"fixture": "a", "fixture": "b"}}}`, `duplicate key "fixture" in targets.w`},
		{"bad name", `{"targets": {"a/b": {"fixture": "f"}}}`, `target name "a/b" is not allowed (letters, digits and . _ @ - only: it becomes a file name) in targets`},
		{"dotdot", `{"targets": {"..": {"fixture": "f"}}}`, `target name ".." is not allowed (letters, digits and . _ @ - only: it becomes a file name) in targets`},
		{"no transport", `{"targets": {"w": {}}}`, `target needs one of "fixture", "url" or "command" in targets.w`},
		{"two transports", `{"targets": {"w": {"fixture": "f", "url": "http://127.0.0.1/"}}}`, `target has more than one of "fixture", "url" and "command" in targets.w`},
		{"bad url", `{"targets": {"w": {"url": "ftp://x"}}}`, `"ftp://x" is not an http(s) URL in targets.w.url`},
		{"userinfo", `{"targets": {"w": {"url": "https://u:p@x/"}}}`, `credentials in the URL are not allowed (use a header with ${VAR}) in targets.w.url`},
		{"args without command", `{"targets": {"w": {"fixture": "f", "args": []}}}`, `"args" applies only to a stdio target (one with "command") in targets.w.args`},
		{"headers without url", `{"targets": {"w": {"command": "x", "headers": {}}}}`, `"headers" apply only to a "url" target in targets.w.headers`},
		{"bad header name", `{"targets": {"w": {"url": "http://127.0.0.1/", "headers": {"a b": "c"}}}}`, `header name "a b" is not a valid HTTP field name in targets.w.headers`},
		{"header not string", `{"targets": {"w": {"url": "http://127.0.0.1/", "headers": {"A": 1}}}}`, `want a string, got a number in targets.w.headers.A`},
		{"bad tier", `{"targets": {"w": {"fixture": "f", "failOn": "severe"}}}`, `unknown tier "severe" (want breaking, risky, compatible, cosmetic, or any: any surface change) in targets.w.failOn`},
		{"zero timeout", `{"targets": {"w": {"fixture": "f", "timeoutMs": 0}}}`, `want a positive integer of milliseconds, got 0 in targets.w.timeoutMs`},
		{"float timeout", `{"targets": {"w": {"fixture": "f", "timeoutMs": 1.5}}}`, `want a positive integer of milliseconds, got 1.5 in targets.w.timeoutMs`},
		{"string timeout", `{"targets": {"w": {"fixture": "f", "timeoutMs": "5"}}}`, `want a positive integer of milliseconds, got a string in targets.w.timeoutMs`},
		{"capabilities array", `{"targets": {"w": {"fixture": "f", "capabilities": []}}}`, `want an object, got an array in targets.w.capabilities`},
		{"probe no id", `{"targets": {"w": {"fixture": "f", "probes": [{"tool": "t"}]}}}`, `probe needs an "id" in targets.w.probes[0]`},
		{"probe dup id", `{"targets": {"w": {"fixture": "f", "probes": [{"id": "a", "tool": "t"}, {"id": "a", "tool": "u"}]}}}`, `duplicate probe id "a" in targets.w.probes[1]`},
		{"probe capture", `{"targets": {"w": {"fixture": "f", "probes": [{"id": "a", "tool": "t", "capture": "all"}]}}}`, `capture must be "shape" or "values", got "all" in targets.w.probes[0].capture`},
		{"probe enabled not bool", `{"targets": {"w": {"fixture": "f", "probes": [{"id": "a", "tool": "t", "enabled": "yes"}]}}}`, `want true or false, got a string in targets.w.probes[0].enabled`},
		{"probe reason not string", `{"targets": {"w": {"fixture": "f", "probes": [{"id": "a", "tool": "t", "reason": 1}]}}}`, `want a string, got a number in targets.w.probes[0].reason`},
		{"probe enable typo", `{"targets": {"w": {"fixture": "f", "probes": [{"id": "a", "tool": "t", "enable": true}]}}}`, `unknown key "enable" in targets.w.probes[0] (did you mean "enabled"?)`},
		{"probe args not object", `{"targets": {"w": {"fixture": "f", "probes": [{"id": "a", "tool": "t", "arguments": [1]}]}}}`, `want an object, got an array in targets.w.probes[0].arguments`},
		{"profiles not object", `{"targets": {}, "profiles": {"p": 1}}`, `want an object, got a number in profiles.p`},
		{"volatile empty", `{"targets": {"w": {"fixture": "f", "volatile": [""]}}}`, `empty string in targets.w.volatile[0]`},
		{"null string", `{"targets": {"w": {"fixture": null}}}`, `want a string, got null in targets.w.fixture`},
		{"null list", `{"targets": {"w": {"fixture": "f", "ignore": null}}}`, `want an array of strings, got null in targets.w.ignore`},
		{"bad utf8", "{\"targets\": {\"\xff\": {}}}", `config is not valid UTF-8`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.in))
			if err == nil {
				t.Fatalf("Parse(%s) = nil error, want %q", tt.in, tt.want)
			}
			if err.Error() != tt.want {
				t.Errorf("Parse(%s) error\n got %q\nwant %q", tt.in, err.Error(), tt.want)
			}
			if !errors.Is(err, fault.ErrInput) {
				t.Errorf("error %q is not marked fault.Input", err)
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Errorf("error %q is not a *ParseError", err)
			}
		})
	}
}

func TestTargetSelection(t *testing.T) {
	two := &File{Targets: map[string]*Target{"b": {Fixture: "x"}, "a": {Fixture: "y"}}}
	one := &File{Targets: map[string]*Target{"only": {Fixture: "x"}}}
	none := &File{Targets: map[string]*Target{}}
	tests := []struct {
		name    string
		f       *File
		arg     string
		want    string
		wantErr string
	}{
		{"explicit", two, "a", "a", ""},
		{"implicit single", one, "", "only", ""},
		{"explicit missing", two, "c", "", `no such target: target "c" is not configured (configured: a, b)`},
		{"implicit ambiguous", two, "", "", `no such target: the config has 2 targets, name one (configured: a, b)`},
		{"implicit none", none, "", "", `no such target: the config has no targets`},
		{"explicit none", none, "x", "", `no such target: target "x" is not configured (the config has no targets)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name, tg, err := tt.f.Target(tt.arg)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr || !errors.Is(err, ErrNoTarget) {
					t.Fatalf("Target(%q) error = %v, want %q", tt.arg, err, tt.wantErr)
				}
				return
			}
			if err != nil || name != tt.want || tg != tt.f.Targets[tt.want] {
				t.Errorf("Target(%q) = %q, %v, %v; want %q", tt.arg, name, tg, err, tt.want)
			}
		})
	}
}

func TestLiteralSecretHeaders(t *testing.T) {
	tg := &Target{Headers: map[string]string{
		"Authorization": "Bearer abc",
		"X-Api-Key":     "${KEY}",
		"Cookie":        "s=1",
		"X-Trace":       "literal is fine",
		"X-Token":       "pre-${T}",
	}}
	if d := cmp.Diff([]string{"Authorization", "Cookie"}, tg.LiteralSecretHeaders()); d != "" {
		t.Errorf("LiteralSecretHeaders() mismatch (-want +got):\n%s", d)
	}
}

func TestMarshalRoundTrip(t *testing.T) {
	f := &File{SnapshotDir: ".mcpward", Targets: map[string]*Target{
		"server": {Fixture: "clean@v1", Probes: []Probe{{ID: "get_weather", Tool: "get_weather", Arguments: json.RawMessage(`{"location":"example","units":"<metric>"}`), Capture: "shape"}}},
	}}
	b, err := Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "snapshotDir": ".mcpward",
  "targets": {
    "server": {
      "fixture": "clean@v1",
      "probes": [
        {
          "id": "get_weather",
          "tool": "get_weather",
          "arguments": {
            "location": "example",
            "units": "<metric>"
          },
          "capture": "shape"
        }
      ]
    }
  }
}
`
	if d := cmp.Diff(want, string(b)); d != "" {
		t.Errorf("Marshal() mismatch (-want +got):\n%s", d)
	}
	g, err := Parse(b)
	if err != nil {
		t.Fatalf("Parse(Marshal()) = %v", err)
	}
	b2, _ := Marshal(g)
	if string(b2) != string(b) {
		t.Errorf("round trip differs:\n%s", b2)
	}
}

func TestSuggest(t *testing.T) {
	tests := []struct{ key, want string }{
		{"timeout", "timeoutMs"},
		{"Fixture", "fixture"},
		{"header", "headers"},
		{"volatiles", "volatile"},
		{"xyzzy", ""},
	}
	for _, tt := range tests {
		if got := closestKey(tt.key, targetKeys); got != tt.want {
			t.Errorf("closestKey(%q) = %q, want %q", tt.key, got, tt.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(full))
	f.Add([]byte(`{"targets": {"w": {"url": "http://127.0.0.1/", "timeout": 5}}}`))
	f.Add([]byte(`{"targets": {"w": {"fixture": "a", "fixture": "b"}}}`))
	f.Add([]byte(`{"targets": {"w": {"fixture": "f", "probes": [{"id": "a", "tool": "t", "arguments": {"x": [1, {"y": null}]}}]}}}`))
	f.Add([]byte(`{"targets": {"\u0000": {}}}`))
	f.Add([]byte("{\"targets\": {\"\xff\": {}}}"))
	f.Add([]byte(`{"targets": {"w": {"fixture": "f", "timeoutMs": 1e400}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := Parse(data)
		if err != nil {
			if !errors.Is(err, fault.ErrInput) {
				t.Fatalf("error %q is not marked fault.Input", err)
			}
			return
		}
		for name := range cfg.Targets {
			if !ValidTargetName(name) {
				t.Fatalf("accepted target name %q", name)
			}
		}
		// What Parse accepts, Marshal writes and Parse accepts again.
		b, err := Marshal(cfg)
		if err != nil {
			t.Fatalf("Marshal: %v", err)
		}
		if _, err := Parse(b); err != nil {
			t.Fatalf("Parse(Marshal(cfg)) = %v\n%s", err, b)
		}
	})
}
