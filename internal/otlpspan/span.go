package otlpspan

import (
	"cmp"
	"crypto/sha256"
	"strconv"
	"strings"
	"time"

	"github.com/mcpward/mcpward/internal/calls"
	"github.com/mcpward/mcpward/internal/mcp"
	"github.com/mcpward/mcpward/internal/session"
)

// ServiceName is the service.name of every resource.
const ServiceName = "mcpward"

// SessionTraceID is the trace of a session's calls that carried no
// traceparent: derived from the session id, so exporting a log twice
// gives the same ids.
func SessionTraceID(sessionID string) TraceID {
	h := sha256.Sum256([]byte("mcpward trace\x00" + sessionID))
	var t TraceID
	copy(t[:], h[:16])
	return t
}

// CallSpanID is a call's span id: derived from its session, direction,
// JSON-RPC id and request seq (an id may be reused; a seq is not).
func CallSpanID(c *calls.Call) SpanID {
	h := sha256.New()
	h.Write([]byte("mcpward span\x00" + c.Session + "\x00" + string(c.Dir) + "\x00" + c.ID + "\x00"))
	h.Write(strconv.AppendUint(nil, c.ReqSeq, 10))
	var s SpanID
	copy(s[:], h.Sum(nil)[:8])
	return s
}

// CallInfo is what a span needs beyond the call: the request's trace
// context, the HTTP session it travelled in, the error message of its
// response and the findings made on its frames.
type CallInfo struct {
	// Parent is the request's W3C trace context (params._meta, else the
	// HTTP request's traceparent header); HasParent is false when it
	// carried none (the span then joins its session's trace).
	Parent    TraceContext
	HasParent bool
	// ParentFromHeader is set when Parent came from the HTTP header.
	ParentFromHeader bool
	// TraceID is used when HasParent is false; zero means
	// SessionTraceID(c.Session).
	TraceID TraceID
	// MCPSessionID is the Mcp-Session-Id of the request.
	MCPSessionID string
	// Transport is the transport the request came over.
	Transport session.Transport
	// Revision is the session's protocol revision when the call was
	// answered, for a call whose request declared none.
	Revision mcp.Revision
	// ErrorMessage is the message of the JSON-RPC error that answered the
	// call, if any.
	ErrorMessage string
	// Events are the span's events: mcpward's findings on the call's
	// frames, in the order they were made.
	Events []Event
	// Findings counts the findings; Violations those of class violation.
	Findings, Violations int

	ready bool // settled, waiting for Flush
}

