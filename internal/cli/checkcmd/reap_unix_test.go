//go:build unix

package checkcmd

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/result"
)

// Real stdio servers that never answer: Ctrl-C (the context cancelled) or
// --target-timeout ends every target's run, each section says so, the
// exit is 2, and every server process has been reaped (not even a zombie
// is left) by the time check returns.
func TestFleetCancelReaps(t *testing.T) {
	for _, tt := range []struct {
		name    string
		timeout time.Duration // --target-timeout; 0: cancel the context instead
		want    string
	}{
		{"ctrl-c", 0, "interrupted before its run finished"},
		{"target timeout", 500 * time.Millisecond, "did not finish within --target-timeout 500ms"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			fifo := filepath.Join(dir, "pids")
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
			// Each server writes its pid to the FIFO, then reads its stdin
			// forever and never writes a byte.
			script := fmt.Sprintf("echo $$ > %q; exec cat > /dev/null", fifo)
			const n = 3
			var cfg, names []string
			for i := range n {
				name := fmt.Sprintf("hang%d", i)
				names = append(names, name)
				cmd, _ := json.Marshal([]string{"-c", script})
				cfg = append(cfg, fmt.Sprintf("%q: {\"command\": \"sh\", \"args\": %s, \"probes\": [], \"timeoutMs\": 60000}", name, cmd))
				// Any snapshot with the same (empty) probe spec will do: the
				// server is never reached.
				writeEmptySnapshot(t, filepath.Join(dir, ".mcpward"), name)
			}
			path := filepath.Join(dir, "mcpward.json")
			if err := os.WriteFile(path, []byte("{\"targets\": {"+strings.Join(cfg, ", ")+"}}"), 0o644); err != nil {
				t.Fatal(err)
			}
			// O_RDWR: the open does not wait for a writer, and the read
			// end never sees EOF between writers.
			f, err := os.OpenFile(fifo, os.O_RDWR, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()

			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			ios, _, out, _ := iostreams.Test()
			o := fleetOpts(ios, path, n)
			o.Reporter = "json"
			o.Compat = nil
			if tt.timeout > 0 {
				o.Fleet.TargetTimeout = tt.timeout
			}
			done := make(chan error, 1)
			go func() { done <- checkRun(ctx, o) }()

			var pids []int
			sc := bufio.NewScanner(f)
			for len(pids) < n && sc.Scan() {
				pid, err := strconv.Atoi(strings.TrimSpace(sc.Text()))
				if err != nil {
					t.Fatalf("pid line %q", sc.Text())
				}
				pids = append(pids, pid)
			}
			if tt.timeout == 0 {
				cancel() // every server is running: Ctrl-C
			}
			var err2 error
			select {
			case err2 = <-done:
			case <-time.After(time.Minute):
				t.Fatal("check did not return within a minute of the cancel")
			}
			if got := code(err2); got != result.Incomplete {
				t.Fatalf("exit %d (%v), want %d", got, err2, result.Incomplete)
			}
			for _, pid := range pids {
				// A child that was not waited for would still exist as a
				// zombie, and signal 0 would reach it.
				if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
					t.Errorf("server process %d still exists after check returned (kill 0: %v)", pid, err)
				}
			}
			var r result.Result
			if err := json.Unmarshal(out.Bytes(), &r); err != nil {
				t.Fatal(err)
			}
			if len(r.Targets) != n {
				t.Fatalf("%d sections, want %d", len(r.Targets), n)
			}
			for i, s := range r.Targets {
				if s.Target.Name != names[i] || s.ExitCode != result.Incomplete || s.Error != tt.want {
					t.Errorf("section %d: %s exit %d error %q, want %s exit 2 %q", i, s.Target.Name, s.ExitCode, s.Error, names[i], tt.want)
				}
			}
		})
	}
}

// writeEmptySnapshot writes a snapshot for a target with no probes, taken
// from the clean fixture (check compares it only if the server answers).
func writeEmptySnapshot(t *testing.T, dir, name string) {
	t.Helper()
	if fleetSnapshot == nil {
		tmp := t.TempDir()
		writeFleet(t, tmp, 1)
		b, err := os.ReadFile(filepath.Join(tmp, ".mcpward", "t000.snapshot.json"))
		if err != nil {
			t.Fatal(err)
		}
		fleetSnapshot = b
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".snapshot.json"), fleetSnapshot, 0o644); err != nil {
		t.Fatal(err)
	}
}

var fleetSnapshot []byte
