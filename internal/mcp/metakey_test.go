package mcp

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestValidMetaKey(t *testing.T) {
	tests := []struct {
		key string
		ok  bool
	}{
		{"progressToken", true},
		{"traceparent", true},
		{"io.modelcontextprotocol/protocolVersion", true},
		{"io.modelcontextprotocol/related-task", true},
		{"mcp/degraded", true},
		{"vendor/build", true},
		{"com.example/", true}, // empty name after a prefix
		{"a/b.c_d-e", true},
		{"a1-b.c/x", true},
		{"x", true},
		{"9lives", true},
		{"", false},
		{"/name", false},
		{"a//b", false},
		{"a/b/c", false},
		{"1abc/x", false},   // label must start with a letter
		{"abc-/x", false},   // label must end alnum
		{"a..b/x", false},   // empty label
		{"a_b/x", false},    // _ not allowed in labels
		{"a/-x", false},     // name must start alnum
		{"a/x.", false},     // name must end alnum
		{"a/x y", false},    // space
		{"a/ü", false},      // non-ASCII
		{"_private", false}, // name must start alnum
	}
	for _, tt := range tests {
		err := ValidMetaKey(tt.key)
		if (err == nil) != tt.ok {
			t.Errorf("ValidMetaKey(%q) = %v, want ok %v", tt.key, err, tt.ok)
		}
	}
}

func TestValidExtensionID(t *testing.T) {
	for id, ok := range map[string]bool{
		ExtTasks:                  true,
		ExtUI:                     true,
		ExtOAuthClientCredentials: true,
		"com.example/thing":       true,
		"tasks":                   false,
		"bad label/x":             false,
	} {
		if err := ValidExtensionID(id); (err == nil) != ok {
			t.Errorf("ValidExtensionID(%q) = %v, want ok %v", id, err, ok)
		}
	}
}

func TestIsReservedMetaKey(t *testing.T) {
	for k, want := range map[string]bool{
		"io.modelcontextprotocol/protocolVersion": true,
		"dev.mcp/x":             true,
		"com.mcp.tools/x":       true,
		"IO.MCP/x":              true,
		"com.example.mcp/x":     false,
		"mcp/degraded":          false,
		"modelcontextprotocol/": false,
		"progressToken":         false,
		"vendor/build":          false,
	} {
		if got := IsReservedMetaKey(k); got != want {
			t.Errorf("IsReservedMetaKey(%q) = %v, want %v", k, got, want)
		}
	}
}

func TestRequestMeta(t *testing.T) {
	m := RequestMeta(Rev20260728, nil, Implementation{Name: "mcpward", Version: "0.1.0"})
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"mcpward","version":"0.1.0"},"io.modelcontextprotocol/protocolVersion":"2026-07-28"}`
	if d := cmp.Diff(want, string(b)); d != "" {
		t.Errorf("RequestMeta mismatch (-want +got):\n%s", d)
	}
	m = RequestMeta(Rev20260728, json.RawMessage(`{"elicitation":{}}`), Implementation{})
	b, _ = json.Marshal(m)
	want = `{"io.modelcontextprotocol/clientCapabilities":{"elicitation":{}},"io.modelcontextprotocol/protocolVersion":"2026-07-28"}`
	if d := cmp.Diff(want, string(b)); d != "" {
		t.Errorf("RequestMeta without clientInfo mismatch (-want +got):\n%s", d)
	}
	for k := range m {
		if err := ValidMetaKey(k); err != nil {
			t.Errorf("RequestMeta key: %v", err)
		}
	}
}
