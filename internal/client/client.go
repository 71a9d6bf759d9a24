package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/jsonrpc"
	"github.com/mcpward/mcpward/internal/mcp"
	"github.com/mcpward/mcpward/internal/transport"
)

// Defaults used when Options leave a field zero.
const (
	DefaultRequestTimeout = 10 * time.Second
	// DefaultDiscoverTimeout bounds the era probe on stdio: a legacy server
	// that ignores unknown methods is detected by this silence, so it should
	// not cost a full request timeout. A request timeout above the default
	// makes it half the request timeout instead.
	DefaultDiscoverTimeout = 5 * time.Second
	DefaultPageCap         = 100
)

// Options configure a Client. The zero value (or nil) means defaults.
type Options struct {
	// ClientInfo is sent as clientInfo (legacy) or in _meta (modern).
	ClientInfo mcp.Implementation
	// Capabilities is the ClientCapabilities object the client declares.
	// nil means {} (no optional capabilities), which is what a prober
	// should declare unless a profile says otherwise.
	Capabilities json.RawMessage
	// Version is the preferred protocol version (default: latest).
	Version mcp.Revision
	// LegacyVersion is the version offered in initialize (default: latest
	// legacy revision).
	LegacyVersion mcp.Revision
	// Era forces an era ("modern" or "legacy"); "" detects it.
	Era mcp.Era
	// RequestTimeout bounds every request.
	RequestTimeout time.Duration
	// DiscoverTimeout bounds the server/discover era probe.
	DiscoverTimeout time.Duration
	// PageCap is the most pages read from one list.
	PageCap int
	// ServerRequest answers the requests a legacy server sends the client
	// (ping, roots/list, sampling/createMessage, elicitation/create); it
	// is the transport's OnServerRequest hook. nil means
	// AnswerServerRequest (ping answered, everything else declined). A
	// client that declares capabilities must serve them (compat profiles).
	ServerRequest func(m jsonrpc.Message) []byte
}

// Client is an MCP client for one connection. Its methods may be called
// concurrently after Connect returns.
type Client struct {
	conn transport.Conn
	opts Options
	ids  atomic.Int64

	mu       sync.Mutex
	era      mcp.Era
	version  string
	bindings map[string][]mcp.HeaderBinding // tool name → x-mcp-header bindings from the last tools/list
}

// New returns a Client over conn. It sends nothing until Connect.
func New(conn transport.Conn, opts *Options) *Client {
	c := &Client{conn: conn, bindings: map[string][]mcp.HeaderBinding{}}
	if opts != nil {
		c.opts = *opts
	}
	if c.opts.ClientInfo.Name == "" {
		c.opts.ClientInfo = mcp.Implementation{Name: "mcpward", Version: "dev"}
	}
	if len(c.opts.Capabilities) == 0 {
		c.opts.Capabilities = json.RawMessage(`{}`)
	}
	if c.opts.Version == "" {
		c.opts.Version = mcp.Latest
	}
	if c.opts.LegacyVersion == "" {
		c.opts.LegacyVersion = mcp.LatestLegacy
	}
	if c.opts.RequestTimeout <= 0 {
		c.opts.RequestTimeout = DefaultRequestTimeout
	}
	if c.opts.DiscoverTimeout <= 0 {
		c.opts.DiscoverTimeout = min(DefaultDiscoverTimeout, c.opts.RequestTimeout)
		if c.opts.RequestTimeout > DefaultRequestTimeout {
			// Whoever raised the request timeout expects a slow server:
			// a start slower than 5s (node under load) must not pass for
			// a legacy server's silence.
			c.opts.DiscoverTimeout = c.opts.RequestTimeout / 2
		}
	}
	if c.opts.PageCap <= 0 {
		c.opts.PageCap = DefaultPageCap
	}
	return c
}

// Conn returns the underlying connection.
func (c *Client) Conn() transport.Conn { return c.conn }

// Options returns the effective options.
func (c *Client) Options() Options { return c.opts }

// Era returns the detected era ("" before Connect).
func (c *Client) Era() mcp.Era {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.era
}

// ProtocolVersion returns the version in use ("" before Connect).
func (c *Client) ProtocolVersion() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.version
}

// NextID returns a fresh request id. Ids are increasing integers from 1.
func (c *Client) NextID() jsonrpc.ID { return jsonrpc.IntID(c.ids.Add(1)) }

// A Response is one answered request: the decoded message (result or
// error, raw bytes kept) and the transport reply it came in.
type Response struct {
	Method string
	// Msg is the response message; never nil when err is nil.
	Msg *jsonrpc.Message
	// Reply is the whole transport reply (HTTP status, headers, related
	// messages).
	Reply *transport.Reply
	// Elapsed is the wall time of the round trip.
	Elapsed time.Duration
}

