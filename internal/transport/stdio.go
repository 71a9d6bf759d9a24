package transport

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/mcpward/mcpward/internal/plural"
	"github.com/mcpward/mcpward/internal/procgroup"

	"github.com/mcpward/mcpward/internal/jsonrpc"
)

// StdioOptions configures [StartStdio].
type StdioOptions struct {
	// Command is the program to run, looked up in mcpward's PATH; Args
	// are its arguments.
	Command string
	Args    []string
	// BaseEnv is the environment to start from (the caller passes
	// os.Environ()); nil means an empty environment.
	BaseEnv []string
	// Env holds extra KEY=VALUE entries; they win over BaseEnv and over
	// the HOME settings below.
	Env []string
	// Dir is the working directory; empty means mcpward's.
	Dir string
	// Home, if set, is the child's HOME, and XDG_CONFIG_HOME,
	// XDG_DATA_HOME, XDG_CACHE_HOME and XDG_STATE_HOME are under it (the
	// directories are not created).
	Home string
	// IsolateHome points HOME and XDG_CONFIG_HOME, XDG_DATA_HOME,
	// XDG_CACHE_HOME and XDG_STATE_HOME at a fresh temporary directory,
	// removed on Close. It wins over Home.
	IsolateHome bool
	// StderrLimit is how many bytes of stderr are kept: the first 64 KiB
	// (at most half the limit) and the last bytes. Default 1 MiB.
	StderrLimit int
	// OnServerRequest answers a request from the server (e.g. ping). The
	// returned frame is written to the server's stdin; nil sends nothing.
	// It runs on the reading goroutine and must not block.
	OnServerRequest func(m jsonrpc.Message) []byte
	// OnFrame observes every frame sent and received, including junk
	// lines on stdout, and each line of stderr. It runs on the transport's
	// goroutines and must not block.
	OnFrame func(f Frame)
	// KillGrace is how long Close waits after closing stdin before
	// SIGTERM, and after SIGTERM before SIGKILL. Default 2s.
	KillGrace time.Duration
}

// A StdioConn is a [Conn] to a child process speaking newline-delimited
// JSON-RPC on its stdin and stdout.
type StdioConn struct {
	lc       *lineConn
	cmd      *exec.Cmd
	stdin    *os.File
	stdout   *os.File
	stderrR  *os.File
	stderr   *headTail
	grace    time.Duration
	tempHome string

	exited   chan struct{}
	waitErr  error // set before exited closes
	exitCode int

	ended      chan struct{} // the supervisor ended the router
	stderrDone chan struct{}

	mu        sync.Mutex
	closed    bool
	closeOnce sync.Once
	closeErr  error
}

