package proxycmd

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/migrate/mcpsnoopfiles"
	"github.com/mcpward/mcpward/internal/redact"
	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/settings"
	"github.com/mcpward/mcpward/internal/testenv"
)

const helperEnv = "MCPWARD_CLI_PROXY_HELPER"

func TestMain(m *testing.M) {
	testenv.NoRaceExitPause()
	switch os.Getenv(helperEnv) {
	case "cat":
		io.Copy(os.Stdout, os.Stdin)
		os.Stderr.WriteString("bye\n")
		code, _ := strconv.Atoi(os.Getenv("HELPER_EXIT"))
		os.Exit(code)
	case "sleep":
		// A server that only a signal ends (bounded, should a test fail).
		os.Stdout.WriteString("ready\n")
		time.Sleep(5 * time.Minute)
		os.Exit(0)
	case "shim":
		os.Exit(helperShim())
	}
	os.Exit(m.Run())
}

// helperShim is `mcpward proxy --trace-file $HELPER_LOG -- <sleep helper>`
// on the process's own streams, exiting with the code Main would.
func helperShim() int {
	exe, err := os.Executable()
	if err != nil {
		return 90
	}
	opts := &ProxyOptions{
		IO: iostreams.System(), Now: time.Now, Version: "test", LookupEnv: os.LookupEnv,
		Environ: func() []string { return append(os.Environ(), helperEnv+"=sleep") },
		Getwd:   os.Getwd, Command: []string{exe, "-test.run=^$"}, Label: "sleep",
		TraceFile: os.Getenv("HELPER_LOG"), NoFeed: true, Grace: 10 * time.Second,
	}
	err = proxyRun(context.Background(), opts)
	var v *cmdutil.VerdictError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &v):
		return v.Code
	}
	os.Stderr.WriteString(err.Error() + "\n")
	return 90
}

