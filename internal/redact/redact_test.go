package redact

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func mustNew(t testing.TB, cfg Config) *Redactor {
	t.Helper()
	r, err := New(cfg)
	if err != nil {
		t.Fatalf("New(%+v): %v", cfg, err)
	}
	return r
}

func TestFrame(t *testing.T) {
	secrets := Config{Secrets: true}
	tests := []struct {
		name string
		cfg  Config
		in   string
		want string // "" means: unchanged
	}{
		{"nothing configured", Config{}, `{"password":"x"}`, ""},
		{"clean frame", secrets, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, ""},
		{"key rule keeps layout", Config{Keys: []string{"ssn"}},
			"{ \"a\" : 1.50e3 ,\n  \"SSN\":\t\"123-45-6789\" , \"z\":[] }",
			"{ \"a\" : 1.50e3 ,\n  \"SSN\":\t\"[REDACTED]\" , \"z\":[] }"},
		{"key rule at depth, object value", Config{Keys: []string{"creds"}},
			`{"a":[{"b":{"creds":{"user":"u","pw":"p"}}}]}`,
			`{"a":[{"b":{"creds":"[REDACTED]"}}]}`},
		{"comma-separated keys", Config{Keys: []string{"a, b"}},
			`{"a":"1","b":2,"c":"3"}`, `{"a":"[REDACTED]","b":"[REDACTED]","c":"3"}`},
		{"null and empty kept", Config{Keys: []string{"k"}}, `{"k":null,"x":{"k":""}}`, ""},
		{"secret names and suffixes", secrets,
			`{"params":{"arguments":{"password":"hunter2","dbPassword":"p2","GITHUB_TOKEN":"t","client_secret":"s","api-key":"k","name":"ok"}}}`,
			`{"params":{"arguments":{"password":"[REDACTED]","dbPassword":"[REDACTED]","GITHUB_TOKEN":"[REDACTED]","client_secret":"[REDACTED]","api-key":"[REDACTED]","name":"ok"}}}`},
		{"progress and page tokens kept", secrets,
			`{"params":{"_meta":{"progressToken":"abc"},"nextPageToken":"n","hasPassword":true}}`, ""},
		{"escaped key", Config{Keys: []string{"token"}},
			`{"t\u006fken":"abc"}`, `{"t\u006fken":"[REDACTED]"}`},
		{"value regex replaces the match only", Config{Values: []string{`\d{3}-\d{2}-\d{4}`}},
			`{"text":"ssn 123-45-6789 on file","n":123456789}`,
			`{"text":"ssn [REDACTED] on file","n":123456789}`},
		{"value regex on a number", Config{Values: []string{`^4\d{15}$`}},
			`{"card":4111111111111111,"other":5}`, `{"card":"[REDACTED]","other":5}`},
		{"value regex sees through escapes", Config{Values: []string{`secret-\d+`}},
			`{"a":"x \u0073ecret-42 y\n"}`, `{"a":"x [REDACTED] y\n"}`},
		{"openai key in text", secrets,
			`{"result":{"content":[{"type":"text","text":"key is sk-proj-abcdefghijklmnopqrstuvwx1234 ok"}]}}`,
			`{"result":{"content":[{"type":"text","text":"key is [REDACTED] ok"}]}}`},
		{"bearer keeps scheme", secrets,
			`{"text":"Authorization: Bearer abc.def-ghi"}`, `{"text":"Authorization: Bearer [REDACTED]"}`},
		{"github, slack, aws, google", secrets,
			`["ghp_abcdefghijklmnopqrstuvwxyz0123456789","xoxb-1234567890-abcdef","AKIAABCDEFGHIJKLMNOP","AIzaSyA1234567890abcdefghijklmnopqrstuv"]`,
			`["[REDACTED]","[REDACTED]","[REDACTED]","[REDACTED]"]`},
		{"jwt", secrets,
			`{"v":"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl"}`, `{"v":"[REDACTED]"}`},
		{"pem block", secrets,
			`{"k":"-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----\n"}`, `{"k":"[REDACTED]\n"}`},
		{"key=value in text", secrets,
			`{"text":"connect password=hunter2 host=db progress_token=7"}`,
			`{"text":"connect password=[REDACTED] host=db progress_token=7"}`},
		{"argv flag=value and flag value", secrets,
			`{"argv":["server","--token=abc","--api-key","def","--verbose","API_KEY=ghi","-p","8080"]}`,
			`{"argv":["server","--token=[REDACTED]","--api-key","[REDACTED]","--verbose","API_KEY=[REDACTED]","-p","8080"]}`},
		{"argv flag followed by a flag", Config{Keys: []string{"token"}},
			`["--token","--other","x"]`, ""},
		{"path rule", Config{Paths: []string{"params.arguments.password", "result.structuredContent.*"}},
			`{"params":{"arguments":{"password":7,"user":"u"}},"result":{"structuredContent":{"a":1,"b":[1]}}}`,
			`{"params":{"arguments":{"password":"[REDACTED]","user":"u"}},"result":{"structuredContent":{"a":"[REDACTED]","b":"[REDACTED]"}}}`},
		{"path descend and index", Config{Paths: []string{"$..tok", "items[1]"}},
			`{"a":{"b":{"tok":"x"}},"items":[1,2,3]}`, `{"a":{"b":{"tok":"[REDACTED]"}},"items":[1,"[REDACTED]",3]}`},
		{"path matching nothing", Config{Paths: []string{"params.nope"}}, `{"params":{"a":1}}`, ""},
		{"schema structure kept, instances scrubbed", secrets,
			`{"result":{"tools":[{"name":"login","inputSchema":{"type":"object","properties":{"password":{"type":"string","default":"letmein"},"token":{"type":"string","examples":[{"token":"t1"}]}}}}]}}`,
			`{"result":{"tools":[{"name":"login","inputSchema":{"type":"object","properties":{"password":{"type":"string","default":"letmein"},"token":{"type":"string","examples":[{"token":"[REDACTED]"}]}}}}]}}`},
		{"sse body", secrets,
			"event: message\ndata: {\"password\":\"p\"}\n\n",
			"event: message\ndata: {\"password\":\"[REDACTED]\"}\n\n"},
		{"stderr text", secrets,
			"starting with token sk-abcdefghijklmnopqrstuvwxyz\nok\n",
			"starting with token [REDACTED]\nok\n"},
		{"stderr pem over lines", secrets,
			"key:\n-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\ndone",
			"key:\n[REDACTED]\ndone"},
		{"invalid json still gets detectors", secrets,
			`{"password": "p", broken`, `{"password": "[REDACTED]", broken`},
		{"escapes around a secret kept", Config{Values: []string{`zz`}},
			`{"a":"<b>&zz\u003c"}`, `{"a":"<b>&[REDACTED]\u003c"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := mustNew(t, tt.cfg)
			in := []byte(tt.in)
			got, changed := r.Frame(in)
			want := tt.want
			if want == "" {
				want = tt.in
				if changed || &got[0] != &in[0] {
					t.Errorf("Frame(%s) changed = %v or returned a copy; want the same slice", tt.in, changed)
				}
			} else if !changed {
				t.Errorf("Frame(%s) changed = false, want true", tt.in)
			}
			if d := cmp.Diff(want, string(got)); d != "" {
				t.Errorf("Frame() mismatch (-want +got):\n%s", d)
			}
		})
	}
}

func TestSchemaAware(t *testing.T) {
	r := mustNew(t, Config{Secrets: true})
	list := `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"deploy","inputSchema":{"type":"object","properties":{
		"pin":{"type":"string","format":"password"},
		"blob":{"type":"string","writeOnly":true},
		"acct":{"type":"object","properties":{"key":{"type":"string","x-mcp-header":"Api-Key"}}},
		"region":{"type":"string","x-mcp-header":"Region"}}}}]}}`
	if _, changed := r.Frame([]byte(list)); changed {
		t.Fatalf("tools/list with nothing secret in it was changed")
	}
	call := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"arguments":{"pin":"1234","blob":"b","acct":{"key":"k"},"region":"eu"},"name":"deploy"}}`
	got, _ := r.Frame([]byte(call))
	want := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"arguments":{"pin":"[REDACTED]","blob":"[REDACTED]","acct":{"key":"[REDACTED]"},"region":"eu"},"name":"deploy"}}`
	if d := cmp.Diff(want, string(got)); d != "" {
		t.Errorf("tools/call mismatch (-want +got):\n%s", d)
	}
	other := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"other","arguments":{"pin":"1234"}}}`
	if _, changed := r.Frame([]byte(other)); changed {
		t.Errorf("a tool without secret arguments was redacted")
	}
	if v, ok := r.Header("Mcp-Param-Api-Key", "k"); !ok || v != Placeholder {
		t.Errorf("Header(Mcp-Param-Api-Key) = %q, %v; want hidden (bound to a secret argument)", v, ok)
	}
	if v, ok := r.Header("Mcp-Param-Region", "eu"); ok {
		t.Errorf("Header(Mcp-Param-Region) = %q, want kept", v)
	}
	// A newer schema for the tool replaces the old one.
	r.ObserveTools([]byte(`{"tools":[{"name":"deploy","inputSchema":{"type":"object","properties":{"pin":{"type":"string"}}}}]}`))
	if _, changed := r.Frame([]byte(call)); changed {
		t.Errorf("tools/call still redacted after the schema dropped its secret")
	}
}