// StartStdio starts the server process and the goroutines reading its
// output. ctx bounds only the start: the process lives until Close. An
// error satisfies errors.Is(err, ErrStart).
func StartStdio(ctx context.Context, opts *StdioOptions) (_ *StdioConn, err error) {
	if opts == nil || opts.Command == "" {
		return nil, incomplete("cannot start server: no command given", ErrStart, nil)
	}
	if err := ctx.Err(); err != nil {
		return nil, incomplete(fmt.Sprintf("cannot start server %s: %v", opts.Command, err), ErrStart, err)
	}
	if opts.Dir != "" {
		// exec reports a bad directory as a failure of the program itself.
		if fi, err := os.Stat(opts.Dir); err != nil || !fi.IsDir() {
			why := "not a directory"
			if err != nil {
				why = errors.Unwrap(err).Error()
			}
			return nil, incomplete(fmt.Sprintf("cannot start server %s: working directory %s: %s", opts.Command, opts.Dir, why), ErrStart, err)
		}
	}
	c := &StdioConn{
		grace:      opts.KillGrace,
		exited:     make(chan struct{}),
		ended:      make(chan struct{}),
		stderrDone: make(chan struct{}),
	}
	if c.grace <= 0 {
		c.grace = 2 * time.Second
	}
	limit := opts.StderrLimit
	if limit <= 0 {
		limit = 1 << 20
	}
	c.stderr = newHeadTail(limit)

	env := append([]string{}, opts.BaseEnv...)
	if opts.Home != "" && !opts.IsolateHome {
		// The XDG directories follow HOME, as with IsolateHome: a server
		// that reads ~/.config through XDG_CONFIG_HOME would otherwise
		// still see the user's own (mcp-surfaceprint set them too).
		env = append(env, "HOME="+opts.Home,
			"XDG_CONFIG_HOME="+filepath.Join(opts.Home, ".config"),
			"XDG_DATA_HOME="+filepath.Join(opts.Home, ".local", "share"),
			"XDG_CACHE_HOME="+filepath.Join(opts.Home, ".cache"),
			"XDG_STATE_HOME="+filepath.Join(opts.Home, ".local", "state"))
	}
	if opts.IsolateHome {
		home, err := isolatedHome()
		if err != nil {
			return nil, incomplete(fmt.Sprintf("cannot start server %s: isolated home: %v", opts.Command, err), ErrStart, err)
		}
		c.tempHome = home
		env = append(env, "HOME="+home,
			"XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
			"XDG_DATA_HOME="+filepath.Join(home, ".local", "share"),
			"XDG_CACHE_HOME="+filepath.Join(home, ".cache"),
			"XDG_STATE_HOME="+filepath.Join(home, ".local", "state"))
	}
	env = append(env, opts.Env...)

	var toClose []*os.File
	defer func() {
		for _, f := range toClose {
			f.Close()
		}
		if err != nil && c.tempHome != "" {
			os.RemoveAll(c.tempHome)
		}
	}()
	pipe := func() (r, w *os.File) {
		if err != nil {
			return nil, nil
		}
		r, w, err = os.Pipe()
		toClose = append(toClose, r, w)
		return r, w
	}
	stdinR, stdinW := pipe()
	stdoutR, stdoutW := pipe()
	stderrR, stderrW := pipe()
	if err != nil {
		return nil, incomplete(fmt.Sprintf("cannot start server %s: %v", opts.Command, err), ErrStart, err)
	}

	cmd := exec.Command(opts.Command, opts.Args...)
	cmd.Env = env // never nil: a nil Env would inherit mcpward's environment
	cmd.Dir = opts.Dir
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdinR, stdoutW, stderrW
	cmd.SysProcAttr = procgroup.SysProcAttr()
	if err = cmd.Start(); err != nil {
		return nil, startError(opts, err)
	}
	// The child holds its own copies; ours of its ends must go, or we
	// would never see EOF on its output.
	toClose = []*os.File{stdinR, stdoutW, stderrW}
	c.cmd, c.stdin, c.stdout, c.stderrR = cmd, stdinW, stdoutR, stderrR
	c.lc = newLineConn(stdinW, opts.OnFrame, opts.OnServerRequest)

	go c.wait()
	go c.lc.readLoop(stdoutR)
	go c.readStderr(opts.OnFrame)
	go c.supervise()
	return c, nil
}

func isolatedHome() (string, error) {
	home, err := os.MkdirTemp("", "mcpward-home-")
	if err != nil {
		return "", err
	}
	for _, d := range []string{".config", ".cache", ".local/share", ".local/state"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o700); err != nil {
			os.RemoveAll(home)
			return "", err
		}
	}
	return home, nil
}

func startError(opts *StdioOptions, err error) error {
	why := err.Error()
	var ee *exec.Error
	var pe *fs.PathError
	switch {
	case errors.As(err, &ee):
		why = ee.Err.Error()
		if errors.Is(ee.Err, exec.ErrNotFound) {
			why = "executable file not found in PATH"
		}
	case errors.As(err, &pe):
		why = pe.Err.Error()
	}
	return incomplete(fmt.Sprintf("cannot start server %s: %s", opts.Command, why), ErrStart, err)
}

// wait reaps the child and records how it ended.
func (c *StdioConn) wait() {
	err := c.cmd.Wait()
	c.waitErr = err
	c.exitCode = c.cmd.ProcessState.ExitCode()
	close(c.exited)
}

