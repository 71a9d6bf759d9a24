package diffcmd

import (
	"context"
	"errors"
	"github.com/mcpward/mcpward/internal/result"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/contract"
	"github.com/mcpward/mcpward/internal/iostreams"
)

func recordTo(t *testing.T, dir, name, fx, probesOf string) string {
	t.Helper()
	tg, err := contract.FromSpec(name, &connect.Spec{Fixture: fx})
	if err != nil {
		t.Fatal(err)
	}
	if tg.Probes, err = contract.FixtureProbes(probesOf); err != nil {
		t.Fatal(err)
	}
	obs, err := contract.Observe(context.Background(), tg, &contract.ObserveOptions{Now: func() time.Time { return time.Unix(0, 0) }})
	if err != nil || !obs.Complete() {
		t.Fatalf("record %s: %v %v", fx, err, obs)
	}
	p := filepath.Join(dir, name+".snapshot.json")
	if err := contract.WriteSnapshot(p, obs.Snapshot); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestDiffRunTTY(t *testing.T) {
	dir := t.TempDir()
	old := recordTo(t, dir, "a", "clean@v1", "clean@v1")
	cur := recordTo(t, dir, "b", "drift-steering@v2", "clean@v1")
	for _, tty := range []bool{false, true} {
		ios, _, stdout, stderr := iostreams.Test()
		ios.SetStdoutTTY(tty)
		ios.SetColorEnabled(tty)
		err := diffRun(context.Background(), &DiffOptions{IO: ios, OldPath: old, NewPath: cur, FailOn: "risky", Format: "text"})
		var v *cmdutil.VerdictError
		if !errors.As(err, &v) || v.Code != result.Drift || v.Reason != "" {
			t.Fatalf("tty=%v: err = %v, want a silent exit-1 verdict", tty, err)
		}
		out := stdout.String()
		if hasANSI := strings.Contains(out, "\x1b["); hasANSI != tty {
			t.Errorf("tty=%v: colour = %v\n%s", tty, hasANSI, out)
		}
		if !strings.Contains(out, "annotation.readOnlyHint.revoked") || !strings.Contains(out, "DRIFT (exit 1)") {
			t.Errorf("tty=%v: report lacks the finding or verdict:\n%s", tty, out)
		}
		if stderr.Len() != 0 {
			t.Errorf("stderr = %q", stderr)
		}
	}
}

func TestDiffRunSelfIsClean(t *testing.T) {
	dir := t.TempDir()
	old := recordTo(t, dir, "a", "clean@v1", "clean@v1")
	ios, _, stdout, _ := iostreams.Test()
	if err := diffRun(context.Background(), &DiffOptions{IO: ios, OldPath: old, NewPath: old, FailOn: "cosmetic", Format: "json"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), `"exitCode": 0`) || !strings.Contains(stdout.String(), `"findings": []`) {
		t.Errorf("JSON result:\n%s", stdout)
	}
}

// `diff /dev/zero …` grew the process to 3 GB in 4 s; a device is refused
// at once as an input error (exit 4).
func TestDiffRefusesDevice(t *testing.T) {
	dir := t.TempDir()
	cur := recordTo(t, dir, "b", "clean@v1", "clean@v1")
	ios, _, _, _ := iostreams.Test()
	err := diffRun(context.Background(), &DiffOptions{IO: ios, OldPath: "/dev/zero", NewPath: cur, FailOn: "risky", Format: "text"})
	if err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("err = %v, want not a regular file", err)
	}
	if code := result.ExitCode(err, nil); code != result.Usage {
		t.Errorf("exit code %d, want %d", code, result.Usage)
	}
}

// A FIFO that never gets a writer held `diff` in open(2), deaf to Ctrl-C
// and SIGTERM. The interrupt (the context the root cancels on a signal)
// now ends it, whether it comes before or during the open.
func TestDiffFIFOStopsOnSignal(t *testing.T) {
	dir := t.TempDir()
	cur := recordTo(t, dir, "b", "clean@v1", "clean@v1")
	fifo := filepath.Join(dir, "old.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	t.Cleanup(func() { // release the opener left blocked in open(2)
		if w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		ios, _, _, _ := iostreams.Test()
		done <- diffRun(ctx, &DiffOptions{IO: ios, OldPath: fifo, NewPath: cur, FailOn: "risky", Format: "text"})
	}()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}
