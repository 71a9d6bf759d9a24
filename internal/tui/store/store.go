package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
	"weak"

	"github.com/mcpward/mcpward/internal/calls"
	"github.com/mcpward/mcpward/internal/jsonrpc"
	"github.com/mcpward/mcpward/internal/mcp"
	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/termsafe"
	"github.com/mcpward/mcpward/internal/traffic"
	"github.com/mcpward/mcpward/internal/tui/common"
)

// Defaults of Options.
const (
	DefaultRowsPerSession = 10_000
	DefaultMaxSessions    = 500
	detailMax             = 240
)

// Options bound the store.
type Options struct {
	// RowsPerSession is the window of newest rows kept per session.
	RowsPerSession int
	// MaxSessions is how many sessions are kept; the least recently active
	// are forgotten first.
	MaxSessions int
}

// A Row is one frame as the stream table shows it (a batch element is a
// row of its own).
type Row struct {
	Seq   uint64
	Batch int // element index + 1 for batch elements, else 0
	Time  time.Time
	Dir   session.Direction
	Kind  calls.Kind
	// Method is the frame's method, or its call's for a response.
	Method string
	Tool   string // tool (or prompt/resource) name of a tools/call etc.
	ID     string // raw JSON id
	Call   *calls.Call
	Notes  calls.Note
	// IsErr is set on error responses and isError results.
	IsErr      bool
	ErrCode    int64
	HTTPStatus int
	// Detail is a one-line compact form of params, result or error.
	Detail string
	// Progress of a notifications/progress frame.
	Progress, Total float64
	HasProgress     bool
	// Truncated: the recording cap cut the frame.
	Truncated bool
	// RecKind is the record's kind (session.KindStart for a start record).
	RecKind string
	// Instructions are the server's instructions, on an initialize or
	// server/discover result row.
	Instructions string
	// Cache is a cacheable result's ttlMs and cacheScope as one cell
	// ("60s public"; traffic.CacheHint), "" on other rows.
	Cache string
	// Observation is what the row shows without it being a fault: the
	// client re-fetched a result that was still fresh (cache.stale_refetch).
	Observation string
	// WireFrame: the row is a frame on the wire, as calls.Session.Frames
	// counts them (not a start, exit or stderr record; a batch counts once,
	// on its first element's row).
	WireFrame bool
	// ss is the session the row belongs to (see Unanswered).
	ss *Session
	// rec is the record the row was made from. It is weak: the source
	// owns records (the hub's MemoryBudget bounds them), and a row must
	// not keep one alive after the source let it go.
	rec weak.Pointer[session.Record]
}

// Record returns the record the row was made from while its source still
// holds it, else nil (the record is then in the session log: read it
// with common.Source.Records).
func (r *Row) Record() *session.Record { return r.rec.Value() }

// Session is one session's rows and counters.
type Session struct {
	ID, Label string
	Info      common.SessionInfo
	rows      []*Row // ring
	head, n   int
	// Dropped counts rows that fell out of the window.
	Dropped int64
	// Totals over the whole session, regardless of the window or a filter.
	// Frames (wire frames) and Errors (the error signal) are the
	// correlation store's own counts (calls.Session), as every other
	// surface gives them; the store sets them on each ingest.
	Frames, Errors, Bad, Warn int64
	LastSeen                  time.Time
	// Drift is how the latest complete tools/list compares with the
	// stored baseline (see [Store.DriftChecks]).
	Drift Drift
	// listGen counts the complete tools/list responses seen.
	listGen int
	// cache follows the fresh cacheable results (stale re-fetches).
	cache traffic.CacheTracker
	// exited: an exit record was seen (see Ended).
	exited bool
}

// Ended reports whether the session can receive no more frames: its log
// has an exit record, or its source says it is over (the writer is gone,
// or the source is a set of finished logs). A call still open then will
// never be answered.
func (ss *Session) Ended() bool {
	return ss.exited || ss.Info.Exited || (ss.Info.ID != "" && !ss.Info.Live)
}

