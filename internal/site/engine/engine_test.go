package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/cli/diffcmd"
	"github.com/mcpward/mcpward/internal/cli/sessionscmd/sesscheckcmd"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/site/sitetest"
)

func factory(ios *iostreams.IOStreams, wd string) *cmdutil.Factory {
	return &cmdutil.Factory{IOStreams: ios, Version: "test",
		Now:       func() time.Time { return time.Date(2026, 8, 2, 0, 0, 0, 0, time.UTC) },
		LookupEnv: func(k string) (string, bool) { return wd, k == "MCPWARD_HOME" },
		Getwd:     func() (string, error) { return wd, nil },
	}
}

// runDiff is `mcpward diff [flags] OLD NEW`.
func runDiff(t *testing.T, args ...string) (string, error) {
	t.Helper()
	ios, _, out, _ := iostreams.Test()
	cmd := diffcmd.NewCmdDiff(factory(ios, t.TempDir()), nil)
	cmd.SetArgs(args)
	cmd.SetOut(&bytes.Buffer{})
	cmd.SetErr(&bytes.Buffer{})
	_, err := cmd.ExecuteC()
	return out.String(), err
}

// runCheck is `mcpward sessions check [flags] LOG` run from wd.
func runCheck(t *testing.T, wd string, args ...string) (string, error) {
	t.Helper()
	ios, _, out, _ := iostreams.Test()
	cmd := sesscheckcmd.NewCmdCheck(factory(ios, wd), nil)
	cmd.SetArgs(args)
	cmd.SetOut(&bytes.Buffer{})
	cmd.SetErr(&bytes.Buffer{})
	_, err := cmd.ExecuteC()
	return out.String(), err
}

// code is the exit code the CLI's error stands for (0: none).
func code(err error) int {
	var v *cmdutil.VerdictError
	if errors.As(err, &v) {
		return v.Code
	}
	if err != nil {
		return -1
	}
	return 0
}

func read(t *testing.T, path string) Input {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return Input{Name: path, Data: b}
}

