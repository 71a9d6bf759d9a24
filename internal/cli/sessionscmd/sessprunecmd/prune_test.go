package sessprunecmd

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/result"
)

var now = time.Date(2026, 8, 2, 0, 0, 0, 0, time.UTC)

func setup(t *testing.T) (string, string) {
	t.Helper()
	home := t.TempDir()
	dir := filepath.Join(home, "sessions")
	os.MkdirAll(dir, 0o700)
	old := filepath.Join(dir, "demo-01OLD.jsonl")
	os.WriteFile(old, []byte("{}\n"), 0o600)
	os.Chtimes(old, now.Add(-40*24*time.Hour), now.Add(-40*24*time.Hour))
	os.WriteFile(filepath.Join(dir, "demo-02NEW.jsonl"), []byte("{}\n"), 0o600)
	os.Chtimes(filepath.Join(dir, "demo-02NEW.jsonl"), now, now)
	return home, old
}

func run(t *testing.T, home string, stdin *os.File, tty bool, args ...string) (int, *iostreams.IOStreams) {
	t.Helper()
	ios, _, _, _ := iostreams.Test()
	if stdin != nil {
		ios.In = stdin
	}
	ios.SetStdinTTY(tty)
	f := &cmdutil.Factory{IOStreams: ios, Now: func() time.Time { return now },
		LookupEnv: func(k string) (string, bool) { return home, k == "MCPWARD_HOME" }}
	cmd := NewCmdPrune(f, nil)
	cmd.SetArgs(args)
	cmd.SetOut(ios.ErrOut)
	cmd.SetErr(ios.ErrOut)
	_, err := cmd.ExecuteC()
	var v *cmdutil.VerdictError
	var fe *cmdutil.FlagError
	switch {
	case err == nil:
		return 0, ios
	case errors.As(err, &v):
		return v.Code, ios
	case errors.As(err, &fe):
		return result.Usage, ios
	}
	t.Fatalf("unexpected error %v", err)
	return -1, ios
}

// mcpsnoop bug 10: /dev/null is a character device, so it was taken for a
// terminal; the prompt read EOF and exited 0. It must refuse, as a usage
// error (exit 4): a refusal is not a finding (exit 1).
func TestPruneDevNullRefuses(t *testing.T) {
	home, old := setup(t)
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Skip(err)
	}
	defer null.Close()
	if code, _ := run(t, home, null, true, "--older-than", "30d"); code != result.Usage {
		t.Errorf("stdin /dev/null: exit %d, want 4", code)
	}
	if _, err := os.Stat(old); err != nil {
		t.Errorf("old log removed without --yes: %v", err)
	}
	if code, _ := run(t, home, nil, false, "--older-than", "30d", "--dry-run"); code != 0 {
		t.Errorf("--dry-run: exit %d", code)
	}
	if code, _ := run(t, home, null, false, "--older-than", "30d", "--yes"); code != 0 {
		t.Errorf("--yes: exit %d", code)
	}
	if _, err := os.Stat(old); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("old log still there: %v", err)
	}
	if _, err := os.Stat(filepath.Join(home, "sessions", "demo-02NEW.jsonl")); err != nil {
		t.Errorf("new log removed: %v", err)
	}
}

func TestParseAge(t *testing.T) {
	for in, want := range map[string]time.Duration{"30d": 30 * 24 * time.Hour, "12h": 12 * time.Hour} {
		if got, err := parseAge(in); err != nil || got != want {
			t.Errorf("parseAge(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "0d", "-1h", "3x", "1.5d"} {
		if _, err := parseAge(in); err == nil {
			t.Errorf("parseAge(%q) accepted", in)
		}
	}
}
