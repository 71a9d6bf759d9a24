package initcmd

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcpward/mcpward/internal/cli/cmdtest"
	"github.com/mcpward/mcpward/internal/client"
	"github.com/mcpward/mcpward/internal/config"
	"github.com/mcpward/mcpward/internal/snapshot"
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
	  {"name": "z_last", "description": "Reads z.", "inputSchema": {"type": "object"}},
	  {"name": "all", "description": "Shows everything.", "inputSchema": {"type": "object", "required": ["e", "i", "n", "m", "b", "a", "o", "s", "t", "u"], "properties": {
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
		{ID: "bare", Tool: "bare", Enabled: &off, Reason: `bare is labelled write (nothing in its name, description or annotations says it only reads): check the arguments, then set "enabled": true to call it on every record and check`,
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
	tests := []struct {
		tool       string
		wantReason string // "" : enabled
	}{
		{`{"name": "list_notes", "description": "List notes."}`, ""},
		{`{"name": "get_weather", "annotations": {"readOnlyHint": true}}`, ""},
		{`{"name": "delete_note", "description": "Delete a note."}`, `delete_note is labelled destructive (its name or description says "delete")`},
		{`{"name": "create_note", "description": "Create a note."}`, `create_note is labelled write (its name or description says "create")`},
		{`{"name": "archive_note", "annotations": {"destructiveHint": true}}`, `archive_note is labelled destructive (its annotations declare destructiveHint: true)`},
		{`{"name": "get_thing", "annotations": {"readOnlyHint": true, "destructiveHint": true}}`, `get_thing is labelled destructive (its annotations declare destructiveHint: true)`},
		{`{"name": "tidy", "annotations": {"readOnlyHint": false}}`, `tidy is labelled destructive (its annotations declare readOnlyHint: false, and destructiveHint defaults to true)`},
		{`{"name": "tag", "annotations": {"readOnlyHint": false, "destructiveHint": false}}`, `tag is labelled write (its annotations declare it is not read-only)`},
		{`{"name": "list_and_purge", "annotations": {"readOnlyHint": true}}`, `list_and_purge is labelled destructive (its name or description says "purge")`},
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
		want := tt.wantReason + `: check the arguments, then set "enabled": true to call it on every record and check`
		if p.IsEnabled() || p.Enabled == nil || p.Reason != want {
			t.Errorf("SeedProbes(%s): enabled %v, reason\n got %q\nwant %q", tt.tool, p.IsEnabled(), p.Reason, want)
		}
	}
}