func TestHeader(t *testing.T) {
	none := mustNew(t, Config{})
	sec := mustNew(t, Config{Secrets: true, Keys: []string{"tenant-id"}, Values: []string{`^acct-\d+$`}})
	tests := []struct {
		r           *Redactor
		name, value string
		want        string
		changed     bool
	}{
		{none, "Authorization", "Bearer abc", "Bearer [REDACTED]", true},
		{none, "authorization", "opaque", "[REDACTED]", true},
		{none, "Cookie", "a=b; c=d", "[REDACTED]", true},
		{none, "Mcp-Param-Password", "x", "x", false},
		{none, "Content-Type", "application/json", "application/json", false},
		{sec, "Mcp-Param-Password", "x", "[REDACTED]", true},
		{sec, "Mcp-Param-Tenant-Id", "t", "[REDACTED]", true},
		{sec, "Mcp-Param-Account", "acct-42", "[REDACTED]", true},
		{sec, "Mcp-Param-Account", "=?base64?YWNjdC00Mg==?=", "[REDACTED]", true},
		{sec, "Mcp-Param-Region", "us-west-1", "us-west-1", false},
		{sec, "Mcp-Method", "tools/call", "tools/call", false},
		{sec, "X-Debug", "key sk-abcdefghijklmnopqrstuvwxyz", "key [REDACTED]", true},
	}
	for _, tt := range tests {
		got, changed := tt.r.Header(tt.name, tt.value)
		if got != tt.want || changed != tt.changed {
			t.Errorf("Header(%q, %q) = %q, %v; want %q, %v", tt.name, tt.value, got, changed, tt.want, tt.changed)
		}
	}
}

