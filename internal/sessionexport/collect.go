package sessionexport

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/mcpward/mcpward/internal/calls"
	"github.com/mcpward/mcpward/internal/redact"
	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/traffic"
)

// maxCallFrames bounds the frames buffered for one open call (a long
// subscriptions/listen stream, a chatty progress run). Beyond it, the
// call's further frames are written as loose frames.
const maxCallFrames = 1000

// A frameInfo is one frame (a batch element counts as one) as the sinks
// see it. Rec is the record (redacted when redaction is on).
type frameInfo struct {
	Rec    *session.Record
	Line   int
	Kind   calls.Kind
	Method string // the frame's method, or its call's for a response
	ID     string // raw JSON id
	Batch  bool
	Index  int
	// Elem is a batch element's own bytes: each element's row carries
	// them, not the whole batch again (n elements each writing the whole
	// frame made an export quadratic in the batch's size).
	Elem     []byte
	Call     *calls.Call
	Redacted bool
	// Findings are the rule ids the checker reported on this frame.
	Findings []string
}

// body is the bytes of the frame this row stands for: a batch element's
// own, else the record's whole frame.
func (f *frameInfo) body() []byte {
	if f.Batch {
		return f.Elem
	}
	return f.Rec.Frame
}

// An item is what the structured formats write: a call with every frame
// that belongs to it, or one loose frame (Call nil: a notification, a
// stderr line, a meta record, an unmatched response).
type item struct {
	Session *calls.Session
	Call    *calls.Call
	Frames  []*frameInfo
}

// A sink receives the export in a single pass over the log.
type sink interface {
	// frame is called for every frame in log order.
	frame(f *frameInfo) error
	// item is called when a call settles (and for every loose frame).
	item(it *item) error
	// finish is called once at the end.
	finish(e *ending) error
}

// A storeHook is a sink that also reads the call store's own callbacks
// (the OTLP span builder needs each request's params._meta).
type storeHook interface {
	onFrame(f *calls.Frame)
	onSettle(c *calls.Call)
}

// An ending is what only the end of the log knows.
type ending struct {
	Sessions []*calls.Session
	Findings []traffic.Finding
	// FindingsDropped counts findings past the cap.
	FindingsDropped int
	Problems        []string
}

// maxFindings bounds the findings an export keeps (they are written at
// the end, so they are held in memory).
const maxFindings = 5000

// A collector feeds records to the call store and hands sinks their
// items as calls settle: frames of open calls are buffered, so memory is
// bounded by what is in flight, not by the size of the log.
type collector struct {
	sink    sink
	session string // only this session id (prefix) when set
	red     *redact.Redactor
	store   *calls.Store
	chk     *traffic.Checker

	open     map[*calls.Call][]*frameInfo
	spilled  map[*calls.Call]bool
	settled  []*calls.Call
	findings []traffic.Finding
	dropped  int
	pending  map[uint64][]string // rule ids per seq, waiting for their frame
	curRed   bool
	err      error
	// lines are the line redactors of each session's directions: a value
	// put on the line after its name is hidden too (redact.Lines).
	lines map[streamKey]*redact.Lines
}

type streamKey struct {
	session string
	dir     session.Direction
}

func newCollector(s sink, sessionID string, red *redact.Redactor, check bool) *collector {
	c := &collector{sink: s, session: sessionID, red: red,
		open: map[*calls.Call][]*frameInfo{}, spilled: map[*calls.Call]bool{}, pending: map[uint64][]string{}}
	if check {
		c.chk = traffic.New(&traffic.Options{OnFinding: c.finding, OnFrame: c.frame, OnSettle: c.settle})
		c.store = c.chk.Store()
	} else {
		c.store = calls.New(&calls.Options{OnFrame: c.frame, OnSettle: c.settle})
	}
	if o, ok := s.(*otlpSink); ok {
		o.store = func() *calls.Store { return c.store }
	}
	return c
}

