package traffic

import "testing"

func TestSchemaLabel(t *testing.T) {
	tests := []struct {
		name, tool, want string
	}{
		{"plain", `{"name":"a","inputSchema":{"type":"object","properties":{"x":{"type":"string"}}}}`, ""},
		{"no root", `{"name":"a","inputSchema":{"type":"string"}}`, "no root"},
		{"no schema", `{"name":"a"}`, "no root"},
		{"dialect", `{"name":"a","inputSchema":{"$schema":"http://json-schema.org/draft-07/schema#","type":"object"}}`, "dialect"},
		{"default dialect with #", `{"name":"a","inputSchema":{"$schema":"https://json-schema.org/draft/2020-12/schema#","type":"object"}}`, ""},
		{"ext ref beats untyped", `{"name":"a","inputSchema":{"type":"object","properties":{"x":{"$ref":"https://x/s.json"},"y":{}}}}`, "ext ref+"},
		{"oneOf beats anyOf", `{"name":"a","inputSchema":{"type":"object","properties":{"x":{"anyOf":[{"type":"string"}]},"y":{"oneOf":[{"type":"string"}]}}}}`, "oneOf+"},
		{"local ref", `{"name":"a","inputSchema":{"type":"object","properties":{"x":{"$ref":"#/$defs/x"}},"$defs":{"x":{"type":"string"}}}}`, "ref"},
		{"untyped in outputSchema", `{"name":"a","inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{"r":{}}}}`, "untyped"},
		{"not", `{"name":"a","inputSchema":{"type":"object","not":{"required":["x"]}}}`, "not"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := SchemaLabel([]byte(tt.tool)); got != tt.want {
				t.Errorf("SchemaLabel(%s) = %q, want %q", tt.tool, got, tt.want)
			}
		})
	}
}

func TestCacheHintText(t *testing.T) {
	for ms, want := range map[int64]string{0: "0ms", 250: "250ms", 1500: "1.5s", 30000: "30s", 60000: "1m", 90000: "90s", 3600000: "1h", 5400000: "90m", -5: "-5ms!"} {
		if got := fmtTTL(ms); got != want {
			t.Errorf("fmtTTL(%d) = %q, want %q", ms, got, want)
		}
	}
}
