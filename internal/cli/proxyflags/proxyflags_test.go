package proxyflags

import (
	"strings"
	"testing"
)

// Check accepts what mcpward proxy accepts before a server command and
// refuses what it refuses, with the proxy's own wording.
func TestCheck(t *testing.T) {
	tests := []struct {
		flags   []string
		wantErr string
	}{
		{flags: []string{"--label", "notes", "--redact-secrets"}},
		{flags: []string{"--no-trace"}},
		{flags: []string{"--state-dir", "/tmp/x"}},
		{flags: []string{"--lable", "x"}, wantErr: "unknown flag: --lable"},
		{flags: []string{"--listen", "127.0.0.1:1"}, wantErr: "--listen applies only to the HTTP proxy"},
		{flags: []string{"--no-trace", "--trace-file", "t.jsonl"}, wantErr: "contradict"},
		{flags: []string{"--grace", "0s"}, wantErr: "--grace must be positive"},
		{flags: []string{"--label", "a:b"}, wantErr: "--label"},
		{flags: []string{"--target", "http://127.0.0.1:1/mcp"}, wantErr: "not both"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.flags, " "), func(t *testing.T) {
			err := Check(tt.flags)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("Check(%q) = %v, want nil", tt.flags, err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("Check(%q) = %v, want an error containing %q", tt.flags, err, tt.wantErr)
			}
		})
	}
}
