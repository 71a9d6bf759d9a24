package settings

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpward/mcpward/internal/fault"
)

func ptr[T any](v T) *T { return &v }

func TestParse(t *testing.T) {
	in := "\xef\xbb\xbf" + `# proxy defaults
label = "weather"
trace-file = "traces/w.jsonl"
no-trace = false
hub-socket = "/run/mcpward.sock"

[redact]
secrets = true
keys = ["ssn", "account"]
values = ['acct-\d{4}']
paths = ["params.arguments.pin"]

[otlp]
endpoint = "http://127.0.0.1:4318/v1/traces"
headers = { "X-Team" = "infra", "Authorization" = "Bearer t" }
`
	got, err := Parse("cfg.toml", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := &File{
		Path: "cfg.toml", Label: "weather", TraceFile: "traces/w.jsonl", NoTrace: ptr(false), HubSocket: "/run/mcpward.sock",
		Redact: Redact{Secrets: ptr(true), Keys: []string{"ssn", "account"}, Values: []string{`acct-\d{4}`}, Paths: []string{"params.arguments.pin"}},
		OTLP:   OTLP{Endpoint: "http://127.0.0.1:4318/v1/traces", Headers: map[string]string{"X-Team": "infra", "Authorization": "Bearer t"}},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Parse() mismatch (-want +got):\n%s", d)
	}
	wantFlags := []FlagValue{
		{"label", "weather"}, {"trace-file", "traces/w.jsonl"}, {"no-trace", "false"}, {"hub-socket", "/run/mcpward.sock"},
		{"redact-secrets", "true"}, {"redact-key", "ssn"}, {"redact-key", "account"}, {"redact-value", `acct-\d{4}`},
		{"redact-path", "params.arguments.pin"}, {"otlp-endpoint", "http://127.0.0.1:4318/v1/traces"},
		{"otlp-header", "Authorization=Bearer t"}, {"otlp-header", "X-Team=infra"},
	}
	if d := cmp.Diff(wantFlags, got.Flags()); d != "" {
		t.Errorf("Flags() mismatch (-want +got):\n%s", d)
	}
	rc := got.RedactConfig()
	if !rc.Secrets || len(rc.Keys) != 2 {
		t.Errorf("RedactConfig() = %+v", rc)
	}
}

func TestParseEmpty(t *testing.T) {
	f, err := Parse("x", []byte("# nothing\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Flags()) != 0 {
		t.Errorf("Flags() of an empty file = %v", f.Flags())
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"unknown key", "lable = \"x\"\n", `config c.toml: unknown key "lable"`},
		{"unknown key suggestion", "[redact]\nkey = [\"a\"]\n", `config c.toml: unknown key "redact.key" (did you mean "redact.keys"?)`},
		{"flag spelling misspelt", "redact_keys = [\"a\"]\n", `config c.toml: unknown key "redact_keys" (did you mean "redact-key"?)`},
		{"both spellings disagree", "redact-secrets = true\n[redact]\nsecrets = false\n", "redact.secrets and redact-secrets disagree"},
		{"both endpoints disagree", "otlp-endpoint = \"http://a\"\n[otlp]\nendpoint = \"http://b\"\n", "otlp.endpoint and otlp-endpoint disagree"},
		{"bad otlp-header", "otlp-endpoint = \"http://a\"\notlp-header = [\"X\"]\n", `otlp-header "X": want Name=Value`},
		{"list of numbers", "redact-key = [1]\n", "want a string or a list of strings"},
		{"unknown table", "[proxy]\nlabel = \"x\"\n", `config c.toml: unknown key "proxy"`},
		{"syntax", "label = \n", "config c.toml: line 1: "},
		{"wrong type", "label = 5\n", `config c.toml: `},
		{"bad label", "label = \"a/b\"\n", "config c.toml: label: "},
		{"bad regexp", "[redact]\nvalues = [\"(\"]\n", `config c.toml: redact value "("`},
		{"bad path", "[redact]\npaths = [\"a[x]\"]\n", `config c.toml: redact path "a[x]"`},
		{"bad endpoint", "[otlp]\nendpoint = \"ftp://x\"\n", "config c.toml: otlp.endpoint must be an http:// or https:// URL"},
		{"headers without endpoint", "[otlp]\nheaders = {A = \"b\"}\n", "config c.toml: otlp.headers needs otlp.endpoint"},
		{"bad header name", "[otlp]\nendpoint = \"http://h\"\nheaders = {\"a b\" = \"c\"}\n", `not a valid header name`},
		{"header line break", "[otlp]\nendpoint = \"http://h\"\nheaders = {A = \"b\\nc\"}\n", `value of A holds a line break`},
		{"contradiction", "no-trace = true\ntrace-file = \"x\"\n", "no-trace and trace-file contradict each other"},
		{"duplicate key", "label = \"a\"\nlabel = \"b\"\n", "config c.toml: line 2: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("c.toml", []byte(tt.in))
			if err == nil {
				t.Fatalf("Parse(%q) = nil error", tt.in)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Parse(%q) error = %q, want it to contain %q", tt.in, err, tt.want)
			}
			if !errors.Is(err, fault.ErrInput) {
				t.Errorf("error %v is not marked fault.ErrInput", err)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error is not one line: %q", err)
			}
		})
	}
}