// Unanswered reports whether r is the request of a call that was never
// answered and never will be: it is still open and its session ended.
func (r *Row) Unanswered() bool {
	return r.Kind == calls.KindRequest && r.Call != nil && r.Call.State.Open() && r.ss != nil && r.ss.Ended()
}

// A Store correlates records and keeps a bounded window of rows.
type Store struct {
	opts     Options
	calls    *calls.Store
	sessions map[string]*Session
	// relisted are the sessions with a complete tools/list not yet handed
	// out by DriftChecks.
	relisted map[string]struct{}
	// Ingested counts records given to Ingest.
	Ingested uint64
}

// New returns an empty store.
func New(opts Options) *Store {
	if opts.RowsPerSession <= 0 {
		opts.RowsPerSession = DefaultRowsPerSession
	}
	if opts.MaxSessions <= 0 {
		opts.MaxSessions = DefaultMaxSessions
	}
	s := &Store{opts: opts, sessions: map[string]*Session{}, relisted: map[string]struct{}{}}
	s.calls = calls.New(&calls.Options{OnFrame: s.onFrame})
	return s
}

// Ingest correlates records (in arrival order) and adds their rows.
func (s *Store) Ingest(recs []*session.Record) {
	for _, r := range recs {
		if r == nil {
			continue
		}
		s.Ingested++
		s.calls.Add(r, 0)
	}
	if len(s.sessions) > s.opts.MaxSessions {
		s.evict()
	}
}

// Flush shows the responses the correlation store still holds for a
// request that may follow (calls.InvertWindow), as unmatched: call it when
// the source has delivered its last record. Without it a finished log's
// last such response was never shown, while `sessions list` (which
// flushes) counted it.
func (s *Store) Flush() { s.calls.Flush() }

// SetInfo merges what the source knows about its sessions.
func (s *Store) SetInfo(infos []common.SessionInfo) {
	for _, in := range infos {
		ss := s.sessions[in.ID]
		if ss == nil {
			ss = s.newSession(in.ID, in.Label)
		}
		ss.Info = in
		if ss.Label == "" {
			ss.Label = in.Label
		}
	}
}

func (s *Store) newSession(id, label string) *Session {
	ss := &Session{ID: id, Label: label, rows: make([]*Row, 0, 64)}
	s.sessions[id] = ss
	return ss
}

func (s *Store) evict() {
	all := s.Sessions()
	slices.SortFunc(all, func(a, b *Session) int { return a.LastSeen.Compare(b.LastSeen) })
	for _, ss := range all[:len(all)-s.opts.MaxSessions] {
		delete(s.sessions, ss.ID)
		delete(s.relisted, ss.ID)
	}
}

// Delete forgets a session.
func (s *Store) Delete(id string) {
	delete(s.sessions, id)
	delete(s.relisted, id)
}

