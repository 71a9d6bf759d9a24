package transport

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/mcpward/mcpward/internal/jsonrpc"
)

// HTTPOptions configures [NewHTTP] and [DialSSE].
type HTTPOptions struct {
	// URL is the MCP endpoint.
	URL string
	// Header holds the user's --header values, sent on every request that
	// is not Bare.
	Header http.Header
	// RoundTripper carries the requests; nil means a fresh *http.Transport
	// that ignores proxy settings from the environment.
	RoundTripper http.RoundTripper
	// MaxResponseBytes caps the response body kept and read; beyond it
	// HTTPInfo.Truncated is set and reading stops. Default 16 MiB.
	MaxResponseBytes int64
	// OnServerRequest answers requests the server sends inside a response
	// stream (e.g. ping); the answer is POSTed to the endpoint.
	OnServerRequest func(m jsonrpc.Message) []byte
	// OnFrame observes every frame sent and every message received.
	OnFrame func(f Frame)
}

const sessionHeader = "Mcp-Session-Id"

// An HTTPConn is a [Conn] to a Streamable HTTP endpoint (and to the
// 2025-03-26 flavour with sessions). Each Call is one HTTP request.
type HTTPConn struct {
	u       *url.URL
	opts    HTTPOptions
	client  *http.Client
	ownRT   *http.Transport
	maxBody int64

	mu      sync.Mutex
	session string
	closed  bool
	diags   []Diagnostic
}

// NewHTTP returns a Conn that POSTs frames to opts.URL. It does not
// contact the server. An invalid URL is an error marked fault.Input.
func NewHTTP(opts *HTTPOptions) (*HTTPConn, error) {
	if opts == nil {
		opts = &HTTPOptions{}
	}
	u, err := parseEndpoint(opts.URL)
	if err != nil {
		return nil, err
	}
	c := &HTTPConn{u: u, opts: *opts, maxBody: opts.MaxResponseBytes}
	if c.maxBody <= 0 {
		c.maxBody = 16 << 20
	}
	c.client, c.ownRT = newHTTPClient(opts.RoundTripper)
	return c, nil
}

func parseEndpoint(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, inputError(fmt.Sprintf("server URL %q: %v", raw, errors.Unwrap(err)))
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil, inputError(fmt.Sprintf("server URL %q: want http:// or https:// and a host", raw))
	}
	return u, nil
}

func newHTTPClient(rt http.RoundTripper) (*http.Client, *http.Transport) {
	var own *http.Transport
	if rt == nil {
		own = &http.Transport{
			Proxy:               nil, // never from the environment
			ForceAttemptHTTP2:   true,
			MaxIdleConnsPerHost: 4,
			IdleConnTimeout:     30 * time.Second,
			TLSHandshakeTimeout: 10 * time.Second,
		}
		rt = own
	}
	return &http.Client{
		Transport: rt,
		// Redirects are evidence, never followed: a 3xx is returned.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}, own
}

// Kind implements [Conn]; it returns "http".
func (c *HTTPConn) Kind() string { return "http" }

// SessionID returns the Mcp-Session-Id captured from the last response
// that carried one, or "".
func (c *HTTPConn) SessionID() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.session
}

// SetSessionID replaces the session id sent on later requests ("" to stop
// sending one), e.g. to probe how a server treats an unknown session.
func (c *HTTPConn) SetSessionID(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.session = id
}

// Diagnostics returns oddities seen in responses: unterminated SSE events,
// undecodable event data.
func (c *HTTPConn) Diagnostics() []Diagnostic {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Diagnostic(nil), c.diags...)
}

func (c *HTTPConn) diag(text string, raw []byte) {
	if len(raw) > maxDiagRaw {
		raw = raw[:maxDiagRaw]
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.diags) < maxDiagnostics {
		c.diags = append(c.diags, Diagnostic{Time: time.Now(), Text: text, Raw: append([]byte(nil), raw...)})
	}
}

// Close releases idle connections. Calls after Close fail with ErrClosed.
func (c *HTTPConn) Close() error {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	if c.ownRT != nil {
		c.ownRT.CloseIdleConnections()
	}
	return nil
}

func (c *HTTPConn) observe(dir string, raw []byte, m jsonrpc.Message) {
	if c.opts.OnFrame != nil {
		c.opts.OnFrame(Frame{Dir: dir, Raw: raw, Time: time.Now(), Msg: m})
	}
}