// supervise ends the router once the server is gone: when its stdout ends,
// or when it exits (then its orphans, which may hold stdout open, are
// killed, and output already in the pipe is still read).
func (c *StdioConn) supervise() {
	defer close(c.ended)
	select {
	case <-c.lc.readDone:
		timer := time.NewTimer(c.grace)
		select {
		case <-c.exited:
		case <-timer.C:
		}
		timer.Stop()
	case <-c.exited:
		_ = procgroup.Kill(c.cmd.Process)
		timer := time.NewTimer(c.grace)
		select {
		case <-c.lc.readDone:
		case <-timer.C:
			c.stdout.Close()
			<-c.lc.readDone
		}
		timer.Stop()
	}
	c.lc.r.end(c.endErr)
}

func (c *StdioConn) endErr(method string) error {
	if c.isClosed() {
		return incomplete(fmt.Sprintf("%s: connection closed", method), ErrClosed, nil)
	}
	select {
	case <-c.exited:
		// The server is gone, but its last words may still be in the stderr
		// pipe (they are usually why it exited): let the reader reach the
		// end first. Bounded, since an orphan outside the group may hold the
		// pipe open.
		timer := time.NewTimer(c.grace)
		select {
		case <-c.stderrDone:
		case <-timer.C:
		}
		timer.Stop()
		e := &ExitError{Code: c.exitCode, Stderr: c.stderr.tail(4 << 10), Method: method}
		var ee *exec.ExitError
		if errors.As(c.waitErr, &ee) {
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				e.Signal = ws.Signal().String()
			}
		}
		return e
	default:
		return incomplete(fmt.Sprintf("server closed its stdout before answering %s", method), ErrExited, nil)
	}
}

// stderrReadHook, when set by a test, runs before each read of the
// server's stderr (to hold the reader back behind the exit).
var stderrReadHook func(*StdioConn)

func (c *StdioConn) readStderr(onFrame func(Frame)) {
	defer close(c.stderrDone)
	var partial []byte
	buf := make([]byte, 32<<10)
	emit := func(line []byte) {
		if onFrame != nil {
			onFrame(Frame{Dir: DirStderr, Raw: append([]byte(nil), line...), Time: time.Now()})
		}
	}
	for {
		if stderrReadHook != nil {
			stderrReadHook(c)
		}
		n, err := c.stderrR.Read(buf)
		chunk := buf[:n]
		c.stderr.Write(chunk)
		for len(chunk) > 0 {
			i := bytes.IndexByte(chunk, '\n')
			if i < 0 {
				if len(partial) < 64<<10 {
					partial = append(partial, chunk[:min(len(chunk), 64<<10-len(partial))]...)
				}
				break
			}
			partial = append(partial, chunk[:i]...)
			emit(bytes.TrimSuffix(partial, []byte("\r")))
			partial = partial[:0]
			chunk = chunk[i+1:]
		}
		if err != nil {
			if len(partial) > 0 {
				emit(partial)
			}
			return
		}
	}
}

func (c *StdioConn) isClosed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
}

// Call implements [Conn].
func (c *StdioConn) Call(ctx context.Context, call *Call) (*Reply, error) {
	return c.lc.call(ctx, call, c.isClosed)
}

// Kind implements [Conn]; it returns "stdio".
func (c *StdioConn) Kind() string { return "stdio" }

// Pid returns the child's process id, which is also its process group id.
func (c *StdioConn) Pid() int { return c.cmd.Process.Pid }

// Stderr returns what the server wrote to stderr so far: all of it, or
// the head and the tail around a marker when it exceeded StderrLimit.
func (c *StdioConn) Stderr() []byte { return c.stderr.bytes() }

// Diagnostics returns what the connection saw and could not hand to a
// call: junk lines on stdout, replies nobody waited for.
func (c *StdioConn) Diagnostics() []Diagnostic { return c.lc.r.diagnostics() }

// LateReply returns the reply that arrived for id after the call gave up
// waiting (the first one), if any: see client.Connect's era probe.
func (c *StdioConn) LateReply(id jsonrpc.ID) (jsonrpc.Message, bool) { return c.lc.r.lateReply(id) }

