package transport

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/mcpward/mcpward/internal/jsonrpc"
)

// Directions of a [Frame].
const (
	DirSend   = "send"
	DirRecv   = "recv"
	DirStderr = "stderr"
)

// A Frame is one unit of traffic seen by a Conn, for observers: a frame
// sent, a frame (or junk line, or SSE event's data) received, or a line of
// a child's stderr. Raw is owned by the observer once passed; Msg is the
// decoded Raw for send and recv frames.
type Frame struct {
	Dir  string
	Raw  []byte
	Time time.Time
	Msg  jsonrpc.Message
}

// A Diagnostic is something odd the transport saw and could not hand to a
// Call: a junk line, a reply nobody waited for, an event the parser dropped.
type Diagnostic struct {
	Time time.Time
	Text string
	// Raw is the start of the bytes concerned (at most 4 KiB).
	Raw []byte
}

const (
	maxDiagnostics = 1000
	maxDiagRaw     = 4 << 10
	maxUnclaimed   = 1000
	maxLateIDs     = 1000
)

// A router correlates received messages with waiting calls. It is shared
// by every transport whose replies arrive on a stream separate from the
// request (stdio, in-process streams, legacy HTTP+SSE).
type router struct {
	onFrame         func(Frame)
	onServerRequest func(jsonrpc.Message) []byte
	answer          func([]byte) // sends an answer to a server request
	answers         sync.WaitGroup

	mu        sync.Mutex
	pending   map[string]*waiter
	late      map[string]bool // ids whose caller gave up
	lateOrder []string
	// lateReplies keep the replies that came for late ids (LateReply):
	// a server slow to start answers the era probe after the client fell
	// back, and that answer is still the server's word.
	lateReplies map[string]jsonrpc.Message
	unclaimed   []jsonrpc.Message
	diags       []Diagnostic
	dropped     int
	ended       chan struct{}
	endErr      func(method string) error
}

type waiter struct {
	resp    chan jsonrpc.Message // buffered 1
	related []jsonrpc.Message
}

func newRouter(onFrame func(Frame), onServerRequest func(jsonrpc.Message) []byte) *router {
	return &router{
		onFrame:         onFrame,
		onServerRequest: onServerRequest,
		pending:         map[string]*waiter{},
		late:            map[string]bool{},
		lateReplies:     map[string]jsonrpc.Message{},
		ended:           make(chan struct{}),
	}
}

func (r *router) observe(dir string, raw []byte, m jsonrpc.Message) {
	if r.onFrame != nil {
		r.onFrame(Frame{Dir: dir, Raw: raw, Time: time.Now(), Msg: m})
	}
}

// register announces that a call waits for id. It fails if the stream has
// ended or id is already awaited.
func (r *router) register(id jsonrpc.ID, frame []byte) (*waiter, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	select {
	case <-r.ended:
		return nil, r.endErr(methodOf(frame))
	default:
	}
	key := id.String()
	if _, dup := r.pending[key]; dup {
		return nil, fmt.Errorf("call %s: id %s is already awaiting a reply", methodOf(frame), key)
	}
	w := &waiter{resp: make(chan jsonrpc.Message, 1), related: r.unclaimed}
	r.unclaimed = nil
	r.pending[key] = w
	return w, nil
}

// unregister withdraws a waiter; gaveUp marks the id as late, so that a
// reply arriving afterwards is reported as late rather than unknown.
func (r *router) unregister(id jsonrpc.ID, gaveUp bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	key := id.String()
	delete(r.pending, key)
	if gaveUp && !r.late[key] {
		r.late[key] = true
		r.lateOrder = append(r.lateOrder, key)
		if len(r.lateOrder) > maxLateIDs {
			delete(r.late, r.lateOrder[0])
			delete(r.lateReplies, r.lateOrder[0])
			r.lateOrder = r.lateOrder[1:]
		}
	}
}

