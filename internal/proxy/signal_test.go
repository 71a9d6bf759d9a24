//go:build unix

package proxy

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/session"
)

// Bounds of the waits of TestShimSignalEndsServerTree: generous, so that
// a busy machine cannot fail it; a broken shim fails it all the same.
const (
	helperStartBound = 60 * time.Second
	goneBound        = 30 * time.Second
)

// The shim runs as a real process (the helper "shim", which is RunStdio
// with ShimSignals, as mcpward proxy runs it) around a server that starts
// a grandchild. Whatever ends the shim, the server and the grandchild must
// not outlive it; a signal the shim can catch must also leave a log that
// ends with the server's exit record.
func TestShimSignalEndsServerTree(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGHUP, syscall.SIGINT, syscall.SIGTERM, syscall.SIGKILL} {
		t.Run(signalName(sig), func(t *testing.T) {
			dir := t.TempDir()
			pidfile, logPath := filepath.Join(dir, "pids"), filepath.Join(dir, "log.jsonl")
			exe, err := os.Executable()
			if err != nil {
				t.Fatal(err)
			}
			shim := exec.Command(exe, "-test.run=^$")
			shim.Env = append(os.Environ(), serverEnv+"=shim", "MCPWARD_TEST_PIDFILE="+pidfile, "MCPWARD_TEST_LOG="+logPath)
			stdin, err := shim.StdinPipe() // the client keeps it open
			if err != nil {
				t.Fatal(err)
			}
			defer stdin.Close()
			stdout, err := shim.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			var stderr bytes.Buffer
			shim.Stderr = &stderr
			if err := shim.Start(); err != nil {
				t.Fatal(err)
			}
			ready := make(chan string, 1)
			exited := make(chan error, 1)
			go func() {
				br := bufio.NewReader(stdout)
				line, _ := br.ReadString('\n')
				ready <- line
				// Wait closes stdout once the shim has gone, and may not
				// run before the reads of it are over.
				_, _ = io.Copy(io.Discard, br)
				exited <- shim.Wait()
			}()
			t.Cleanup(func() { _ = shim.Process.Kill() })

			select {
			case line := <-ready:
				if line != "ready\n" {
					t.Fatalf("server said %q (shim stderr: %s)", line, stderr.String())
				}
			case <-time.After(helperStartBound):
				t.Fatalf("the server did not say ready within %s", helperStartBound)
			}
			var server, grandchild int
			b, err := os.ReadFile(pidfile)
			if err == nil {
				_, err = fmt.Sscan(string(b), &server, &grandchild)
			}
			if err != nil {
				t.Fatalf("pid file: %v", err)
			}
			t.Cleanup(func() {
				_ = syscall.Kill(server, syscall.SIGKILL)
				_ = syscall.Kill(grandchild, syscall.SIGKILL)
			})

			if err := shim.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			var waitErr error
			select {
			case waitErr = <-exited:
			case <-time.After(goneBound):
				t.Fatalf("the shim did not exit within %s of %s", goneBound, signalName(sig))
			}

			waitGone(t, "server", server)
			waitGone(t, "grandchild", grandchild)
			if sig == syscall.SIGKILL {
				return
			}
			// The shim caught the signal: it exits with the server's code
			// (killed by the forwarded signal) and the log is complete.
			var ee *exec.ExitError
			if !errors.As(waitErr, &ee) || ee.ExitCode() != 128+int(sig) {
				t.Errorf("shim exit = %v, want code %d (stderr: %s)", waitErr, 128+int(sig), stderr.String())
			}
			f, err := os.Open(logPath)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			recs := readLog(t, f)
			if len(recs) == 0 {
				t.Fatal("empty log")
			}
			ei := exitInfoOf(t, recs)
			if ei.Signal != signalName(sig) || ei.Killed {
				t.Errorf("exit record = %+v, want the server ended by %s", ei, signalName(sig))
			}
			if !bytes.Equal(streamOf(recs, session.ServerToClient), []byte("ready\n")) {
				t.Errorf("log lacks the server's output")
			}
		})
	}
}

// waitGone waits until process pid no longer runs (a zombie no longer
// runs: an orphan's zombie is reaped by whoever is pid 1, if at all).
func waitGone(t *testing.T, what string, pid int) {
	t.Helper()
	deadline := time.Now().Add(goneBound)
	for !gone(pid) {
		if time.Now().After(deadline) {
			t.Errorf("%s (pid %d) still runs %s after the shim ended", what, pid, goneBound)
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func gone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false // not Linux: kill said it exists
	}
	// pid (comm) state …; comm may hold spaces and parentheses.
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] == 'Z' || s[i+2] == 'X'
	}
	return false
}