// Result returns the raw result, or nil for an error response.
func (r *Response) Result() json.RawMessage {
	if r == nil || r.Msg == nil {
		return nil
	}
	return r.Msg.Result
}

// RPCError returns the JSON-RPC error object, or nil.
func (r *Response) RPCError() *jsonrpc.ErrorObject {
	if r == nil || r.Msg == nil {
		return nil
	}
	return r.Msg.Error
}

// HTTPStatus returns the HTTP status (0 on stream transports).
func (r *Response) HTTPStatus() int {
	if r == nil || r.Reply == nil || r.Reply.HTTP == nil {
		return 0
	}
	return r.Reply.HTTP.Status
}

// Send puts one Call on the wire as given, with the client's request
// timeout unless ctx already has an earlier deadline. It is the escape
// hatch for conformance rules that need deliberately wrong requests.
func (c *Client) Send(ctx context.Context, call *transport.Call) (*transport.Reply, error) {
	ctx, cancel := context.WithTimeout(ctx, c.opts.RequestTimeout)
	defer cancel()
	return c.conn.Call(ctx, call)
}

// RequestOptions adjust one request built by Request.
type RequestOptions struct {
	// Version overrides the protocol version of the envelope and headers.
	Version string
	// Capabilities overrides the declared client capabilities (modern).
	Capabilities json.RawMessage
	// OmitMeta leaves the modern _meta envelope out entirely.
	OmitMeta bool
	// Header adds or replaces HTTP headers (HTTP only).
	Header http.Header
	// Timeout overrides the request timeout.
	Timeout time.Duration
	// ID overrides the request id.
	ID *jsonrpc.ID
}

// Request sends one request and waits for its response. Params is a JSON
// object (json.RawMessage, map or struct) or nil. In the modern era the
// per-request _meta envelope is merged into params and the routing headers
// are set on HTTP. A JSON-RPC error answer is not a Go error: inspect
// Response.RPCError. Go errors mean no answer was obtained (timeout, server
// exit, transport failure) and are marked fault.ErrIncomplete.
func (c *Client) Request(ctx context.Context, method string, params any, ro *RequestOptions) (*Response, error) {
	if ro == nil {
		ro = &RequestOptions{}
	}
	c.mu.Lock()
	era, version := c.era, c.version
	c.mu.Unlock()
	if ro.Version != "" {
		version = ro.Version
	}
	if version == "" {
		version = string(c.opts.Version)
	}
	modern := era == mcp.EraModern || (era == "" && mcp.Revision(version).Era() == mcp.EraModern)

	raw, err := paramsObject(params)
	if err != nil {
		return nil, fmt.Errorf("encode %s params: %w", method, err)
	}
	if modern && !ro.OmitMeta {
		caps := c.opts.Capabilities
		if ro.Capabilities != nil {
			caps = ro.Capabilities
		}
		raw, err = withMeta(raw, c.envelope(version, caps))
		if err != nil {
			return nil, fmt.Errorf("encode %s params: %w", method, err)
		}
	}
	var id jsonrpc.ID
	if ro.ID != nil {
		id = *ro.ID
	} else {
		id = c.NextID()
	}
	var p any
	if raw != nil {
		p = raw
	}
	frame, err := jsonrpc.EncodeRequest(id, method, p)
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", method, err)
	}
	call := &transport.Call{Frame: frame, ID: id, Header: c.headers(method, raw, version, modern)}
	for k, v := range ro.Header {
		if call.Header == nil {
			call.Header = http.Header{}
		}
		call.Header[k] = v
	}
	timeout := c.opts.RequestTimeout
	if ro.Timeout > 0 {
		timeout = ro.Timeout
	}
	return c.roundTrip(ctx, method, call, timeout)
}

func (c *Client) roundTrip(ctx context.Context, method string, call *transport.Call, timeout time.Duration) (*Response, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	start := time.Now()
	reply, err := c.conn.Call(ctx, call)
	elapsed := time.Since(start)
	if err != nil {
		return nil, requestError(method, timeout, err)
	}
	resp := &Response{Method: method, Reply: reply, Elapsed: elapsed}
	if reply.Response == nil {
		if reply.HTTP != nil {
			return resp, &HTTPError{Method: method, Info: reply.HTTP}
		}
		return resp, fault.Incomplete(fmt.Errorf("%s: no response", method))
	}
	resp.Msg = reply.Response
	return resp, nil
}