// TestDiffParity: the engine's diff gives the CLI's Result document and
// text report, byte for byte, and its error for an unusable input.
func TestDiffParity(t *testing.T) {
	dir := t.TempDir()
	clean := sitetest.Record(t, dir, "clean", "clean@v1", "clean@v1")
	breaking := sitetest.Record(t, dir, "breaking", "drift-breaking@v2", "clean@v1")
	cosmetic := sitetest.Record(t, dir, "cosmetic", "drift-cosmetic@v2", "clean@v1")
	hostile := sitetest.HostileSnapshot(t, clean, dir, "hostile")
	corrupt := filepath.Join(dir, "corrupt.json")
	os.WriteFile(corrupt, []byte(`{"formatVersion": 1, "nope": true}`), 0o644)
	other := sitetest.Record(t, dir, "other", "clean@v1", "drift-breaking@v2")
	tests := []struct {
		name, old, cur, failOn string
	}{
		{"breaking", clean, breaking, ""},
		{"cosmetic gated", clean, cosmetic, "cosmetic"},
		{"cosmetic passes", clean, cosmetic, "risky"},
		{"same", clean, clean, ""},
		{"hostile", clean, hostile, "breaking"},
		{"corrupt", clean, corrupt, ""},
		{"incomparable", clean, other, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := DiffOptions{FailOn: tt.failOn, Version: "test"}
			args := []string{tt.old, tt.cur}
			if tt.failOn != "" {
				args = append(args, "--fail-on", tt.failOn)
			}
			wantText, cliErr := runDiff(t, args...)
			wantJSON, _ := runDiff(t, append(args, "--json")...)
			rep, err := Diff(read(t, tt.old), read(t, tt.cur), opts)
			if c := code(cliErr); c < 0 {
				var e *Error
				if !errors.As(err, &e) || e.Message != cliErr.Error() || e.ExitCode != 4 {
					t.Fatalf("engine error = %#v, CLI error = %v", err, cliErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(wantText, rep.Text); d != "" {
				t.Errorf("text report (-cli +engine):\n%s", d)
			}
			if d := cmp.Diff(wantJSON, rep.Result); d != "" {
				t.Errorf("Result document (-cli +engine):\n%s", d)
			}
			if rep.ExitCode != code(cliErr) {
				t.Errorf("exit code %d, CLI %d", rep.ExitCode, code(cliErr))
			}
			// Every group line is a line of the CLI's report.
			n := 0
			for _, g := range rep.Groups {
				for _, l := range g.Lines {
					n++
					if !strings.Contains(wantText, l.Text+"\n") || !strings.Contains(l.Text, l.RuleID) || !l.Rule {
						t.Errorf("group %s line %q (rule %s) is not a CLI line", g.Name, l.Text, l.RuleID)
					}
				}
			}
			if n != strings.Count(rep.Result, `"ruleId"`) {
				t.Errorf("%d group lines for %d findings", n, strings.Count(rep.Result, `"ruleId"`))
			}
		})
	}
}

// TestGroupsByTier pins the grouping: tiers breaking first, each line the
// finding's CLI line.
func TestGroupsByTier(t *testing.T) {
	dir := t.TempDir()
	clean := sitetest.Record(t, dir, "clean", "clean@v1", "clean@v1")
	breaking := sitetest.Record(t, dir, "breaking", "drift-breaking@v2", "clean@v1")
	rep, err := Diff(read(t, clean), read(t, breaking), DiffOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, g := range rep.Groups {
		got = append(got, g.Kind+" "+g.Name+" "+g.Lines[0].RuleID)
	}
	want := []string{"tier breaking tool.input.required.added", "tier risky tool.description.changed",
		"tier compatible tool.input.optional.added", "tier cosmetic serverInfo.version.changed"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("groups (-want +got):\n%s", d)
	}
	if rep.Verdict != "DRIFT (exit 1)" || rep.ExitCode != 1 {
		t.Errorf("verdict %q exit %d", rep.Verdict, rep.ExitCode)
	}
}

// TestLogParity: the engine's traffic check of a log, fed in small chunks
// that cut lines anywhere, gives the Result document of `mcpward sessions
// check LOG --format json` for every log of the traffic rules' cases.
func TestLogParity(t *testing.T) {
	files, err := filepath.Glob("../../traffic/testdata/*.txtar")
	if err != nil || len(files) < 10 {
		t.Fatalf("traffic cases: %v %d", err, len(files))
	}
	dir := t.TempDir()
	empty := t.TempDir()
	checked := 0
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if !strings.HasSuffix(f.Name, ".jsonl") {
				continue
			}
			name := strings.TrimSuffix(filepath.Base(file), ".txtar") + "-" + f.Name
			t.Run(name, func(t *testing.T) {
				if err := os.WriteFile(filepath.Join(dir, name), f.Data, 0o644); err != nil {
					t.Fatal(err)
				}
				want, cliErr := runCheck(t, dir, filepath.Join(dir, name), "--format", "json", "--baseline", empty)
				lc := NewLogCheck(name, "test")
				for b := f.Data; len(b) > 0; {
					n := min(len(b), 7)
					if _, err := lc.Write(b[:n]); err != nil {
						t.Fatal(err)
					}
					b = b[n:]
				}
				rep, err := lc.Close()
				if code(cliErr) < 0 {
					var e *Error
					if !errors.As(err, &e) || e.Message != cliErr.Error() {
						t.Fatalf("engine error = %v, CLI error = %v", err, cliErr)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if d := cmp.Diff(want, rep.Result); d != "" {
					t.Errorf("Result (-cli +engine):\n%s", d)
				}
				if rep.ExitCode != code(cliErr) {
					t.Errorf("exit %d, CLI %d", rep.ExitCode, code(cliErr))
				}
				checked++
			})
		}
	}
	if checked < 10 {
		t.Errorf("only %d logs compared", checked)
	}
}

// TestLogNotALog: a file with no session record is an input error (exit
// 4), as in the CLI, and Write does not block after the reader gave up.
func TestLogNotALog(t *testing.T) {
	lc := NewLogCheck("notes.txt", "test")
	for range 3 {
		if _, err := lc.Write([]byte("just some text\n")); err != nil {
			t.Fatal(err)
		}
	}
	_, err := lc.Close()
	var e *Error
	if !errors.As(err, &e) || e.ExitCode != 4 || !strings.Contains(e.Message, "no session records") {
		t.Fatalf("err = %#v", err)
	}
}

// TestLogDefaultGate: the page's check of a log uses the CLI's default
// gate as it prints it (issue 22 item 4): a failed call fails it (exit 1,
// "1 failed call"), marked as gated, and is never a violation.
func TestLogDefaultGate(t *testing.T) {
	lc := NewLogCheck("errors.jsonl", "test")
	lc.Write([]byte(`{"v":1,"session":"S1","label":"demo","seq":1,"ts":"2026-08-01T12:00:00.000Z","dir":"c2s","transport":"stdio","frame":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"rm"}}}
{"v":1,"session":"S1","label":"demo","seq":2,"ts":"2026-08-01T12:00:00.010Z","dir":"s2c","transport":"stdio","frame":{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"unknown file"}}}
`))
	rep, err := lc.Close()
	if err != nil {
		t.Fatal(err)
	}
	if rep.ExitCode != 1 || rep.Verdict != "1 failed call (exit 1)" || !strings.Contains(rep.Text, "[MAY, gated]") {
		t.Errorf("exit %d, verdict %q:\n%s", rep.ExitCode, rep.Verdict, rep.Text)
	}
}

// TestLogFindingsBySeq: the page lists findings by seq as a number (issue
// 22 item 8), as the CLI does: seq 6 before seq 10.
func TestLogFindingsBySeq(t *testing.T) {
	lc := NewLogCheck("errors.jsonl", "test")
	for _, seq := range []int{6, 10} {
		fmt.Fprintf(lc, `{"v":1,"session":"S1","label":"demo","seq":%d,"ts":"2026-08-01T12:00:00.000Z","dir":"c2s","transport":"stdio","frame":{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"rm"}}}
{"v":1,"session":"S1","label":"demo","seq":%d,"ts":"2026-08-01T12:00:00.010Z","dir":"s2c","transport":"stdio","frame":{"jsonrpc":"2.0","id":%d,"error":{"code":-32602,"message":"unknown file"}}}
`, seq-1, seq, seq, seq)
	}
	rep, err := lc.Close()
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, g := range rep.Groups {
		for _, l := range g.Lines {
			lines = append(lines, l.Text)
		}
	}
	if len(lines) < 2 || !strings.Contains(lines[0], "seq 6 ") || !strings.Contains(lines[1], "seq 10 ") {
		t.Errorf("lines out of seq order:\n%s", strings.Join(lines, "\n"))
	}
}

// TestBigLog checks a generated log with a violation in the middle:
// fed in 1 MiB chunks, the MUST violation is found and gates (exit 3).
func TestBigLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.jsonl")
	sitetest.Log(t, path, 8<<20)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lc := NewLogCheck("big.jsonl", "test")
	for len(b) > 0 {
		n := min(len(b), 1<<20)
		lc.Write(b[:n])
		b = b[n:]
	}
	rep, err := lc.Close()
	if err != nil {
		t.Fatal(err)
	}
	if rep.ExitCode != 3 || !strings.Contains(rep.Text, "transport.server_request") {
		t.Errorf("exit %d:\n%s", rep.ExitCode, rep.Text)
	}
}

// TestReadResult: a saved Result renders as the CLI's report of it.
func TestReadResult(t *testing.T) {
	dir := t.TempDir()
	clean := sitetest.Record(t, dir, "clean", "clean@v1", "clean@v1")
	breaking := sitetest.Record(t, dir, "breaking", "drift-breaking@v2", "clean@v1")
	rep, err := Diff(read(t, clean), read(t, breaking), DiffOptions{Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	again, err := ReadResult(Input{Name: "r.json", Data: []byte(rep.Result)})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(rep, again); d != "" {
		t.Errorf("re-rendered (-diff +read):\n%s", d)
	}
	if _, err := ReadResult(Input{Name: "x.json", Data: []byte(`{"a":1}`)}); err == nil || !strings.Contains(err.Error(), "read result x.json: not a mcpward result") {
		t.Errorf("err = %v", err)
	}
}

// TestDemo: the demo records clean@v1 and drift-breaking@v2 in process
// and gives `mcpward diff`'s Result of the two snapshots that `mcpward
// record --fixture` writes (under clean@v1's probes): the same six
// findings, the same verdict.
func TestDemo(t *testing.T) {
	rep, err := Demo(context.Background(), "test")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	old := sitetest.Record(t, dir, "old", DemoOld, DemoOld)
	cur := sitetest.Record(t, dir, "new", DemoNew, DemoOld)
	want, err := Diff(input(t, old), input(t, cur), DiffOptions{Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, g := range rep.Groups {
		n += len(g.Lines)
	}
	if n != 6 || rep.Verdict != "DRIFT (exit 1)" || rep.ExitCode != 1 {
		t.Errorf("demo: %d findings, verdict %q, exit %d; want 6, DRIFT (exit 1)\n%s", n, rep.Verdict, rep.ExitCode, rep.Text)
	}
	if d := cmp.Diff(want.Groups, rep.Groups); d != "" {
		t.Errorf("demo findings differ from the CLI's diff of the recorded snapshots (-cli +demo):\n%s", d)
	}
	if rep.Summary != want.Summary {
		t.Errorf("summary %q, want %q", rep.Summary, want.Summary)
	}
}

func input(t *testing.T, path string) Input {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return Input{Name: filepath.Base(path), Data: b}
}
