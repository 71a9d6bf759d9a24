package calls

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"time"

	"github.com/mcpward/mcpward/internal/jsonrpc"
	"github.com/mcpward/mcpward/internal/mcp"
	"github.com/mcpward/mcpward/internal/session"
)

// Options configure a Store. nil means defaults.
type Options struct {
	// OnFrame is called for every frame (each batch element on its own)
	// after it was correlated, in file order. The Frame is valid only
	// during the call.
	OnFrame func(*Frame)
	// OnSettle is called when a call reaches a final state (Completed,
	// Failed, Superseded, Cancelled, and again for LateResult). The store
	// then drops it apart from a tombstone.
	OnSettle func(*Call)
	// Tombstones is how many settled calls are remembered to recognise
	// duplicate and late responses (default 4096).
	Tombstones int
}

// A Store correlates frames into calls for any number of sessions. It is
// not safe for concurrent use: feed it from one goroutine.
type Store struct {
	opts     Options
	sessions map[string]*Session
	order    []string

	open      map[callKey]*Call
	tombs     map[callKey]*Call
	tombRing  []*Call
	tombNext  int
	exchanges map[exchangeKey]*exchange
	exRing    []exchangeKey
	exNext    int
	// byState links a parked MRTR call to its requestState.
	byState map[string]*Call
	tasks   map[string]*Call // session + taskId
	tokens  map[string]*Call // session + scope + progress token
	closed  map[string]bool  // progress tokens of settled calls (bounded)
	closedQ []string
	// held are responses that matched no request, kept for InvertWindow
	// in case their request follows (NoteInverted).
	held []*heldResponse
}

// InvertWindow is how long after a response that matches no request the
// store waits for the request (of its id, the other way) to follow in the
// log. A recorder that forwarded a read before numbering it (mcpward
// before its logs said "order":"wire", mcpsnoop) let a fast peer's answer
// be numbered just before the request it answers; the request's time then
// lay within a few milliseconds of the answer's (up to 21 ms seen, most
// often earlier than the answer's, on a loaded machine).
const InvertWindow = 50 * time.Millisecond

// A heldResponse is a response waiting for its request: a copy of its
// record (the caller may reuse the one it passed), decoded again.
type heldResponse struct {
	f    *Frame
	ex   *exchange
	keys []callKey // the keys its request may have been registered under
}

type exchangeKey struct {
	session string
	id      uint64
}

type exchange struct {
	sid   string // Mcp-Session-Id of the exchange's request
	calls []*Call
}

const maxExchanges = 1 << 16

// New returns an empty Store.
func New(opts *Options) *Store {
	s := &Store{
		sessions:  map[string]*Session{},
		open:      map[callKey]*Call{},
		tombs:     map[callKey]*Call{},
		exchanges: map[exchangeKey]*exchange{},
		byState:   map[string]*Call{},
		tasks:     map[string]*Call{},
		tokens:    map[string]*Call{},
		closed:    map[string]bool{},
	}
	if opts != nil {
		s.opts = *opts
	}
	if s.opts.Tombstones <= 0 {
		s.opts.Tombstones = 4096
	}
	s.tombRing = make([]*Call, s.opts.Tombstones)
	return s
}

// Sessions returns the sessions seen so far, in order of first record.
func (s *Store) Sessions() []*Session {
	out := make([]*Session, 0, len(s.order))
	for _, id := range s.order {
		out = append(out, s.sessions[id])
	}
	return out
}

// Session returns the session with the given id.
func (s *Store) Session(id string) (*Session, bool) {
	ss, ok := s.sessions[id]
	return ss, ok
}

// Open returns the calls that are still open (pending, parked, task-backed
// or streaming), ordered by session and request line.
func (s *Store) Open() []*Call {
	var out []*Call
	seen := map[*Call]bool{}
	for _, c := range s.open {
		if !seen[c] && c.State.Open() {
			seen[c] = true
			out = append(out, c)
		}
	}
	slices.SortFunc(out, func(a, b *Call) int {
		if a.Session != b.Session {
			return s.sessions[a.Session].index - s.sessions[b.Session].index
		}
		return int(a.ReqSeq) - int(b.ReqSeq)
	})
	return out
}