func TestNewCmdProxyFlags(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		want    ProxyOptions
		wantErr string
	}{
		{name: "stdio", args: []string{"--", "npx", "-y", "srv"}, want: ProxyOptions{Command: []string{"npx", "-y", "srv"}, Listen: defaultListen, Grace: 5 * time.Second, BodyTimeout: time.Minute}},
		{name: "stdio with flags", args: []string{"--label", "w", "--trace-file", "t.jsonl", "--grace", "1s", "--", "srv", "--flag"}, want: ProxyOptions{Command: []string{"srv", "--flag"}, Label: "w", TraceFile: "t.jsonl", Listen: defaultListen, Grace: time.Second, BodyTimeout: time.Minute}},
		{name: "http", args: []string{"--target", "http://127.0.0.1:9000/mcp", "--listen", "localhost:7001"}, want: ProxyOptions{Listen: "localhost:7001", Grace: 5 * time.Second, BodyTimeout: time.Minute}},
		{name: "remote allowed", args: []string{"--target", "https://x.example/mcp", "--listen", "0.0.0.0:7000", "--allow-remote"}, want: ProxyOptions{Listen: "0.0.0.0:7000", AllowRemote: true, Grace: 5 * time.Second, BodyTimeout: time.Minute}},
		{name: "remote refused", args: []string{"--target", "http://127.0.0.1:9000", "--listen", ":7000"}, wantErr: "not a loopback address"},
		{name: "no server", args: nil, wantErr: "no server"},
		{name: "both", args: []string{"--target", "http://h", "--", "srv"}, wantErr: "not both"},
		{name: "bad target", args: []string{"--target", "ftp://h"}, wantErr: "http:// or https://"},
		{name: "listen without target", args: []string{"--listen", "127.0.0.1:1", "--", "srv"}, wantErr: "--listen applies only"},
		{name: "body-timeout without target", args: []string{"--body-timeout", "5s", "--", "srv"}, wantErr: "--body-timeout applies only"},
		{name: "body-timeout zero", args: []string{"--target", "http://h", "--body-timeout", "0s"}, wantErr: "--body-timeout must be positive"},
		{name: "tls half", args: []string{"--target", "http://h", "--tls-cert", "c.pem"}, wantErr: "go together"},
		{name: "bad label", args: []string{"--label", "a:b", "--", "srv"}, wantErr: "--label"},
		{name: "no-trace and trace-file", args: []string{"--no-trace", "--trace-file", "x", "--", "srv"}, wantErr: "contradict"},
		{name: "stray argument", args: []string{"srv"}, wantErr: "unexpected argument"},
		{name: "redaction", args: []string{"--redact-secrets", "--redact-key", "ssn", "--redact-key", "pin,account", "--redact-value", `acct-\d{4},x`, "--redact-path", "params.arguments.pin", "--", "srv"},
			want: ProxyOptions{Command: []string{"srv"}, Listen: defaultListen, Grace: 5 * time.Second, BodyTimeout: time.Minute,
				Redact: redact.Config{Secrets: true, Keys: []string{"ssn", "pin,account"}, Values: []string{`acct-\d{4},x`}, Paths: []string{"params.arguments.pin"}}}},
		{name: "otlp", args: []string{"--otlp-endpoint", "http://127.0.0.1:4318", "--otlp-header", "X-Team=infra", "--otlp-header", "X-Empty=", "--", "srv"},
			want: ProxyOptions{Command: []string{"srv"}, Listen: defaultListen, Grace: 5 * time.Second, BodyTimeout: time.Minute, OTLPEndpoint: "http://127.0.0.1:4318",
				OTLPHeaders: []string{"X-Team=infra", "X-Empty="}, OTLPHeader: map[string]string{"X-Team": "infra", "X-Empty": ""}}},
		{name: "otlp bad endpoint", args: []string{"--otlp-endpoint", "127.0.0.1:4318", "--", "srv"}, wantErr: "--otlp-endpoint must be"},
		{name: "otlp header without endpoint", args: []string{"--otlp-header", "a=b", "--", "srv"}, wantErr: "needs --otlp-endpoint"},
		{name: "otlp header malformed", args: []string{"--otlp-endpoint", "http://127.0.0.1:1", "--otlp-header", "novalue", "--", "srv"}, wantErr: "NAME=VALUE"},
		{name: "otlp header unset env", args: []string{"--otlp-endpoint", "http://127.0.0.1:1", "--otlp-header", "K=${NOPE_UNSET}", "--", "srv"}, wantErr: "NOPE_UNSET"},
		{name: "bad redact value", args: []string{"--redact-value", "(", "--", "srv"}, wantErr: "--redact-*"},
		{name: "bad redact path", args: []string{"--redact-path", "params..[", "--", "srv"}, wantErr: "--redact-*"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ios, _, _, _ := iostreams.Test()
			f := &cmdutil.Factory{IOStreams: ios}
			var got *ProxyOptions
			cmd := NewCmdProxy(f, func(_ context.Context, o *ProxyOptions) error { got = o; return nil })
			cmd.SetArgs(tt.args)
			cmd.SetOut(io.Discard)
			cmd.SetErr(io.Discard)
			_, err := cmd.ExecuteC()
			if tt.wantErr != "" {
				var fe *cmdutil.FlagError
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.As(err, &fe) {
					t.Fatalf("error = %v, want a flag error containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got.IO, got.Target = nil, nil
			if d := cmp.Diff(tt.want, *got, cmp.FilterPath(func(p cmp.Path) bool {
				switch p.Last().String() {
				case ".Now", ".LookupEnv", ".Environ", ".Getwd":
					return true
				}
				return false
			}, cmp.Ignore())); d != "" {
				t.Errorf("opts mismatch (-want +got):\n%s", d)
			}
		})
	}
}

func TestStdioRunExitCodeAndLog(t *testing.T) {
	home := t.TempDir()
	exe, _ := os.Executable()
	env := map[string]string{"MCPWARD_HOME": home}
	ios, stdin, stdout, stderr := iostreams.Test()
	stdin.WriteString("{\"jsonrpc\":\"2.0\",\"method\":\"x\"}\nlast")
	opts := &ProxyOptions{
		IO: ios, Now: time.Now, Version: "test",
		LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok },
		Environ:   func() []string { return append(os.Environ(), helperEnv+"=cat", "HELPER_EXIT=9") },
		Getwd:     os.Getwd,
		Command:   []string{exe, "-test.run=^$"}, Label: "echo", Grace: time.Second,
	}
	err := proxyRun(context.Background(), opts)
	var v *cmdutil.VerdictError
	if !errors.As(err, &v) || v.Code != 9 || v.Reason != "" {
		t.Fatalf("proxyRun() = %v, want a silent verdict with the server's code 9", err)
	}
	if stdout.String() != "{\"jsonrpc\":\"2.0\",\"method\":\"x\"}\nlast" || stderr.String() != "bye\n" {
		t.Errorf("stdout %q stderr %q", stdout.String(), stderr.String())
	}
	files, _ := filepath.Glob(filepath.Join(home, "sessions", "echo-*.jsonl"))
	if len(files) != 1 {
		t.Fatalf("session logs = %v, want one echo-<id>.jsonl", files)
	}
	f, _ := os.Open(files[0])
	defer f.Close()
	rd := session.NewReader(f)
	var kinds []string
	for {
		r, err := rd.Next()
		if err != nil {
			break
		}
		kinds = append(kinds, string(r.Dir)+":"+r.Kind)
	}
	want := []string{"meta:start", "c2s:", "c2s:", "s2c:", "s2c:", "stderr:", "meta:exit"}
	if len(kinds) != len(want) {
		t.Errorf("records %v, want (in some interleaving) %v", kinds, want)
	}
	if fi, _ := os.Stat(files[0]); fi.Mode().Perm() != 0o600 {
		t.Errorf("log mode %v, want 0600", fi.Mode().Perm())
	}
}

