//go:build linux || darwin

package proxycmd

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/session"
)

// signalWriter is a goroutine-safe buffer that closes first on its first
// write.
type signalWriter struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	once  sync.Once
	first chan struct{}
}

func (w *signalWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.once.Do(func() { close(w.first) })
	return w.buf.Write(b)
}

func (w *signalWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// TestStdioServerStartsBeforeLogIsOpen has the session log be a FIFO, whose
// open blocks until a reader comes: the server must start (and say so on
// stderr) while the log is still being opened, the client's bytes must
// wait for the log, and the log must still get every frame. Before, the
// shim opened the log first and the server never started.
func TestStdioServerStartsBeforeLogIsOpen(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "log.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	ios, stdin, _, _ := iostreams.Test()
	stdin.WriteString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}\n")
	stdout := &signalWriter{first: make(chan struct{})}
	stderr := &signalWriter{first: make(chan struct{})}
	ios.Out, ios.ErrOut = stdout, stderr
	opts := &ProxyOptions{
		IO: ios, Now: time.Now, Version: "test",
		LookupEnv: func(string) (string, bool) { return "", false },
		Environ:   os.Environ, Getwd: os.Getwd,
		Command: []string{"/bin/sh", "-c", "echo started >&2; exec cat"},
		Label:   "fifo", TraceFile: fifo, NoFeed: true, Grace: 5 * time.Second,
	}
	done := make(chan error, 1)
	go func() { done <- proxyRun(context.Background(), opts) }()

	started := false
	select {
	case <-stderr.first:
		started = true
	case err := <-done:
		t.Fatalf("proxyRun returned before the log was open: %v", err)
	case <-time.After(20 * time.Second):
		// Not a timing assertion: 20 s is forever for a start; the old
		// shim never starts the server until the log is open.
	}
	if started && stdout.String() != "" {
		t.Errorf("the server answered %q before the log was open", stdout.String())
	}
	// Open the reading end: the shim's open completes and the log flows.
	r, err := os.Open(fifo)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	logged := make(chan []byte, 1)
	go func() { b, _ := io.ReadAll(r); logged <- b }()
	if err := <-done; err != nil {
		t.Fatalf("proxyRun() = %v", err)
	}
	if !started {
		t.Fatal("the server did not start while the log was being opened")
	}
	if got := stdout.String(); got != "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}\n" {
		t.Errorf("stdout %q", got)
	}
	var kinds []string
	rd := session.NewReader(bytes.NewReader(<-logged))
	for {
		rec, err := rd.Next()
		if err != nil {
			break
		}
		kinds = append(kinds, string(rec.Dir)+":"+rec.Kind)
	}
	want := []string{"meta:start", "c2s:", "s2c:", "stderr:", "meta:exit"}
	if len(kinds) != len(want) || kinds[0] != want[0] || kinds[len(kinds)-1] != want[len(want)-1] {
		t.Errorf("records %v, want (in some interleaving) %v", kinds, want)
	}
}

// TestStdioLogThatCannotBeOpenedFails: the log is opened beside the
// server's start, but a log that cannot be opened still fails the shim
// with an input error (exit 4) and the server gets none of the client's
// bytes.
func TestStdioLogThatCannotBeOpenedFails(t *testing.T) {
	for _, tc := range []struct {
		name, traceFile, home, want string
	}{
		{"trace file in a missing directory", "missing/dir/log.jsonl", "", "open session log"},
		{"state directory under a file", "", "file/state", "create session directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "file"), nil, 0o600); err != nil {
				t.Fatal(err)
			}
			env := map[string]string{}
			if tc.home != "" {
				env["MCPWARD_HOME"] = filepath.Join(dir, tc.home)
			}
			trace := ""
			if tc.traceFile != "" {
				trace = filepath.Join(dir, tc.traceFile)
			}
			ios, stdin, stdout, stderr := iostreams.Test()
			stdin.WriteString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}\n")
			opts := &ProxyOptions{
				IO: ios, Now: time.Now, Version: "test",
				LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok },
				Environ:   os.Environ, Getwd: os.Getwd,
				Command: []string{"/bin/sh", "-c", "exec cat"},
				Label:   "x", TraceFile: trace, NoFeed: true, Grace: 5 * time.Second,
			}
			err := proxyRun(context.Background(), opts)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("proxyRun() = %v, want an error saying %q", err, tc.want)
			}
			if tc.traceFile != "" && !errors.Is(err, fault.ErrInput) {
				t.Errorf("proxyRun() = %v, want an input error (exit 4)", err)
			}
			if stdout.Len() != 0 || stderr.Len() != 0 {
				t.Errorf("stdout %q stderr %q, want nothing: the server must get no byte", stdout.String(), stderr.String())
			}
		})
	}
}
