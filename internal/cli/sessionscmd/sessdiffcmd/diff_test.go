package sessdiffcmd

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/session"
)

func factory(ios *iostreams.IOStreams, home string) *cmdutil.Factory {
	return &cmdutil.Factory{IOStreams: ios, Version: "test",
		LookupEnv: func(k string) (string, bool) { return home, k == "MCPWARD_HOME" },
		Getwd:     func() (string, error) { return home, nil },
	}
}

var t0 = time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)

type fr struct {
	ms    int
	dir   session.Direction
	frame string
}

func writeLog(t *testing.T, dir, name, sess string, frames []fr) string {
	t.Helper()
	var b []byte
	for i, f := range frames {
		b = session.AppendRecord(b, &session.Record{Session: sess, Label: "demo", Seq: uint64(i + 1),
			Time: t0.Add(time.Duration(f.ms) * time.Millisecond), Dir: f.dir, Transport: session.Stdio,
			Frame: []byte(f.frame), HasFrame: true})
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

const (
	c2s = session.ClientToServer
	s2c = session.ServerToClient
)

func logs(t *testing.T, dir string) (string, string) {
	a := writeLog(t, dir, "a.jsonl", "A", []fr{
		{0, c2s, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`},
		{1, s2c, `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"get_weather","description":"Weather.","inputSchema":{"type":"object"}},{"name":"x","inputSchema":{"type":"object"}}]}}`},
		{10, c2s, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":"P","u":1}}}`},
		{20, s2c, `{"jsonrpc":"2.0","id":2,"result":{"content":[]}}`},
		{30, c2s, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":"Q"}}}`},
		{40, s2c, `{"jsonrpc":"2.0","id":3,"result":{"content":[]}}`},
	})
	b := writeLog(t, dir, "b.jsonl", "B", []fr{
		{0, c2s, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`},
		{1, s2c, `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"get_weather","description":"Weather <b>now</b>.","inputSchema":{"type":"object"}}]}}`},
		{10, c2s, `{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"get_weather","arguments":{"u":1.0,"city":"P"}}}`},
		{510, s2c, `{"jsonrpc":"2.0","id":"a","error":{"code":-32603,"message":"boom"}}`},
		{520, c2s, `{"jsonrpc":"2.0","id":"b","method":"tools/call","params":{"name":"get_weather","arguments":{"city":"Q"}}}`},
		{530, s2c, `{"jsonrpc":"2.0","id":"b","result":{"content":[]}}`},
	})
	return a, b
}

func run(t *testing.T, home string, args ...string) (string, error) {
	t.Helper()
	ios, _, out, errOut := iostreams.Test()
	cmd := NewCmdDiff(factory(ios, home), nil)
	cmd.SetArgs(args)
	cmd.SetOut(errOut)
	cmd.SetErr(errOut)
	_, err := cmd.ExecuteC()
	return out.String(), err
}

func TestDiffText(t *testing.T) {
	dir := t.TempDir()
	a, b := logs(t, dir)
	out, err := run(t, dir, a, b)
	if err != nil {
		t.Fatalf("without --exit-code: %v", err)
	}
	want := `mcpward sessions diff ` + a + ` -> ` + b + `
tools:
  breaking tool.removed tools.x: tool "x" was removed — a client holding the old contract will fail
  risky tool.description.changed tools.get_weather.description: description changed — the trigger surface a model routes on
calls:
  status changed: get_weather {"city":"P","u":1} ok -> error
durations:
  slower: get_weather {"city":"P","u":1} 10.0ms -> 500.0ms