// CallSpan returns the span of a settled call, named and attributed after
// the OpenTelemetry semantic conventions for MCP (see semconv.go): its
// name is "{mcp.method.name} {target}", the target being the tool or the
// prompt (never the resource URI, which would make names high-cardinality);
// its kind CLIENT (the span stands for the call as its caller made it);
// its status ERROR, with error.type, for a failed call, UNSET otherwise
// (OpenTelemetry leaves OK to applications).
func CallSpan(c *calls.Call, info CallInfo) Span {
	s := Span{
		SpanID: CallSpanID(c),
		Name:   c.Method,
		Kind:   KindClient,
		Start:  c.Start,
		End:    c.End,
		Events: info.Events,
	}
	switch {
	case info.HasParent:
		s.TraceID, s.ParentSpanID, s.TraceState = info.Parent.TraceID, info.Parent.ParentID, info.Parent.State
	case info.TraceID.IsValid():
		s.TraceID = info.TraceID
	default:
		s.TraceID = SessionTraceID(c.Session)
	}
	if s.End.IsZero() {
		s.End = s.Start
	}
	a := make([]Attr, 0, 20)
	a = append(a, String(AttrMCPMethodName, c.Method))
	if c.ID != "" {
		a = append(a, String(AttrJSONRPCRequestID, idString(c.ID)))
	}
	if c.Name != "" {
		switch c.Method {
		case "tools/call":
			s.Name += " " + c.Name
			a = append(a, String(AttrGenAIToolName, c.Name), String(AttrGenAIOperationName, OperationExecuteTool))
		case "prompts/get":
			s.Name += " " + c.Name
			a = append(a, String(AttrGenAIPromptName, c.Name))
		case "resources/read", "resources/subscribe", "resources/unsubscribe":
			a = append(a, String(AttrMCPResourceURI, c.Name))
		}
	}
	if info.MCPSessionID != "" {
		a = append(a, String(AttrMCPSessionID, info.MCPSessionID))
	}
	if rev := cmp.Or(c.Revision, info.Revision); rev != "" {
		a = append(a, String(AttrMCPProtocolVersion, string(rev)))
	}
	a = append(a, transportAttrs(info.Transport)...)
	if c.HasError {
		a = append(a, String(AttrRPCResponseStatusCode, strconv.FormatInt(c.ErrorCode, 10)))
	}
	if c.HTTPStatus != 0 {
		a = append(a, Int(AttrHTTPResponseStatusCode, int64(c.HTTPStatus)))
	}
	if et := errorType(c); et != "" {
		a = append(a, String(AttrErrorType, et))
	}
	a = append(a,
		String(AttrSessionID, c.Session),
		String(AttrCallDirection, string(c.Dir)),
		String(AttrCallState, c.State.String()),
		Int(AttrCallRequestBytes, c.RequestBytes),
	)
	if c.ResultBytes > 0 {
		a = append(a, Int(AttrCallResultBytes, c.ResultBytes))
	}
	if c.IsError {
		a = append(a, Bool(AttrCallToolError, true))
	}
	if c.Rounds > 1 {
		a = append(a, Int(AttrCallRounds, int64(c.Rounds)))
	}
	if c.Progress > 0 {
		a = append(a, Int(AttrCallProgress, int64(c.Progress)))
	}
	if c.TaskID != "" {
		a = append(a, String(AttrCallTaskID, c.TaskID), String(AttrCallTaskStatus, c.TaskStatus))
	}
	if c.Truncated {
		a = append(a, Bool(AttrCallTruncated, true))
	}
	if info.ParentFromHeader {
		a = append(a, String(AttrCallTraceSource, "http_header"))
	}
	if info.Findings > 0 {
		a = append(a, Int(AttrCallFindings, int64(info.Findings)))
	}
	if info.Violations > 0 {
		a = append(a, Int(AttrCallViolations, int64(info.Violations)))
	}
	s.Attrs = a
	if c.State == calls.Failed {
		s.Status = StatusError
		switch {
		case c.HasError && info.ErrorMessage != "":
			s.StatusMessage = info.ErrorMessage
		case c.HasError:
			s.StatusMessage = "JSON-RPC error " + strconv.FormatInt(c.ErrorCode, 10)
		case c.IsError:
			s.StatusMessage = "tool result isError"
		case c.HTTPStatus != 0:
			s.StatusMessage = "HTTP " + strconv.Itoa(c.HTTPStatus)
		case c.TaskStatus != "":
			s.StatusMessage = "task " + c.TaskStatus
		default:
			s.StatusMessage = "failed"
		}
	}
	return s
}

// errorType is error.type of a failed call: the JSON-RPC error code,
// "tool_error" for a tool result with isError (both as the MCP conventions
// say), the HTTP status of an HTTP failure, else "task_" and the task's
// status, else "_OTHER". A call that did not fail has none.
func errorType(c *calls.Call) string {
	if c.State != calls.Failed {
		return ""
	}
	switch {
	case c.HasError:
		return strconv.FormatInt(c.ErrorCode, 10)
	case c.IsError:
		return "tool_error"
	case c.HTTPStatus != 0:
		return strconv.Itoa(c.HTTPStatus)
	case c.TaskStatus != "":
		return "task_" + c.TaskStatus
	}
	return "_OTHER"
}

// transportAttrs are network.transport (pipe for stdio, tcp for HTTP) and,
// over HTTP, network.protocol.name, as the MCP conventions' table of
// transports says.
func transportAttrs(t session.Transport) []Attr {
	switch t {
	case session.Stdio:
		return []Attr{String(AttrNetworkTransport, TransportPipe)}
	case session.HTTP:
		return []Attr{String(AttrNetworkTransport, TransportTCP), String(AttrNetworkProtocolName, "http")}
	}
	return nil
}

