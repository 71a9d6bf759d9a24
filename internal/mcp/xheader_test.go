package mcp

import (
	"encoding/json"
	"errors"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// TestEncodeHeaderValue pins every worked encoding of DIGEST §4, plus the
// plain cases.
func TestEncodeHeaderValue(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"Hello, 世界", "=?base64?SGVsbG8sIOS4lueVjA==?="},
		{" padded ", "=?base64?IHBhZGRlZCA=?="},
		{"line1\nline2", "=?base64?bGluZTEKbGluZTI=?="},
		{"=?base64?literal?=", "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="},
		{"\tindented", "=?base64?CWluZGVudGVk?="},
		{"日本語", "=?base64?5pel5pys6Kqe?="},
		// Plain values.
		{"", ""},
		{"us west 1", "us west 1"},
		{"acme", "acme"},
		{"=?BASE64?x?=", "=?BASE64?x?="}, // wrong case is already literal
		{"=?base64?=", "=?base64?="},     // markers overlap: not the sentinel form
		{"trailing\t", "=?base64?dHJhaWxpbmcJ?="},
		{"del\x7f", "=?base64?ZGVsfw==?="},
	}
	for _, tt := range tests {
		got := EncodeHeaderValue(tt.in)
		if got != tt.want {
			t.Errorf("EncodeHeaderValue(%q) = %q, want %q", tt.in, got, tt.want)
		}
		back, err := DecodeHeaderValue(got)
		if err != nil || back != tt.in {
			t.Errorf("DecodeHeaderValue(%q) = %q, %v, want %q", got, back, err, tt.in)
		}
	}
}