func (s *Store) session(rec *session.Record, line int) *Session {
	ss, ok := s.sessions[rec.Session]
	if !ok {
		ss = newSession(rec, line, len(s.order))
		s.sessions[rec.Session] = ss
		s.order = append(s.order, rec.Session)
	}
	return ss
}

// Add correlates one record. line is its 1-based line in the log (0 if
// unknown). Records must come in file order; they may interleave sessions.
func (s *Store) Add(rec *session.Record, line int) {
	if rec == nil {
		return
	}
	s.releaseHeld(rec.Time, "")
	ss := s.session(rec, line)
	ss.observe(rec)
	if rec.Dir == session.Meta {
		ss.meta(rec)
		if rec.Kind == session.KindExit {
			s.releaseHeld(time.Time{}, rec.Session) // nothing follows the end
		}
		s.emit(&Frame{Record: rec, Line: line, Kind: KindMeta, Session: ss})
		return
	}
	if rec.Dir == session.Stderr {
		s.emit(&Frame{Record: rec, Line: line, Kind: KindStderr, Session: ss})
		return
	}
	ex := s.exchange(rec)
	if rec.Transport == session.HTTP && (!rec.HasFrame || len(bytes.TrimSpace(rec.Frame)) == 0) {
		s.transport(rec, line, ss, ex)
		return
	}
	if rec.Transport == session.HTTP && rec.SSE && len(bytes.TrimSpace(rec.Frame)) == 0 {
		return // an SSE priming event carries no message
	}
	msg := jsonrpc.Decode(rec.Frame)
	if msg.Kind == jsonrpc.KindBatch {
		for i, el := range msg.Batch {
			s.message(&Frame{Record: rec, Line: line, Msg: el, Batch: true, BatchIndex: i, Session: ss}, ex)
		}
		return
	}
	if msg.Kind == jsonrpc.KindInvalid && msg.Method == "" && msg.Result == nil && msg.Error == nil {
		if rec.Transport == session.HTTP && rec.Status >= 400 {
			s.transport(rec, line, ss, ex)
			return
		}
		s.emit(&Frame{Record: rec, Line: line, Kind: KindInvalid, Msg: msg, Session: ss})
		return
	}
	s.message(&Frame{Record: rec, Line: line, Msg: msg, Session: ss}, ex)
}

// exchange returns the HTTP exchange of rec, remembering the session id of
// its request record.
func (s *Store) exchange(rec *session.Record) *exchange {
	if rec.Transport != session.HTTP || rec.Exchange == 0 {
		return nil
	}
	k := exchangeKey{rec.Session, rec.Exchange}
	ex, ok := s.exchanges[k]
	if !ok {
		ex = &exchange{sid: rec.MCPSessionID}
		if len(s.exRing) < maxExchanges {
			s.exRing = append(s.exRing, k)
		} else {
			delete(s.exchanges, s.exRing[s.exNext])
			s.exRing[s.exNext] = k
			s.exNext = (s.exNext + 1) % maxExchanges
		}
		s.exchanges[k] = ex
	}
	return ex
}

// transport handles an HTTP record without a JSON-RPC message: an error
// status fails the exchange's open requests.
func (s *Store) transport(rec *session.Record, line int, ss *Session, ex *exchange) {
	f := &Frame{Record: rec, Line: line, Kind: KindTransport, Session: ss}
	if rec.Dir == session.ServerToClient && rec.Status >= 400 {
		f.Notes |= NoteError
		ss.Errors++
		if ex != nil {
			for _, c := range ex.calls {
				if c.State == Pending {
					c.HTTPStatus = rec.Status
					f.Call = c
					s.settle(c, Failed, rec, line)
				}
			}
		}
	}
	s.emit(f)
}

func (s *Store) emit(f *Frame) {
	if s.opts.OnFrame != nil {
		s.opts.OnFrame(f)
	}
}

