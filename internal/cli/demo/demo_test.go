package demo

import (
	"bytes"
	"context"
	"testing"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/iostreams"
)

func TestNewCmdDemoFlags(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		base, next string
		strict     bool
		wantErr    string
	}{
		{"defaults", nil, "clean@v1", "drift-breaking@v2", false, ""},
		{"strict other pair", []string{"--strict", "--next", "drift-steering@v2"}, "clean@v1", "drift-steering@v2", true, ""},
		{"no args", []string{"x"}, "", "", false, `unknown command "x" for "demo"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ios, _, _, _ := iostreams.Test()
			var got *DemoOptions
			cmd := NewCmdDemo(&cmdutil.Factory{IOStreams: ios}, func(_ context.Context, o *DemoOptions) error {
				got = o
				return nil
			})
			cmd.SetArgs(tt.args)
			cmd.SetOut(&bytes.Buffer{})
			cmd.SetErr(&bytes.Buffer{})
			_, err := cmd.ExecuteC()
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("error = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Base != tt.base || got.Next != tt.next || got.Strict != tt.strict {
				t.Errorf("opts = %q %q %v, want %q %q %v", got.Base, got.Next, got.Strict, tt.base, tt.next, tt.strict)
			}
		})
	}
}
