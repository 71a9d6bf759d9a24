package session

import "testing"

func TestDeriveLabel(t *testing.T) {
	tests := []struct {
		argv []string
		want string
	}{
		{[]string{"npx", "-y", "@modelcontextprotocol/server-everything"}, "server-everything"},
		{[]string{"uvx", "mcp-server-fetch"}, "mcp-server-fetch"},
		{[]string{"python", "-m", "my_tools.main"}, "my_tools.main"},
		{[]string{"node", "dist/index.js", "--port", "3"}, "index.js"},
		{[]string{"/usr/local/bin/weather"}, "weather"},
		{[]string{`C:\tools\mcp.exe`}, "mcp.exe"},
		{[]string{"env", "TOKEN=x", "go", "run", "./cmd/mcp-srv"}, "mcp-srv"},
		{[]string{"bash"}, "bash"},
		{[]string{"docker", "run", "-i", "ghcr.io/x/server:latest"}, "server_latest"},
		{[]string{"con"}, "_con"},
		{[]string{"..."}, "server"},
		{nil, "server"},
	}
	for _, tt := range tests {
		if got := DeriveLabel(tt.argv); got != tt.want {
			t.Errorf("DeriveLabel(%q) = %q, want %q", tt.argv, got, tt.want)
		}
		if err := CheckLabel(DeriveLabel(tt.argv)); err != nil {
			t.Errorf("CheckLabel(DeriveLabel(%q)): %v", tt.argv, err)
		}
	}
}

func TestLabelForHost(t *testing.T) {
	for in, want := range map[string]string{
		"127.0.0.1:9000": "127.0.0.1-9000",
		"[::1]:80":       "1-80",
		"example.com":    "example.com",
	} {
		if got := LabelForHost(in); got != want {
			t.Errorf("LabelForHost(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCheckLabel(t *testing.T) {
	for _, ok := range []string{"srv", "my.server_1", "@scope", "a+b"} {
		if err := CheckLabel(ok); err != nil {
			t.Errorf("CheckLabel(%q) = %v, want nil", ok, err)
		}
	}
	for _, bad := range []string{"", "a/b", `a\b`, "a:b", "-x", ".x", "x.", "nul", "COM1.log", "a\x00", "a b", string(make([]byte, 65))} {
		if err := CheckLabel(bad); err == nil {
			t.Errorf("CheckLabel(%q) = nil, want an error", bad)
		}
	}
}

func TestStateDir(t *testing.T) {
	tests := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"MCPWARD_HOME": "/m", "XDG_STATE_HOME": "/x", "HOME": "/h"}, "/m"},
		{map[string]string{"XDG_STATE_HOME": "/x", "HOME": "/h"}, "/x/mcpward"},
		{map[string]string{"XDG_STATE_HOME": "relative", "HOME": "/h"}, "/h/.local/state/mcpward"},
		{map[string]string{}, ""},
	}
	for _, tt := range tests {
		got, err := StateDir(func(k string) (string, bool) { v, ok := tt.env[k]; return v, ok })
		if got != tt.want || (err != nil) != (tt.want == "") {
			t.Errorf("StateDir(%v) = %q, %v, want %q", tt.env, got, err, tt.want)
		}
	}
}