2 calls matched, 0 only in ` + a + `, 0 only in ` + b + `
`
	if d := cmp.Diff(want, out); d != "" {
		t.Errorf("report (-want +got):\n%s", d)
	}
	_, err = run(t, dir, a, b, "--exit-code")
	var v *cmdutil.VerdictError
	if !errors.As(err, &v) || v.Code != result.Drift {
		t.Errorf("--exit-code: err %v, want exit 1", err)
	}
	if _, err := run(t, dir, a, a, "--exit-code"); err != nil {
		t.Errorf("same log with --exit-code: %v", err)
	}
}

// TestDiffExitCodeRegressionsOnly: --exit-code fails on regressions only
// (mcpsnoop §2.7): an added tool, an icon change, a call that now succeeds
// and a call that got faster are differences, not regressions.
func TestDiffExitCodeRegressionsOnly(t *testing.T) {
	dir := t.TempDir()
	a := writeLog(t, dir, "a.jsonl", "A", []fr{
		{0, c2s, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`},
		{1, s2c, `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"w","inputSchema":{"type":"object"}}]}}`},
		{10, c2s, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"w","arguments":{"c":"P"}}}`},
		{20, s2c, `{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"boom"}}`},
		{30, c2s, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"w","arguments":{"c":"Q"}}}`},
		{930, s2c, `{"jsonrpc":"2.0","id":3,"result":{"content":[]}}`},
	})
	b := writeLog(t, dir, "b.jsonl", "B", []fr{
		{0, c2s, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`},
		{1, s2c, `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"w","inputSchema":{"type":"object"},"icons":[{"src":"https://x/i.png"}]},{"name":"new","inputSchema":{"type":"object"}}]}}`},
		{10, c2s, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"w","arguments":{"c":"P"}}}`},
		{20, s2c, `{"jsonrpc":"2.0","id":2,"result":{"content":[]}}`},
		{30, c2s, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"w","arguments":{"c":"Q"}}}`},
		{40, s2c, `{"jsonrpc":"2.0","id":3,"result":{"content":[]}}`},
	})
	out, err := run(t, dir, a, b, "--exit-code")
	if err != nil {
		t.Errorf("improvements only, --exit-code: err %v, want exit 0\n%s", err, out)
	}
	if !strings.Contains(out, "faster:") || !strings.Contains(out, "error -> ok") || !strings.Contains(out, "tool.added") {
		t.Errorf("the differences are still reported:\n%s", out)
	}
	// The other way round, each of them is a regression.
	_, err = run(t, dir, b, a, "--exit-code")
	var v *cmdutil.VerdictError
	if !errors.As(err, &v) || v.Code != result.Drift {
		t.Errorf("regressions, --exit-code: err %v, want exit 1", err)
	}
}

func TestDiffJSON(t *testing.T) {
	dir := t.TempDir()
	a, b := logs(t, dir)
	out, err := run(t, dir, a, b, "--json", "--duration-threshold", "1s")
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Regression  bool              `json:"regression"`
		Differences int               `json:"differences"`
		Durations   []json.RawMessage `json:"durations"`
		Tools       []struct {
			RuleID     string `json:"ruleId"`
			Regression bool   `json:"regression"`
		} `json:"tools"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if !r.Regression || r.Differences != 3 || len(r.Durations) != 0 || len(r.Tools) != 2 || !r.Tools[1].Regression {
		t.Errorf("report: %+v", r)
	}
	if !strings.Contains(out, "Weather <b>now</b>.") {
		t.Error("JSON report HTML-escaped a description")
	}
}

func TestDiffUsageAndInput(t *testing.T) {
	dir := t.TempDir()
	a, b := logs(t, dir)
	for _, args := range [][]string{{a}, {a, b, "--duration-ratio", "0.5"}, {a, b, "--duration-ratio", "NaN"},
		{a, b, "--duration-threshold", "-1s"}, {"-", b}} {
		_, err := run(t, dir, args...)
		var fe *cmdutil.FlagError
		if err == nil || (!errors.As(err, &fe) && !strings.Contains(err.Error(), "arg")) {
			t.Errorf("%v: err %v, want a usage error", args, err)
		}
	}
	two := filepath.Join(dir, "two.jsonl")
	ab, _ := os.ReadFile(a)
	bb, _ := os.ReadFile(b)
	os.WriteFile(two, append(ab, bb...), 0o600)
	if _, err := run(t, dir, two, b); !errors.Is(err, fault.ErrInput) {
		t.Errorf("two sessions without --session-a: %v", err)
	}
	out, err := run(t, dir, two, two, "--session-a", "A", "--session-b", "B", "--json")
	if err != nil || !bytes.Contains([]byte(out), []byte(`"regression": true`)) {
		t.Errorf("--session-a/-b: %v\n%s", err, out)
	}
}
