package sesscheckcmd

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/session"
)

func factory(ios *iostreams.IOStreams, home string) *cmdutil.Factory {
	return &cmdutil.Factory{IOStreams: ios, Version: "test",
		Now:       func() time.Time { return time.Date(2026, 8, 2, 0, 0, 0, 0, time.UTC) },
		LookupEnv: func(k string) (string, bool) { return home, k == "MCPWARD_HOME" },
		Getwd:     func() (string, error) { return home, nil },
	}
}

// rec encodes one record with the session writer.
func rec(sess string, seq uint64, dir session.Direction, frame string) []byte {
	return session.AppendRecord(nil, &session.Record{Session: sess, Label: "demo", Seq: seq,
		Time: time.Date(2026, 8, 1, 12, 0, 0, int(seq)*int(time.Millisecond), time.UTC), Dir: dir,
		Transport: session.Stdio, Frame: []byte(frame), HasFrame: true})
}

func run(t *testing.T, home string, args ...string) (string, string, int) {
	t.Helper()
	ios, _, out, errOut := iostreams.Test()
	cmd := NewCmdCheck(factory(ios, home), nil)
	cmd.SetArgs(args)
	cmd.SetOut(errOut)
	cmd.SetErr(errOut)
	_, err := cmd.ExecuteC()
	code := 0
	var v *cmdutil.VerdictError
	var fe *cmdutil.FlagError
	switch {
	case err == nil:
	case errors.As(err, &v):
		code = v.Code
	case errors.As(err, &fe):
		code = result.Usage
	default:
		code = result.Usage
		errOut.WriteString(err.Error())
	}
	return out.String(), errOut.String(), code
}

// Two sessions in one file are both judged, a half-written last line is
// reported and the rest analysed, and the SARIF location is the JSONL line.
// The torn line makes the evidence incomplete: exit 2, which outranks the
// MUST violation (issue 12 item 10).
func TestCheckAllSessionsTornLine(t *testing.T) {
	home := t.TempDir()
	var log []byte
	log = append(log, rec("A", 1, session.ClientToServer, `{"jsonrpc":"2.0","id":1,"method":"ping"}`)...)
	log = append(log, rec("B", 1, session.ClientToServer, `{"jsonrpc":"2.0","id":1,"method":"ping"}`)...)
	log = append(log, rec("A", 2, session.ServerToClient, `{"jsonrpc":"2.0","id":1,"result":{}}`)...)
	log = append(log, rec("B", 2, session.ServerToClient, `{"jsonrpc":"2.0","id":1,"result":{}}`)...)
	log = append(log, rec("B", 3, session.ServerToClient, `{"jsonrpc":"2.0","id":9,"result":{}}`)...)
	torn := rec("A", 3, session.ServerToClient, `{"jsonrpc":"2.0","id":1,"result":{}}`)
	log = append(log, torn[:len(torn)/2]...)
	path := filepath.Join(home, "run.jsonl")
	if err := os.WriteFile(path, log, 0o600); err != nil {
		t.Fatal(err)
	}
	out, _, code := run(t, home, path, "--format", "sarif")
	if code != result.Incomplete {
		t.Errorf("exit %d, want 2 (a torn line; the MUST violation response_unmatched ranks below)", code)
	}
	for _, want := range []string{`"ruleId": "message.response_unmatched"`, `"startLine": 5`, `"uri": "run.jsonl"`, "torn last line"} {
		if !strings.Contains(out, want) {
			t.Errorf("SARIF lacks %s:\n%s", want, out)
		}
	}
	out, _, code = run(t, home, path, "--fail-on", "pending")
	if code != result.Incomplete {
		t.Errorf("--fail-on pending: exit %d, want 2 (incomplete)\n%s", code, out)
	}
	if !strings.Contains(out, "session A") || !strings.Contains(out, "session B") {
		t.Errorf("text report does not cover both sessions:\n%s", out)
	}
}

func TestFailOnParsing(t *testing.T) {
	if _, _, code := run(t, t.TempDir(), "--fail-on", "bogus"); code != result.Usage {
		t.Errorf("bad --fail-on: exit %d, want 4", code)
	}
}

func TestAssertions(t *testing.T) {
	home := t.TempDir()
	var log []byte
	log = append(log, rec("A", 1, session.ClientToServer, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"rm"}}`)...)
	log = append(log, rec("A", 2, session.ServerToClient, `{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`)...)
	path := filepath.Join(home, "a.jsonl")
	os.WriteFile(path, log, 0o600)
	if _, _, code := run(t, home, path, "--forbid-tool", "rm"); code != result.Drift {
		t.Errorf("--forbid-tool rm: exit %d, want 1", code)
	}
	if _, _, code := run(t, home, path, "--expect-tool", "rm"); code != 0 {
		t.Errorf("--expect-tool rm: exit %d, want 0", code)
	}
	if out, _, code := run(t, home, path, "--expect-tool", "ls", "--json"); code != result.Drift || !strings.Contains(out, "assertion.expect_tool") {
		t.Errorf("--expect-tool ls: exit %d, want 1\n%s", code, out)
	}
	if _, _, code := run(t, home, path, "--max-duration", "1ms"); code != 0 {
		t.Errorf("--max-duration 1ms on a 1ms call: exit %d, want 0", code)
	}
}
