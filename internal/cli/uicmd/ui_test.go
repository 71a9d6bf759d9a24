package uicmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcpward/mcpward/internal/baseline"
	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/hub"
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
		{"files", []string{"a.jsonl", "b.jsonl", "--state-dir", "/x"}, nil, UIOptions{History: 20, StateDir: "/x", Theme: "auto", Files: []string{"a.jsonl", "b.jsonl"}}, false},
		{"stdin", []string{"-", "--state-dir", "/x"}, nil, UIOptions{}, true},
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

// TestBaselineLoader: the view reads the baselines `mcpward sessions
// baseline` records under the state directory, and writes none.
func TestBaselineLoader(t *testing.T) {
	if baselineLoader("") != nil {
		t.Error("baselineLoader(\"\") is not nil: without a state directory there is nothing to mark against")
	}
	state := t.TempDir()
	id := baseline.Identity{Label: "clean", Server: "clean", Endpoint: "srv --stdio"}
	load := modelOptions(context.Background(), &UIOptions{StateDir: state}, nil, nil, nil).Baseline
	if load == nil {
		t.Fatal("the live view gets no baseline loader")
	}
	if _, err := load(id); !errors.Is(err, baseline.ErrNotFound) {
		t.Fatalf("load before any baseline: %v, want ErrNotFound", err)
	}
	if ents, _ := os.ReadDir(state); len(ents) != 0 {
		t.Errorf("loading created %d entries in the state directory, want none", len(ents))
	}
	b, err := baseline.FromTools(id, []json.RawMessage{json.RawMessage(`{"name":"echo"}`)})
	if err != nil {
		t.Fatal(err)
	}
	if err := baseline.Write(filepath.Join(state, "baselines"), b); err != nil {
		t.Fatal(err)
	}
	got, err := load(id)
	if err != nil || len(got.Tools) != 1 || got.Tools[0].Name != "echo" {
		t.Errorf("load = %+v, %v; want the recorded baseline with echo", got, err)
	}
}

// TestHolderOf: a second ui says what holds the hub socket (`mcpward
// serve` runs a hub too), not always "the other mcpward ui".
func TestHolderOf(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"serve holds it", &hub.RunningError{Socket: "/s", PID: 42, Command: "mcpward serve"}, " (`mcpward serve`, pid 42)"},
		{"ui holds it", fmt.Errorf("start: %w", &hub.RunningError{Socket: "/s", PID: 7, Command: "mcpward ui"}), " (`mcpward ui`, pid 7)"},
		{"another program", &hub.RunningError{Socket: "/s", PID: 9}, " (pid 9)"},
		{"not known", hub.ErrHubRunning, ""},
	}
	for _, tt := range tests {
		if got := hub.HolderOf(tt.err); got != tt.want {
			t.Errorf("%s: HolderOf() = %q, want %q", tt.name, got, tt.want)
		}
	}
}