func TestDecodeHeaderValue(t *testing.T) {
	tests := []struct {
		in      string
		want    string
		wantErr error
	}{
		{"=?base64?SGVsbG8?=", "", ErrHeaderBase64}, // bad padding
		{"=?BASE64?SGVsbG8=?=", "=?BASE64?SGVsbG8=?=", nil},
		{"=?Base64?SGVsbG8=?=", "=?Base64?SGVsbG8=?=", nil},
		{"=?base64?SGVsbG8=?=", "Hello", nil},
		{"=?base64??=", "", nil},
		{"=?base64?SGVs bG8=?=", "", ErrHeaderBase64},
		{"=?base64?SGVsbG8-?=", "", ErrHeaderBase64}, // URL alphabet
		{"=?base64?/w==?=", "", ErrHeaderBase64},     // not UTF-8
		{"=?base64?SGVsbG9=?=", "", ErrHeaderBase64}, // non-zero padding bits (strict)
		{"plain", "plain", nil},
		{"a\tb", "a\tb", nil},
		{"bad\x01", "", ErrHeaderChars},
		{"caf\xc3\xa9", "", ErrHeaderChars},
	}
	for _, tt := range tests {
		got, err := DecodeHeaderValue(tt.in)
		if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil && err != nil) {
			t.Errorf("DecodeHeaderValue(%q) error = %v, want %v", tt.in, err, tt.wantErr)
		}
		if got != tt.want {
			t.Errorf("DecodeHeaderValue(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestIsToken(t *testing.T) {
	for s, want := range map[string]bool{
		"X-Workspace": true, "Region": true, "a!#$%&'*+-.^_`|~9": true,
		"": false, "X Bad": false, "a:b": false, "é": false, "a\tb": false, "a/b": false, "(x)": false,
	} {
		if got := IsToken(s); got != want {
			t.Errorf("IsToken(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestHeaderBindingsFixtures reproduces snapgauge's bad-x-mcp-header
// fixture tools (reference §11): each gives exactly its own violation.
func TestHeaderBindingsFixtures(t *testing.T) {
	tests := []struct {
		tool   string
		schema string
		want   []string // union of violations over the tool's bindings
	}{
		{"t_empty", `{"type":"object","properties":{"a":{"type":"string","x-mcp-header":""}}}`, []string{XhdrEmpty}},
		{"t_control", `{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"X-Bad\u0007"}}}`, []string{XhdrControlChar}},
		{"t_not_token", `{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"X Bad Header"}}}`, []string{XhdrNotToken}},
		{"t_dup", `{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"X-Api-Key"},"b":{"type":"string","x-mcp-header":"x-api-key"}}}`, []string{XhdrNotUnique}},
		{"t_number", `{"type":"object","properties":{"a":{"type":"number","x-mcp-header":"X-Num"}}}`, []string{XhdrNonPrimitive}},
		{"t_unsafe", `{"type":"object","properties":{"a":{"type":"integer","maximum":1e16,"x-mcp-header":"X-Int"}}}`, []string{XhdrUnsafeInteger}},
		{"t_unreachable", `{"type":"object","oneOf":[{"properties":{"a":{"type":"string","x-mcp-header":"X-One"}}}]}`, []string{XhdrNotStaticallyReachable}},
		{"valid", `{"type":"object","properties":{"id":{"type":"string"},"workspace":{"type":"string","x-mcp-header":"X-Workspace"}},"required":["id"]}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			bs, err := HeaderBindings(json.RawMessage(tt.schema))
			if err != nil {
				t.Fatal(err)
			}
			if len(bs) == 0 {
				t.Fatal("no bindings found")
			}
			var got []string
			for _, b := range bs {
				for _, v := range b.Violations {
					if !contains(join(got), v) {
						got = append(got, v)
					}
				}
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("violations mismatch (-want +got):\n%s", d)
			}
			if valid := ToolHeadersValid(bs); valid != (len(tt.want) == 0) {
				t.Errorf("ToolHeadersValid = %v, want %v", valid, len(tt.want) == 0)
			}
		})
	}
}

func join(s []string) string {
	out := ""
	for _, x := range s {
		out += x + "\n"
	}
	return out
}

func TestHeaderBindingsDetail(t *testing.T) {
	schema := `{
		"type": "object",
		"properties": {
			"a": {"type": "object", "properties": {"b": {"type": "integer", "minimum": -9007199254740991, "maximum": 9007199254740991, "x-mcp-header": "Deep"}}},
			"flag": {"type": "boolean", "x-mcp-header": "Flag"},
			"maybe": {"type": ["string", "null"], "x-mcp-header": "Maybe"},
			"password": {"type": "string", "x-mcp-header": "Pw"},
			"list": {"type": "array", "items": {"type": "string", "x-mcp-header": "Item"}},
			"x-mcp-header": {"type": "string"},
			"untyped": {"x-mcp-header": "Untyped"},
			"withDefault": {"type": "object", "default": {"x-mcp-header": "NotAnAnnotation"}},
			"num": {"type": "string", "x-mcp-header": 5}
		},
		"$defs": {"d": {"type": "string", "x-mcp-header": "Def"}},
		"allOf": [{"properties": {"c": {"type": "string", "x-mcp-header": "All"}}}]
	}`
	bs, err := HeaderBindings(json.RawMessage(schema))
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		Path       string
		Static     []string
		Header     string
		Type       string
		Violations []string
		Warnings   []string
	}
	var got []row
	for _, b := range bs {
		got = append(got, row{b.PathString, b.Path, b.Header, b.Type, b.Violations, b.Warnings})
	}
	want := []row{
		{"$defs.d", nil, "Def", "string", []string{XhdrNotStaticallyReachable}, nil},
		{"allOf.0.properties.c", nil, "All", "string", []string{XhdrNotStaticallyReachable}, nil},
		{"properties.a.properties.b", []string{"a", "b"}, "Deep", "integer", nil, nil},
		{"properties.flag", []string{"flag"}, "Flag", "boolean", nil, nil},
		{"properties.list.items", nil, "Item", "string", []string{XhdrNotStaticallyReachable}, nil},
		{"properties.maybe", []string{"maybe"}, "Maybe", "string", nil, []string{XhdrNullableType}},
		{"properties.num", []string{"num"}, "", "string", []string{XhdrNotString}, nil},
		{"properties.password", []string{"password"}, "Pw", "string", nil, []string{XhdrSensitive}},
		{"properties.untyped", []string{"untyped"}, "Untyped", "", []string{XhdrNonPrimitive}, nil},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("bindings mismatch (-want +got):\n%s", d)
	}
}

func TestHeaderBindingsTypes(t *testing.T) {
	tests := []struct {
		typ  string
		ok   bool
		warn bool
	}{
		{`"string"`, true, false},
		{`"integer"`, true, false},
		{`"boolean"`, true, false},
		{`"number"`, false, false},
		{`"object"`, false, false},
		{`"array"`, false, false},
		{`"null"`, false, false},
		{`["integer","null"]`, true, true},
		{`["null","boolean"]`, true, true},
		{`["string"]`, true, false},
		{`["string","integer"]`, false, false},
		{`["number","null"]`, false, false},
		{`[]`, false, false},
		{`7`, false, false},
	}
	for _, tt := range tests {
		s := `{"type":"object","properties":{"p":{"type":` + tt.typ + `,"x-mcp-header":"P"}}}`
		bs, err := HeaderBindings(json.RawMessage(s))
		if err != nil {
			t.Fatal(err)
		}
		if bs[0].Valid != tt.ok || (len(bs[0].Warnings) > 0) != tt.warn {
			t.Errorf("type %s: Valid = %v, Warnings = %v, want %v, warning %v", tt.typ, bs[0].Valid, bs[0].Warnings, tt.ok, tt.warn)
		}
	}
}

func TestHeaderBindingsUnsafeInteger(t *testing.T) {
	tests := []struct {
		extra string
		ok    bool
	}{
		{``, true},
		{`,"maximum":9007199254740991`, true},
		{`,"maximum":9007199254740992`, false},
		{`,"minimum":-9007199254740992`, false},
		{`,"const":1e16`, false},
		{`,"default":1.5`, false},
		{`,"enum":[1,2,99999999999999999999]`, false},
		{`,"exclusiveMaximum":1e999`, false},
		{`,"maximum":1e2`, true},
		{`,"maximum":"big"`, true}, // not a number: schema validity, not this rule
	}
	for _, tt := range tests {
		s := `{"type":"object","properties":{"p":{"type":"integer","x-mcp-header":"P"` + tt.extra + `}}}`
		bs, err := HeaderBindings(json.RawMessage(s))
		if err != nil {
			t.Fatal(err)
		}
		if bs[0].Valid != tt.ok {
			t.Errorf("%s: Valid = %v (violations %v), want %v", tt.extra, bs[0].Valid, bs[0].Violations, tt.ok)
		}
	}
}

func TestHeaderBindingsErrors(t *testing.T) {
	for _, s := range []string{``, `[]`, `"x"`, `null`, `{`, `{} {}`} {
		if _, err := HeaderBindings(json.RawMessage(s)); err == nil {
			t.Errorf("HeaderBindings(%q) = nil error, want error", s)
		}
	}
	bs, err := HeaderBindings(json.RawMessage(`{"type":"object"}`))
	if err != nil || len(bs) != 0 {
		t.Errorf("HeaderBindings(no annotations) = %v, %v", bs, err)
	}
	// An annotation on the root is not a property.
	bs, _ = HeaderBindings(json.RawMessage(`{"type":"object","x-mcp-header":"Root"}`))
	if len(bs) != 1 || bs[0].Valid {
		t.Errorf("root annotation: %+v, want one invalid binding", bs)
	}
}

func TestParamHeaders(t *testing.T) {
	schema := `{"type":"object","properties":{
		"region":{"type":"string","x-mcp-header":"Region"},
		"n":{"type":"integer","x-mcp-header":"N"},
		"ok":{"type":"boolean","x-mcp-header":"Ok"},
		"nested":{"type":"object","properties":{"t":{"type":"string","x-mcp-header":"Tenant"}}}
	}}`
	bs, err := HeaderBindings(json.RawMessage(schema))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		args    string
		want    [][2]string
		wantErr bool
	}{
		{"all", `{"region":"us west 1","n":42,"ok":false,"nested":{"t":"acme"}}`, [][2]string{
			{"Mcp-Param-N", "42"}, {"Mcp-Param-Tenant", "acme"}, {"Mcp-Param-Ok", "false"}, {"Mcp-Param-Region", "us west 1"},
		}, false},
		{"absent and null", `{"region":null,"nested":{}}`, nil, false},
		{"nested not object", `{"nested":"x"}`, nil, false},
		{"no arguments", ``, nil, false},
		{"null arguments", `null`, nil, false},
		{"big integer exact", `{"n":12345678901234567890}`, [][2]string{{"Mcp-Param-N", "12345678901234567890"}}, false},
		{"integral float", `{"n":42.0}`, [][2]string{{"Mcp-Param-N", "42"}}, false},
		{"exponent", `{"n":1e3}`, [][2]string{{"Mcp-Param-N", "1000"}}, false},
		{"unicode string", `{"region":"日本語"}`, [][2]string{{"Mcp-Param-Region", "=?base64?5pel5pys6Kqe?="}}, false},
		{"empty string", `{"region":""}`, [][2]string{{"Mcp-Param-Region", ""}}, false},
		{"fraction", `{"n":1.5}`, nil, true},
		{"object value", `{"region":{}}`, nil, true},
		{"array args", `[]`, nil, true},
		{"bad json", `{`, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParamHeaders(bs, json.RawMessage(tt.args))
			if (err != nil) != tt.wantErr {
				t.Fatalf("ParamHeaders error = %v, want error %v", err, tt.wantErr)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("ParamHeaders mismatch (-want +got):\n%s", d)
			}
		})
	}
	bad, _ := HeaderBindings(json.RawMessage(`{"type":"object","properties":{"a":{"type":"number","x-mcp-header":"A"}}}`))
	if _, err := ParamHeaders(bad, json.RawMessage(`{"a":1}`)); !errors.Is(err, ErrToolHeadersInvalid) {
		t.Errorf("ParamHeaders(invalid tool) error = %v, want ErrToolHeadersInvalid", err)
	}
}

func FuzzDecodeHeaderValue(f *testing.F) {
	for _, s := range []string{"", "plain", "=?base64?SGVsbG8?=", "=?base64?SGVsbG8=?=", "=?BASE64?x?=", "=?base64?=", "=?base64??=", "\x00", "=?base64?/w==?="} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := DecodeHeaderValue(s)
		if err != nil {
			return
		}
		if isSentinel(s) && !utf8.ValidString(v) {
			t.Errorf("decoded %q to invalid UTF-8", s)
		}
		// Whatever decodes must survive an encode/decode round trip.
		if back, err := DecodeHeaderValue(EncodeHeaderValue(v)); err != nil || back != v {
			t.Errorf("round trip of %q: %q, %v", v, back, err)
		}
	})
}

func FuzzEncodeHeaderValue(f *testing.F) {
	for _, s := range []string{"", "Hello, 世界", " padded ", "=?base64?literal?=", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		enc := EncodeHeaderValue(s)
		for i := 0; i < len(enc); i++ {
			if c := enc[i]; c >= 0x80 || c < 0x20 || c == 0x7f {
				t.Fatalf("EncodeHeaderValue(%q) = %q holds unsafe byte", s, enc)
			}
		}
		if !utf8.ValidString(s) {
			return // not a JSON string value; decode rejects non-UTF-8
		}
		if back, err := DecodeHeaderValue(enc); err != nil || back != s {
			t.Errorf("DecodeHeaderValue(EncodeHeaderValue(%q)) = %q, %v", s, back, err)
		}
	})
}

func FuzzHeaderBindings(f *testing.F) {
	for _, s := range []string{
		`{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"A"}}}`,
		`{"type":"object","oneOf":[{"properties":{"a":{"type":"string","x-mcp-header":"X-One"}}}]}`,
		`{"properties":{"a":{"type":"integer","maximum":1e999999999,"x-mcp-header":"A"}}}`,
		`{"properties":[{"x-mcp-header":1}],"$defs":7}`,
		`{"x-mcp-header":null}`,
	} {
		f.Add(s, `{"a":1}`)
	}
	f.Fuzz(func(t *testing.T, schema, args string) {
		bs, err := HeaderBindings(json.RawMessage(schema))
		if err != nil {
			return
		}
		for _, b := range bs {
			if b.Valid != (len(b.Violations) == 0) {
				t.Fatalf("Valid inconsistent: %+v", b)
			}
		}
		_, _ = ParamHeaders(bs, json.RawMessage(args))
	})
}