// scopes returns the pairing scope of a request sent in direction dir.
// HTTP requests from the client are scoped by Mcp-Session-Id, or by their
// exchange when there is none (stateless: the response comes back on the
// same exchange). Everything else is scoped by Mcp-Session-Id, which is ""
// on stdio.
func (s *Store) requestScope(rec *session.Record, ex *exchange) string {
	if rec.Transport != session.HTTP {
		return ""
	}
	sid := rec.MCPSessionID
	if ex != nil && ex.sid != "" {
		sid = ex.sid
	}
	if rec.Dir == session.ClientToServer && sid == "" && rec.Exchange != 0 {
		return "x" + strconv.FormatUint(rec.Exchange, 10)
	}
	return sid
}

// responseScope is the scope under which the request answered by a
// response in rec was registered.
func (s *Store) responseScope(rec *session.Record, ex *exchange) string {
	if rec.Transport != session.HTTP {
		return ""
	}
	if rec.Dir == session.ServerToClient {
		// The answer to a client request travels back on its exchange.
		if ex != nil && ex.sid != "" {
			return ex.sid
		}
		if rec.Exchange != 0 {
			return "x" + strconv.FormatUint(rec.Exchange, 10)
		}
		return ""
	}
	// A client's answer to a server request is its own POST.
	return rec.MCPSessionID
}

func (s *Store) message(f *Frame, ex *exchange) {
	rec, m := f.Record, f.Msg
	switch {
	case m.Method != "" && !m.ID.IsZero():
		f.Kind = KindRequest
		s.request(f, ex)
	case m.Method != "":
		f.Kind = KindNotification
		s.notification(f, ex)
	case m.Result != nil || m.Error != nil:
		f.Kind = KindResponse
		if s.response(f, ex) {
			return // held: emitted when paired or let go
		}
	default:
		f.Kind = KindInvalid
		if rec.Transport == session.HTTP && rec.Status >= 400 {
			f.Kind = KindTransport
		}
	}
	if f.Revision == "" {
		f.Revision = f.Session.revisionFor(f.scopeSID())
	}
	s.emit(f)
	if f.Kind == KindRequest && f.Call != nil && len(s.held) > 0 {
		s.pairHeld(f)
	}
}

// hold keeps a response that matched no request, in case its request
// follows within InvertWindow, and reports whether it did. Batch elements
// are not held.
func (s *Store) hold(f *Frame, ex *exchange, keys []callKey) bool {
	if f.Batch {
		return false
	}
	rec := *f.Record
	rec.Frame = bytes.Clone(rec.Frame)
	s.held = append(s.held, &heldResponse{
		f:    &Frame{Record: &rec, Line: f.Line, Kind: KindResponse, Msg: jsonrpc.Decode(rec.Frame), Session: f.Session, again: true},
		ex:   ex,
		keys: keys,
	})
	return true
}

// pairHeld answers the call of request frame req with the held response
// of its id, if there is one: the log numbered the response first.
func (s *Store) pairHeld(req *Frame) {
	for i, h := range s.held {
		if !slices.Contains(h.keys, req.Call.key) {
			continue
		}
		s.held = slices.Delete(s.held, i, i+1)
		h.f.Notes |= NoteInverted
		h.f.InvertedBefore = req.Record.Seq
		s.finishResponse(h)
		return
	}
}

// releaseHeld lets go of the held responses of session sess ("" for all)
// that no request can pair any more (before is zero: all of them; else
// those older than before by more than InvertWindow), as unmatched.
func (s *Store) releaseHeld(before time.Time, sess string) {
	if len(s.held) == 0 {
		return
	}
	var keep []*heldResponse
	var gone []*heldResponse
	for _, h := range s.held {
		rec := h.f.Record
		if (sess == "" || rec.Session == sess) && (before.IsZero() || before.Sub(rec.Time) > InvertWindow) {
			gone = append(gone, h)
		} else {
			keep = append(keep, h)
		}
	}
	if len(gone) == 0 {
		return
	}
	s.held = keep
	for _, h := range gone {
		s.finishResponse(h)
	}
}

// finishResponse correlates a held response again, now for good, and
// hands it on.
func (s *Store) finishResponse(h *heldResponse) {
	f := h.f
	s.response(f, h.ex)
	if f.Revision == "" {
		f.Revision = f.Session.revisionFor(f.scopeSID())
	}
	s.emit(f)
}

