package otlp

import (
	"crypto/sha256"
	"strconv"
	"strings"

	"github.com/mcpward/mcpward/internal/calls"
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
// context and the HTTP session it travelled in.
type CallInfo struct {
	// Parent is the request's W3C trace context; HasParent is false when
	// it carried none (the span then starts a trace of its own).
	Parent    TraceContext
	HasParent bool
	// TraceID is used when HasParent is false; zero means
	// SessionTraceID(c.Session).
	TraceID TraceID
	// MCPSessionID is the Mcp-Session-Id of the request.
	MCPSessionID string
}

// CallSpan returns the span of a settled call. Its name is the method
// (with the tool, prompt or resource: "tools/call get_weather"), its kind
// CLIENT (the span stands for the call as its caller made it), and its
// status ERROR for a failed call, UNSET otherwise (OpenTelemetry leaves OK
// to applications).
func CallSpan(c *calls.Call, info CallInfo) Span {
	s := Span{
		SpanID: CallSpanID(c),
		Name:   c.Method,
		Kind:   KindClient,
		Start:  c.Start,
		End:    c.End,
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
	if c.Name != "" && (c.Method == "tools/call" || c.Method == "prompts/get" || c.Method == "resources/read") {
		s.Name += " " + c.Name
	}
	a := make([]Attr, 0, 16)
	a = append(a,
		String("rpc.system", "jsonrpc"),
		String("rpc.jsonrpc.version", "2.0"),
		String("rpc.method", c.Method),
		String("rpc.jsonrpc.request_id", idString(c.ID)),
		String("mcp.method.name", c.Method),
	)
	switch c.Method {
	case "tools/call":
		if c.Name != "" {
			a = append(a, String("mcp.tool.name", c.Name), String("gen_ai.tool.name", c.Name))
		}
	case "prompts/get":
		if c.Name != "" {
			a = append(a, String("mcp.prompt.name", c.Name))
		}
	case "resources/read":
		if c.Name != "" {
			a = append(a, String("mcp.resource.uri", c.Name))
		}
	}
	if info.MCPSessionID != "" {
		a = append(a, String("mcp.session.id", info.MCPSessionID))
	}
	if c.Revision != "" {
		a = append(a, String("mcp.protocol.version", string(c.Revision)))
	}
	if c.HasError {
		a = append(a, Int("rpc.jsonrpc.error_code", c.ErrorCode))
	}
	if c.HTTPStatus != 0 {
		a = append(a, Int("http.response.status_code", int64(c.HTTPStatus)))
	}
	a = append(a,
		String("mcpward.session.id", c.Session),
		String("mcpward.call.direction", string(c.Dir)),
		String("mcpward.call.state", c.State.String()),
		Int("mcpward.call.request_bytes", c.RequestBytes),
	)
	if c.ResultBytes > 0 {
		a = append(a, Int("mcpward.call.result_bytes", c.ResultBytes))
	}
	if c.IsError {
		a = append(a, Bool("mcpward.call.tool_error", true))
	}
	if c.Rounds > 1 {
		a = append(a, Int("mcpward.call.rounds", int64(c.Rounds)))
	}
	if c.Progress > 0 {
		a = append(a, Int("mcpward.call.progress", int64(c.Progress)))
	}
	if c.TaskID != "" {
		a = append(a, String("mcpward.call.task_id", c.TaskID), String("mcpward.call.task_status", c.TaskStatus))
	}
	if c.Truncated {
		a = append(a, Bool("mcpward.call.truncated", true))
	}
	s.Attrs = a
	if c.State == calls.Failed {
		s.Status = StatusError
		switch {
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

// idString is the id as an attribute: a string id without its quotes.
func idString(raw string) string {
	if len(raw) >= 2 && raw[0] == '"' && !strings.Contains(raw, `\`) {
		return raw[1 : len(raw)-1]
	}
	return raw
}

// SessionResource returns the resource attributes of a recorded session:
// only what the log says. Frames lost are the recorder's own count (its
// "lost" records), reported only when there were any.
func SessionResource(s *calls.Session) []Attr {
	a := []Attr{
		String("service.name", ServiceName),
		String("mcpward.session.id", s.ID),
	}
	if s.Label != "" {
		a = append(a, String("mcpward.server.label", s.Label))
	}
	if s.Transport != "" {
		a = append(a, String("mcpward.transport", string(s.Transport)))
	}
	if len(s.Command) > 0 {
		a = append(a, String("process.command", s.Command[0]), Strings("process.command_args", s.Command))
	}
	if s.Target != "" {
		a = append(a, String("mcpward.server.target", s.Target))
	}
	if s.ServerName != "" {
		a = append(a, String("mcpward.server.name", s.ServerName))
	}
	if s.ServerVersion != "" {
		a = append(a, String("mcpward.server.version", s.ServerVersion))
	}
	if s.ClientName != "" {
		a = append(a, String("mcpward.client.name", s.ClientName))
	}
	if s.Lost > 0 {
		a = append(a, Int("mcpward.session.lost_frames", s.Lost))
	}
	return a
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

// A Builder turns calls into spans. Wire it into a store with
// calls.Options{OnFrame: b.Frame, OnSettle: b.Settle}; like the store, it
// is not safe for concurrent use.
type Builder struct {
	opts BuilderOptions
	open map[*calls.Call]CallInfo
	// Forgotten counts calls dropped by MaxOpen.
	Forgotten int64
}

// NewBuilder returns a Builder.
func NewBuilder(opts *BuilderOptions) *Builder {
	b := &Builder{open: map[*calls.Call]CallInfo{}}
	if opts != nil {
		b.opts = *opts
	}
	if b.opts.MaxOpen <= 0 {
		b.opts.MaxOpen = 1 << 16
	}
	return b
}

// Frame remembers the trace context of each request as it is correlated
// (calls.Options.OnFrame). A retry folded into an earlier call keeps that
// call's context.
func (b *Builder) Frame(f *calls.Frame) {
	if f.Kind != calls.KindRequest || f.Call == nil {
		return
	}
	if _, ok := b.open[f.Call]; ok {
		return
	}
	if len(b.open) >= b.opts.MaxOpen {
		for c := range b.open {
			delete(b.open, c)
			b.Forgotten++
			break
		}
	}
	var info CallInfo
	if f.Params != nil {
		info.Parent, info.HasParent = TraceContextFromMeta(f.Params.Meta)
	}
	if f.Record != nil {
		info.MCPSessionID = f.Record.MCPSessionID
	}
	if !info.HasParent && b.opts.TraceID != nil {
		info.TraceID = b.opts.TraceID(f.Call)
	}
	b.open[f.Call] = info
}

// Settle emits the span of a settled call (calls.Options.OnSettle). A
// cancelled call that later gets its response (LateResult) was emitted
// when it was cancelled and is not emitted again.
func (b *Builder) Settle(c *calls.Call) {
	info, ok := b.open[c]
	if !ok && c.State == calls.LateResult {
		return
	}
	delete(b.open, c)
	if !ok && b.opts.TraceID != nil {
		info.TraceID = b.opts.TraceID(c)
	}
	if b.opts.Emit != nil {
		b.opts.Emit(c, CallSpan(c, info))
	}
}