// ExitState reports whether the server has exited, its exit code (-1 if
// killed by a signal) and the error of waiting for it.
func (c *StdioConn) ExitState() (exited bool, code int, err error) {
	select {
	case <-c.exited:
		return true, c.exitCode, c.waitErr
	default:
		return false, 0, nil
	}
}

// Close ends the server: it closes stdin, waits KillGrace, sends SIGTERM
// to the process group, waits KillGrace, sends SIGKILL, then reaps the
// child, kills whatever is left of its group, waits for the transport's
// goroutines and removes the isolated home. It is safe to call twice.
func (c *StdioConn) Close() error {
	c.closeOnce.Do(func() {
		c.mu.Lock()
		c.closed = true
		c.mu.Unlock()
		c.stdin.Close()
		if !c.waitExit() {
			_ = procgroup.Terminate(c.cmd.Process)
			if !c.waitExit() {
				_ = procgroup.Kill(c.cmd.Process)
				<-c.exited
			}
		}
		_ = procgroup.Kill(c.cmd.Process) // orphans left in the group
		<-c.ended
		timer := time.NewTimer(c.grace)
		select {
		case <-c.stderrDone:
		case <-timer.C:
		}
		timer.Stop()
		c.stderrR.Close()
		<-c.stderrDone
		c.stdout.Close()
		c.lc.r.answers.Wait()
		if c.tempHome != "" {
			if err := os.RemoveAll(c.tempHome); err != nil {
				c.closeErr = fmt.Errorf("remove isolated home: %w", err)
			}
		}
	})
	return c.closeErr
}

// IsolatedHome is the temporary folder HOME and the XDG directories point
// at under StdioOptions.IsolateHome ("" otherwise); it is removed on Close.
func (c *StdioConn) IsolatedHome() string { return c.tempHome }

func (c *StdioConn) waitExit() bool {
	timer := time.NewTimer(c.grace)
	defer timer.Stop()
	select {
	case <-c.exited:
		return true
	case <-timer.C:
		return false
	}
}

// headTail keeps the first and the last bytes written to it.
type headTail struct {
	mu      sync.Mutex
	head    []byte
	tailBuf []byte
	headMax int
	tailMax int
	total   int64
}

func newHeadTail(limit int) *headTail {
	h := min(64<<10, limit/2)
	return &headTail{headMax: h, tailMax: limit - h}
}

func (h *headTail) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.total += int64(len(p))
	n := len(p)
	if room := h.headMax - len(h.head); room > 0 {
		k := min(room, len(p))
		h.head = append(h.head, p[:k]...)
		p = p[k:]
	}
	if len(p) == 0 {
		return n, nil
	}
	if len(p) >= h.tailMax {
		h.tailBuf = append(h.tailBuf[:0], p[len(p)-h.tailMax:]...)
		return n, nil
	}
	h.tailBuf = append(h.tailBuf, p...)
	if len(h.tailBuf) > 2*h.tailMax {
		k := copy(h.tailBuf, h.tailBuf[len(h.tailBuf)-h.tailMax:])
		h.tailBuf = h.tailBuf[:k]
	}
	return n, nil
}

func (h *headTail) tailLocked() []byte {
	if len(h.tailBuf) > h.tailMax {
		return h.tailBuf[len(h.tailBuf)-h.tailMax:]
	}
	return h.tailBuf
}

func (h *headTail) bytes() []byte {
	h.mu.Lock()
	defer h.mu.Unlock()
	tail := h.tailLocked()
	out := append([]byte(nil), h.head...)
	if omitted := h.total - int64(len(h.head)) - int64(len(tail)); omitted > 0 {
		out = fmt.Appendf(out, "\n… [%s of stderr omitted] …\n", plural.Count(omitted, "byte"))
	}
	return append(out, tail...)
}

// tail returns up to the last n bytes written.
func (h *headTail) tail(n int) []byte {
	all := h.bytes()
	if len(all) > n {
		all = all[len(all)-n:]
	}
	return all
}

var _ io.Writer = (*headTail)(nil)