// Flush lets go of the responses still held for their request (see
// InvertWindow) as unmatched: call it after the last record.
func (s *Store) Flush() { s.releaseHeld(time.Time{}, "") }

func (f *Frame) scopeSID() string {
	if f.Record.Transport != session.HTTP {
		return ""
	}
	return f.Record.MCPSessionID
}

func header(rec *session.Record, name string) (string, bool) {
	v, ok := rec.Header[name]
	if !ok || len(v) == 0 {
		return "", false
	}
	return v[0], true
}

func (s *Store) request(f *Frame, ex *exchange) {
	rec, m, ss := f.Record, f.Msg, f.Session
	p := ParseParams(m.Params)
	f.Params = p
	scope := s.requestScope(rec, ex)
	id := m.ID.String()
	if m.ID.IsNull() { // each null-id request is its own call
		id = "null@" + strconv.FormatUint(rec.Seq, 10) + "." + strconv.Itoa(f.BatchIndex)
	}
	c := &Call{
		Session: rec.Session, Dir: rec.Dir, ID: string(m.ID.Raw()), Method: m.Method,
		Name: p.Name, Start: rec.Time, ReqSeq: rec.Seq, ReqLine: f.Line,
		RequestBytes: int64(len(m.Raw)), Rounds: 1, Truncated: rec.Truncated,
		ClientCaps: p.ClientCaps, scope: scope, exchange: rec.Exchange,
	}
	if f.Batch {
		c.RequestBytes = int64(len(m.Raw))
	} else if rec.Size > 0 {
		c.RequestBytes = rec.Size
	}
	c.key = callKey{rec.Session, scope, rec.Dir, id}
	// Revision: the request's own _meta, its header, the session's.
	switch hv, ok := header(rec, "Mcp-Protocol-Version"); {
	case p.HasVersion:
		c.Revision = mcp.Revision(p.ProtocolVersion)
	case ok:
		c.Revision = mcp.Revision(hv)
	default:
		c.Revision = ss.revisionFor(f.scopeSID())
	}
	if m.Method == mcp.MethodInitialize {
		c.Revision = mcp.Revision(p.InitVersion)
		ss.noteInitialize(p)
	}
	if Modern(c.Revision) {
		ss.noteModern(c.Revision, p)
	}
	f.Revision = c.Revision
	f.Call = c
	ss.Calls++

	// MRTR: a retry carries requestState or inputResponses; fold it into
	// the parked call it continues.
	if rec.Dir == session.ClientToServer && (p.HasRequestState || len(p.InputResponseKeys) > 0) {
		if parked := s.parkedFor(c, p); parked != nil {
			s.fold(f, parked, c, p)
			return
		}
	}
	if old, ok := s.open[c.key]; ok && old.State.Open() {
		f.Notes |= NoteIDReused
		f.Superseded = old
		s.settle(old, Superseded, rec, f.Line)
	}
	if m.Method == mcp.MethodSubscriptionsListen {
		c.State = Streaming
		c.Listen = p.Filter
	}
	if p.ProgressToken != "" {
		c.progressToken = p.ProgressToken
		s.tokens[rec.Session+"\x00"+p.ProgressToken] = c
		delete(s.closed, rec.Session+"\x00"+p.ProgressToken)
	}
	if m.Method == mcp.MethodToolsList {
		c.cursorRun = ss.pageRun(p.Cursor)
	}
	s.open[c.key] = c
	if ex != nil && rec.Dir == session.ClientToServer {
		ex.calls = append(ex.calls, c)
	}
}

// parkedFor finds the parked call an MRTR retry continues: the one whose
// requestState matches byte for byte, else the single parked call with the
// same method, name and inputResponses keys.
func (s *Store) parkedFor(c *Call, p *Params) *Call {
	if p.HasRequestState {
		if pc, ok := s.byState[c.Session+"\x00"+string(p.RequestState)]; ok && pc.parked {
			return pc
		}
	}
	var found *Call
	for _, pc := range s.open {
		if pc.parked && pc.Session == c.Session && pc.Method == c.Method && pc.Name == c.Name &&
			slices.Equal(pc.inputKeys, p.InputResponseKeys) {
			if found != nil && found != pc {
				return nil // ambiguous
			}
			found = pc
		}
	}
	return found
}