// Call sends c.Frame in one HTTP request (POST unless HTTPMethod says
// otherwise) and reads the response.
//
// An application/json body is decoded as one message or a batch. A
// text/event-stream body is read event by event, skipping events with
// empty data, until the message answering call.ID arrived; the rest of
// the stream is then abandoned. Server requests inside the stream are
// answered through OnServerRequest. A Call without an ID reads an event
// stream until it ends or ctx is done, and ctx ending is then not an
// error: the Reply holds what arrived.
//
// Any HTTP status is a Reply, not an error. Errors are network failures
// ([ErrUnreachable]) and a ctx deadline before the awaited reply
// ([ErrTimeout]); on the latter, the partial Reply is returned too.
func (c *HTTPConn) Call(ctx context.Context, call *Call) (*Reply, error) {
	c.mu.Lock()
	closed := c.closed
	c.mu.Unlock()
	if closed {
		return nil, incomplete("call "+methodOf(call.Frame)+": connection closed", ErrClosed, nil)
	}
	return c.do(ctx, c.u, call, true)
}

func (c *HTTPConn) newRequest(ctx context.Context, u *url.URL, call *Call) (*http.Request, error) {
	method := call.HTTPMethod
	if method == "" {
		method = http.MethodPost
	}
	var body io.Reader
	if len(call.Frame) > 0 {
		body = bytes.NewReader(call.Frame)
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), body)
	if err != nil {
		return nil, fmt.Errorf("build %s request: %w", method, err)
	}
	if !call.Bare {
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if s := c.SessionID(); s != "" {
			req.Header.Set(sessionHeader, s)
		}
		for k, vs := range c.opts.Header {
			req.Header.Del(k)
			for _, v := range vs {
				req.Header.Add(k, v)
			}
		}
	}
	for k, vs := range call.Header {
		req.Header.Del(k)
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	if call.Bare && req.Header.Get("User-Agent") == "" {
		// Go would add its own; bare means only what the caller gave.
		req.Header["User-Agent"] = []string{""}
	}
	return req, nil
}

// do runs one exchange; readStream says whether to look for the reply in
// an event stream (false for the legacy transport's POSTs).
func (c *HTTPConn) do(ctx context.Context, u *url.URL, call *Call, readStream bool) (*Reply, error) {
	start := time.Now()
	req, err := c.newRequest(ctx, u, call)
	if err != nil {
		return nil, err
	}
	c.observe(DirSend, call.Frame, jsonrpc.Decode(call.Frame))
	resp, err := c.client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctxError(ctx, call.Frame, start)
		}
		return nil, netError(u, err)
	}
	defer resp.Body.Close()
	c.captureSession(req, resp)

	info := &HTTPInfo{Status: resp.StatusCode, Header: resp.Header, ContentType: resp.Header.Get("Content-Type")}
	reply := &Reply{HTTP: info}
	capture := &cappedBody{r: resp.Body, max: c.maxBody}
	mediaType, _, _ := mime.ParseMediaType(info.ContentType)

	switch {
	case mediaType == "text/event-stream" && readStream:
		err = c.readEvents(ctx, call, capture, reply, u)
	default:
		_, err = io.Copy(io.Discard, capture)
		if err == nil && mediaType == "application/json" && !capture.truncated {
			c.takeMessages(call.ID, capture.buf.Bytes(), reply)
		}
	}
	info.Body = capture.buf.Bytes()
	info.Truncated = capture.truncated
	if err == nil && ctx.Err() != nil && !call.ID.IsZero() && reply.Response == nil && readStream {
		// The body ended because the deadline closed it.
		return reply, ctxError(ctx, call.Frame, start)
	}
	if err != nil && !errors.Is(err, errTruncated) {
		if ctx.Err() != nil {
			if call.ID.IsZero() {
				return reply, nil
			}
			return reply, ctxError(ctx, call.Frame, start)
		}
		return reply, netError(u, err)
	}
	return reply, nil
}

func (c *HTTPConn) captureSession(req *http.Request, resp *http.Response) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s := resp.Header.Get(sessionHeader); s != "" {
		c.session = s
		return
	}
	// A session the server forgot: the next initialize must go without it.
	if resp.StatusCode == http.StatusNotFound && req.Header.Get(sessionHeader) == c.session {
		c.session = ""
	}
}

// takeMessages decodes a JSON body into the reply: the message answering
// id becomes Response, every other one Related.
func (c *HTTPConn) takeMessages(id jsonrpc.ID, body []byte, reply *Reply) {
	if len(bytes.TrimSpace(body)) == 0 {
		return
	}
	m := jsonrpc.Decode(body)
	c.observe(DirRecv, body, m)
	msgs := []jsonrpc.Message{m}
	if m.Kind == jsonrpc.KindBatch {
		msgs = m.Batch
	}
	for _, e := range msgs {
		if reply.Response == nil && !id.IsZero() && replyLike(e) && e.ID.Equal(id) {
			reply.Response = &e
			continue
		}
		reply.Related = append(reply.Related, e)
	}
}

