package uicmd

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/iostreams"
)

// TestTofu: the live view records first-seen baselines unless --no-tofu
// or no-tofu = true in .mcpward.toml; logs opened as files never do.
func TestTofu(t *testing.T) {
	dir := t.TempDir()
	parse := func(wd string, args ...string) *UIOptions {
		t.Helper()
		ios, _, _, _ := iostreams.Test()
		f := &cmdutil.Factory{IOStreams: ios, Getwd: func() (string, error) { return wd, nil },
			LookupEnv: func(k string) (string, bool) { return dir, k == "MCPWARD_HOME" }}
		var got *UIOptions
		cmd := NewCmdUI(f, func(_ context.Context, o *UIOptions) error { got = o; return nil })
		cmd.SetArgs(args)
		if err := cmd.Execute(); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		return got
	}
	live := parse(dir)
	if truster(live) != nil {
		t.Error("a truster before the live view chose to trust")
	}
	live.Live = true // what uiRun sets
	if truster(live) == nil {
		t.Error("the live view records no first-seen baseline")
	}
	no := parse(dir, "--no-tofu")
	no.Live = true
	if truster(no) != nil {
		t.Error("--no-tofu: the live view still records baselines")
	}
	cfg := t.TempDir()
	os.WriteFile(filepath.Join(cfg, ".mcpward.toml"), []byte("no-tofu = true\n"), 0o600)
	fromFile := parse(cfg)
	fromFile.Live = true
	if truster(fromFile) != nil {
		t.Error("no-tofu = true in .mcpward.toml: the live view still records baselines")
	}
	files := parse(dir, filepath.Join(dir, "x.jsonl"))
	if len(files.Files) != 1 || truster(files) != nil {
		t.Error("a log opened as a file would be baselined")
	}
}