func (s *Store) fold(f *Frame, parked, retry *Call, p *Params) {
	f.Notes |= NoteRetry
	switch {
	case parked.requestState != nil && !p.HasRequestState:
		f.Notes |= NoteStateMissing
	case parked.requestState == nil && p.HasRequestState:
		f.Notes |= NoteStateInvented
	case parked.requestState != nil && !bytes.Equal(parked.requestState, p.RequestState):
		f.Notes |= NoteStateChanged
	}
	if parked.requestState != nil {
		delete(s.byState, parked.Session+"\x00"+string(parked.requestState))
	}
	parked.parked = false
	parked.requestState = nil
	parked.Rounds++
	parked.RequestBytes += retry.RequestBytes
	parked.ClientCaps = retry.ClientCaps
	parked.Revision = retry.Revision
	// The retry's id now answers for the whole exchange.
	delete(s.open, parked.key)
	parked.key = retry.key
	parked.scope = retry.scope
	s.open[retry.key] = parked
	f.Call = parked
	f.Session.Calls-- // one call, several rounds
	if s.exchanges != nil && retry.exchange != 0 {
		if ex, ok := s.exchanges[exchangeKey{retry.Session, retry.exchange}]; ok {
			ex.calls = append(ex.calls, parked)
		}
	}
}

func (s *Store) lookup(k callKey) (c *Call, tomb bool) {
	if c, ok := s.open[k]; ok {
		return c, false
	}
	if c, ok := s.tombs[k]; ok {
		return c, true
	}
	return nil, false
}

// response correlates a response frame. It reports whether the frame was
// held instead (see hold): a response that matches no request yet.
func (s *Store) response(f *Frame, ex *exchange) (held bool) {
	rec, m, ss := f.Record, f.Msg, f.Session
	reqDir := session.ClientToServer
	if rec.Dir == session.ClientToServer {
		reqDir = session.ServerToClient
	}
	scope := s.responseScope(rec, ex)
	keys := []callKey{{rec.Session, scope, reqDir, m.ID.String()}}
	c, tomb := s.lookup(keys[0])
	if rec.Transport == session.HTTP && scope != "" && rec.Dir == session.ClientToServer {
		// A legacy client may answer without the session header.
		keys = append(keys, callKey{rec.Session, "", reqDir, m.ID.String()})
		if c == nil {
			c, tomb = s.lookup(keys[1])
		}
	}
	if c == nil && !m.ID.IsNull() && !f.again && s.hold(f, ex, keys) {
		return true
	}
	if c == nil {
		f.Notes |= NoteUnmatched
		if m.Error != nil {
			f.Notes |= NoteError
			ss.Errors++
		}
		return false
	}
	f.Call = c
	f.Revision = c.Revision
	if tomb {
		if c.State == Cancelled {
			f.Notes |= NoteLate
			s.answer(f, c)
			s.settle(c, LateResult, rec, f.Line)
			return false
		}
		f.Notes |= NoteDuplicate
		return false
	}
	if rec.SSE {
		c.Streamed = true
	}
	var res *Result
	if m.Result != nil {
		res = f.ParsedResult()
	}
	// MRTR: input_required parks the call.
	if res != nil && res.ResultType == mcp.ResultTypeInputRequired {
		f.Notes |= NoteParked
		c.parked = true
		c.RespSeq, c.RespLine = rec.Seq, f.Line
		if res.HasState {
			c.requestState = slices.Clone(res.RequestState)
			s.byState[c.Session+"\x00"+string(c.requestState)] = c
		}
		c.inputKeys = c.inputKeys[:0]
		for k := range res.InputRequests {
			c.inputKeys = append(c.inputKeys, k)
		}
		slices.Sort(c.inputKeys)
		return false
	}
	// Tasks: a task handle keeps the call pending.
	if res != nil && res.ResultType == mcp.ResultTypeTask && res.TaskID != "" {
		c.TaskID, c.TaskStatus = res.TaskID, res.Status
		c.RespSeq, c.RespLine = rec.Seq, f.Line
		c.ResultBytes += int64(len(m.Result))
		s.tasks[c.Session+"\x00"+res.TaskID] = c
		return false
	}
	s.answer(f, c)
	if res != nil {
		switch c.Method {
		case mcp.MethodInitialize:
			ss.noteInitResult(m.Result, res, rec.MCPSessionID)
		case mcp.MethodToolsList:
			if ss.notePage(c, m.Result, res) {
				f.Notes |= NoteListPage
				if res.NextCursor == nil {
					f.Notes |= NoteListComplete
				}
			}
		case mcp.MethodDiscover:
			ss.noteDiscover(m.Result, res)
		case mcp.MethodTasksGet, mcp.MethodTasksCancel, mcp.MethodTasksUpdate:
			s.taskStatus(f, c.Name, res.Status, res)
		}
		if info, ok := res.Meta[MetaServerInfo]; ok {
			ss.noteServerInfo(info)
		}
	}
	state := Completed
	if m.Error != nil || c.IsError {
		state = Failed
		f.Notes |= NoteError
		ss.Errors++
	}
	s.settle(c, state, rec, f.Line)
	return false
}