// Sessions returns every session, in order of first activity.
func (s *Store) Sessions() []*Session {
	out := make([]*Session, 0, len(s.sessions))
	for _, ss := range s.sessions {
		out = append(out, ss)
	}
	slices.SortFunc(out, func(a, b *Session) int {
		if c := a.first().Compare(b.first()); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out
}

func (ss *Session) first() time.Time {
	if !ss.Info.First.IsZero() {
		return ss.Info.First
	}
	if ss.n > 0 {
		return ss.At(0).Time
	}
	return time.Time{}
}

// Session returns a session by id.
func (s *Store) Session(id string) *Session { return s.sessions[id] }

// Calls returns the correlation state of a session (capabilities, tools).
func (s *Store) Calls(id string) (*calls.Session, bool) { return s.calls.Session(id) }

// Summary returns the per-tool cost and latency summary of a session.
func (s *Store) Summary(id string) calls.Summary { return s.calls.Summary(id) }

// Len is the number of rows held.
func (ss *Session) Len() int { return ss.n }

// At returns the i-th held row, oldest first.
func (ss *Session) At(i int) *Row { return ss.rows[(ss.head+i)%len(ss.rows)] }

// Rows returns the held rows, oldest first.
func (ss *Session) Rows() []*Row {
	out := make([]*Row, ss.n)
	for i := range out {
		out[i] = ss.At(i)
	}
	return out
}

// Find returns the row with the given seq and batch index.
func (ss *Session) Find(seq uint64, batch int) *Row {
	i, ok := slices.BinarySearchFunc(ss.Rows(), seq, func(r *Row, seq uint64) int {
		switch {
		case r.Seq < seq:
			return -1
		case r.Seq > seq:
			return 1
		}
		return 0
	})
	if !ok {
		return nil
	}
	for ; i < ss.n && ss.At(i).Seq == seq; i++ {
		if r := ss.At(i); r.Batch == batch || batch < 0 {
			return r
		}
	}
	return nil
}

// Pair returns the row paired with r: a request's response or a
// response's request, when still held.
func (ss *Session) Pair(r *Row) *Row {
	if r.Call == nil {
		return nil
	}
	var seq uint64
	switch r.Kind {
	case calls.KindRequest:
		seq = r.Call.RespSeq
	case calls.KindResponse:
		seq = r.Call.ReqSeq
	}
	if seq == 0 || seq == r.Seq {
		return nil
	}
	for i := ss.n - 1; i >= 0; i-- {
		if p := ss.At(i); p.Seq == seq && p.Call == r.Call {
			return p
		}
	}
	return nil
}

// Pending counts the held request rows whose call is still pending (in an
// ended session: never answered).
func (ss *Session) Pending() int {
	n := 0
	for i := 0; i < ss.n; i++ {
		if r := ss.At(i); r.Kind == calls.KindRequest && r.Call != nil && r.Call.State == calls.Pending && r.Call.ReqSeq == r.Seq {
			n++
		}
	}
	return n
}

func (ss *Session) push(r *Row, limit int) {
	if ss.n < limit {
		if len(ss.rows) < limit && ss.n == len(ss.rows) {
			// grow the ring while it is not full (head is 0 until then)
			ss.rows = append(ss.rows, r)
			ss.n++
			return
		}
		ss.rows[(ss.head+ss.n)%len(ss.rows)] = r
		ss.n++
		return
	}
	ss.rows[ss.head] = r
	ss.head = (ss.head + 1) % len(ss.rows)
	ss.Dropped++
}

const warnNotes = calls.NoteUnmatched | calls.NoteDuplicate | calls.NoteIDReused | calls.NoteLate |
	calls.NoteProgressLate | calls.NoteProgressNotIncreasing | calls.NoteStateChanged |
	calls.NoteStateMissing | calls.NoteStateInvented

func (s *Store) onFrame(f *calls.Frame) {
	rec := f.Record
	ss := s.sessions[rec.Session]
	if ss == nil {
		ss = s.newSession(rec.Session, rec.Label)
	}
	if ss.Label == "" {
		ss.Label = rec.Label
	}
	ss.LastSeen = rec.Time
	r := &Row{Seq: rec.Seq, Time: rec.Time, Dir: rec.Dir, Kind: f.Kind, Call: f.Call, Notes: f.Notes,
		HTTPStatus: rec.Status, Truncated: rec.Truncated, RecKind: rec.Kind, ss: ss, rec: weak.Make(rec)}
	if rec.Dir == session.Meta && rec.Kind == session.KindExit {
		ss.exited = true
	}
	if f.Batch {
		r.Batch = f.BatchIndex + 1
	}
	r.WireFrame = (rec.Dir == session.ClientToServer || rec.Dir == session.ServerToClient) && rec.HasFrame && f.BatchIndex == 0
	m := &f.Msg
	r.Method = m.Method
	if !m.ID.IsZero() {
		r.ID = string(m.ID.Raw())
	}
	if f.Call != nil {
		if r.Method == "" {
			r.Method = f.Call.Method
		}
		r.Tool = f.Call.Name
	}
	if f.Params != nil && f.Params.HasName {
		r.Tool = f.Params.Name
	}
	switch f.Kind {
	case calls.KindRequest, calls.KindNotification:
		r.Detail = oneLine(m.Params)
		if f.Params != nil && f.Params.HasProgress {
			r.Progress, r.Total, r.HasProgress = f.Params.Progress, f.Params.Total, true
		}
	case calls.KindResponse:
		if m.Error != nil {
			r.IsErr, r.ErrCode = true, m.Error.Code
			name := mcp.ErrorCodeName(m.Error.Code)
			if name != "" {
				name = " " + name
			}
			r.Detail = fmt.Sprintf("%d%s: %s", m.Error.Code, name, m.Error.Message)
		} else {
			r.IsErr = isErrorResult(m.Result)
			r.Detail = oneLine(m.Result)
			if r.Method == "initialize" || r.Method == "server/discover" {
				r.Instructions = instructions(m.Result)
			}
		}
	case calls.KindStderr, calls.KindInvalid, calls.KindTransport:
		r.Detail = textLine(rec.Frame)
		if rec.Error != "" {
			r.Detail = strings.TrimSpace(rec.Error + " " + r.Detail)
		}
	case calls.KindMeta:
		r.Method = rec.Kind
		r.Detail = oneLine(rec.Info)
	}
	if m.Kind == jsonrpc.KindInvalid && f.Kind != calls.KindInvalid && m.Err != nil {
		r.Detail = m.Err.Error()
	}
	// What a row shows is the server's text: made safe once, here, for
	// every page (termsafe.Line: no escape sequence, no line break).
	r.Method, r.Tool, r.ID, r.Detail = termsafe.Line(r.Method), termsafe.Line(r.Tool), termsafe.Line(r.ID), termsafe.Line(r.Detail)
	r.Cache = traffic.CacheHint(f)
	r.Observation = ss.cache.Frame(f)
	if c := f.Session; c != nil {
		ss.Frames, ss.Errors = c.Frames, c.Errors
	}
	if f.Notes&calls.NoteListComplete != 0 {
		ss.listGen++
		s.relisted[rec.Session] = struct{}{}
	}
	if f.Kind == calls.KindInvalid {
		ss.Bad++
	}
	if f.Notes&warnNotes != 0 || rec.Truncated {
		ss.Warn++
	}
	ss.push(r, s.opts.RowsPerSession)
}

// instructions returns the instructions of an initialize or
// server/discover result.
func instructions(result json.RawMessage) string {
	var v struct {
		Instructions string `json:"instructions"`
	}
	if json.Unmarshal(result, &v) != nil {
		return ""
	}
	return v.Instructions
}

func isErrorResult(raw json.RawMessage) bool {
	i := bytes.Index(raw, []byte(`"isError"`))
	if i < 0 {
		return false
	}
	rest := bytes.TrimLeft(raw[i+len(`"isError"`):], " \t\r\n:")
	return bytes.HasPrefix(rest, []byte("true"))
}

// textLine returns the prefix of a text frame (a stderr line) a row shows,
// cut at detailMax bytes on a rune boundary, without the \r of a CRLF line
// end; termsafe.Line makes it safe.
func textLine(raw []byte) string {
	s := string(raw[:min(len(raw), detailMax)])
	for !utf8.ValidString(s) && len(s) > 0 && len(raw) > detailMax {
		s = s[:len(s)-1]
	}
	if len(raw) > detailMax {
		s += "…"
	}
	return strings.TrimSuffix(s, "\r")
}

// oneLine returns a compact single-line prefix of raw JSON or text, cut at
// detailMax bytes on a rune boundary. Huge frames are never compacted
// whole: only a prefix is looked at.
func oneLine(raw []byte) string {
	if len(raw) == 0 {
		return ""
	}
	look := raw
	if len(look) > 4*detailMax {
		look = look[:4*detailMax]
	}
	var b strings.Builder
	space := false
	inStr := false
	esc := false
	for _, c := range look {
		if b.Len() >= detailMax {
			break
		}
		if inStr {
			b.WriteByte(c)
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
			continue
		}
		switch c {
		case ' ', '\n', '\r', '\t':
			space = true
			continue
		case '"':
			inStr = true
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteByte(c)
	}
	s := b.String()
	for !utf8.ValidString(s) && len(s) > 0 {
		s = s[:len(s)-1]
	}
	if len(raw) > len(s) && b.Len() >= detailMax {
		s += "…"
	}
	return s
}