func TestMessage(t *testing.T) {
	r := mustNew(t, Config{Paths: []string{"params.arguments.account"}})
	h := map[string][]string{
		"Mcp-Param-Account": {"=?base64?" + "YWNjdC00Mg==" + "?="},
		"Mcp-Name":          {"lookup"},
		"Mcp-Method":        {"tools/call"},
	}
	body := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"lookup","arguments":{"account":"acct-42"}}}`)
	gotH, gotB, changed := r.Message(h, body)
	if !changed {
		t.Fatal("Message() changed = false")
	}
	if strings.Contains(string(gotB), "acct-42") {
		t.Errorf("body still holds the secret: %s", gotB)
	}
	want := map[string][]string{
		"Mcp-Param-Account": {Placeholder},
		"Mcp-Name":          {"lookup"},
		"Mcp-Method":        {"tools/call"},
	}
	if d := cmp.Diff(want, gotH); d != "" {
		t.Errorf("headers mismatch (-want +got):\n%s", d)
	}
	if h["Mcp-Param-Account"][0] == Placeholder {
		t.Error("Message modified the caller's header map")
	}
}

func TestArgv(t *testing.T) {
	r := mustNew(t, Config{Secrets: true, Keys: []string{"dsn"}})
	in := []string{"npx", "server", "--token=abc", "--api-key", "k1", "--dsn", "postgres://u:p@h/db",
		"-H", "Authorization: Bearer xyz", "OPENAI_API_KEY=sk-x", "--port", "8080", "--", "sk-abcdefghijklmnopqrstuvwxyz"}
	want := []string{"npx", "server", "--token=[REDACTED]", "--api-key", "[REDACTED]", "--dsn", "[REDACTED]",
		"-H", "Authorization: Bearer [REDACTED]", "OPENAI_API_KEY=[REDACTED]", "--port", "8080", "--", "[REDACTED]"}
	orig := append([]string(nil), in...)
	got, changed := r.Argv(in)
	if !changed {
		t.Error("Argv changed = false")
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Argv() mismatch (-want +got):\n%s", d)
	}
	if d := cmp.Diff(orig, in); d != "" {
		t.Errorf("Argv modified its input (-before +after):\n%s", d)
	}
	clean := []string{"python", "-m", "server", "--port", "1"}
	if got, changed := r.Argv(clean); changed || &got[0] != &clean[0] {
		t.Errorf("Argv(%q) = %q, %v; want the same slice", clean, got, changed)
	}
}

func TestNewErrors(t *testing.T) {
	tests := []struct {
		cfg  Config
		want string
	}{
		{Config{Values: []string{"("}}, `redact value "(": error parsing regexp`},
		{Config{Values: []string{"a*"}}, `redact value "a*": matches the empty string`},
		{Config{Paths: []string{"a..."}}, `redact path "a..."`},
		{Config{Paths: []string{"a[x]"}}, `unsupported selector [x]`},
		{Config{Paths: []string{"$"}}, `selects the whole message`},
		{Config{Paths: []string{"a['b"}}, `unclosed`},
	}
	for _, tt := range tests {
		_, err := New(tt.cfg)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("New(%+v) error = %v, want it to contain %q", tt.cfg, err, tt.want)
		}
	}
}

func TestParsePath(t *testing.T) {
	tests := []struct {
		in   string
		want path
	}{
		{"params.arguments.password", path{{kind: segName, name: "params"}, {kind: segName, name: "arguments"}, {kind: segName, name: "password"}}},
		{"$.result.content[*].text", path{{kind: segName, name: "result"}, {kind: segName, name: "content"}, {kind: segAny}, {kind: segName, name: "text"}}},
		{"$..token", path{{kind: segDescend}, {kind: segName, name: "token"}}},
		{"params['odd.key]'][2]", path{{kind: segName, name: "params"}, {kind: segName, name: "odd.key]"}, {kind: segIndex, idx: 2}}},
		{"a.*", path{{kind: segName, name: "a"}, {kind: segAny}}},
	}
	for _, tt := range tests {
		got, err := parsePath(tt.in)
		if err != nil {
			t.Errorf("parsePath(%q): %v", tt.in, err)
			continue
		}
		if d := cmp.Diff(tt.want, got, cmp.AllowUnexported(pathSeg{})); d != "" {
			t.Errorf("parsePath(%q) mismatch (-want +got):\n%s", tt.in, d)
		}
	}
}