// answer copies a response's outcome into its call.
func (s *Store) answer(f *Frame, c *Call) {
	m := f.Msg
	c.RespSeq, c.RespLine = f.Record.Seq, f.Line
	if m.Error != nil {
		c.HasError, c.ErrorCode = true, m.Error.Code
		return
	}
	c.ResultBytes += int64(len(m.Result))
	if c.Method == mcp.MethodToolsCall || c.TaskID != "" {
		if bytes.Contains(m.Result, []byte(`"isError"`)) && f.ParsedResult().IsError {
			c.IsError = true
		}
	}
}

// taskStatus settles a task-backed call on a terminal status.
func (s *Store) taskStatus(f *Frame, taskID, status string, res *Result) {
	if taskID == "" || !terminalTask(status) {
		return
	}
	tc, ok := s.tasks[f.Record.Session+"\x00"+taskID]
	if !ok || !tc.State.Open() {
		return
	}
	delete(s.tasks, f.Record.Session+"\x00"+taskID)
	tc.TaskStatus = status
	f.Notes |= NoteTaskSettled
	var state State
	switch status {
	case "completed":
		state = Completed
		if res != nil && res.Inner != nil {
			tc.ResultBytes = int64(len(res.Inner))
			if ParseResult(res.Inner).IsError {
				tc.IsError = true
				state = Failed
			}
		}
	case "failed":
		state = Failed
	default:
		state = Cancelled
	}
	if state == Failed {
		f.Notes |= NoteError
		f.Session.Errors++
	}
	s.settle(tc, state, f.Record, f.Line)
}