// parseWith runs the command's flag handling with the settings file of
// dir (as the working directory) and returns the options it would run.
func parseWith(t *testing.T, dir string, args ...string) (*ProxyOptions, error) {
	t.Helper()
	ios, _, _, _ := iostreams.Test()
	f := &cmdutil.Factory{IOStreams: ios, Getwd: func() (string, error) { return dir, nil },
		LookupEnv: func(string) (string, bool) { return "", false }}
	var got *ProxyOptions
	cmd := NewCmdProxy(f, func(_ context.Context, o *ProxyOptions) error { got = o; return nil })
	cmd.SetArgs(args)
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	_, err := cmd.ExecuteC()
	return got, err
}

func writeSettings(t *testing.T, body string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".mcpward.toml"), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestSettingsFileAppliedFlagsWin(t *testing.T) {
	dir := writeSettings(t, `label = "fromfile"
trace-file = "t.jsonl"
[redact]
secrets = true
keys = ["ssn", "pin"]
values = ['acct-\d{4}']
`)
	tests := []struct {
		name string
		args []string
		want ProxyOptions
	}{
		{name: "file applied", args: []string{"--trust-config", "--", "srv"}, want: ProxyOptions{
			Label: "fromfile", TraceFile: filepath.Join(dir, "t.jsonl"), TrustConfig: true,
			Redact: redact.Config{Secrets: true, Keys: []string{"ssn", "pin"}, Values: []string{`acct-\d{4}`}}}},
		{name: "flags win", args: []string{"--trust-config", "--label", "mine", "--redact-key", "card", "--redact-secrets=false", "--", "srv"}, want: ProxyOptions{
			Label: "mine", TraceFile: filepath.Join(dir, "t.jsonl"), TrustConfig: true,
			Redact: redact.Config{Secrets: false, Keys: []string{"card"}, Values: []string{`acct-\d{4}`}}}},
		{name: "untrusted: trace-file ignored, redaction applied", args: []string{"--", "srv"}, want: ProxyOptions{
			Label:  "fromfile",
			Redact: redact.Config{Secrets: true, Keys: []string{"ssn", "pin"}, Values: []string{`acct-\d{4}`}}}},
		{name: "no-trace beats the file's trace-file", args: []string{"--trust-config", "--no-trace", "--", "srv"}, want: ProxyOptions{
			TrustConfig: true,
			Label:       "fromfile", NoTrace: true,
			Redact: redact.Config{Secrets: true, Keys: []string{"ssn", "pin"}, Values: []string{`acct-\d{4}`}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseWith(t, dir, tt.args...)
			if err != nil {
				t.Fatal(err)
			}
			want := tt.want
			want.Command, want.Listen, want.Grace, want.BodyTimeout, want.ConfigPath = []string{"srv"}, defaultListen, 5*time.Second, time.Minute, filepath.Join(dir, ".mcpward.toml")
			got.IO = nil
			if d := cmp.Diff(want, *got, cmp.FilterPath(func(p cmp.Path) bool {
				switch p.Last().String() {
				case ".Now", ".LookupEnv", ".Environ", ".Getwd":
					return true
				}
				return false
			}, cmp.Ignore())); d != "" {
				t.Errorf("opts mismatch (-want +got):\n%s", d)
			}
		})
	}
}

func TestSettingsFileErrorsAreInputErrors(t *testing.T) {
	tests := []struct {
		name, file, want string
		args             []string
	}{
		{name: "unknown key", file: "lable = \"x\"\n", want: `unknown key "lable"`},
		{name: "unknown redact key", file: "[redact]\nkey = [\"x\"]\n", want: `unknown key "redact.key" (did you mean "redact.keys"?)`},
		{name: "bad regexp", file: "[redact]\nvalues = [\"(\"]\n", want: "redact value"},
		{name: "missing --config-file", args: []string{"--config-file", "/nonexistent/x.toml"}, want: "config file /nonexistent/x.toml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if tt.file != "" {
				dir = writeSettings(t, tt.file)
			}
			_, err := parseWith(t, dir, append(tt.args, "--", "srv")...)
			if err == nil || !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error = %v, want an input error (exit 4) containing %q", err, tt.want)
			}
		})
	}
}

