package initcmd

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcpward/mcpward/internal/cli/cmdtest"
	"github.com/mcpward/mcpward/internal/client"
	"github.com/mcpward/mcpward/internal/config"
	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/contract"
	"github.com/mcpward/mcpward/internal/snapshot"
	"github.com/mcpward/mcpward/internal/testenv"
)

func TestNewCmdInitFlags(t *testing.T) {
	def := client.DefaultRequestTimeout
	tests := []struct {
		name    string
		args    []string
		want    InitOptions
		wantErr string
	}{
		{"fixture", []string{"--fixture", "clean@v1"}, InitOptions{Fixture: "clean@v1", Target: "server", ConfigPath: "mcpward.json", Timeout: def}, ""},
		{"command", []string{"--command", "node", "--args", "server.js  --stdio", "--target", "notes", "--force"},
			InitOptions{Command: "node", Args: []string{"server.js", "--stdio"}, Target: "notes", Force: true, ConfigPath: "mcpward.json", Timeout: def}, ""},
		{"url", []string{"--url", "http://127.0.0.1:9/mcp", "--header", "Authorization=Bearer ${TOKEN}", "--timeout", "2s", "--config", "x.json"},
			InitOptions{URL: "http://127.0.0.1:9/mcp", Headers: map[string]string{"Authorization": "Bearer ${TOKEN}"}, Target: "server", ConfigPath: "x.json", Timeout: 2 * time.Second}, ""},
		{"none", nil, InitOptions{}, "use exactly one of --url, --command and --fixture"},
		{"two", []string{"--url", "http://x/", "--fixture", "f"}, InitOptions{}, "use exactly one of --url, --command and --fixture"},
		{"args without command", []string{"--fixture", "f", "--args", "x"}, InitOptions{}, "--args needs --command"},
		{"header without url", []string{"--fixture", "f", "--header", "A=b"}, InitOptions{}, "--header applies only to --url"},
		{"bad target", []string{"--fixture", "f", "--target", "a b"}, InitOptions{}, `--target "a b" is not allowed (letters, digits and . _ @ - only: it becomes a file name)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := cmdtest.Parse(t, NewCmdInit, tt.args...)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("error = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, *got, cmpopts.IgnoreFields(InitOptions{}, "IO", "Env", "Now", "Version")); d != "" {
				t.Errorf("opts mismatch (-want +got):\n%s", d)
			}
		})
	}
}

func TestSeedProbes(t *testing.T) {
	var tools []snapshot.Object
	src := `[
	  {"name": "z_last", "description": "Reads z.", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}},
	  {"name": "all", "description": "Shows everything.", "annotations": {"readOnlyHint": true}, "inputSchema": {"type": "object", "required": ["e", "i", "n", "m", "b", "a", "o", "s", "t", "u"], "properties": {
	    "e": {"type": "string", "enum": ["metric", "imperial"]},
	    "i": {"type": "integer"},
	    "n": {"type": "number", "minimum": 0.5},
	    "m": {"type": "integer", "minimum": 10},
	    "b": {"type": "boolean"},
	    "a": {"type": "array"},
	    "o": {"type": "object"},
	    "s": {"type": "string"},
	    "t": {"type": ["null", "integer"]},
	    "opt": {"type": "string"}
	  }}},
	  {"name": "bare"}
	]`
	dec := json.NewDecoder(bytes.NewReader([]byte(src)))
	dec.UseNumber()
	if err := dec.Decode(&tools); err != nil {
		t.Fatal(err)
	}
	got := SeedProbes(tools)
	off := false
	want := []config.Probe{
		{ID: "all", Tool: "all", Arguments: json.RawMessage(`{"a":[],"b":true,"e":"metric","i":1,"m":10,"n":0.5,"o":{},"s":"example","t":1,"u":"example"}`), Capture: "shape"},
		{ID: "bare", Tool: "bare", Enabled: &off, Reason: `bare: nothing in its name, description or annotations says it only reads: check the arguments, then set "enabled": true to call it on every record and check`,
			Arguments: json.RawMessage(`{}`), Capture: "shape"},
		{ID: "z_last", Tool: "z_last", Arguments: json.RawMessage(`{}`), Capture: "shape"},
	}
	if d := cmp.Diff(want, got, cmp.Transformer("raw", func(r json.RawMessage) string { return string(r) })); d != "" {
		t.Errorf("SeedProbes() mismatch (-want +got):\n%s", d)
	}
}

// TestSeedProbesSafety pins issue 13 item 1: only tools labelled read get
// an enabled probe; write, destructive and destructiveHint: true tools are
// written disabled with the reason.
func TestSeedProbesSafety(t *testing.T) {
	const hint = `: check the arguments, then set "enabled": true to call it on every record and check`
	tests := []struct {
		tool       string
		wantReason string // "" : enabled
	}{
		// Both facts agree: enabled.
		{`{"name": "get_weather", "annotations": {"readOnlyHint": true}}`, ""},
		{`{"name": "list_notes", "description": "List notes.", "annotations": {"readOnlyHint": true}}`, ""},
		// sequentialthinking: read-only by annotation, "clear" only in a
		// later sentence, no strong verb: enabled.
		{`{"name": "sequentialthinking", "description": "A detailed tool for problem-solving. Use it when the scope is not clear.", "annotations": {"readOnlyHint": true}}`, ""},
		// Looks read-only by its words only: disabled, with the reason.
		{`{"name": "list_notes", "description": "List notes."}`, `list_notes looks read-only; the server does not say so: check and enable ("list", heuristic)`},
		// Annotated read-only, but the words write, delete, send or execute.
		{`{"name": "list_and_purge", "annotations": {"readOnlyHint": true}}`, `list_and_purge: the server declares readOnlyHint: true, but its words read as destructive ("purge", heuristic)` + hint},
		{`{"name": "test_trigger_tool_change", "description": "Mutates the tool list to trigger a notification", "annotations": {"readOnlyHint": true}}`, `test_trigger_tool_change: the server declares readOnlyHint: true, but its words read as write ("mutate", heuristic)` + hint},
		{`{"name": "get_report", "description": "Get a report. Also sends it to the team.", "annotations": {"readOnlyHint": true}}`, `get_report: the server declares readOnlyHint: true, but its words read as send ("send", heuristic)` + hint},
		// Annotated read-only, words that read, but a mode that deletes
		// (docs/labels.md: the most dangerous thing one call can do).
		{`{"name": "tags", "description": "List tags.", "annotations": {"readOnlyHint": true}, "inputSchema": {"type": "object", "properties": {"mode": {"enum": ["list", "create", "delete"]}}}}`, `tags: the server declares readOnlyHint: true, but its words read as destructive ("delete" in its input schema, heuristic)` + hint},
		{`{"name": "notes", "description": "List notes.", "inputSchema": {"type": "object", "properties": {"purge": {"type": "boolean"}}}}`, `notes reads as destructive ("purge" in its input schema, heuristic); the server does not declare it read-only` + hint},
		// Not declared read-only.
		{`{"name": "delete_note", "description": "Delete a note."}`, `delete_note reads as destructive ("delete" in its name or description, heuristic); the server does not declare it read-only` + hint},
		{`{"name": "run_code", "description": "Run code."}`, `run_code reads as execute ("run" in its name or description, heuristic); the server does not declare it read-only` + hint},
		{`{"name": "tidy", "annotations": {"readOnlyHint": false}}`, `tidy: its annotations declare readOnlyHint: false` + hint},
		{`{"name": "frobnicate"}`, `frobnicate: nothing in its name, description or annotations says it only reads` + hint},
	}
	for _, tt := range tests {
		var tool snapshot.Object
		if err := json.Unmarshal([]byte(tt.tool), &tool); err != nil {
			t.Fatal(err)
		}
		ps := SeedProbes([]snapshot.Object{tool})
		if len(ps) != 1 {
			t.Fatalf("SeedProbes(%s) = %d probes", tt.tool, len(ps))
		}
		p := ps[0]
		if tt.wantReason == "" {
			if !p.IsEnabled() || p.Reason != "" {
				t.Errorf("SeedProbes(%s): enabled %v, reason %q; want enabled, no reason", tt.tool, p.IsEnabled(), p.Reason)
			}
			continue
		}
		if p.IsEnabled() || p.Enabled == nil || p.Reason != tt.wantReason {
			t.Errorf("SeedProbes(%s): enabled %v, reason\n got %q\nwant %q", tt.tool, p.IsEnabled(), p.Reason, tt.wantReason)
		}
	}
}

// TestSeedProbesGoSDKEverything runs the go-sdk conformance
// everything-server (issue 24): none of its tools declares readOnlyHint, so
// init enables none, test_trigger_tool_change and its sibling above all
// (they change the server's lists); the tools that merely look read-only
// are written disabled with the reason.
func TestSeedProbesGoSDKEverything(t *testing.T) {
	bin := testenv.EverythingServer(t)
	tg, err := contract.FromSpec("everything", &connect.Spec{Name: "everything", Command: []string{bin}, Timeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	obs, err := contract.Observe(context.Background(), tg, &contract.ObserveOptions{Version: "test"})
	if err != nil || !obs.Complete() {
		t.Fatalf("observe: %v %v", err, obs.Problems)
	}
	probes := SeedProbes(obs.Snapshot.Surface.Tools)
	if len(probes) < 20 {
		t.Fatalf("%d probes, want the server's 28 or so", len(probes))
	}
	looks := 0
	for _, p := range probes {
		if p.IsEnabled() {
			t.Errorf("%s is enabled: the server declares no tool read-only", p.Tool)
		}
		if strings.Contains(p.Reason, "looks read-only; the server does not say so: check and enable") {
			looks++
		}
		if strings.HasPrefix(p.Tool, "test_trigger_") && !strings.Contains(p.Reason, `reads as write ("mutate"`) {
			t.Errorf("%s: reason %q, want it read as write from \"Mutates\"", p.Tool, p.Reason)
		}
	}
	if looks < 15 {
		t.Errorf("%d tools look read-only by their words, want most of the server's test_* tools", looks)
	}
}
