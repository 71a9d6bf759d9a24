package wrapcmd

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/wrap"
)

func testFactory() *cmdutil.Factory {
	ios, _, _, _ := iostreams.Test()
	return &cmdutil.Factory{
		IOStreams:  ios,
		LookupEnv:  func(k string) (string, bool) { return map[string]string{"HOME": "/home/u"}[k], k == "HOME" },
		Getwd:      func() (string, error) { return "/home/u/proj", nil },
		Executable: func() (string, error) { return "/opt/bin/mcpward", nil },
	}
}

func TestNewCmdWrapFlags(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		want    WrapOptions
		wantErr string
	}{
		{name: "defaults", args: []string{"weather"},
			want: WrapOptions{Server: "weather", Client: "claude-desktop", Scope: "user"}},
		{name: "all", args: []string{"memory", "--client", "vscode", "--scope", "workspace", "--config", "x.json", "--mcpward", "/m/mcpward", "--dry-run", "--", "--label", "mem", "--no-trace"},
			want: WrapOptions{Server: "memory", Client: "vscode", Scope: "workspace", Config: "x.json", Mcpward: "/m/mcpward", DryRun: true, ProxyFlags: []string{"--label", "mem", "--no-trace"}}},
		{name: "no server", args: nil, wantErr: "wrap takes one server name, got 0"},
		{name: "two servers", args: []string{"a", "b"}, wantErr: "got 2"},
		{name: "unknown client", args: []string{"a", "--client", "zed"}, wantErr: `unknown client "zed"`},
		{name: "bad scope", args: []string{"a", "--scope", "global"}, wantErr: `unknown scope "global"`},
		{name: "desktop has no workspace", args: []string{"a", "--scope", "workspace"}, wantErr: "claude-desktop has no workspace config"},
		{name: "empty config", args: []string{"a", "--config", ""}, wantErr: "--config needs a file path"},
		{name: "relative mcpward", args: []string{"a", "--mcpward", "mcpward"}, wantErr: "--mcpward must be an absolute path"},
		{name: "server command after --", args: []string{"a", "--", "npx", "x"}, wantErr: `not "npx"`},
		{name: "unknown proxy flag", args: []string{"a", "--", "--lable", "x"}, wantErr: "unknown flag: --lable"},
		{name: "bad proxy label", args: []string{"a", "--", "--label", "a/b"}, wantErr: "--label"},
		{name: "label", args: []string{"weather", "--label", "wx"}, want: WrapOptions{Server: "weather", Label: "wx", Client: "claude-desktop", Scope: "user"}},
		{name: "bad label", args: []string{"a", "--label", "a/b"}, wantErr: "--label"},
		{name: "label twice", args: []string{"a", "--label", "x", "--", "--label=y"}, wantErr: "--label is given twice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got *WrapOptions
			cmd := NewCmdWrap(testFactory(), func(_ context.Context, o *WrapOptions) error { got = o; return nil })
			cmd.SetArgs(tt.args)
			cmd.SetOut(new(strings.Builder))
			cmd.SetErr(new(strings.Builder))
			_, err := cmd.ExecuteC()
			if tt.wantErr != "" {
				var fe *cmdutil.FlagError
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.As(err, &fe) {
					t.Fatalf("error = %v, want a usage error containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(&tt.want, got, cmpopts.IgnoreFields(WrapOptions{}, "IO", "Env", "Executable"), cmpopts.IgnoreUnexported(WrapOptions{}), cmpopts.EquateEmpty()); d != "" {
				t.Errorf("opts mismatch (-want +got):\n%s", d)
			}
		})
	}
}

const desktopCfg = "{\r\n  \"mcpServers\": {\r\n    \"weather\": {\"command\": \"npx\", \"args\": [\"-y\", \"weather\"]},\r\n    \"web\": {\"url\": \"https://x/mcp\"}\r\n  }\r\n}\r\n"

func setup(t *testing.T) (string, *WrapOptions, *UnwrapOptions, *strings.Builder) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "claude_desktop_config.json")
	if err := os.WriteFile(path, []byte(desktopCfg), 0o600); err != nil {
		t.Fatal(err)
	}
	ios, _, stdout, stderr := iostreams.Test()
	_ = stderr
	out := &strings.Builder{}
	w := &WrapOptions{IO: ios, Server: "weather", Client: "claude-desktop", Scope: "user", Config: path, Mcpward: "/opt/bin/mcpward", ProxyFlags: []string{"--label", "weather"}}
	u := &UnwrapOptions{IO: ios, Server: "weather", Client: "claude-desktop", Scope: "user", Config: path}
	t.Cleanup(func() { out.WriteString(stdout.String()) })
	return path, w, u, out
}

func TestWrapUnwrapRoundTrip(t *testing.T) {
	path, w, u, _ := setup(t)
	if err := wrapRun(w); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	want := strings.Replace(desktopCfg, `{"command": "npx", "args": ["-y", "weather"]}`,
		`{"command": "/opt/bin/mcpward", "args": ["proxy", "--label", "weather", "--", "npx", "-y", "weather"]}`, 1)
	if d := cmp.Diff(want, string(got)); d != "" {
		t.Errorf("wrapped file mismatch (-want +got):\n%s", d)
	}
	// Idempotent.
	if err := wrapRun(w); err != nil {
		t.Fatal(err)
	}
	if again, _ := os.ReadFile(path); string(again) != string(got) {
		t.Error("second wrap changed the file")
	}
	if err := unwrapRun(u); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != desktopCfg {
		t.Errorf("round trip not byte-identical:\n%q", got)
	}
	if _, err := os.Stat(path + wrap.BackupSuffix); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("backup left after a full restore: %v", err)
	}
	if err := unwrapRun(u); err != nil {
		t.Errorf("unwrap of an unwrapped server: %v", err)
	}
}

