package inspectcmd

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpward/mcpward/internal/cli/cmdtest"
	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/fixture"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/testenv"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// TestMain re-runs the test binary as an embedded fixture server over stdio
// when MCPWARD_TEST_SERVE names one (the fork-and-exec trick): real child
// processes without a build step. MCPWARD_TEST_PIDFILE receives its pid.
func TestMain(m *testing.M) {
	testenv.NoRaceExitPause()
	if name := os.Getenv("MCPWARD_TEST_SERVE"); name != "" {
		if p := os.Getenv("MCPWARD_TEST_PIDFILE"); p != "" {
			os.WriteFile(p, []byte(strconv.Itoa(os.Getpid())), 0o644)
		}
		fx, err := fixture.Lookup(name)
		if err != nil {
			os.Exit(9)
		}
		code, _ := fx.Serve(context.Background(), os.Stdin, os.Stdout, os.Stderr)
		os.Exit(code)
	}
	os.Exit(m.Run())
}

func testOptions(t *testing.T) (*InspectOptions, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	ios, _, stdout, stderr := iostreams.Test()
	return &InspectOptions{
		IO:      ios,
		Env:     connect.Env{Environ: os.Environ, LookupEnv: os.LookupEnv},
		Now:     func() time.Time { return time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) },
		Version: "test",
		Target:  cmdutil.TargetFlags{Timeout: 5 * time.Second},
	}, stdout, stderr
}

func TestNewCmdInspectFlags(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		want    cmdutil.TargetFlags
		json    bool
		wantErr string
	}{
		{name: "fixture", args: []string{"--fixture", "clean@v1"}, want: cmdutil.TargetFlags{Fixture: "clean@v1", Timeout: 10 * time.Second}},
		{name: "url with header", args: []string{"--url", "http://127.0.0.1:9/mcp", "--header", "X-A=1", "--json"}, want: cmdutil.TargetFlags{URL: "http://127.0.0.1:9/mcp", Headers: []string{"X-A=1"}, Timeout: 10 * time.Second}, json: true},
		{name: "command after --", args: []string{"--isolate-home", "--env", "A=b", "--timeout", "3s", "--", "node", "srv.js", "--flag"}, want: cmdutil.TargetFlags{IsolateHome: true, Env: []string{"A=b"}, Timeout: 3 * time.Second, Command: []string{"node", "srv.js", "--flag"}}},
		{name: "no target", args: []string{}, wantErr: "no target"},
		{name: "stray argument", args: []string{"srv.js"}, wantErr: `unexpected argument "srv.js"`},
		{name: "env without command", args: []string{"--url", "http://127.0.0.1:9/", "--env", "A=b"}, wantErr: "applies only to a server command"},
		{name: "bad env", args: []string{"--env", "nokey", "--", "x"}, wantErr: `want K=V`},
		{name: "bad era", args: []string{"--fixture", "x", "--era", "ancient"}, wantErr: "--era must be"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := cmdtest.Parse(t, NewCmdInspect, tt.args...)
			if tt.wantErr != "" {
				var fe *cmdutil.FlagError
				if err == nil || !errors.As(err, &fe) || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want a usage error containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, got.Target); d != "" {
				t.Errorf("target flags mismatch (-want +got):\n%s", d)
			}
			if got.JSON != tt.json {
				t.Errorf("JSON = %v, want %v", got.JSON, tt.json)
			}
		})
	}
}

func TestInspectHumanView(t *testing.T) {
	for _, name := range []string{"clean@v1", "manifest", "paginated-all", "legacy-2025-06-18", "bad-x-mcp-header"} {
		t.Run(name, func(t *testing.T) {
			opts, stdout, _ := testOptions(t)
			opts.Target.Fixture = name
			if err := inspectRun(context.Background(), opts); err != nil {
				t.Fatalf("inspect: %v", err)
			}
			golden := filepath.Join("testdata", strings.ReplaceAll(name, "@", "_")+".golden")
			if *update {
				os.WriteFile(golden, stdout.Bytes(), 0o644)
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(string(want), stdout.String()); d != "" {
				t.Errorf("output mismatch (-want +got):\n%s", d)
			}
		})
	}
}

func TestInspectTTYWraps(t *testing.T) {
	opts, stdout, _ := testOptions(t)
	opts.IO.SetStdoutTTY(true)
	opts.IO.SetTerminalWidth(60)
	opts.Target.Fixture = "clean@v1"
	if err := inspectRun(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "…") {
		t.Errorf("a 60-column terminal shows no truncated line:\n%s", stdout)
	}
}

func TestInspectPartialExits2(t *testing.T) {
	opts, stdout, _ := testOptions(t)
	opts.Target.Fixture = "cursor-loop"
	err := inspectRun(context.Background(), opts)
	var v *cmdutil.VerdictError
	if !errors.As(err, &v) || v.Code != result.Incomplete {
		t.Fatalf("err = %v, want exit 2", err)
	}
	if !strings.Contains(v.Reason, "cursor") {
		t.Errorf("reason %q does not say the cursor looped", v.Reason)
	}
	if !strings.Contains(stdout.String(), "INCOMPLETE") {
		t.Errorf("partial output does not mark the incomplete section:\n%s", stdout)
	}
}

// A server that never answers: inspect exits 2 within its timeout budget
// (the era probe, then initialize) with one line saying why, and the child
// process is gone afterwards.
func TestInspectNeverAnswersLeavesNoProcess(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	pidfile := filepath.Join(t.TempDir(), "pid")
	opts, _, _ := testOptions(t)
	opts.Target.Timeout = 500 * time.Millisecond
	opts.Target.Command = []string{exe}
	opts.Target.Env = []string{"MCPWARD_TEST_SERVE=never-answers", "MCPWARD_TEST_PIDFILE=" + pidfile}
	start := time.Now()
	err = inspectRun(context.Background(), opts)
	elapsed := time.Since(start)
	if !errors.Is(err, fault.ErrIncomplete) {
		t.Fatalf("err = %v, want incomplete evidence (exit 2)", err)
	}
	if msg := err.Error(); strings.Contains(msg, "\n") || !strings.Contains(msg, "did not answer") && !strings.Contains(msg, "neither") {
		t.Errorf("error %q is not one line saying the server did not answer", msg)
	}
	// Era probe (≤ timeout) + initialize (timeout) + shutdown grace.
	if elapsed > 2*opts.Target.Timeout+6*time.Second {
		t.Errorf("inspect took %s", elapsed)
	}
	b, err := os.ReadFile(pidfile)
	if err != nil {
		t.Fatalf("the server never started: %v", err)
	}
	pid, _ := strconv.Atoi(string(b))
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("server process %d still exists after inspect returned (kill -0: %v)", pid, err)
	}
}