func TestFindOrder(t *testing.T) {
	root := t.TempDir()
	cwd := filepath.Join(root, "proj")
	xdg := filepath.Join(root, "xdg")
	home := filepath.Join(root, "home")
	for _, d := range []string{cwd, filepath.Join(xdg, "mcpward"), filepath.Join(home, ".config", "mcpward")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, label string) string {
		t.Helper()
		if err := os.WriteFile(p, []byte("label = \""+label+"\"\ntrace-file = \"t.jsonl\"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	explicit := write(filepath.Join(root, "explicit.toml"), "explicit")
	local := write(filepath.Join(cwd, FileName), "local")
	xdgFile := write(filepath.Join(xdg, "mcpward", "config.toml"), "xdg")
	homeFile := write(filepath.Join(home, ".config", "mcpward", "config.toml"), "home")
	env := func(m map[string]string) func(string) (string, bool) {
		return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
	}
	withXDG := env(map[string]string{"XDG_CONFIG_HOME": xdg, "HOME": home})
	homeOnly := env(map[string]string{"HOME": home})

	steps := []struct {
		name     string
		explicit string
		lookup   func(string) (string, bool)
		remove   string
		want     string
	}{
		{"explicit wins", explicit, withXDG, "", explicit},
		{"then the working directory", "", withXDG, "", local},
		{"then XDG_CONFIG_HOME", "", withXDG, local, xdgFile},
		{"then ~/.config", "", homeOnly, "", homeFile},
		{"none", "", env(nil), "", ""},
	}
	for _, st := range steps {
		if st.remove != "" {
			os.Remove(st.remove)
		}
		got, err := Find(st.explicit, cwd, st.lookup, nil)
		if err != nil || got != st.want {
			t.Errorf("%s: Find() = %q, %v; want %q", st.name, got, err, st.want)
		}
	}
	f, err := Load("", cwd, homeOnly, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(home, ".config", "mcpward", "t.jsonl"); f.Label != "home" || f.TraceFile != want {
		t.Errorf("Load() = label %q trace %q; want home, %q", f.Label, f.TraceFile, want)
	}
	_, err = Find(filepath.Join(root, "missing.toml"), cwd, homeOnly, nil)
	if err == nil || !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), "missing.toml") {
		t.Errorf("Find(missing explicit) error = %v, want an input error naming the file", err)
	}
	f, err = Load("", filepath.Join(root, "nowhere"), env(nil), nil)
	if err != nil || f == nil || f.Path != "" {
		t.Errorf("Load() with no file = %+v, %v; want an empty File", f, err)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"label = \"x\"\n", "[redact]\nsecrets = true\nkeys=[\"a\"]\n", "[otlp]\nendpoint=\"http://h\"\nheaders={A=\"b\"}\n",
		"a = [", "label = '''\n", "\xef\xbb\xbf", "[[redact]]\n", "x.y.z = 1", "label = \"\\uD800\"",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := Parse("f.toml", data)
		if err != nil {
			if !errors.Is(err, fault.ErrInput) {
				t.Fatalf("error not marked input: %v", err)
			}
			return
		}
		_ = got.Flags()
	})
}

// TestFlagSpellings: every key whose name differs from its proxy flag's is
// accepted in the flag's spelling too, a repeatable flag's key as one
// string or a list, and both spellings add up (issue 13, item 15).
func TestFlagSpellings(t *testing.T) {
	in := `label = "weather"
redact-secrets = true
redact-key = "ssn"
redact-value = ['acct-\d{4}']
redact-path = ["params.arguments.pin"]
otlp-endpoint = "http://127.0.0.1:4318/v1/traces"
otlp-header = ["X-Team=infra", "Authorization=Bearer t=1"]

[redact]
keys = ["account"]
`
	got, err := Parse("cfg.toml", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := &File{
		Path: "cfg.toml", Label: "weather",
		Redact: Redact{Secrets: ptr(true), Keys: []string{"account", "ssn"}, Values: []string{`acct-\d{4}`}, Paths: []string{"params.arguments.pin"}},
		OTLP:   OTLP{Endpoint: "http://127.0.0.1:4318/v1/traces", Headers: map[string]string{"X-Team": "infra", "Authorization": "Bearer t=1"}},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Parse() mismatch (-want +got):\n%s", d)
	}
}
