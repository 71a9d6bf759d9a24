package calls

import (
	"encoding/json"
	"time"

	"github.com/mcpward/mcpward/internal/jsonrpc"
	"github.com/mcpward/mcpward/internal/mcp"
	"github.com/mcpward/mcpward/internal/session"
)

// A State is where a call stands.
type State uint8

// Call states. Pending and Streaming calls are open; every other state is
// final except Cancelled, which becomes LateResult when a response still
// arrives.
const (
	// Pending: no final answer yet (an MRTR call parked on input_required
	// and a task-backed call that has not reached a terminal status are
	// pending too).
	Pending State = iota
	// Completed: a result that is not an error.
	Completed
	// Failed: a JSON-RPC error, a result with isError:true, a failed task
	// or an HTTP error status without a JSON-RPC body.
	Failed
	// Superseded: the same id was used again while this call was in
	// flight.
	Superseded
	// Cancelled: named by notifications/cancelled (or a cancelled task).
	Cancelled
	// LateResult: a response that arrived after the call was cancelled.
	LateResult
	// Streaming: an open subscriptions/listen, which is not waiting for
	// anything.
	Streaming
)

var stateNames = [...]string{"pending", "ok", "error", "superseded", "cancelled", "late_result", "streaming"}

// String returns the export status name: pending, ok, error, superseded,
// cancelled, late_result, streaming.
func (s State) String() string {
	if int(s) < len(stateNames) {
		return stateNames[s]
	}
	return "unknown"
}

// MarshalText encodes the state as its name.
func (s State) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Open reports whether the call is still waiting (Pending or Streaming).
func (s State) Open() bool { return s == Pending || s == Streaming }

// A Call is one request and what became of it. The store owns a Call
// until it is settled; after OnSettle it is never modified again, except
// that a Cancelled call may become LateResult (OnSettle is then called a
// second time).
type Call struct {
	Session string            `json:"session"`
	Dir     session.Direction `json:"dir"` // direction of the request
	// ID is the request id as raw JSON ("7", "\"abc\"").
	ID     string `json:"id"`
	Method string `json:"method"`
	// Name is params.name (tools/call, prompts/get), params.uri
	// (resources/read) or params.taskId (tasks/*).
	Name string `json:"name,omitempty"`
	// Revision is the protocol revision the request declares in its own
	// _meta, else its MCP-Protocol-Version header, else the revision its
	// session negotiated with initialize; "" when unknown.
	Revision mcp.Revision `json:"revision,omitempty"`
	State    State        `json:"state"`
	Start    time.Time    `json:"start"`
	// End is when the call settled (zero while open).
	End      time.Time `json:"end,omitzero"`
	ReqSeq   uint64    `json:"reqSeq"`
	ReqLine  int       `json:"reqLine,omitempty"`
	RespSeq  uint64    `json:"respSeq,omitempty"`
	RespLine int       `json:"respLine,omitempty"`
	// RequestBytes is the size of the request frame; ResultBytes the raw
	// size of the response's result member as received (0 for an error).
	RequestBytes int64 `json:"requestBytes"`
	ResultBytes  int64 `json:"resultBytes,omitempty"`
	// ErrorCode is the JSON-RPC error code when HasError.
	HasError  bool  `json:"hasError,omitempty"`
	ErrorCode int64 `json:"errorCode,omitempty"`
	// IsError is a tool result with isError:true.
	IsError bool `json:"isError,omitempty"`
	// HTTPStatus is the status of an HTTP error that settled the call.
	HTTPStatus int `json:"httpStatus,omitempty"`
	// Rounds counts MRTR round trips (1 without input_required).
	Rounds int `json:"rounds"`
	// Progress counts progress notifications; Notifications counts
	// notifications delivered on a subscriptions/listen stream.
	Progress      int `json:"progress,omitempty"`
	Notifications int `json:"notifications,omitempty"`
	// TaskID and TaskStatus are set on a task-backed tools/call.
	TaskID     string `json:"taskId,omitempty"`
	TaskStatus string `json:"taskStatus,omitempty"`
	// CancelledAt is when notifications/cancelled named the call.
	CancelledAt time.Time `json:"cancelledAt,omitzero"`
	// Truncated: the request frame was cut by the recording cap.
	Truncated bool `json:"truncated,omitempty"`
	// Streamed: the answer came as server-sent events.
	Streamed bool `json:"streamed,omitempty"`

	// ClientCaps is the request's _meta clientCapabilities (modern).
	ClientCaps json.RawMessage `json:"-"`
	// Listen is the filter of a subscriptions/listen call; Acked tells
	// whether its acknowledgement was seen.
	Listen *ListenFilter `json:"-"`
	Acked  bool          `json:"-"`

	key           callKey
	scope         string
	progressToken string
	lastProgress  float64
	hasProgress   bool
	requestState  []byte // parked MRTR requestState (nil: none)
	parked        bool
	inputKeys     []string
	cursorRun     *pageRun
	exchange      uint64
}

// Parked reports whether the call's latest answer was an MRTR
// input_required result. Such a call is answered: the server asked for
// input and the next move (a retry with inputResponses, or none) is the
// client's. It stays open so that a retry can continue it.
func (c *Call) Parked() bool { return c.parked }

// Duration is End-Start for a settled call and 0 for an open one.
func (c *Call) Duration() time.Duration {
	if c.End.IsZero() {
		return 0
	}
	return c.End.Sub(c.Start)
}

