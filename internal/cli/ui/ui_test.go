package ui

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/iostreams"
)

func TestNewCmdUIFlags(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		env     map[string]string
		want    UIOptions
		wantErr bool
	}{
		{"defaults", nil, map[string]string{"MCPWARD_HOME": "/s"}, UIOptions{History: 20, StateDir: "/s", Theme: "auto"}, false},
		{"all", []string{"--history", "0", "--state-dir", "/x", "--theme", "light"}, nil, UIOptions{History: 0, StateDir: "/x", Theme: "light"}, false},
		{"no color", []string{"--state-dir", "/x"}, map[string]string{"NO_COLOR": "1"}, UIOptions{History: 20, StateDir: "/x", Theme: "auto", NoColor: true}, false},
		{"bad theme", []string{"--theme", "pink", "--state-dir", "/x"}, nil, UIOptions{}, true},
		{"negative history", []string{"--history", "-1", "--state-dir", "/x"}, nil, UIOptions{}, true},
		{"args", []string{"extra"}, nil, UIOptions{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ios, _, _, _ := iostreams.Test()
			f := &cmdutil.Factory{IOStreams: ios, LookupEnv: func(k string) (string, bool) { v, ok := tt.env[k]; return v, ok }}
			var got *UIOptions
			cmd := NewCmdUI(f, func(_ context.Context, o *UIOptions) error { got = o; return nil })
			cmd.SetArgs(tt.args)
			cmd.SetOut(ios.Out)
			cmd.SetErr(ios.ErrOut)
			_, err := cmd.ExecuteC()
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if tt.wantErr {
				return
			}
			if d := cmp.Diff(tt.want, *got, cmpopts.IgnoreFields(UIOptions{}, "IO", "LookupEnv", "Version")); d != "" {
				t.Errorf("opts mismatch (-want +got):\n%s", d)
			}
		})
	}
}