func TestWrapErrors(t *testing.T) {
	tests := []struct {
		name   string
		mod    func(path string, w *WrapOptions)
		want   string
		hint   bool
		kindIn bool
	}{
		{"missing server", func(_ string, w *WrapOptions) { w.Server = "wether" }, `no server "wether" (available: weather, web)`, false, true},
		{"remote server", func(_ string, w *WrapOptions) { w.Server = "web" }, `has a url: a remote server cannot run through the stdio shim`, true, true},
		{"broken file", func(p string, _ *WrapOptions) { os.WriteFile(p, []byte(`{"mcpServers": {`), 0o600) }, "line 1, column 17: unexpected end of file", false, true},
		{"missing file", func(p string, _ *WrapOptions) { os.Remove(p) }, "no such file or directory", false, true},
		{"read-only file", func(p string, _ *WrapOptions) { os.Chmod(p, 0o444) }, "the file is read-only; nothing was written", false, true},
		{"concurrent edit", func(p string, w *WrapOptions) {
			w.beforeCommit = func() { os.WriteFile(p, []byte(strings.Replace(desktopCfg, "npx", "pnx", 1)), 0o600) }
		}, "changed while mcpward was editing it", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path, w, _, _ := setup(t)
			tt.mod(path, w)
			before, _ := os.ReadFile(path)
			err := wrapRun(w)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("wrapRun() error = %v, want %q", err, tt.want)
			}
			if !strings.Contains(err.Error(), path) {
				t.Errorf("error %q does not name the file", err)
			}
			if tt.kindIn && !errors.Is(err, fault.ErrInput) {
				t.Errorf("error is not an input error (exit 4): %v", err)
			}
			if (fault.HintOf(err) != "") != tt.hint {
				t.Errorf("hint = %q", fault.HintOf(err))
			}
			if after, _ := os.ReadFile(path); tt.name != "concurrent edit" && string(after) != string(before) {
				t.Error("the file changed on error")
			}
			if _, err := os.Stat(path + wrap.BackupSuffix); tt.name != "concurrent edit" && !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a backup was written for a refused edit: %v", err)
			}
		})
	}
}

func TestDryRun(t *testing.T) {
	path, w, _, _ := setup(t)
	ios, _, stdout, _ := iostreams.Test()
	w.IO, w.DryRun = ios, true
	if err := wrapRun(w); err != nil {
		t.Fatal(err)
	}
	want := "before: npx -y weather\nafter:  /opt/bin/mcpward proxy --label weather -- npx -y weather\n"
	if d := cmp.Diff(want, stdout.String()); d != "" {
		t.Errorf("dry run output (-want +got):\n%s", d)
	}
	if got, _ := os.ReadFile(path); string(got) != desktopCfg {
		t.Error("dry run wrote the file")
	}
}

// TestWrapLabel: the wrapped entry names its logs after the config's entry,
// not after a word of its command line ("index.js"), unless a label is
// given (issue 13, item 15).
func TestWrapLabel(t *testing.T) {
	tests := []struct {
		name   string
		server string
		label  string
		flags  []string
		want   string // the args after "proxy"
	}{
		{"default is the server name", "weather", "", nil, `"--label", "weather", "--"`},
		{"server name made safe", "My Server/2", "", []string{"--no-trace"}, `"--label", "My_Server_2", "--no-trace", "--"`},
		{"--label flag", "weather", "wx", nil, `"--label", "wx", "--"`},
		{"label among the proxy flags wins", "weather", "", []string{"--redact-secrets", "--label=mine"}, `"--redact-secrets", "--label=mine", "--"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "c.json")
			doc := `{"mcpServers": {"` + strings.ReplaceAll(tt.server, "/", "\\/") + `": {"command": "node", "args": ["build/index.js"]}}}`
			if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
				t.Fatal(err)
			}
			ios, _, _, _ := iostreams.Test()
			w := &WrapOptions{IO: ios, Server: tt.server, Label: tt.label, Client: "claude-desktop", Scope: "user", Config: path, Mcpward: "/opt/bin/mcpward", ProxyFlags: tt.flags}
			if err := wrapRun(w); err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(path)
			want := `"args": ["proxy", ` + tt.want + `, "node", "build/index.js"]`
			if !strings.Contains(string(got), want) {
				t.Errorf("wrapped file:\n%s\nwant it to hold %s", got, want)
			}
			u := &UnwrapOptions{IO: ios, Server: tt.server, Client: "claude-desktop", Scope: "user", Config: path}
			if err := unwrapRun(u); err != nil {
				t.Fatal(err)
			}
			if back, _ := os.ReadFile(path); string(back) != doc {
				t.Errorf("unwrap did not restore the file byte for byte:\n%s", back)
			}
		})
	}
}