// await blocks until the reply for id, the end of ctx or the end of the
// stream, and returns the reply with the messages related to the wait.
func (r *router) await(ctx context.Context, id jsonrpc.ID, w *waiter, frame []byte, start time.Time) (*Reply, error) {
	var (
		m   jsonrpc.Message
		err error
	)
	select {
	case m = <-w.resp:
	case <-ctx.Done():
		select {
		case m = <-w.resp: // the reply won the race
		default:
			r.unregister(id, true)
			err = ctxError(ctx, frame, start)
		}
	case <-r.ended:
		select {
		case m = <-w.resp:
		default:
			r.unregister(id, false)
			err = r.endErr(methodOf(frame))
		}
	}
	r.mu.Lock()
	rel := w.related
	w.related = nil
	r.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return &Reply{Response: &m, Related: rel}, nil
}

// end fails every waiting call, now and later, with endErr.
func (r *router) end(endErr func(method string) error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	select {
	case <-r.ended:
		return
	default:
	}
	r.endErr = endErr
	close(r.ended)
}

// receive routes one received frame. raw is owned by the router.
func (r *router) receive(raw []byte) {
	m := jsonrpc.Decode(raw)
	r.observe(DirRecv, raw, m)
	if len(raw) == 0 {
		r.diag("empty line on the server's output", nil)
		return
	}
	if m.Kind == jsonrpc.KindBatch {
		for _, e := range m.Batch {
			r.route(e)
		}
		return
	}
	if m.Kind == jsonrpc.KindInvalid {
		r.diag(fmt.Sprintf("invalid frame: %v", m.Err), raw)
	}
	r.route(m)
}

// replyLike reports whether m should go to the call waiting for its id:
// a response, or an invalid frame that looks like one (so that a broken
// reply is seen by the caller instead of timing out).
func replyLike(m jsonrpc.Message) bool {
	if m.IsResponse() {
		return true
	}
	return m.Kind == jsonrpc.KindInvalid && m.Method == "" && !m.ID.IsZero() && !m.ID.IsNull() &&
		(m.Result != nil || m.Error != nil)
}

func (r *router) route(m jsonrpc.Message) {
	if replyLike(m) {
		key := m.ID.String()
		r.mu.Lock()
		w, ok := r.pending[key]
		if ok {
			delete(r.pending, key)
		}
		late := r.late[key]
		if late && !ok {
			if _, seen := r.lateReplies[key]; !seen {
				r.lateReplies[key] = m
			}
		}
		r.mu.Unlock()
		if ok {
			w.resp <- m
			return
		}
		if late {
			r.diag(fmt.Sprintf("reply for id %s arrived after the caller stopped waiting", key), m.Raw)
		} else {
			r.diag(fmt.Sprintf("reply for id %s that no request is waiting for", key), m.Raw)
		}
		return
	}
	r.mu.Lock()
	if len(r.pending) == 0 {
		if len(r.unclaimed) >= maxUnclaimed {
			r.unclaimed = r.unclaimed[1:]
			r.dropped++
		}
		r.unclaimed = append(r.unclaimed, m)
	}
	for _, w := range r.pending {
		w.related = append(w.related, m)
	}
	r.mu.Unlock()
	if m.Kind == jsonrpc.KindRequest && r.onServerRequest != nil && r.answer != nil {
		if ans := r.onServerRequest(m); ans != nil {
			// Not on the reading goroutine: a server that writes again
			// before reading the answer would otherwise deadlock with an
			// unbuffered pipe.
			r.answers.Go(func() { r.answer(ans) })
		}
	}
}

// lateReply returns the first reply that arrived for id after its caller
// stopped waiting, if one has.
func (r *router) lateReply(id jsonrpc.ID) (jsonrpc.Message, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	m, ok := r.lateReplies[id.String()]
	return m, ok
}

func (r *router) diag(text string, raw []byte) {
	if len(raw) > maxDiagRaw {
		raw = raw[:maxDiagRaw]
	}
	d := Diagnostic{Time: time.Now(), Text: text, Raw: append([]byte(nil), raw...)}
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.diags) >= maxDiagnostics {
		r.dropped++
		return
	}
	r.diags = append(r.diags, d)
}

// diagnostics returns a copy of the diagnostics so far.
func (r *router) diagnostics() []Diagnostic {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := append([]Diagnostic(nil), r.diags...)
	if r.dropped > 0 {
		out = append(out, Diagnostic{Time: time.Now(), Text: fmt.Sprintf("%d more dropped (diagnostics or unclaimed messages)", r.dropped)})
	}
	return out
}