// idString is the id as an attribute: a string id without its quotes.
func idString(raw string) string {
	if len(raw) >= 2 && raw[0] == '"' && !strings.Contains(raw, `\`) {
		return raw[1 : len(raw)-1]
	}
	return raw
}

// SessionResource returns the resource attributes of a recorded session:
// only what the log says. Frames lost are the recorder's own count (its
// "lost" records), reported only when there were any; frames and errors
// are the session's counts when the resource is read (a chunk of a long
// session's spans carries the counts so far).
func SessionResource(s *calls.Session) []Attr {
	a := []Attr{
		String(AttrServiceName, ServiceName),
		String(AttrSessionID, s.ID),
	}
	if s.Label != "" {
		a = append(a, String(AttrServerLabel, s.Label))
	}
	if s.Transport != "" {
		a = append(a, String(AttrTransport, string(s.Transport)))
	}
	if len(s.Command) > 0 {
		a = append(a, String(AttrProcessCommand, s.Command[0]), Strings(AttrProcessCommandArgs, s.Command))
	}
	if s.Target != "" {
		a = append(a, String(AttrServerTarget, s.Target))
	}
	if s.ServerName != "" {
		a = append(a, String(AttrServerName, s.ServerName))
	}
	if s.ServerVersion != "" {
		a = append(a, String(AttrServerVersion, s.ServerVersion))
	}
	if s.ClientName != "" {
		a = append(a, String(AttrClientName, s.ClientName))
	}
	if s.Lost > 0 {
		a = append(a, Int(AttrSessionLostFrames, s.Lost))
	}
	return append(a, Int(AttrSessionFrames, s.Frames), Int(AttrSessionErrors, s.Errors))
}

// BuilderOptions configure a Builder.
type BuilderOptions struct {
	// Emit receives the span of each settled call, in settle order. The
	// call is the store's: read it during Emit only.
	Emit func(c *calls.Call, s Span)
	// TraceID gives the trace of a call whose request carried no valid
	// traceparent; nil means SessionTraceID (one trace per session).
	TraceID func(c *calls.Call) TraceID
	// MaxOpen bounds the calls remembered between request and settle
	// (default 65536); beyond it an arbitrary one is forgotten, and its
	// span then has no parent.
	MaxOpen int
}

// A Finding is one of mcpward's rule findings, recorded as an event on
// the span of the call whose frame showed it (see [Builder.Finding]).
type Finding struct {
	Session string
	// Seq is the record the finding was made on (0: none).
	Seq                           uint64
	RuleID, Level, Class, Message string
	Signal                        string
}

// maxEvents bounds the events of one span; further findings are counted
// but not recorded as events.
const maxEvents = 32

// A Builder turns calls into spans. Wire it into a store with
// calls.Options{OnFrame: b.Frame, OnSettle: b.Settle} (or a traffic
// checker, with OnFinding calling b.Finding), and call b.Flush after each
// record added: a call's span is emitted by Flush, once the frame that
// settled it has been judged, so findings on the response are on the
// span. Like the store, it is not safe for concurrent use.
type Builder struct {
	opts     BuilderOptions
	open     map[*calls.Call]*CallInfo
	ready    []*calls.Call
	findings []Finding
	// Forgotten counts calls dropped by MaxOpen.
	Forgotten int64
}

// NewBuilder returns a Builder.
func NewBuilder(opts *BuilderOptions) *Builder {
	b := &Builder{open: map[*calls.Call]*CallInfo{}}
	if opts != nil {
		b.opts = *opts
	}
	if b.opts.MaxOpen <= 0 {
		b.opts.MaxOpen = 1 << 16
	}
	return b
}

// Finding queues a finding for the call of the frame it was made on. A
// traffic checker reports a frame's findings before it hands the frame
// on (OnFrame), so the next Frame call, or Flush, places it.
func (b *Builder) Finding(f Finding) {
	b.findings = append(b.findings, f)
}

// Frame remembers the trace context of each request as it is correlated
// (calls.Options.OnFrame), the error message of a response, and places
// the findings made on the frame. A retry folded into an earlier call
// keeps that call's context.
func (b *Builder) Frame(f *calls.Frame) {
	c := f.Call
	if c == nil {
		b.findings = b.findings[:0]
		return
	}
	info, ok := b.open[c]
	if !ok && f.Kind == calls.KindRequest {
		info = b.newInfo(c)
		if f.Params != nil {
			info.Parent, info.HasParent = TraceContextFromMeta(f.Params.Meta)
		}
		if f.Record != nil {
			info.MCPSessionID = f.Record.MCPSessionID
			info.Transport = f.Record.Transport
			if !info.HasParent {
				if tc, ok := TraceContextFromHeader(f.Record.Header); ok {
					info.Parent, info.HasParent, info.ParentFromHeader = tc, true, true
				}
			}
		}
		if info.HasParent {
			info.TraceID = TraceID{}
		}
	}
	if info == nil {
		b.findings = b.findings[:0]
		return
	}
	if f.Kind == calls.KindResponse && f.Msg.Error != nil && info.ErrorMessage == "" {
		info.ErrorMessage = f.Msg.Error.Message
	}
	if f.Kind == calls.KindResponse && f.Session != nil {
		// A request logged before the initialize response (the shim
		// records each direction as it relays it) has no revision of its
		// own; by its answer the session has one.
		info.Revision = f.Session.Revision
	}
	var at = c.Start
	if f.Record != nil {
		at = f.Record.Time
	}
	for _, fd := range b.findings {
		if f.Record == nil || (fd.Seq == f.Record.Seq && fd.Session == f.Record.Session) {
			info.addFinding(fd, at)
		}
	}
	b.findings = b.findings[:0]
}

// newInfo registers a call, forgetting an arbitrary open one beyond
// MaxOpen.
func (b *Builder) newInfo(c *calls.Call) *CallInfo {
	if len(b.open) >= b.opts.MaxOpen {
		for old, info := range b.open {
			if !info.ready {
				delete(b.open, old)
				b.Forgotten++
				break
			}
		}
	}
	info := &CallInfo{}
	if b.opts.TraceID != nil {
		info.TraceID = b.opts.TraceID(c)
	}
	b.open[c] = info
	return info
}

func (info *CallInfo) addFinding(f Finding, at time.Time) {
	info.Findings++
	if f.Class == "violation" {
		info.Violations++
	}
	if len(info.Events) >= maxEvents {
		return
	}
	a := []Attr{String(AttrFindingRuleID, f.RuleID), String(AttrFindingLevel, f.Level), String(AttrFindingClass, f.Class)}
	if f.Signal != "" {
		a = append(a, String(AttrFindingSignal, f.Signal))
	}
	if f.Message != "" {
		a = append(a, String(AttrFindingMessage, f.Message))
	}
	info.Events = append(info.Events, Event{Name: EventFinding, Time: at, Attrs: a})
}

// Settle marks a settled call for Flush (calls.Options.OnSettle). A
// cancelled call that later gets its response (LateResult) was emitted
// when it was cancelled and is not emitted again.
func (b *Builder) Settle(c *calls.Call) {
	info, ok := b.open[c]
	if !ok {
		if c.State == calls.LateResult {
			return
		}
		info = b.newInfo(c)
	}
	if info.ready {
		return
	}
	info.ready = true
	b.ready = append(b.ready, c)
}

// Flush emits the spans of the calls settled so far. Findings not placed
// by a frame (those a checker makes at the end of a log, such as an
// unanswered request) go to the settled call whose request or response
// they name.
func (b *Builder) Flush() {
	for _, c := range b.ready {
		info := b.open[c]
		delete(b.open, c)
		for _, fd := range b.findings {
			if fd.Session == c.Session && fd.Seq != 0 && (fd.Seq == c.ReqSeq || fd.Seq == c.RespSeq) {
				at := c.End
				if at.IsZero() {
					at = c.Start
				}
				info.addFinding(fd, at)
			}
		}
		if b.opts.Emit != nil {
			b.opts.Emit(c, CallSpan(c, *info))
		}
	}
	clear(b.ready)
	b.ready = b.ready[:0]
	b.findings = b.findings[:0]
}