func TestExplicitConfigFileWinsOverWorkingDirectory(t *testing.T) {
	cwd := writeSettings(t, `label = "cwd"`)
	other := filepath.Join(t.TempDir(), "other.toml")
	if err := os.WriteFile(other, []byte(`label = "explicit"`), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := parseWith(t, cwd, "--config-file", other, "--", "srv")
	if err != nil {
		t.Fatal(err)
	}
	if got.Label != "explicit" || got.ConfigPath != other {
		t.Errorf("Label %q from %q, want \"explicit\" from %q", got.Label, got.ConfigPath, other)
	}
}

func TestStdioRunRedactsLogOnly(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "t.jsonl")
	exe, _ := os.Executable()
	ios, stdin, stdout, _ := iostreams.Test()
	frame := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"ssn":"123-45-6789"}}}` + "\n"
	stdin.WriteString(frame)
	opts := &ProxyOptions{
		IO: ios, Now: time.Now, Version: "test",
		LookupEnv: func(string) (string, bool) { return "", false },
		Environ:   func() []string { return append(os.Environ(), helperEnv+"=cat") },
		Getwd:     os.Getwd,
		Command:   []string{exe, "-test.run=^$"}, Label: "echo", Grace: time.Second, TraceFile: trace,
		Redact: redact.Config{Keys: []string{"ssn"}},
	}
	if err := proxyRun(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if stdout.String() != frame {
		t.Errorf("client received %q, want the frame unchanged", stdout.String())
	}
	b, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "123-45-6789") || !strings.Contains(string(b), `"redacted":true`) {
		t.Errorf("log not redacted:\n%s", b)
	}
}

// A .mcpward.toml found in the working directory may have come with a
// cloned repository: until it is trusted, its OTLP endpoint, headers,
// trace-file and hub-socket are ignored with a line saying so, and the
// environment is not read for its ${VAR}. Trusted (--trust-config,
// MCPWARD_TRUST_CONFIG, `mcpward trust`, --config), it applies whole.
func TestUntrustedSettingsFileSendsNothing(t *testing.T) {
	const body = `trace-file = "/tmp/elsewhere.jsonl"
