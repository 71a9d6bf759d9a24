package snapgauge

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpward/mcpward/internal/config"
	"github.com/mcpward/mcpward/internal/fault"
)

// testdata/config/*.json are the sample configs of
// shared/reference/samples/snapgauge/config/<case>/snapgauge.config.json:
// three snapgauge's own loadConfig accepts and two it rejects (exit 4).

func readSample(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "config", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestParseSnapgaugeValid(t *testing.T) {
	acme := &config.Target{
		URL:             "https://mcp.acme.com/mcp",
		Headers:         map[string]string{"Authorization": "Bearer ${ACME_TOKEN}"},
		ProtocolVersion: "2026-07-28",
		Probes:          []config.Probe{{ID: "weather", Tool: "get_weather", Arguments: json.RawMessage(`{"location": "Seattle"}`), Capture: "shape"}},
		FailOn:          "risky",
		Ignore:          []string{"tool.icons.changed"},
		TimeoutMs:       10000,
	}
	local := &config.Target{Command: "node", Args: []string{"./server.mjs"}}
	tests := []struct {
		name     string
		targets  map[string]*config.Target
		warnings []string
	}{
		{"valid-three-transports", map[string]*config.Target{
			"acme": acme, "local": local, "fixture": {Fixture: "drift-breaking@v2"},
		}, nil},
		{"spec-example", map[string]*config.Target{
			"acme": func() *config.Target {
				t := *acme
				t.Profiles = []string{"modern-full", "modern-minimal", "no-elicitation"}
				t.Volatile = []string{"behavior.weather.structuredShape.requestId"}
				return &t
			}(),
			"local": local, "fixture": {Fixture: "drifty@v2"},
		}, []string{"targets.acme.resources.read is not used: mcpward lists the server's resources and reads none of them (snapgauge did not read them either)"}},
		{"init-fixture-clean-v1", map[string]*config.Target{
			"notes": {Fixture: "clean@v1", Probes: []config.Probe{
				{ID: "archive_note", Tool: "archive_note", Arguments: json.RawMessage(`{
            "id": "example"
          }`), Capture: "shape"},
				{ID: "get_weather", Tool: "get_weather", Arguments: json.RawMessage(`{
            "location": "example"
          }`), Capture: "shape"},
				{ID: "list_notes", Tool: "list_notes", Arguments: json.RawMessage(`{}`), Capture: "shape"},
			}},
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Config(readSample(t, tt.name))
			if err != nil {
				t.Fatalf("Config: %v", err)
			}
			if f.Source != ConfigSource || f.SnapshotDir != ".snapgauge" {
				t.Errorf("Source = %q, SnapshotDir = %q", f.Source, f.SnapshotDir)
			}
			// Arguments are compared as JSON values.
			norm := cmp.Transformer("json", func(r json.RawMessage) any {
				var v any
				_ = json.Unmarshal(r, &v)
				return v
			})
			if d := cmp.Diff(tt.targets, f.Targets, norm); d != "" {
				t.Errorf("targets (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.warnings, f.Warnings); d != "" {
				t.Errorf("warnings (-want +got):\n%s", d)
			}
		})
	}
}

func TestParseSnapgaugeInvalid(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want string
	}{
		{"sample unknown top-level key", string(readSample(t, "invalid-unknown-top-level-key")), `unknown key "sneaky" in the top level (read as a snapgauge config)`},
		{"sample unknown target key", string(readSample(t, "invalid-unknown-target-key")), `unknown key "retries" in targets.t (read as a snapgauge config)`},
		{"key of another transport", `{"targets": {"t": {"transport": "http", "url": "https://x.example", "command": "node"}}}`, `unknown key "command" in targets.t (read as a snapgauge config)`},
		{"mcpward-only key", `{"targets": {"t": {"transport": "stdio", "command": "node", "env": {"A": "1"}}}}`, `unknown key "env" in targets.t (read as a snapgauge config)`},
		{"unknown transport", `{"targets": {"t": {"transport": "sse", "url": "https://x.example"}}}`, `transport "sse" is not "http", "stdio" or "fixture" in targets.t.transport (read as a snapgauge config)`},
		{"missing transport", `{"targets": {"a": {"transport": "fixture", "fixture": "clean@v1"}, "b": {"fixture": "clean@v1"}}}`, `target needs "transport": "http", "stdio" or "fixture" in targets.b (read as a snapgauge config)`},
		{"no url", `{"targets": {"t": {"transport": "http"}}}`, `target needs one of "fixture", "url" or "command" in targets.t (read as a snapgauge config)`},
		{"other fixtures module", `{"targets": {"t": {"transport": "fixture", "fixture": "x", "fixturesModule": "./fx.mjs"}}}`, `fixtures module "./fx.mjs" cannot be loaded: mcpward runs only its embedded fixtures (see 'mcpward fixture list') in targets.t.fixturesModule (read as a snapgauge config)`},
		{"bad resources", `{"targets": {"t": {"transport": "fixture", "fixture": "x", "resources": {"list": true}}}}`, `unknown key "list" in targets.t.resources (read as a snapgauge config)`},
		{"bad timeout", `{"targets": {"t": {"transport": "fixture", "fixture": "x", "timeoutMs": 0}}}`, `want a positive integer of milliseconds, got 0 in targets.t.timeoutMs (read as a snapgauge config)`},
		{"bad name", `{"targets": {"a/b": {"transport": "fixture", "fixture": "x"}}}`, `target name "a/b" is not allowed (letters, digits and . _ @ - only: it becomes a file name) in targets (read as a snapgauge config)`},
		{"blank snapshotDir", `{"snapshotDir": "", "targets": {"t": {"transport": "fixture", "fixture": "x"}}}`, `snapshotDir is empty in snapshotDir (read as a snapgauge config)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Config([]byte(tt.doc))
			if err == nil {
				t.Fatal("Config: no error")
			}
			if err.Error() != tt.want {
				t.Errorf("Config() = %q\nwant       %q", err, tt.want)
			}
			if !errors.Is(err, fault.ErrInput) {
				t.Errorf("Config() error is not fault.ErrInput")
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error is not one line")
			}
		})
	}
}

func TestParseSnapgaugeVolatile(t *testing.T) {
	f, err := Config([]byte(`{"snapshotDir": "snaps", "targets": {"t": {"transport": "fixture", "fixture": "clean@v1", "fixturesModule": "@snapgauge/fixtures",
		"volatile": ["behavior.weather.structuredContent.requestId", "tools.0.description", "recordedAt", "target.host"]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if f.SnapshotDir != "snaps" {
		t.Errorf("SnapshotDir = %q", f.SnapshotDir)
	}
	if d := cmp.Diff([]string{"behavior.weather.structuredContent.requestId", "tools.0.description"}, f.Targets["t"].Volatile); d != "" {
		t.Errorf("volatile (-want +got):\n%s", d)
	}
	want := []string{
		`targets.t.volatile selector "recordedAt" is not used: it selects snapshot metadata, which mcpward never diffs`,
		`targets.t.volatile selector "target.host" is not used: it selects snapshot metadata, which mcpward never diffs`,
	}
	if d := cmp.Diff(want, f.Warnings); d != "" {
		t.Errorf("warnings (-want +got):\n%s", d)
	}
}
