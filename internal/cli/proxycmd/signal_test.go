//go:build unix

package proxycmd

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/session"
)

// A terminal that closes sends the shim SIGHUP. Before, the shim died of
// it at once: the server was orphaned and the log had no exit record.
// Now the shim forwards it to the server, waits for it and closes the log.
func TestStdioRunForwardsSIGHUP(t *testing.T) {
	const bound = 60 * time.Second // generous: a busy machine cannot fail it
	logPath := filepath.Join(t.TempDir(), "log.jsonl")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	shim := exec.Command(exe, "-test.run=^$")
	shim.Env = append(os.Environ(), helperEnv+"=shim", "HELPER_LOG="+logPath)
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
	t.Cleanup(func() { _ = shim.Process.Kill() })
	ready, exited := make(chan string, 1), make(chan error, 1)
	go func() {
		br := bufio.NewReader(stdout)
		line, _ := br.ReadString('\n')
		ready <- line
		_, _ = io.Copy(io.Discard, br)
		exited <- shim.Wait()
	}()
	select {
	case line := <-ready:
		if line != "ready\n" {
			t.Fatalf("server said %q (stderr: %s)", line, stderr.String())
		}
	case <-time.After(bound):
		t.Fatalf("the server did not say ready within %s", bound)
	}
	if err := shim.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	var waitErr error
	select {
	case waitErr = <-exited:
	case <-time.After(bound):
		t.Fatalf("the shim did not exit within %s of SIGHUP", bound)
	}
	var ee *exec.ExitError
	if !errors.As(waitErr, &ee) || ee.ExitCode() != 128+int(syscall.SIGHUP) {
		t.Errorf("shim exit = %v, want code 129, the server's death by SIGHUP (stderr: %s)", waitErr, stderr.String())
	}
	f, err := os.Open(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rd := session.NewReader(f)
	var last *session.Record
	for {
		r, err := rd.Next()
		if err != nil {
			break
		}
		last = r
	}
	if last == nil || last.Kind != session.KindExit {
		t.Fatal("the log does not end with an exit record")
	}
	var info struct{ Signal string }
	json.Unmarshal(last.Info, &info)
	if info.Signal != "SIGHUP" {
		t.Errorf("exit record %s, want the server ended by SIGHUP", last.Info)
	}
}