// requestError words a transport failure as one line that names the
// request, keeping the error kinds for the exit mapper.
func requestError(method string, timeout time.Duration, err error) error {
	switch {
	case errors.Is(err, transport.ErrTimeout), errors.Is(err, context.DeadlineExceeded):
		return fault.Incomplete(fmt.Errorf("server did not answer %s within %s: %w", method, timeout, err))
	case errors.Is(err, context.Canceled):
		return fault.Incomplete(fmt.Errorf("%s: interrupted: %w", method, err))
	}
	if errors.Is(err, fault.ErrIncomplete) {
		return fmt.Errorf("%s: %w", method, err)
	}
	return fault.Incomplete(fmt.Errorf("%s: %w", method, err))
}

// An HTTPError is an HTTP answer that carried no JSON-RPC response for the
// request: a 401, a 3xx, an empty 4xx/5xx. Auth reports whether the server
// asks for credentials.
type HTTPError struct {
	Method string
	Info   *transport.HTTPInfo
}

func (e *HTTPError) Error() string {
	s := fmt.Sprintf("%s: HTTP %d", e.Method, e.Info.Status)
	switch {
	case e.Auth():
		s += " (authentication required)"
		if ch := e.Info.Header.Get("WWW-Authenticate"); ch != "" {
			s += ": WWW-Authenticate: " + ch
		}
	case e.Info.Status >= 300 && e.Info.Status < 400:
		s += " redirect to " + e.Info.Header.Get("Location") + " (mcpward never follows redirects)"
	default:
		if b := strings.TrimSpace(string(e.Info.Body)); b != "" {
			if len(b) > 160 {
				b = b[:160] + "…"
			}
			s += ": " + oneLine(b)
		}
	}
	return s
}

// Auth reports whether the server answered 401, or 403 with a Bearer
// challenge.
func (e *HTTPError) Auth() bool {
	return e.Info.Status == http.StatusUnauthorized ||
		(e.Info.Status == http.StatusForbidden && strings.Contains(e.Info.Header.Get("WWW-Authenticate"), "Bearer"))
}

// Is makes every HTTPError count as incomplete evidence.
func (e *HTTPError) Is(target error) bool { return target == fault.ErrIncomplete }

// Notify sends a notification and does not wait for an answer beyond the
// transport's own acknowledgement (HTTP 202).
func (c *Client) Notify(ctx context.Context, method string, params any) (*transport.Reply, error) {
	raw, err := paramsObject(params)
	if err != nil {
		return nil, fmt.Errorf("encode %s params: %w", method, err)
	}
	var p any
	if raw != nil {
		p = raw
	}
	frame, err := jsonrpc.EncodeNotification(method, p)
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", method, err)
	}
	c.mu.Lock()
	version, era := c.version, c.era
	c.mu.Unlock()
	call := &transport.Call{Frame: frame, Header: c.headers(method, raw, version, era == mcp.EraModern)}
	reply, err := c.Send(ctx, call)
	if err != nil {
		return nil, requestError(method, c.opts.RequestTimeout, err)
	}
	return reply, nil
}

// Close closes the connection (and ends a child process).
func (c *Client) Close() error { return c.conn.Close() }

func (c *Client) envelope(version string, caps json.RawMessage) map[string]any {
	return map[string]any{
		mcp.MetaProtocolVersion:    version,
		mcp.MetaClientCapabilities: caps,
		mcp.MetaClientInfo:         c.opts.ClientInfo,
	}
}

// paramsObject encodes params to a JSON object (nil stays nil).
func paramsObject(params any) (json.RawMessage, error) {
	switch p := params.(type) {
	case nil:
		return nil, nil
	case json.RawMessage:
		return p, nil
	case []byte:
		return json.RawMessage(p), nil
	}
	return json.Marshal(params)
}

// withMeta merges the envelope into params._meta, keeping keys the caller
// already set there (a caller-supplied key wins).
func withMeta(params json.RawMessage, env map[string]any) (json.RawMessage, error) {
	obj := map[string]json.RawMessage{}
	if len(params) > 0 && string(params) != "null" {
		if err := json.Unmarshal(params, &obj); err != nil {
			return nil, fmt.Errorf("params is not a JSON object: %w", err)
		}
	}
	meta := map[string]json.RawMessage{}
	if m, ok := obj["_meta"]; ok {
		if err := json.Unmarshal(m, &meta); err != nil {
			return nil, fmt.Errorf("params._meta is not a JSON object: %w", err)
		}
	}
	for k, v := range env {
		if _, set := meta[k]; set {
			continue
		}
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		meta[k] = b
	}
	mb, err := json.Marshal(meta)
	if err != nil {
		return nil, err
	}
	obj["_meta"] = mb
	return json.Marshal(obj)
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
