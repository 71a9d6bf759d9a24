package transport

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/jsonrpc"
)

func startTestServer(t *testing.T, behaviour string, opts *StdioOptions) *StdioConn {
	t.Helper()
	if opts == nil {
		opts = &StdioOptions{}
	}
	opts.Command = os.Args[0]
	// The race runtime sleeps 1s at exit unless told not to.
	opts.BaseEnv = append(opts.BaseEnv, serverEnv+"="+behaviour, "GORACE=atexit_sleep_ms=0")
	c, err := StartStdio(context.Background(), opts)
	if err != nil {
		t.Fatalf("StartStdio: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func request(t *testing.T, id jsonrpc.ID, method string) *Call {
	t.Helper()
	b, err := jsonrpc.EncodeRequest(id, method, map[string]string{"k": "v"})
	if err != nil {
		t.Fatal(err)
	}
	return &Call{Frame: b, ID: id}
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// alive reports whether pid is a live (not zombie) process.
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile(filepath.Join("/proc", itoa(pid), "stat"))
	if err != nil {
		return true
	}
	i := strings.LastIndexByte(string(stat), ')')
	return i < 0 || i+2 >= len(stat) || stat[i+2] != 'Z'
}

func itoa(n int) string { return string(json.RawMessage(jsonNumber(n))) }

func jsonNumber(n int) []byte { b, _ := json.Marshal(n); return b }

// waitDead polls until pid is gone: killing is asynchronous in the kernel.
func waitDead(t *testing.T, pid int) {
	t.Helper()
	for range 500 {
		if !alive(pid) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Errorf("process %d still alive", pid)
}

func TestStdioEcho(t *testing.T) {
	checkGoroutines(t)
	var (
		mu     sync.Mutex
		frames []string
	)
	c := startTestServer(t, "echo", &StdioOptions{OnFrame: func(f Frame) {
		mu.Lock()
		defer mu.Unlock()
		frames = append(frames, f.Dir+" "+string(f.Raw))
	}})
	for _, id := range []jsonrpc.ID{jsonrpc.IntID(1), jsonrpc.StringID("1"), jsonrpc.StringID("abc")} {
		r, err := c.Call(testCtx(t), request(t, id, "tools/list"))
		if err != nil {
			t.Fatalf("Call(%s): %v", id, err)
		}
		if r.Response == nil || string(r.Response.ID.Raw()) != string(id.Raw()) {
			t.Fatalf("Call(%s) response = %+v", id, r.Response)
		}
		if got, want := string(r.Response.Result), `{"method":"tools/list","params":{"k":"v"}}`; got != want {
			t.Errorf("result = %s, want %s", got, want)
		}
	}
	// A notification returns once written.
	n, _ := jsonrpc.EncodeNotification("notifications/initialized", nil)
	if r, err := c.Call(testCtx(t), &Call{Frame: n}); err != nil || r.Response != nil {
		t.Fatalf("Call(notification) = %+v, %v", r, err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if exited, code, _ := c.ExitState(); !exited || code != 0 {
		t.Errorf("ExitState = %v, %d; want exited 0", exited, code)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(frames) != 7 || !strings.HasPrefix(frames[0], `send {"jsonrpc":"2.0","id":1,`) || !strings.HasPrefix(frames[1], `recv {"jsonrpc":"2.0","id":1,`) {
		t.Errorf("frames = %q", frames)
	}
	if _, err := c.Call(testCtx(t), request(t, jsonrpc.IntID(9), "x")); !errors.Is(err, ErrClosed) || !errors.Is(err, fault.ErrIncomplete) {
		t.Errorf("Call after Close = %v, want ErrClosed", err)
	}
}

func TestStdioConcurrentCalls(t *testing.T) {
	checkGoroutines(t)
	c := startTestServer(t, "echo", nil)
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for i := range 20 {
		wg.Go(func() {
			id := jsonrpc.IntID(int64(i))
			r, err := c.Call(testCtx(t), request(t, id, "m"))
			if err == nil && !r.Response.ID.Equal(id) {
				err = errors.New("wrong id " + r.Response.ID.String())
			}
			if err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	c.Close()
}

func TestStdioEnvironment(t *testing.T) {
	checkGoroutines(t)
	dir := t.TempDir()
	home := t.TempDir()
	c := startTestServer(t, "echo", &StdioOptions{
		BaseEnv: []string{"BASE=1", "FOO=base"},
		Env:     []string{"FOO=bar"},
		Dir:     dir,
		Home:    home,
	})
	r, err := c.Call(testCtx(t), request(t, jsonrpc.IntID(1), "env"))
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]string
	if err := json.Unmarshal(r.Response.Result, &got); err != nil {
		t.Fatal(err)
	}
	// Home moves the XDG directories under it too (issue 16 item 6).
	want := map[string]string{"HOME": home, "XDG_CONFIG_HOME": filepath.Join(home, ".config"), "FOO": "bar", "BASE": "1", "PATH": "", "cwd": dir}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("environment mismatch (-want +got):\n%s", d)
	}
	c.Close()
}

func TestStdioIsolateHome(t *testing.T) {
	checkGoroutines(t)
	c := startTestServer(t, "echo", &StdioOptions{Home: "/ignored", IsolateHome: true})
	r, err := c.Call(testCtx(t), request(t, jsonrpc.IntID(1), "env"))
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]string
	json.Unmarshal(r.Response.Result, &got)
	home := got["HOME"]
	if home == "/ignored" || !strings.Contains(home, "mcpward-home-") || got["XDG_CONFIG_HOME"] != filepath.Join(home, ".config") {
		t.Fatalf("HOME = %q, XDG_CONFIG_HOME = %q; want a fresh temp dir", home, got["XDG_CONFIG_HOME"])
	}
	if _, err := os.Stat(home); err != nil {
		t.Fatalf("isolated home missing while running: %v", err)
	}
	c.Close()
	if _, err := os.Stat(home); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("isolated home %s still there after Close (%v)", home, err)
	}
}

func TestStdioStderr(t *testing.T) {
	checkGoroutines(t)
	var (
		mu    sync.Mutex
		lines []string
	)
	c := startTestServer(t, "echo", &StdioOptions{OnFrame: func(f Frame) {
		if f.Dir == DirStderr {
			mu.Lock()
			lines = append(lines, string(f.Raw))
			mu.Unlock()
		}
	}})
	if _, err := c.Call(testCtx(t), request(t, jsonrpc.IntID(1), "stderr")); err != nil {
		t.Fatal(err)
	}
	c.Close()
	if got := string(c.Stderr()); got != "hello stderr\n" {
		t.Errorf("Stderr() = %q", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if d := cmp.Diff([]string{"hello stderr"}, lines); d != "" {
		t.Errorf("stderr frames mismatch (-want +got):\n%s", d)
	}
}

func TestStdioTimeoutAndLateReply(t *testing.T) {
	checkGoroutines(t)
	c := startTestServer(t, "echo", nil)
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	_, err := c.Call(ctx, request(t, jsonrpc.IntID(1), "defer"))
	if !errors.Is(err, ErrTimeout) || !errors.Is(err, fault.ErrIncomplete) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Call = %v, want ErrTimeout", err)
	}
	if !strings.HasPrefix(err.Error(), "server did not answer defer within ") {
		t.Errorf("error = %q", err)
	}
	if exited, _, _ := c.ExitState(); exited {
		t.Fatal("server was killed by a timeout")
	}
	// The server answers id 2, then the late id 1; a third call makes sure
	// the late reply has been read.
	for _, id := range []int64{2, 3} {
		if _, err := c.Call(testCtx(t), request(t, jsonrpc.IntID(id), "m")); err != nil {
			t.Fatal(err)
		}
	}
	diags := c.Diagnostics()
	if len(diags) != 1 || diags[0].Text != "reply for id 1 arrived after the caller stopped waiting" {
		t.Errorf("Diagnostics = %+v", diags)
	}
	// The late reply is kept: the client's era probe reads it.
	if m, ok := c.LateReply(jsonrpc.IntID(1)); !ok || m.ID.String() != "1" || !m.IsResponse() {
		t.Errorf("LateReply(1) = %+v, %v", m, ok)
	}
	if _, ok := c.LateReply(jsonrpc.IntID(2)); ok {
		t.Error("LateReply(2): id 2 was answered in time")
	}
	c.Close()
}

// TestStdioExitKeepsLastStderr holds the stderr reader back until the
// server has exited: the error must still carry what the server wrote
// last (it used to take the tail at exit, before the pipe was read).
func TestStdioExitKeepsLastStderr(t *testing.T) {
	checkGoroutines(t)
	var once sync.Once
	stderrReadHook = func(c *StdioConn) {
		once.Do(func() {
			<-c.exited
			time.Sleep(50 * time.Millisecond) // well inside the 2 s grace
		})
	}
	defer func() { stderrReadHook = nil }()
	c := startTestServer(t, "echo", nil)
	_, err := c.Call(testCtx(t), request(t, jsonrpc.IntID(1), "exit3"))
	if got := string(StderrOf(err)); !strings.Contains(got, "fatal: boom") {
		t.Errorf("StderrOf = %q, want the server's last stderr", got)
	}
	c.Close()
}

func TestStdioExitMidStream(t *testing.T) {
	checkGoroutines(t)
	c := startTestServer(t, "echo", nil)
	_, err := c.Call(testCtx(t), request(t, jsonrpc.IntID(1), "exit3"))
	var ee *ExitError
	if !errors.As(err, &ee) || !errors.Is(err, ErrExited) || !errors.Is(err, fault.ErrIncomplete) {
		t.Fatalf("Call = %v, want *ExitError", err)
	}
	// The message is one line; the stderr tail travels with the error and
	// is shown once, under a heading, by the CLI.
	if want := "server exited with code 3 before answering exit3"; err.Error() != want {
		t.Errorf("error = %q, want %q", err, want)
	}
	if got := string(StderrOf(err)); !strings.Contains(got, "fatal: boom") {
		t.Errorf("StderrOf = %q, want the server's stderr", got)
	}
	// Later calls fail the same way, at once.
	if _, err := c.Call(testCtx(t), request(t, jsonrpc.IntID(2), "m")); !errors.Is(err, ErrExited) {
		t.Errorf("second Call = %v, want ErrExited", err)
	}
	if exited, code, _ := c.ExitState(); !exited || code != 3 {
		t.Errorf("ExitState = %v, %d; want exited 3", exited, code)
	}
	c.Close()
}

func TestStdioJunkAndBigLine(t *testing.T) {
	checkGoroutines(t)
	var (
		mu      sync.Mutex
		biggest int
	)
	c := startTestServer(t, "echo", &StdioOptions{OnFrame: func(f Frame) {
		mu.Lock()
		biggest = max(biggest, len(f.Raw))
		mu.Unlock()
	}})
	r, err := c.Call(testCtx(t), request(t, jsonrpc.IntID(1), "junk"))
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, m := range r.Related {
		kinds = append(kinds, m.Kind.String())
	}
	if d := cmp.Diff([]string{"invalid", "invalid", "notification"}, kinds); d != "" {
		t.Errorf("Related kinds mismatch (-want +got):\n%s", d)
	}
	if len(r.Related) == 3 && len(r.Related[1].Raw) != 10<<20 {
		t.Errorf("10 MB line came back as %d bytes", len(r.Related[1].Raw))
	}
	var texts []string
	for _, d := range c.Diagnostics() {
		texts = append(texts, d.Text)
	}
	if len(texts) != 3 || !strings.HasPrefix(texts[0], "invalid frame: not JSON") || texts[2] != "reply for id 999 that no request is waiting for" {
		t.Errorf("Diagnostics = %q", texts)
	}
	mu.Lock()
	if biggest != 10<<20 {
		t.Errorf("OnFrame saw at most %d bytes, want the 10 MB line", biggest)
	}
	mu.Unlock()
	c.Close()
}

func TestStdioServerRequest(t *testing.T) {
	checkGoroutines(t)
	c := startTestServer(t, "echo", &StdioOptions{OnServerRequest: func(m jsonrpc.Message) []byte {
		b, _ := jsonrpc.EncodeResult(m.ID, struct{}{})
		return b
	}})
	r, err := c.Call(testCtx(t), request(t, jsonrpc.IntID(1), "ping-me"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(r.Response.Result), `{"answer":{"jsonrpc":"2.0","id":"srv-1","result":{}}}`; got != want {
		t.Errorf("result = %s, want %s", got, want)
	}
	if len(r.Related) != 1 || r.Related[0].Method != "ping" {
		t.Errorf("Related = %+v, want the ping", r.Related)
	}
	c.Close()
}

func TestStdioCloseEscalates(t *testing.T) {
	checkGoroutines(t)
	c := startTestServer(t, "ignore-term", &StdioOptions{KillGrace: 20 * time.Millisecond})
	pid := c.Pid()
	if _, err := c.Call(testCtx(t), request(t, jsonrpc.IntID(1), "ready")); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	exited, code, err := c.ExitState()
	if !exited || code != -1 || err == nil || !strings.Contains(err.Error(), "killed") {
		t.Errorf("ExitState = %v, %d, %v; want killed", exited, code, err)
	}
	if alive(pid) {
		t.Errorf("server %d alive after Close", pid)
	}
}

func TestStdioNoOrphans(t *testing.T) {
	checkGoroutines(t)
	c := startTestServer(t, "grandchild", nil)
	r, err := c.Call(testCtx(t), request(t, jsonrpc.IntID(1), "pids"))
	if err != nil {
		t.Fatal(err)
	}
	var pids struct{ Pid, Grandchild int }
	json.Unmarshal(r.Response.Result, &pids)
	if pids.Pid != c.Pid() || !alive(pids.Grandchild) {
		t.Fatalf("pids = %+v, conn pid %d", pids, c.Pid())
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if alive(pids.Pid) {
		t.Errorf("server %d alive after Close", pids.Pid)
	}
	waitDead(t, pids.Grandchild)
}

func TestStdioStartErrors(t *testing.T) {
	noExec := filepath.Join(t.TempDir(), "server")
	if err := os.WriteFile(noExec, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		opts StdioOptions
		want string
	}{
		{"not found", StdioOptions{Command: "mcpward-no-such-server"}, "cannot start server mcpward-no-such-server: executable file not found in PATH"},
		{"no command", StdioOptions{}, "cannot start server: no command given"},
		{"bad dir", StdioOptions{Command: os.Args[0], Dir: "/no/such/dir"}, "cannot start server " + os.Args[0] + ": working directory /no/such/dir: no such file or directory"},
		{"not executable", StdioOptions{Command: noExec}, "cannot start server " + noExec + ": permission denied"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := StartStdio(t.Context(), &tt.opts)
			if !errors.Is(err, ErrStart) || !errors.Is(err, fault.ErrIncomplete) {
				t.Fatalf("StartStdio = %v, want ErrStart", err)
			}
			if err.Error() != tt.want {
				t.Errorf("error = %q, want %q", err, tt.want)
			}
		})
	}
}

func TestHeadTail(t *testing.T) {
	h := newHeadTail(20) // 10 head, 10 tail
	for _, s := range []string{"0123", "456789ab", "cdefghijklmnopqrstuvwxyz"} {
		h.Write([]byte(s))
	}
	if got, want := string(h.bytes()), "0123456789\n… [16 bytes of stderr omitted] …\nqrstuvwxyz"; got != want {
		t.Errorf("bytes() = %q, want %q", got, want)
	}
	if got := string(h.tail(3)); got != "xyz" {
		t.Errorf("tail(3) = %q", got)
	}
}