func (s *Store) notification(f *Frame, ex *exchange) {
	rec, m, ss := f.Record, f.Msg, f.Session
	p := ParseParams(m.Params)
	f.Params = p
	if p.HasVersion {
		f.Revision = mcp.Revision(p.ProtocolVersion)
	}
	switch m.Method {
	case mcp.NotificationCancelled:
		if len(p.RequestID) == 0 {
			return
		}
		id, err := jsonrpc.ParseID(p.RequestID)
		if err != nil {
			return
		}
		scope := s.requestScope(rec, ex)
		if rec.Transport == session.HTTP && rec.Dir == session.ClientToServer && rec.MCPSessionID == "" {
			scope = s.findScope(rec.Session, rec.Dir, id.String())
		}
		c, _ := s.lookup(callKey{rec.Session, scope, rec.Dir, id.String()})
		if c == nil && rec.Dir == session.ServerToClient {
			// A modern server ends a subscription by cancelling the
			// client's listen; any other request it names is judged by
			// the rules, not settled.
			c, _ = s.lookup(callKey{rec.Session, s.responseScope(rec, ex), session.ClientToServer, id.String()})
			if c != nil {
				f.Call, f.Revision = c, c.Revision
				if c.Method == mcp.MethodSubscriptionsListen && c.State.Open() {
					f.Notes |= NoteCancel
					s.settle(c, Cancelled, rec, f.Line)
				}
			}
			return
		}
		if c == nil {
			return
		}
		f.Call = c
		f.Revision = c.Revision
		if c.State.Open() && c.TaskID == "" {
			f.Notes |= NoteCancel
			c.CancelledAt = rec.Time
			s.settle(c, Cancelled, rec, f.Line)
		}
	case mcp.NotificationProgress:
		c, ok := s.tokens[rec.Session+"\x00"+p.ProgressToken]
		if !ok {
			if s.closed[rec.Session+"\x00"+p.ProgressToken] {
				f.Notes |= NoteProgressLate
			}
			return
		}
		f.Call = c
		f.Revision = c.Revision
		c.Progress++
		if !c.State.Open() {
			f.Notes |= NoteProgressLate
		}
		if p.HasProgress {
			if c.hasProgress && p.Progress <= c.lastProgress {
				f.Notes |= NoteProgressNotIncreasing
			}
			c.lastProgress, c.hasProgress = p.Progress, true
		}
	case mcp.NotificationTasks:
		s.taskStatus(f, p.TaskID, p.Status, nil)
	case mcp.NotificationInitialized:
	}
	if p.SubscriptionID != "" && rec.Dir == session.ServerToClient {
		id, err := jsonrpc.ParseID([]byte(p.SubscriptionID))
		if err == nil {
			scope := s.responseScope(rec, ex)
			c, _ := s.lookup(callKey{rec.Session, scope, session.ClientToServer, id.String()})
			if c != nil && c.Method == mcp.MethodSubscriptionsListen {
				f.Notes |= NoteListenNotification
				f.Call = c
				f.Revision = c.Revision
				c.Notifications++
			}
		}
	}
	_ = ss
}

// findScope finds the scope of an open call by id when the frame naming it
// carries no session (a stateless HTTP cancellation).
func (s *Store) findScope(sess string, dir session.Direction, id string) string {
	for k, c := range s.open {
		if k.session == sess && k.dir == dir && k.id == id && c.State.Open() {
			return k.scope
		}
	}
	return ""
}

// settle moves a call to a final state, updates the statistics and hands
// it to OnSettle. Settled calls keep a tombstone for late responses.
func (s *Store) settle(c *Call, st State, rec *session.Record, line int) {
	prev := c.State
	c.State = st
	c.End = rec.Time
	if prev.Open() {
		if cur, ok := s.open[c.key]; ok && cur == c {
			delete(s.open, c.key)
		}
		s.tomb(c)
		if c.progressToken != "" {
			k := c.Session + "\x00" + c.progressToken
			if s.tokens[k] == c {
				delete(s.tokens, k)
				s.closeToken(k)
			}
		}
		if c.requestState != nil {
			delete(s.byState, c.Session+"\x00"+string(c.requestState))
		}
		if c.TaskID != "" {
			delete(s.tasks, c.Session+"\x00"+c.TaskID)
		}
	}
	if ss, ok := s.sessions[c.Session]; ok {
		ss.settled(c, prev)
	}
	if s.opts.OnSettle != nil {
		s.opts.OnSettle(c)
	}
}

func (s *Store) tomb(c *Call) {
	n := len(s.tombRing)
	if old := s.tombRing[s.tombNext]; old != nil && s.tombs[old.key] == old {
		delete(s.tombs, old.key)
	}
	s.tombRing[s.tombNext] = c
	s.tombNext = (s.tombNext + 1) % n
	s.tombs[c.key] = c
}

func (s *Store) closeToken(k string) {
	const maxClosed = 4096
	s.closed[k] = true
	s.closedQ = append(s.closedQ, k)
	if len(s.closedQ) > maxClosed {
		delete(s.closed, s.closedQ[0])
		s.closedQ = s.closedQ[1:]
	}
}

// compact returns raw without insignificant whitespace (raw itself when it
// has none or is not valid JSON).
func compact(raw json.RawMessage) []byte {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}
