package mcp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestExamplesRoundTrip decodes every copied spec example
// (testdata/examples/<Type>/*.json, verbatim from the 2026-07-28 schema
// directory) into the Go type that models it, encodes it again, and
// requires the same JSON value back: nothing named by the struct is lost,
// and nothing unnamed is dropped either (Extra).
func TestExamplesRoundTrip(t *testing.T) {
	types := map[string]func() any{
		"Tool":               func() any { return new(Tool) },
		"Resource":           func() any { return new(Resource) },
		"DiscoverResult":     func() any { return new(DiscoverResult) },
		"ClientCapabilities": func() any { return new(ClientCapabilities) },
		"ServerCapabilities": func() any { return new(ServerCapabilities) },
	}
	dirs, err := os.ReadDir(filepath.Join("testdata", "examples"))
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) != len(types) {
		t.Errorf("testdata/examples has %d types, test knows %d", len(dirs), len(types))
	}
	n := 0
	for typ, newV := range types {
		files, _ := filepath.Glob(filepath.Join("testdata", "examples", typ, "*.json"))
		if len(files) == 0 {
			t.Errorf("no examples for %s", typ)
		}
		for _, f := range files {
			n++
			t.Run(typ+"/"+filepath.Base(f), func(t *testing.T) {
				in, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				v := newV()
				if err := json.Unmarshal(in, v); err != nil {
					t.Fatalf("decode: %v", err)
				}
				if e := extraOf(v); len(e) > 0 {
					t.Errorf("spec example left members unmodelled: %v", keys(e))
				}
				out, err := json.Marshal(v)
				if err != nil {
					t.Fatalf("encode: %v", err)
				}
				if d := cmp.Diff(jsonValue(t, in), jsonValue(t, out)); d != "" {
					t.Errorf("round trip mismatch (-example +re-encoded):\n%s", d)
				}
			})
		}
	}
	t.Logf("%d examples", n)
}

func extraOf(v any) Extra {
	switch x := v.(type) {
	case *Tool:
		return x.Extra
	case *Resource:
		return x.Extra
	case *DiscoverResult:
		return x.Extra
	case *ClientCapabilities:
		return x.Extra
	case *ServerCapabilities:
		return x.Extra
	}
	return nil
}

func keys(e Extra) []string {
	var out []string
	for k := range e {
		out = append(out, k)
	}
	return out
}

func jsonValue(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("invalid JSON %s: %v", b, err)
	}
	return v
}

func TestUnknownMembersKept(t *testing.T) {
	in := `{"name":"t","NAME":"shadow","inputSchema":{"type":"object"},"x-vendor":{"a":[1,2]},"annotations":{"readOnlyHint":false,"futureHint":true}}`
	var tool Tool
	if err := json.Unmarshal([]byte(in), &tool); err != nil {
		t.Fatal(err)
	}
	if tool.Name != "t" {
		t.Errorf("Name = %q, want %q (exact-case match only)", tool.Name, "t")
	}
	if d := cmp.Diff([]string{"NAME", "x-vendor"}, sortedKeys(tool.Extra)); d != "" {
		t.Errorf("Extra keys mismatch (-want +got):\n%s", d)
	}
	if tool.Annotations == nil || tool.Annotations.ReadOnlyHint == nil || *tool.Annotations.ReadOnlyHint {
		t.Errorf("explicit readOnlyHint:false lost")
	}
	out, err := json.Marshal(tool)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(jsonValue(t, []byte(in)), jsonValue(t, out)); d != "" {
		t.Errorf("round trip mismatch (-in +out):\n%s", d)
	}
}