// add takes one record of the log, in file order.
func (c *collector) add(rec *session.Record, line int) {
	if c.err != nil {
		return
	}
	if c.session != "" && !matchSession(rec.Session, c.session) {
		return
	}
	c.curRed = c.redact(rec)
	if c.chk != nil {
		c.chk.Add(rec, line)
	} else {
		c.store.Add(rec, line)
	}
	c.flush()
}

func matchSession(id, want string) bool {
	return len(id) >= len(want) && id[:len(want)] == want
}

// redact hides secrets in the record before anything reads it, so the
// summary, the findings and every format see the same redacted bytes.
func (c *collector) redact(rec *session.Record) bool {
	if !c.red.Enabled() {
		return rec.Redacted
	}
	changed := false
	if rec.HasFrame {
		var fr []byte
		var ok bool
		if rec.Header == nil && rec.Dir != session.Meta {
			fr, ok = c.streamLines(rec).Frame(rec.Frame)
		} else {
			var h map[string][]string
			if h, fr, ok = c.red.Message(rec.Header, rec.Frame); ok {
				rec.Header = h
			}
		}
		if ok {
			rec.Frame, changed = fr, true
			rec.RawFrame = nil
			if session.SpliceJSON(fr) {
				rec.RawFrame = fr
			}
		}
	} else if len(rec.Header) > 0 {
		h, _, ok := c.red.Message(rec.Header, nil)
		if ok {
			rec.Header, changed = h, true
		}
	}
	if rec.Dir == session.Meta && len(rec.Info) > 0 {
		if out, ok := c.red.Frame(rec.Info); ok {
			rec.Info, changed = out, true
		}
	}
	// The values a record keeps beside its frame and headers, as the
	// proxies' filters hide them when they record.
	for _, f := range []struct {
		v      *string
		header string // "" for text
	}{{&rec.Path, ""}, {&rec.Error, ""}, {&rec.MCPSessionID, "Mcp-Session-Id"}, {&rec.AuthChallenge, "Www-Authenticate"}} {
		if *f.v == "" {
			continue
		}
		var v string
		var ok bool
		if f.header != "" {
			v, ok = c.red.Header(f.header, *f.v)
		} else {
			v, ok = c.red.Text(*f.v)
		}
		if ok {
			*f.v, changed = v, true
		}
	}
	if changed {
		rec.Redacted = true
	}
	return rec.Redacted
}

// streamLines is the line redactor of rec's session and direction.
func (c *collector) streamLines(rec *session.Record) *redact.Lines {
	k := streamKey{rec.Session, rec.Dir}
	l := c.lines[k]
	if l == nil {
		if c.lines == nil {
			c.lines = map[streamKey]*redact.Lines{}
		}
		l = c.red.Lines()
		c.lines[k] = l
	}
	return l
}

func (c *collector) finding(f traffic.Finding) {
	if len(c.findings) >= maxFindings {
		c.dropped++
	} else {
		c.findings = append(c.findings, f)
	}
	if f.Seq != 0 {
		c.pending[f.Seq] = append(c.pending[f.Seq], f.RuleID)
	}
	if h, ok := c.sink.(interface{ onFinding(traffic.Finding) }); ok {
		h.onFinding(f)
	}
}

func (c *collector) settle(call *calls.Call) {
	c.settled = append(c.settled, call)
	if h, ok := c.sink.(storeHook); ok {
		h.onSettle(call)
	}
}

