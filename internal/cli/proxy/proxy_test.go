package proxy

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/session"
)

const helperEnv = "MCPWARD_CLI_PROXY_HELPER"

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) == "cat" {
		io.Copy(os.Stdout, os.Stdin)
		os.Stderr.WriteString("bye\n")
		code, _ := strconv.Atoi(os.Getenv("HELPER_EXIT"))
		os.Exit(code)
	}
	os.Exit(m.Run())
}

func TestNewCmdProxyFlags(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		want    ProxyOptions
		wantErr string
	}{
		{name: "stdio", args: []string{"--", "npx", "-y", "srv"}, want: ProxyOptions{Command: []string{"npx", "-y", "srv"}, Listen: defaultListen, Grace: 5 * time.Second}},
		{name: "stdio with flags", args: []string{"--label", "w", "--trace-file", "t.jsonl", "--grace", "1s", "--", "srv", "--flag"}, want: ProxyOptions{Command: []string{"srv", "--flag"}, Label: "w", TraceFile: "t.jsonl", Listen: defaultListen, Grace: time.Second}},
		{name: "http", args: []string{"--target", "http://127.0.0.1:9000/mcp", "--listen", "localhost:7001"}, want: ProxyOptions{Listen: "localhost:7001", Grace: 5 * time.Second}},
		{name: "remote allowed", args: []string{"--target", "https://x.example/mcp", "--listen", "0.0.0.0:7000", "--allow-remote"}, want: ProxyOptions{Listen: "0.0.0.0:7000", AllowRemote: true, Grace: 5 * time.Second}},
		{name: "remote refused", args: []string{"--target", "http://127.0.0.1:9000", "--listen", ":7000"}, wantErr: "not a loopback address"},
		{name: "no server", args: nil, wantErr: "no server"},
		{name: "both", args: []string{"--target", "http://h", "--", "srv"}, wantErr: "not both"},
		{name: "bad target", args: []string{"--target", "ftp://h"}, wantErr: "http:// or https://"},
		{name: "listen without target", args: []string{"--listen", "127.0.0.1:1", "--", "srv"}, wantErr: "--listen applies only"},
		{name: "tls half", args: []string{"--target", "http://h", "--tls-cert", "c.pem"}, wantErr: "go together"},
		{name: "bad label", args: []string{"--label", "a:b", "--", "srv"}, wantErr: "--label"},
		{name: "no-trace and trace-file", args: []string{"--no-trace", "--trace-file", "x", "--", "srv"}, wantErr: "contradict"},
		{name: "stray argument", args: []string{"srv"}, wantErr: "unexpected argument"},
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