// Modern reports whether the call's revision is 2026-07-28 or later.
func (c *Call) Modern() bool { return Modern(c.Revision) }

// Modern reports whether r is 2026-07-28 or later. Versions compare as
// strings, so a non-date such as "draft" counts as newer than any date.
func Modern(r mcp.Revision) bool { return r != "" && r >= mcp.Rev20260728 }

// A ListenFilter is the notifications filter of subscriptions/listen.
type ListenFilter struct {
	ToolsListChanged      bool     `json:"toolsListChanged,omitempty"`
	PromptsListChanged    bool     `json:"promptsListChanged,omitempty"`
	ResourcesListChanged  bool     `json:"resourcesListChanged,omitempty"`
	ResourceSubscriptions []string `json:"resourceSubscriptions,omitempty"`
	TaskIDs               []string `json:"taskIds,omitempty"`
}

// A Kind classifies a frame.
type Kind uint8

// Frame kinds.
const (
	KindRequest Kind = iota
	KindNotification
	KindResponse
	// KindInvalid: on the protocol channel but not JSON-RPC (not JSON, or
	// JSON without jsonrpc/method/result/error).
	KindInvalid
	KindStderr
	// KindTransport: an HTTP record without a JSON-RPC body (a GET, a
	// 202, an error status with a plain body).
	KindTransport
	// KindMeta: mcpward's own records (start, exit, lost, note).
	KindMeta
)

var kindNames = [...]string{"request", "notification", "response", "invalid", "stderr", "transport", "meta"}

// String returns the kind's name.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// A Note is a correlation fact about one frame, for the rules and the UI.
type Note uint32

// Notes set on frames.
const (
	// NoteUnmatched: a response whose id matches no request.
	NoteUnmatched Note = 1 << iota
	// NoteDuplicate: a second response for a settled call.
	NoteDuplicate
	// NoteIDReused: a request reused the id of a call in flight, which is
	// now Superseded (Frame.Superseded).
	NoteIDReused
	// NoteLate: a response to a cancelled call (the call is LateResult).
	NoteLate
	// NoteProgressLate: a progress notification after its call settled.
	NoteProgressLate
	// NoteProgressNotIncreasing: progress did not grow for its token.
	NoteProgressNotIncreasing
	// NoteRetry: an MRTR retry folded into an earlier call.
	NoteRetry
	// NoteStateChanged, NoteStateMissing, NoteStateInvented: the MRTR
	// retry did not echo requestState byte for byte.
	NoteStateChanged
	NoteStateMissing
	NoteStateInvented
	// NoteParked: an input_required result parked the call.
	NoteParked
	// NoteError: this frame raised the session's error count (an error
	// response, an isError result, a failed task, an HTTP error status).
	NoteError
	// NoteCancel: a notifications/cancelled that named a known call.
	NoteCancel
	// NoteTaskSettled: a task status settled the original tools/call.
	NoteTaskSettled
	// NoteListenNotification: a notification carrying the subscriptionId
	// of an open listen (Frame.Call is the listen).
	NoteListenNotification
	// NoteListPage: a tools/list page was recorded; NoteListComplete: it
	// was the last page, and the session's tool set was replaced.
	NoteListPage
	NoteListComplete
	// NoteInverted: a response the log numbers before its request (a
	// request of its id followed within InvertWindow): the recorder's
	// defect, not the peer's. The response is handed to OnFrame after its
	// request, paired (Frame.InvertedBefore is the request's seq).
	NoteInverted
)

// A Frame is one JSON-RPC message (a batch element counts as one) with
// what the store learned about it. It is handed to OnFrame and is valid
// only during that call: keep what you need, not the Frame.
type Frame struct {
	Record *session.Record
	// Line is the 1-based line of the record in its log file.
	Line int
	Kind Kind
	// Msg is the decoded message (for a batch, this element).
	Msg jsonrpc.Message
	// Batch is set on elements of a JSON-RPC batch, with their index.
	Batch      bool
	BatchIndex int
	// Revision is the revision the frame is judged under: a request's
	// own, a response's request's, else the session's.
	Revision mcp.Revision
	// Call is the call this frame belongs to (request, response,
	// cancellation, progress, listen notification), if known.
	Call *Call
	// Superseded is the call a reused id replaced (NoteIDReused).
	Superseded *Call
	// InvertedBefore is the seq of the request a NoteInverted response
	// was numbered before.
	InvertedBefore uint64
	// again is set on a held response's copy: it is not held twice.
	again bool
	Notes Note
	// Session is the frame's session state (tools seen so far, counts).
	Session *Session
	// Params is the decoded common part of a request's params.
	Params *Params
	// Result is the decoded common part of a response's result (nil when
	// the frame has none, or the store did not need it): parsed once by
	// the store and shared with the rules. Use ParsedResult.
	Result *Result
}

// ParsedResult returns the frame's result as ParseResult reads it, parsing
// it at most once per frame.
func (f *Frame) ParsedResult() *Result {
	if f.Result == nil {
		f.Result = ParseResult(f.Msg.Result)
	}
	return f.Result
}

// Has reports whether all of n are set on the frame.
func (f *Frame) Has(n Note) bool { return f.Notes&n == n }

type callKey struct {
	session string
	scope   string
	dir     session.Direction
	id      string
}