// readEvents reads an event stream until the reply to call.ID arrived.
func (c *HTTPConn) readEvents(ctx context.Context, call *Call, body io.Reader, reply *Reply, u *url.URL) error {
	sr := jsonrpc.NewSSEReader(body)
	for {
		ev, err := sr.Next()
		if err != nil {
			if ev, ok := sr.Pending(); ok && err == io.EOF {
				c.diag("event stream ended inside an event (no blank line after it); the event was dropped", ev.Data)
			}
			if err == io.EOF {
				return nil
			}
			return err
		}
		reply.HTTP.Events = append(reply.HTTP.Events, ev)
		if len(ev.Data) == 0 {
			continue // priming and keep-alive events carry no message
		}
		m := jsonrpc.Decode(ev.Data)
		c.observe(DirRecv, ev.Data, m)
		if m.Kind == jsonrpc.KindInvalid {
			c.diag(fmt.Sprintf("event data is not a JSON-RPC message: %v", m.Err), ev.Data)
		}
		if !call.ID.IsZero() && replyLike(m) && m.ID.Equal(call.ID) {
			reply.Response = &m
			return nil // the stream may stay open; we have what we came for
		}
		reply.Related = append(reply.Related, m)
		if m.Kind == jsonrpc.KindRequest && c.opts.OnServerRequest != nil {
			if ans := c.opts.OnServerRequest(m); ans != nil {
				c.postAnswer(ctx, u, ans)
			}
		}
	}
}

// postAnswer POSTs the answer to a server request while the stream that
// carried the request stays open.
func (c *HTTPConn) postAnswer(ctx context.Context, u *url.URL, frame []byte) {
	r, err := c.do(ctx, u, &Call{Frame: frame}, false)
	switch {
	case err != nil:
		c.diag(fmt.Sprintf("answer to a server request not delivered: %v", err), frame)
	case r.HTTP.Status/100 != 2:
		c.diag(fmt.Sprintf("answer to a server request got HTTP %d", r.HTTP.Status), frame)
	}
}

var errTruncated = errors.New("response body exceeds the size cap")

// cappedBody copies what it reads into buf up to max bytes, then stops
// with errTruncated.
type cappedBody struct {
	r         io.Reader
	buf       bytes.Buffer
	max       int64
	truncated bool
}

func (b *cappedBody) Read(p []byte) (int, error) {
	room := b.max - int64(b.buf.Len())
	if room <= 0 {
		b.truncated = true
		return 0, errTruncated
	}
	if int64(len(p)) > room {
		p = p[:room+1] // one byte more tells a body of exactly max apart
	}
	n, err := b.r.Read(p)
	if int64(n) > room {
		n = int(room)
		b.truncated = true
		err = errTruncated
	}
	b.buf.Write(p[:n])
	return n, err
}

func inputError(msg string) error { return faultInput(errors.New(msg)) }

// ParseHeaderFlag splits a --header value "Name: value" or "Name=value".
// Its errors say what is wrong, not which value: the caller names it.
func ParseHeaderFlag(kv string) (name, value string, err error) {
	i := strings.IndexAny(kv, ":=")
	if i <= 0 {
		return "", "", inputError(`want NAME=VALUE or "NAME: VALUE"`)
	}
	name = strings.TrimSpace(kv[:i])
	value = strings.TrimSpace(kv[i+1:])
	for _, r := range name {
		if !isTokenChar(r) {
			return "", "", faultInput(fmt.Errorf("%q is not a valid header name", name))
		}
	}
	if strings.ContainsAny(value, "\r\n\x00") {
		return "", "", inputError("the value contains a line break or NUL")
	}
	return http.CanonicalHeaderKey(name), value, nil
}

func isTokenChar(r rune) bool {
	return r < 0x7f && r > 0x20 && !strings.ContainsRune(`"(),/:;<=>?@[\]{}`, r)
}

// ExpandEnv interpolates ${NAME} in value (NAME matching
// [A-Za-z_][A-Za-z0-9_]*) with lookup. An unset variable is an error
// naming it, marked fault.Input; "$NAME" without braces, and anything else,
// stays literal.
func ExpandEnv(value string, lookup func(string) (string, bool)) (string, error) {
	var b strings.Builder
	for {
		i := strings.Index(value, "${")
		if i < 0 {
			b.WriteString(value)
			return b.String(), nil
		}
		j := strings.IndexByte(value[i:], '}')
		if j < 0 || !isEnvName(value[i+2:i+j]) {
			b.WriteString(value[:i+2])
			value = value[i+2:]
			continue
		}
		name := value[i+2 : i+j]
		v, ok := lookup(name)
		if !ok {
			return "", faultInput(fmt.Errorf("environment variable %s is not set", name))
		}
		b.WriteString(value[:i])
		b.WriteString(v)
		value = value[i+j+1:]
	}
}

func isEnvName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_', r >= 'A' && r <= 'Z', r >= 'a' && r <= 'z':
		case i > 0 && r >= '0' && r <= '9':
		default:
			return false
		}
	}
	return true
}