func (c *collector) frame(f *calls.Frame) {
	if c.err != nil {
		return
	}
	fi := &frameInfo{Rec: f.Record, Line: f.Line, Kind: f.Kind, Method: f.Msg.Method,
		Batch: f.Batch, Index: f.BatchIndex, Call: f.Call, Redacted: c.curRed}
	if f.Batch {
		fi.Elem = f.Msg.Raw
	}
	if !f.Msg.ID.IsZero() {
		fi.ID = string(f.Msg.ID.Raw())
	}
	if fi.Method == "" && f.Call != nil && f.Kind == calls.KindResponse {
		fi.Method = f.Call.Method
	}
	if ids, ok := c.pending[f.Record.Seq]; ok {
		fi.Findings = ids
		if !f.Batch || f.BatchIndex == 0 {
			delete(c.pending, f.Record.Seq)
		}
	}
	if h, ok := c.sink.(storeHook); ok {
		h.onFrame(f)
	}
	if err := c.sink.frame(fi); err != nil {
		c.err = err
		return
	}
	call := f.Call
	if call != nil && call.Session == f.Record.Session && !c.spilled[call] {
		if len(c.open[call]) < maxCallFrames {
			c.open[call] = append(c.open[call], fi)
			return
		}
		c.spilled[call] = true
	}
	c.emit(&item{Session: f.Session, Frames: []*frameInfo{fi}})
}

// flush hands settled calls to the sink once their settling frame is in
// their buffer. A cancelled call is held until the end, since a late
// result may still follow.
func (c *collector) flush() {
	q := c.settled
	c.settled = nil
	for _, call := range q {
		if call.State == calls.Cancelled {
			continue
		}
		c.emitCall(call)
	}
}

func (c *collector) emitCall(call *calls.Call) {
	frames, ok := c.open[call]
	if !ok && !c.spilled[call] {
		return // already written (a second settle)
	}
	delete(c.open, call)
	delete(c.spilled, call)
	ss, _ := c.store.Session(call.Session)
	c.emit(&item{Session: ss, Call: call, Frames: frames})
}

func (c *collector) emit(it *item) {
	if c.err != nil {
		return
	}
	if err := c.sink.item(it); err != nil {
		c.err = err
	}
}

// finish writes the calls still open (and the cancelled ones), then the
// end of the document.
func (c *collector) finish(problems []string) error {
	if c.err != nil {
		return c.err
	}
	if c.chk != nil {
		c.chk.Finish()
	}
	c.store.Flush() // responses held for a request that did not follow
	c.flush()
	left := make([]*calls.Call, 0, len(c.open))
	for call := range c.open {
		left = append(left, call)
	}
	sortCalls(left)
	for _, call := range left {
		c.emitCall(call)
	}
	if c.err != nil {
		return c.err
	}
	sessions := c.store.Sessions()
	sortFindings(c.findings, sessions)
	return c.sink.finish(&ending{Sessions: sessions, Findings: c.findings,
		FindingsDropped: c.dropped, Problems: problems})
}

// sortFindings orders findings by session (as the log first shows them),
// then by seq as a number, findings of no one frame (seq 0) last; the
// checker reports some only when a session ends (a request never
// answered), so its order is not the log's.
func sortFindings(fs []traffic.Finding, sessions []*calls.Session) {
	index := make(map[string]int, len(sessions))
	for i, ss := range sessions {
		index[ss.ID] = i
	}
	seq := func(f traffic.Finding) uint64 {
		if f.Seq == 0 {
			return math.MaxUint64
		}
		return f.Seq
	}
	slices.SortStableFunc(fs, func(a, b traffic.Finding) int {
		return cmp.Or(cmp.Compare(index[a.Session], index[b.Session]), cmp.Compare(seq(a), seq(b)))
	})
}

func sortCalls(cs []*calls.Call) {
	// Insertion order by request time then seq: open calls are few.
	for i := 1; i < len(cs); i++ {
		for j := i; j > 0 && less(cs[j], cs[j-1]); j-- {
			cs[j], cs[j-1] = cs[j-1], cs[j]
		}
	}
}

func less(a, b *calls.Call) bool {
	if !a.Start.Equal(b.Start) {
		return a.Start.Before(b.Start)
	}
	return a.ReqSeq < b.ReqSeq
}

// ms is a duration in milliseconds with microsecond precision.
func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func lineProblem(name string, p session.LineError) string { return fmt.Sprintf("%s: %v", name, &p) }
