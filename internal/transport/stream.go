package transport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/mcpward/mcpward/internal/jsonrpc"
)

// A lineConn is the newline-framed half shared by the stdio and in-process
// stream transports: it writes frames, reads lines on its own goroutine
// and hands them to a router.
type lineConn struct {
	r  *router
	w  io.Writer
	wu sync.Mutex // serialises frames on w

	readDone chan struct{}
	readErr  error // set before readDone closes
}

func newLineConn(w io.Writer, onFrame func(Frame), onServerRequest func(jsonrpc.Message) []byte) *lineConn {
	lc := &lineConn{w: w, r: newRouter(onFrame, onServerRequest), readDone: make(chan struct{})}
	lc.r.answer = func(frame []byte) {
		// An answer that cannot be written is a diagnostic, not a failure of
		// whatever call is waiting: the server will tell by not proceeding.
		if err := lc.write(context.Background(), frame); err != nil {
			lc.r.diag(fmt.Sprintf("answer to a server request not sent: %v", err), frame)
		}
	}
	return lc
}

// readLoop reads lines from rd until it ends; run it on its own goroutine.
func (lc *lineConn) readLoop(rd io.Reader) {
	defer close(lc.readDone)
	lr := jsonrpc.NewLineReader(rd)
	for {
		line, err := lr.ReadLine()
		if err == io.EOF {
			return
		}
		if err != nil {
			lc.readErr = err
			return
		}
		lc.r.receive(line)
	}
}

type writeDeadliner interface{ SetWriteDeadline(time.Time) error }

// write sends frame plus "\n". When w supports deadlines (an os.Pipe), the
// context's deadline bounds the write, so a server that stopped reading
// cannot hang a call past its timeout.
func (lc *lineConn) write(ctx context.Context, frame []byte) error {
	buf := make([]byte, len(frame)+1)
	copy(buf, frame)
	buf[len(frame)] = '\n'
	lc.wu.Lock()
	defer lc.wu.Unlock()
	if wd, ok := lc.w.(writeDeadliner); ok {
		d, _ := ctx.Deadline()
		if wd.SetWriteDeadline(d) == nil {
			defer wd.SetWriteDeadline(time.Time{})
		}
	}
	_, err := lc.w.Write(buf)
	if err == nil {
		lc.r.observe(DirSend, frame, jsonrpc.Decode(frame))
	}
	return err
}

// call implements Conn.Call for line transports.
func (lc *lineConn) call(ctx context.Context, c *Call, closed func() bool) (*Reply, error) {
	if closed() {
		return nil, incomplete("call "+methodOf(c.Frame)+": connection closed", ErrClosed, nil)
	}
	start := time.Now()
	var w *waiter
	if !c.ID.IsZero() {
		var err error
		if w, err = lc.r.register(c.ID, c.Frame); err != nil {
			return nil, err
		}
	}
	if err := lc.write(ctx, c.Frame); err != nil {
		if w != nil {
			lc.r.unregister(c.ID, false)
		}
		select {
		case <-lc.r.ended:
			return nil, lc.r.endErr(methodOf(c.Frame))
		default:
		}
		if errors.Is(err, os.ErrDeadlineExceeded) && ctx.Err() != nil {
			return nil, ctxError(ctx, c.Frame, start)
		}
		if closed() {
			return nil, incomplete("call "+methodOf(c.Frame)+": connection closed", ErrClosed, err)
		}
		return nil, incomplete(fmt.Sprintf("send %s: %v", methodOf(c.Frame), err), ErrExited, err)
	}
	if w == nil {
		return &Reply{}, nil
	}
	return lc.r.await(ctx, c.ID, w, c.Frame, start)
}

// StreamOptions configures [NewStream]. Nil options mean defaults.
type StreamOptions struct {
	// Kind is what Conn.Kind returns; "fixture" when empty.
	Kind string
	// OnServerRequest answers requests from the server; see StdioOptions.
	OnServerRequest func(m jsonrpc.Message) []byte
	// OnFrame observes every frame sent and received.
	OnFrame func(f Frame)
	// OnClose runs during Close, after the writer is closed and before the
	// reader is, to stop the other end (e.g. cancel a fixture's context and
	// wait for it).
	OnClose func()
}

// A StreamConn is a [Conn] over newline-framed byte streams, such as an
// embedded fixture server running in-process.
type StreamConn struct {
	lc        *lineConn
	r         io.ReadCloser
	w         io.WriteCloser
	kind      string
	onClose   func()
	closeOnce sync.Once
	mu        sync.Mutex
	closed    bool
}

// NewStream returns a Conn that writes frames to w and reads frames from
// r, one per line. It starts a goroutine reading r until r ends or Close.
func NewStream(r io.ReadCloser, w io.WriteCloser, opts *StreamOptions) *StreamConn {
	if opts == nil {
		opts = &StreamOptions{}
	}
	c := &StreamConn{r: r, w: w, kind: opts.Kind, onClose: opts.OnClose}
	if c.kind == "" {
		c.kind = "fixture"
	}
	c.lc = newLineConn(w, opts.OnFrame, opts.OnServerRequest)
	go func() {
		c.lc.readLoop(r)
		c.lc.r.end(func(method string) error {
			msg := "server closed the stream"
			if method != "" {
				msg += " before answering " + method
			}
			if c.isClosed() {
				return incomplete(method+": connection closed", ErrClosed, nil)
			}
			return incomplete(msg, ErrExited, c.lc.readErr)
		})
	}()
	return c
}

func (c *StreamConn) isClosed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
}

// Call implements [Conn].
func (c *StreamConn) Call(ctx context.Context, call *Call) (*Reply, error) {
	return c.lc.call(ctx, call, c.isClosed)
}

// Kind implements [Conn].
func (c *StreamConn) Kind() string { return c.kind }

// Diagnostics returns what the connection saw and could not hand to a
// call: junk lines, replies nobody waited for.
func (c *StreamConn) Diagnostics() []Diagnostic { return c.lc.r.diagnostics() }

// LateReply returns the reply that arrived for id after the call gave up
// waiting (the first one), if any.
func (c *StreamConn) LateReply(id jsonrpc.ID) (jsonrpc.Message, bool) { return c.lc.r.lateReply(id) }

// Close closes the writer, runs OnClose, closes the reader and waits for
// the reading goroutine. It is safe to call more than once.
func (c *StreamConn) Close() error {
	var err error
	c.closeOnce.Do(func() {
		c.mu.Lock()
		c.closed = true
		c.mu.Unlock()
		err = c.w.Close()
		if c.onClose != nil {
			c.onClose()
		}
		if cerr := c.r.Close(); err == nil {
			err = cerr
		}
		<-c.lc.readDone
		c.lc.r.answers.Wait()
	})
	return err
}

// A PipeEnd is the server's side of [Pipe]: it reads what the client sent
// and writes what the client will receive.
type PipeEnd struct {
	// R yields the client's frames, newline-terminated.
	R *io.PipeReader
	// W takes the server's frames; close it to end the stream.
	W *io.PipeWriter
}

// Close closes both halves of the server's end.
func (p *PipeEnd) Close() error {
	p.R.Close()
	return p.W.Close()
}

// Pipe returns a StreamConn connected in memory to a server end, for tests
// and in-process servers. Writes block until the other side reads.
func Pipe(opts *StreamOptions) (*StreamConn, *PipeEnd) {
	toServerR, toServerW := io.Pipe()
	fromServerR, fromServerW := io.Pipe()
	return NewStream(fromServerR, toServerW, opts), &PipeEnd{R: toServerR, W: fromServerW}
}
