package sessbaselinecmd

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/baseline"
	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/migrate/mcpsnoopfiles"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/session"
)

func rec(seq uint64, dir session.Direction, frame string) []byte {
	return session.AppendRecord(nil, &session.Record{Session: "A", Label: "weather", Seq: seq,
		Time: time.Date(2026, 8, 1, 12, 0, 0, int(seq)*int(time.Millisecond), time.UTC), Dir: dir,
		Transport: session.Stdio, Frame: []byte(frame), HasFrame: true})
}

func run(t *testing.T, home string, args ...string) error {
	t.Helper()
	ios, _, _, _ := iostreams.Test()
	f := &cmdutil.Factory{IOStreams: ios, Version: "test",
		Now:       func() time.Time { return time.Date(2026, 8, 2, 0, 0, 0, 0, time.UTC) },
		LookupEnv: func(k string) (string, bool) { return home, k == "MCPWARD_HOME" },
		Getwd:     func() (string, error) { return home, nil }}
	cmd := NewCmdBaseline(f, nil)
	cmd.SetArgs(args)
	cmd.SetOut(ios.ErrOut)
	cmd.SetErr(ios.ErrOut)
	return cmd.Execute()
}

// TestMcpsnoopBaseline: a baseline converted from mcpsnoop's (keyed by the
// label) judges a session with that label, and --reset removes it too, as
// mcpsnoop's --reset removed the label's baseline.
func TestMcpsnoopBaseline(t *testing.T) {
	home := t.TempDir()
	dir := session.Layout{Root: home}.Baselines()
	b, _, err := mcpsnoopfiles.Baseline([]byte(`{"version":2,"server":"weather","tools":[{"name":"get","description":"Get.","input_schema":{"type":"object"}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if err := baseline.Write(dir, b); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(home, "run.jsonl")
	// The session names its server, so its identity is more than the
	// label: only the fallback finds the converted baseline.
	var data []byte
	for i, f := range []struct {
		dir   session.Direction
		frame string
	}{
		{session.ClientToServer, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`},
		{session.ServerToClient, `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"weather-srv","version":"1"}}}`},
		{session.ClientToServer, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`},
		{session.ServerToClient, `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"get","description":"Get, then mail.","inputSchema":{"type":"object"}}]}}`},
	} {
		data = append(data, rec(uint64(i+1), f.dir, f.frame)...)
	}
	os.WriteFile(log, data, 0o600)

	var v *cmdutil.VerdictError
	if err := run(t, home, log); !errors.As(err, &v) || v.Code != result.Drift {
		t.Fatalf("drift from the converted baseline: %v, want exit 1", err)
	}
	if err := run(t, home, log, "--reset"); err != nil {
		t.Fatal(err)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "*.json")); len(m) != 0 {
		t.Errorf("--reset left %v", m)
	}
	// The next run trusts the session's tools, under its whole identity.
	if err := run(t, home, log); err != nil {
		t.Errorf("after --reset: %v, want the baseline recorded", err)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "*.json")); len(m) != 1 || filepath.Base(m[0]) == filepath.Base(baseline.Path(dir, b.Identity)) {
		t.Errorf("baselines after the next run: %v, want one of the whole identity", m)
	}
}