hub-socket = "/tmp/planted.sock"
[otlp]
endpoint = "http://127.0.0.1:4318"
headers = { "Authorization" = "Bearer ${OTLP_TOKEN}" }
`
	tests := []struct {
		name    string
		args    []string
		env     map[string]string
		trust   bool // recorded with settings.Trust first
		edited  bool // edited after it was trusted
		config  bool // named with --config
		applied bool
	}{
		{name: "untrusted", args: []string{"--", "srv"}},
		{name: "--trust-config", args: []string{"--trust-config", "--", "srv"}, applied: true},
		{name: "env 1", env: map[string]string{settings.TrustEnv: "1"}, args: []string{"--", "srv"}, applied: true},
		{name: "env names the directory", env: map[string]string{settings.TrustEnv: "DIR"}, args: []string{"--", "srv"}, applied: true},
		{name: "env names another directory", env: map[string]string{settings.TrustEnv: "/nowhere"}, args: []string{"--", "srv"}},
		{name: "trust store", trust: true, args: []string{"--", "srv"}, applied: true},
		{name: "trusted, then edited", trust: true, edited: true, args: []string{"--", "srv"}},
		{name: "--config", config: true, args: []string{"--", "srv"}, applied: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeSettings(t, body)
			file := filepath.Join(dir, ".mcpward.toml")
			home := t.TempDir()
			var readToken bool
			env := map[string]string{"OTLP_TOKEN": "s3", "HOME": home}
			for k, v := range tt.env {
				env[k] = strings.ReplaceAll(v, "DIR", dir)
			}
			lookup := func(k string) (string, bool) {
				if k == "OTLP_TOKEN" {
					readToken = true
				}
				v, ok := env[k]
				return v, ok
			}
			if tt.trust {
				if _, _, err := settings.TrustFile(file, lookup, mcpsnoopfiles.Settings); err != nil {
					t.Fatal(err)
				}
			}
			if tt.edited {
				if err := os.WriteFile(file, []byte(strings.Replace(body, "4318", "4319", 1)), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			args := tt.args
			if tt.config {
				args = append([]string{"--config", file}, args...)
			}
			ios, _, _, stderr := iostreams.Test()
			f := &cmdutil.Factory{IOStreams: ios, Getwd: func() (string, error) { return dir, nil }, LookupEnv: lookup}
			var got *ProxyOptions
			cmd := NewCmdProxy(f, func(_ context.Context, o *ProxyOptions) error { got = o; return nil })
			cmd.SetArgs(args)
			cmd.SetOut(io.Discard)
			cmd.SetErr(io.Discard)
			if _, err := cmd.ExecuteC(); err != nil {
				t.Fatal(err)
			}
			if !tt.applied {
				if got.OTLPEndpoint != "" || len(got.OTLPHeader) > 0 || got.TraceFile != "" || got.HubSocket != "" || readToken {
					t.Errorf("untrusted file applied: endpoint %q header %v trace %q hub %q, env read %v", got.OTLPEndpoint, got.OTLPHeader, got.TraceFile, got.HubSocket, readToken)
				}
				want := "mcpward: ignored trace-file, hub-socket, otlp.endpoint, otlp.headers of " + file + ": the file is in the working directory and not trusted"
				if !strings.Contains(stderr.String(), want) || !strings.Contains(stderr.String(), "trust it with: mcpward trust ") {
					t.Errorf("stderr = %q, want the line naming what was ignored and how to trust it", stderr.String())
				}
				return
			}
			if got.OTLPEndpoint != "http://127.0.0.1:4318" || got.OTLPHeader["Authorization"] != "Bearer s3" || got.TraceFile != "/tmp/elsewhere.jsonl" || got.HubSocket != "/tmp/planted.sock" {
				t.Errorf("endpoint %q header %v trace %q hub %q", got.OTLPEndpoint, got.OTLPHeader, got.TraceFile, got.HubSocket)
			}
			if strings.Contains(stderr.String(), "ignored") {
				t.Errorf("stderr = %q, want no ignored line for a trusted file", stderr.String())
			}
		})
	}
}

// --no-trace with --otlp-endpoint records nothing on disk but still
// exports a span per call, redacted.
func TestStdioRunExportsOTLPWithoutTrace(t *testing.T) {
	var mu sync.Mutex
	var bodies []string
	col := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, r.URL.Path+" "+r.Header.Get("X-Team")+" "+string(b))
		mu.Unlock()
	}))
	defer col.Close()
	home := t.TempDir()
	exe, _ := os.Executable()
	ios, stdin, _, _ := iostreams.Test()
	// The cat server echoes: the echoed response settles the call.
	stdin.WriteString(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"ssn":"123-45-6789"}}}` + "\n" +
		`{"jsonrpc":"2.0","id":1,"result":{"content":[]}}` + "\n")
	opts := &ProxyOptions{
		IO: ios, Now: time.Now, Version: "test",
		LookupEnv: func(k string) (string, bool) { return home, k == "MCPWARD_HOME" },
		Environ:   func() []string { return append(os.Environ(), helperEnv+"=cat") },
		Getwd:     os.Getwd,
		Command:   []string{exe, "-test.run=^$"}, Label: "echo", Grace: time.Second, NoTrace: true,
		Redact:       redact.Config{Keys: []string{"ssn"}},
		OTLPEndpoint: col.URL, OTLPHeader: map[string]string{"X-Team": "infra"},
	}
	if err := proxyRun(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if files, _ := filepath.Glob(filepath.Join(home, "*", "*")); len(files) != 0 {
		t.Errorf("--no-trace wrote %v", files)
	}
	mu.Lock()
	defer mu.Unlock()
	all := strings.Join(bodies, "\n")
	if len(bodies) == 0 || !strings.HasPrefix(bodies[0], "/v1/traces infra ") || !strings.Contains(all, `"tools/call x"`) {
		t.Fatalf("collector got %q", all)
	}
	if strings.Contains(all, "123-45-6789") {
		t.Errorf("the collector received a redacted value")
	}
}