func sortedKeys(e Extra) []string {
	out := keys(e)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

func TestDecodeErrorsHaveContext(t *testing.T) {
	var r Resource
	err := json.Unmarshal([]byte(`{"uri":"file:///a","name":"a","size":"big"}`), &r)
	if err == nil {
		t.Fatal("want error for string size")
	}
	if got := err.Error(); got == "" || !contains(got, `"size"`) {
		t.Errorf("error %q does not name the member", got)
	}
	for _, bad := range []string{`[]`, `"x"`, `{`, `1`} {
		if err := json.Unmarshal([]byte(bad), &r); err == nil {
			t.Errorf("Unmarshal(%s) = nil error, want error", bad)
		}
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

func TestToolAnnotationDefaults(t *testing.T) {
	tr, fa := true, false
	tests := []struct {
		name                                       string
		ann                                        *ToolAnnotations
		readOnly, destructive, idempotent, openWld bool
	}{
		{"nil", nil, false, true, false, true},
		{"empty", &ToolAnnotations{}, false, true, false, true},
		{"all true", &ToolAnnotations{ReadOnlyHint: &tr, DestructiveHint: &tr, IdempotentHint: &tr, OpenWorldHint: &tr}, true, true, true, true},
		{"all false", &ToolAnnotations{ReadOnlyHint: &fa, DestructiveHint: &fa, IdempotentHint: &fa, OpenWorldHint: &fa}, false, false, false, false},
	}
	for _, tt := range tests {
		a := tt.ann
		got := [4]bool{a.ReadOnly(), a.Destructive(), a.Idempotent(), a.OpenWorld()}
		want := [4]bool{tt.readOnly, tt.destructive, tt.idempotent, tt.openWld}
		if got != want {
			t.Errorf("%s: (ReadOnly, Destructive, Idempotent, OpenWorld) = %v, want %v", tt.name, got, want)
		}
	}
}

func TestToolDisplayName(t *testing.T) {
	s := func(v string) *string { return &v }
	tests := []struct {
		tool Tool
		want string
	}{
		{Tool{Name: "n"}, "n"},
		{Tool{Name: "n", Annotations: &ToolAnnotations{Title: s("a")}}, "a"},
		{Tool{Name: "n", Title: s("t"), Annotations: &ToolAnnotations{Title: s("a")}}, "t"},
		{Tool{Name: "n", Title: s("")}, "n"},
	}
	for _, tt := range tests {
		if got := tt.tool.DisplayName(); got != tt.want {
			t.Errorf("DisplayName() = %q, want %q", got, tt.want)
		}
	}
}

func TestDiscoverResultServer(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{`{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{},"ttlMs":1,"cacheScope":"public","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"final","version":"1"}}}`, "final"},
		{`{"resultType":"complete","supportedVersions":[],"capabilities":{},"serverInfo":{"name":"pre","version":"1"}}`, "pre"},
		{`{"resultType":"complete","supportedVersions":[],"capabilities":{}}`, ""},
	}
	for _, tt := range tests {
		var d DiscoverResult
		if err := json.Unmarshal([]byte(tt.in), &d); err != nil {
			t.Fatal(err)
		}
		got := ""
		if s := d.Server(); s != nil {
			got = s.Name
		}
		if got != tt.want {
			t.Errorf("Server() = %q, want %q", got, tt.want)
		}
	}
}

func TestResultTypeOf(t *testing.T) {
	tests := []struct {
		in   string
		want string
		ok   bool
	}{
		{`{"resultType":"complete"}`, "complete", true},
		{`{"resultType":"input_required"}`, "input_required", true},
		{`{"resultType":"task"}`, "task", true},
		{`{"resultType":"weird"}`, "weird", true},
		{`{"content":[]}`, "", false},
		{`{"resultType":null}`, "", false},
		{`{"resultType":1}`, "", false},
		{`[]`, "", false},
		{``, "", false},
	}
	for _, tt := range tests {
		got, ok := ResultTypeOf(json.RawMessage(tt.in))
		if got != tt.want || ok != tt.ok {
			t.Errorf("ResultTypeOf(%s) = %q, %v, want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestCacheHintsOf(t *testing.T) {
	i := func(v int64) *int64 { return &v }
	s := func(v string) *string { return &v }
	tests := []struct {
		in      string
		want    CacheHints
		eff     int64
		wantErr bool
	}{
		{`{"ttlMs":60000,"cacheScope":"public"}`, CacheHints{i(60000), s("public")}, 60000, false},
		{`{"ttlMs":0,"cacheScope":"private"}`, CacheHints{i(0), s("private")}, 0, false},
		{`{"ttlMs":-5}`, CacheHints{TTLMs: i(-5)}, 0, false},
		{`{}`, CacheHints{}, 0, false},
		{`{"ttlMs":1.5,"cacheScope":"public"}`, CacheHints{CacheScope: s("public")}, 0, true},
		{`{"ttlMs":"60","cacheScope":7}`, CacheHints{}, 0, true},
		{`[]`, CacheHints{}, 0, true},
	}
	for _, tt := range tests {
		got, err := CacheHintsOf(json.RawMessage(tt.in))
		if (err != nil) != tt.wantErr {
			t.Errorf("CacheHintsOf(%s) error = %v, want error %v", tt.in, err, tt.wantErr)
		}
		if d := cmp.Diff(tt.want, got); d != "" {
			t.Errorf("CacheHintsOf(%s) mismatch (-want +got):\n%s", tt.in, d)
		}
		if e := got.EffectiveTTLMs(); e != tt.eff {
			t.Errorf("CacheHintsOf(%s).EffectiveTTLMs() = %d, want %d", tt.in, e, tt.eff)
		}
	}
}

func TestLegacyInitializeResult(t *testing.T) {
	in := `{"protocolVersion":"2025-06-18","capabilities":{"logging":{},"tools":{"listChanged":true},"resources":{"subscribe":true}},"serverInfo":{"name":"s","version":"0.9.0","title":"S"},"instructions":"hi"}`
	var r InitializeResult
	if err := json.Unmarshal([]byte(in), &r); err != nil {
		t.Fatal(err)
	}
	c := &r.Capabilities
	for path, want := range map[string]bool{
		"tools": true, "tools.listChanged": true, "resources": true, "resources.subscribe": true,
		"resources.listChanged": false, "logging": true, "prompts": false, "completions": false, "": true, "nonsense": false,
	} {
		if got := c.Declares(path); got != want {
			t.Errorf("Declares(%q) = %v, want %v", path, got, want)
		}
	}
	out, _ := json.Marshal(r)
	if d := cmp.Diff(jsonValue(t, []byte(in)), jsonValue(t, out)); d != "" {
		t.Errorf("round trip mismatch (-in +out):\n%s", d)
	}
}

func TestElicitationModes(t *testing.T) {
	tests := []struct {
		in        string
		form, url bool
	}{
		{`{"elicitation":{}}`, true, false},
		{`{"elicitation":{"form":{}}}`, true, false},
		{`{"elicitation":{"url":{}}}`, false, true},
		{`{"elicitation":{"form":{},"url":{}}}`, true, true},
		{`{}`, false, false},
	}
	for _, tt := range tests {
		var c ClientCapabilities
		if err := json.Unmarshal([]byte(tt.in), &c); err != nil {
			t.Fatal(err)
		}
		if f, u := c.Elicitation.SupportsForm(), c.Elicitation.SupportsURL(); f != tt.form || u != tt.url {
			t.Errorf("%s: form, url = %v, %v, want %v, %v", tt.in, f, u, tt.form, tt.url)
		}
	}
}

func TestClientDeclares(t *testing.T) {
	var c ClientCapabilities
	in := `{"roots":{"listChanged":true},"sampling":{"tools":{}},"elicitation":{"url":{}},"extensions":{"io.modelcontextprotocol/tasks":{}}}`
	if err := json.Unmarshal([]byte(in), &c); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]bool{
		"roots": true, "roots.listChanged": true, "sampling": true, "sampling.tools": true, "sampling.context": false,
		"elicitation": true, "elicitation.form": false, "elicitation.url": true, "tasks": false,
		"extensions.io.modelcontextprotocol/tasks": true, "extensions.io.modelcontextprotocol/ui": false, "bogus": false,
	} {
		if got := c.Declares(path); got != want {
			t.Errorf("Declares(%q) = %v, want %v", path, got, want)
		}
	}
	var nilCaps *ClientCapabilities
	if nilCaps.Declares("roots") {
		t.Errorf("nil capabilities declare roots")
	}
}
