package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpward/mcpward/internal/hostguard"
	"github.com/mcpward/mcpward/internal/jsonrpc"
	"github.com/mcpward/mcpward/internal/redact"
	"github.com/mcpward/mcpward/internal/session"
)

// HTTPOptions configure an HTTPProxy.
type HTTPOptions struct {
	// Target is the upstream server. Only its scheme and host are used:
	// request paths are forwarded unchanged.
	Target *url.URL
	// Recorder receives every request and response; nil records nothing.
	Recorder Recorder
	// Transport sends the upstream requests. The default neither follows
	// redirects, nor uses proxy environment variables, nor asks for
	// compression on its own.
	Transport http.RoundTripper
	// MaxFrame caps the recorded copy of one body or event
	// (DefaultMaxFrame if 0).
	MaxFrame int
	// Now stamps records; time.Now if nil.
	Now func() time.Time
	// BodyTimeout bounds the time a client may take to send a request body
	// (DefaultBodyTimeout if 0; negative: no bound), so that a body
	// dribbled a byte at a time cannot hold a request open for ever. A
	// client past it gets 408. The bound ends with the body: a response
	// stream after it may last for hours.
	BodyTimeout time.Duration
	// Loopback says the proxy listens on a loopback address. It then
	// guards against DNS rebinding, where a web page reaches a local
	// server through a name its owner controls: a request is refused
	// (403, JSON-RPC error body) unless its Host is a loopback name or
	// address with the port the request arrived on, and its Origin, if
	// any, is on a loopback host. Origin is forwarded unchanged.
	Loopback bool
	// AllowHosts are further names accepted in Host and Origin when
	// Loopback is set: "name" with any port, or "name:port".
	AllowHosts []string
}

// An HTTPProxy is a reverse proxy for MCP over HTTP: Streamable HTTP (JSON
// and SSE responses, GET streams, DELETE) and the 2024-11-05 HTTP+SSE
// transport. Requests go to the same path on the target. A request body
// up to 1 MiB is read whole before it is sent on, a bigger one streamed
// (full duplex); responses are streamed without buffering, flushed after
// every read. Every exchange gets an id that its records share. When the
// target's response breaks off, the client's is broken off too (never
// ended cleanly), after the error is recorded; a client that goes away is
// recorded as such. On a loopback listener, requests with a foreign Host
// or Origin are refused (see [HTTPOptions.Loopback]).
//
// The bytes are relayed unchanged with two exceptions, both needed to keep
// the client talking through the proxy: the hop-by-hop headers of
// RFC 9110 §7.6.1 are not forwarded, and Host is the target's. In a legacy
// HTTP+SSE stream, an "endpoint" event whose URI is absolute and points at
// the target's origin is rewritten to the proxy's origin (a relative URI,
// the common case, is left alone); the record keeps what the server sent.
type HTTPProxy struct {
	opts     HTTPOptions
	origin   string // scheme://host of the target
	exchange atomic.Uint64
}

// NewHTTPProxy returns a proxy to opts.Target.
func NewHTTPProxy(opts *HTTPOptions) *HTTPProxy {
	p := &HTTPProxy{opts: *opts}
	if p.opts.Transport == nil {
		p.opts.Transport = &http.Transport{
			DialContext:           (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
			ForceAttemptHTTP2:     true,
			MaxIdleConns:          100,
			MaxIdleConnsPerHost:   100,
			IdleConnTimeout:       90 * time.Second,
			TLSHandshakeTimeout:   10 * time.Second,
			ExpectContinueTimeout: time.Second,
			DisableCompression:    true,
		}
	}
	if p.opts.MaxFrame <= 0 {
		p.opts.MaxFrame = DefaultMaxFrame
	}
	if p.opts.Now == nil {
		p.opts.Now = time.Now
	}
	if p.opts.BodyTimeout == 0 {
		p.opts.BodyTimeout = DefaultBodyTimeout
	}
	p.origin = opts.Target.Scheme + "://" + opts.Target.Host
	return p
}

// hopHeaders are not forwarded (RFC 9110 §7.6.1).
var hopHeaders = []string{"Connection", "Keep-Alive", "Proxy-Connection", "Proxy-Authenticate", "Proxy-Authorization", "Te", "Trailer", "Transfer-Encoding", "Upgrade"}

func removeHop(h http.Header) {
	for _, f := range h.Values("Connection") {
		for _, name := range strings.Split(f, ",") {
			if name = strings.TrimSpace(name); name != "" {
				h.Del(name)
			}
		}
	}
	for _, k := range hopHeaders {
		h.Del(k)
	}
}

// recordedHeaders picks the headers that go into the log: routing,
// session, content negotiation, the auth challenge and the W3C trace
// context (a traceparent header puts the call's span in the caller's
// trace); never credentials.
func recordedHeaders(h http.Header) map[string][]string {
	var out map[string][]string
	for k, v := range h {
		ck := http.CanonicalHeaderKey(k)
		switch {
		case ck == "Mcp-Protocol-Version", ck == "Mcp-Method", ck == "Mcp-Name", strings.HasPrefix(ck, "Mcp-Param-"),
			ck == "Mcp-Session-Id", ck == "Content-Type", ck == "Accept", ck == "Last-Event-Id",
			ck == "Www-Authenticate", ck == "Location", ck == "Content-Encoding", ck == "Traceparent", ck == "Tracestate":
			if out == nil {
				out = map[string][]string{}
			}
			out[ck] = append([]string(nil), v...)
		}
	}
	return out
}

func (p *HTTPProxy) record(recs ...session.Record) {
	if p.opts.Recorder != nil {
		p.opts.Recorder.Record(recs...)
	}
}

// ServeHTTP implements http.Handler.
func (p *HTTPProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ex := p.exchange.Add(1)
	reqRec := session.Record{
		Dir: session.ClientToServer, Transport: session.HTTP, Exchange: ex,
		Method: r.Method, Path: r.URL.RequestURI(), Header: recordedHeaders(r.Header),
		MCPSessionID: r.Header.Get("Mcp-Session-Id"),
	}
	out := r.Clone(r.Context())
	u := *p.opts.Target
	u.Path, u.RawPath, u.RawQuery, u.Fragment = r.URL.Path, r.URL.RawPath, r.URL.RawQuery, ""
	out.URL, out.Host, out.RequestURI = &u, p.opts.Target.Host, ""
	removeHop(out.Header)
	if _, ok := out.Header["User-Agent"]; !ok {
		out.Header["User-Agent"] = nil // do not let the client library add its own
	}

	var once sync.Once
	// The request is recorded when its body ends, or when the response
	// begins if that comes first (the record then holds what was read).
	emitReq := func(body *capture) {
		once.Do(func() {
			rec := reqRec
			rec.Time = p.opts.Now()
			if body != nil {
				b, size := body.freeze()
				if r.ContentLength > size {
					size = r.ContentLength
				}
				if size > 0 {
					rec.Frame, rec.HasFrame, rec.Size, rec.Truncated = b, true, size, size > int64(len(b))
				}
			}
			p.record(rec)
		})
	}
	if p.opts.Loopback {
		if why := p.refusal(r); why != "" {
			emitReq(nil)
			p.forbid(w, ex, why)
			return
		}
	}
	var body *capture
	hasBody := !(r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0)
	in := &deadlineBody{rc: r.Body}
	if hasBody && p.opts.BodyTimeout > 0 {
		// Real time, whatever clock stamps the records.
		_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(p.opts.BodyTimeout))
	}
	switch {
	case !hasBody:
		out.Body = nil
		emitReq(nil)
	case r.ContentLength > 0 && r.ContentLength <= smallBody:
		// A body of known, small size is read whole and sent from
		// memory: the Transport never reads r.Body, which net/http may
		// consume and close as soon as the response head is written.
		b := make([]byte, r.ContentLength)
		n, err := io.ReadFull(in, b)
		body = &capture{max: p.opts.MaxFrame, buf: b[:min(n, p.opts.MaxFrame)], size: int64(n)}
		emitReq(body)
		if err != nil {
			p.bodyFailed(w, ex, in, err)
			return
		}
		out.Body = io.NopCloser(bytes.NewReader(b))
		out.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }
	default:
		// A big or chunked body is streamed. Full duplex keeps net/http
		// from consuming and closing r.Body when the response head is
		// written while the Transport is still reading it (an HTTP/2
		// connection is full duplex already).
		_ = http.NewResponseController(w).EnableFullDuplex()
		body = &capture{max: p.opts.MaxFrame}
		out.Body = &teeBody{rc: in, c: body, onEnd: func() { emitReq(body) }}
	}

	resp, err := p.opts.Transport.RoundTrip(out)
	if err != nil {
		emitReq(body)
		if in.timedOut {
			p.bodyFailed(w, ex, in, err)
			return
		}
		p.fail(w, r, ex, err)
		return
	}
	defer resp.Body.Close()
	emitReq(body)

	h := w.Header()
	for k, v := range resp.Header {
		h[k] = v
	}
	removeHop(h)
	respRec := session.Record{
		Dir: session.ServerToClient, Transport: session.HTTP, Exchange: ex, Status: resp.StatusCode,
		Header: recordedHeaders(resp.Header), MCPSessionID: resp.Header.Get("Mcp-Session-Id"),
		AuthChallenge: strings.Join(resp.Header.Values("Www-Authenticate"), ", "),
	}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	isSSE := mt == "text/event-stream"
	if isSSE {
		// The head of a stream is recorded at once; events follow.
		rec := respRec
		rec.Time = p.opts.Now()
		p.record(rec)
	}
	w.WriteHeader(resp.StatusCode)
	rc := http.NewResponseController(w)
	_ = rc.Flush()

	var (
		sse      *sseSplitter
		whole    *capture
		endpoint *endpointRewrite
	)
	// Nothing is kept for a proxy that records nothing (--no-trace).
	recording := p.opts.Recorder != nil
	switch {
	case isSSE && recording:
		sse = &sseSplitter{max: p.opts.MaxFrame}
	case recording:
		whole = newCapture(p.opts.MaxFrame, resp.ContentLength)
	}
	if isSSE && r.Method == http.MethodGet {
		endpoint = &endpointRewrite{from: p.origin, to: proxyOrigin(r)}
	}
	var readErr, writeErr error
	forward := func(chunk []byte) {
		fwd := chunk
		if endpoint != nil {
			fwd = endpoint.feed(chunk)
			if endpoint.done {
				endpoint = nil
			}
		}
		if writeErr == nil && len(fwd) > 0 {
			if _, werr := w.Write(fwd); werr != nil {
				writeErr = werr
			} else {
				_ = rc.Flush()
			}
		}
	}
	// A read fails also when the client goes away: the upstream request
	// shares its context. That is the client's abort, not the server's.
	clientGone := func() bool { return writeErr != nil || (readErr != nil && r.Context().Err() != nil) }
	recordWhole := func() {
		rec := respRec
		rec.Time = p.opts.Now()
		if b, size := whole.freeze(); size > 0 {
			rec.Frame, rec.HasFrame, rec.Size, rec.Truncated = b, true, size, size > int64(len(b))
		}
		rec.Error = streamErr(readErr, writeErr, clientGone())
		p.record(rec)
	}
	// The order of the wire: what the client reads is recorded before it
	// is forwarded, since the client may answer it at once (an event is a
	// server's request; a whole body ends a call). An event is recorded
	// when its blank line is read; a whole body when its last read is, which
	// the announced length or an EOF coming with the data tells; a body of
	// unknown length is forwarded one read behind, so that the read after
	// a chunk tells whether the chunk was the last.
	behindOne := whole != nil && resp.ContentLength < 0
	buf, spare := make([]byte, 32<<10), []byte(nil)
	if behindOne {
		spare = make([]byte, len(buf))
	}
	var (
		behind   []byte // read, not yet forwarded (behindOne)
		total    int64
		recorded bool // whole is in the log
	)
	for {
		n, err := resp.Body.Read(buf)
		total += int64(n)
		if err != nil && !errors.Is(err, io.EOF) {
			readErr = err
		}
		last := err != nil || (resp.ContentLength >= 0 && total >= resp.ContentLength)
		chunk := buf[:n]
		switch {
		case n == 0:
		case sse != nil:
			p.recordEvents(&respRec, sse.feed(chunk))
		case whole != nil:
			whole.Write(chunk)
		}
		if last && whole != nil && !recorded {
			recordWhole()
			recorded = true
		}
		if behind != nil {
			forward(behind)
			behind = nil
		}
		if n > 0 {
			if behindOne && !last && writeErr == nil {
				behind = chunk
				buf, spare = spare, buf
			} else {
				forward(chunk)
			}
		}
		if err != nil || writeErr != nil {
			// At the end, or the client is gone: stop reading the upstream.
			break
		}
	}
	if endpoint != nil && len(endpoint.held) > 0 && writeErr == nil {
		_, _ = w.Write(endpoint.held)
		_ = rc.Flush()
	}
	errText := streamErr(readErr, writeErr, clientGone())
	switch {
	case !recording:
	case sse != nil:
		p.recordEvents(&respRec, sse.finish())
		if errText != "" {
			p.record(session.Record{Time: p.opts.Now(), Dir: session.ServerToClient, Transport: session.HTTP, Exchange: ex, Error: errText})
		}
	case !recorded:
		recordWhole()
	case writeErr != nil:
		// The body was recorded whole; forwarding its end failed.
		p.record(session.Record{Time: p.opts.Now(), Dir: session.ServerToClient, Transport: session.HTTP, Exchange: ex, Error: errText})
	}
	if readErr != nil && !clientGone() {
		// The upstream response broke off: break off the client's too,
		// so that it sees a truncated transfer instead of a clean end.
		panic(http.ErrAbortHandler)
	}
}

// smallBody is the largest request body read whole before it is sent
// upstream; bigger ones are streamed.
const smallBody = 1 << 20

func streamErr(readErr, writeErr error, clientGone bool) string {
	switch {
	case writeErr != nil:
		return "client went away: " + writeErr.Error()
	case readErr != nil && clientGone:
		return "client went away: " + readErr.Error()
	case readErr != nil:
		return "upstream body: " + readErr.Error()
	}
	return ""
}

// DefaultBodyTimeout is HTTPOptions.BodyTimeout's default: a minute for
// a JSON-RPC message, which on any link is plenty.
const DefaultBodyTimeout = time.Minute

// A deadlineBody is a request body read under HTTPOptions.BodyTimeout: it
// notes whether a read ran past the deadline. The deadline needs no
// lifting: net/http clears it once the body has ended (its background read
// for a closed connection), and a body that did not arrive whole keeps it
// for the drain after the handler, which must not wait for ever either.
type deadlineBody struct {
	rc       io.ReadCloser
	timedOut bool
}

func (d *deadlineBody) Read(p []byte) (int, error) {
	n, err := d.rc.Read(p)
	var ne net.Error
	if err != nil && errors.As(err, &ne) && ne.Timeout() {
		d.timedOut = true
	}
	return n, err
}

func (d *deadlineBody) Close() error { return d.rc.Close() }

// bodyFailed records a request body that did not arrive whole: past the
// deadline it answers 408, else the client is gone and nothing is sent.
func (p *HTTPProxy) bodyFailed(w http.ResponseWriter, ex uint64, in *deadlineBody, err error) {
	rec := session.Record{Time: p.opts.Now(), Dir: session.ServerToClient, Transport: session.HTTP, Exchange: ex}
	if !in.timedOut {
		rec.Error = "client went away while sending the request body: " + err.Error()
		p.record(rec)
		return
	}
	msg := fmt.Sprintf("mcpward proxy: the request body did not arrive within %s\n", p.opts.BodyTimeout)
	rec.Status, rec.Error = http.StatusRequestTimeout, msg[:len(msg)-1]
	p.record(rec)
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Connection", "close")
	w.WriteHeader(http.StatusRequestTimeout)
	_, _ = io.WriteString(w, msg)
}

// fail answers 502 when the target could not be reached, and records it.
func (p *HTTPProxy) fail(w http.ResponseWriter, r *http.Request, ex uint64, err error) {
	rec := session.Record{Time: p.opts.Now(), Dir: session.ServerToClient, Transport: session.HTTP, Exchange: ex}
	if r.Context().Err() != nil {
		rec.Error = "client went away before the response: " + err.Error()
		p.record(rec)
		return
	}
	msg := fmt.Sprintf("mcpward proxy: cannot reach %s: %v\n", p.origin, err)
	rec.Status, rec.Error = http.StatusBadGateway, msg[:len(msg)-1]
	p.record(rec)
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusBadGateway)
	_, _ = io.WriteString(w, msg)
}

func (p *HTTPProxy) recordEvents(head *session.Record, events []sseEvent) {
	if len(events) == 0 {
		return
	}
	now := p.opts.Now()
	recs := make([]session.Record, 0, len(events))
	for _, e := range events {
		rec := session.Record{
			Time: now, Dir: session.ServerToClient, Transport: session.HTTP, Exchange: head.Exchange,
			Status: head.Status, MCPSessionID: head.MCPSessionID,
			SSE: true, SSEEvent: e.event, SSEID: e.id,
		}
		if e.hasData {
			rec.Frame, rec.HasFrame, rec.Size, rec.Truncated = e.data, true, e.size, e.size > int64(len(e.data))
		}
		recs = append(recs, rec)
	}
	p.record(recs...)
}

// refusal says why a request to a loopback proxy must be refused (DNS
// rebinding), or returns "". Any loopback Origin passes: a local web app
// (an MCP inspector on another port) may talk to the proxy.
func (p *HTTPProxy) refusal(r *http.Request) string {
	g := hostguard.Guard{AllowHosts: p.opts.AllowHosts, LoopbackOrigins: true}
	if ref := g.Check(r); ref != nil {
		return ref.Error()
	}
	return ""
}

// forbid answers 403 with a JSON-RPC error (the client is an MCP client:
// it shows the message) and records why.
func (p *HTTPProxy) forbid(w http.ResponseWriter, ex uint64, why string) {
	msg := "mcpward proxy refused the request: " + why + " (DNS rebinding protection; allow a host name with --allow-host)"
	p.record(session.Record{Time: p.opts.Now(), Dir: session.ServerToClient, Transport: session.HTTP, Exchange: ex,
		Status: http.StatusForbidden, Error: msg})
	type rpcError struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	body, _ := json.Marshal(struct {
		JSONRPC string   `json:"jsonrpc"`
		ID      any      `json:"id"`
		Error   rpcError `json:"error"`
	}{"2.0", nil, rpcError{-32600, msg}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusForbidden)
	_, _ = w.Write(append(body, '\n'))
}

// RedactHTTPFilter returns a [LogOptions.Filter] for the values an HTTP
// record carries outside its header copy: MCPSessionID (on requests,
// responses and every event of a stream) and AuthChallenge. It hides in
// them what red hides in the Mcp-Session-Id and WWW-Authenticate headers,
// so neither the log, nor the live feed, nor OTLP (mcp.session.id) keeps a
// value the header copy lost. Run it after [RedactFilter]: it only sets
// Redacted, never clears it.
func RedactHTTPFilter(red *redact.Redactor) func(*session.Record) {
	return func(rec *session.Record) {
		if rec.MCPSessionID != "" {
			if v, hit := red.Header("Mcp-Session-Id", rec.MCPSessionID); hit {
				rec.MCPSessionID, rec.Redacted = v, true
			}
		}
		if rec.AuthChallenge != "" {
			if v, hit := red.Header("Www-Authenticate", rec.AuthChallenge); hit {
				rec.AuthChallenge, rec.Redacted = v, true
			}
		}
	}
}

// proxyOrigin is the origin the client used to reach the proxy.
func proxyOrigin(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// capture keeps the first max bytes of a body and counts all of them.
// A request body is read by the transport's goroutine, so it is locked;
// once frozen (recorded), it no longer changes.
type capture struct {
	mu     sync.Mutex
	max    int
	buf    []byte
	size   int64
	frozen bool
}

func (c *capture) Write(b []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.frozen {
		return len(b), nil
	}
	c.size += int64(len(b))
	c.buf = appendCapped(c.buf, b, c.max)
	return len(b), nil
}

// newCapture returns a capture of up to max bytes of a body that announced
// length bytes (-1 if unknown): a known length is allocated at once (up
// to maxPrealloc, so that a length announced but not sent costs little),
// the rest grows by doubling.
func newCapture(max int, length int64) *capture {
	c := &capture{max: max}
	if length > 0 {
		c.buf = make([]byte, 0, min(length, int64(max), maxPrealloc))
	}
	return c
}

// maxPrealloc bounds the capture allocated from a Content-Length.
const maxPrealloc = 8 << 20

// freeze returns the captured bytes and stops capturing.
func (c *capture) freeze() ([]byte, int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.frozen = true
	return c.buf, c.size
}

// teeBody captures a request body as the transport reads it. Once the
// body has ended it is not read again: the Transport reads past the end of
// a body of known length, and by then net/http may have closed r.Body.
type teeBody struct {
	rc    io.ReadCloser
	c     *capture
	onEnd func()
	err   error // what ended the body
}

func (t *teeBody) Read(p []byte) (int, error) {
	if t.err != nil {
		return 0, t.err
	}
	n, err := t.rc.Read(p)
	t.c.Write(p[:n])
	if err != nil {
		t.err = err
		t.onEnd()
	}
	return n, err
}

func (t *teeBody) Close() error {
	t.onEnd()
	return t.rc.Close()
}

// endpointRewrite holds back the start of a GET event stream until its
// first event is complete; if that is an "endpoint" event whose URI is
// absolute on the target's origin, the origin is replaced by the proxy's,
// so that the client posts its messages through the proxy.
type endpointRewrite struct {
	from, to string
	held     []byte
	done     bool
}

// maxHeld bounds what is held back looking for the first event.
const maxHeld = 64 << 10

func (e *endpointRewrite) feed(chunk []byte) []byte {
	e.held = append(e.held, chunk...)
	var out []byte
	for {
		end := blankLineEnd(e.held)
		if end < 0 {
			if len(e.held) > maxHeld {
				e.done = true
				out = append(out, e.held...)
				e.held = nil
			}
			return out
		}
		block := e.held[:end]
		evs, _ := jsonrpc.ParseSSE(append(bytes.Clone(block), '\n', '\n'))
		if len(evs) == 0 {
			// A comment or blank block: pass it and look at the next.
			out = append(out, block...)
			e.held = e.held[end:]
			continue
		}
		e.done = true
		if evs[0].Event == "endpoint" && strings.HasPrefix(string(evs[0].Data), e.from) {
			if rest := string(evs[0].Data[len(e.from):]); rest == "" || rest[0] == '/' || rest[0] == '?' {
				block = bytes.Replace(block, []byte(e.from), []byte(e.to), 1)
			}
		}
		out = append(out, block...)
		out = append(out, e.held[end:]...)
		e.held = nil
		return out
	}
}

// blankLineEnd returns the index just after the first blank line (the end
// of the first event), or -1.
func blankLineEnd(b []byte) int {
	for _, sep := range []string{"\n\n", "\r\n\r\n", "\r\r"} {
		if i := bytes.Index(b, []byte(sep)); i >= 0 {
			end := i + len(sep)
			// Take the earliest of the separators.
			for _, other := range []string{"\n\n", "\r\n\r\n", "\r\r"} {
				if j := bytes.Index(b, []byte(other)); j >= 0 && j+len(other) < end {
					end = j + len(other)
				}
			}
			return end
		}
	}
	return -1
}

// Timeouts of the proxy's server (see [ServeOptions]).
const (
	DefaultIdleTimeout       = 30 * time.Second
	DefaultReadHeaderTimeout = 30 * time.Second
)

// ServeOptions configure Serve; nil means plain HTTP and the defaults.
type ServeOptions struct {
	// CertFile and KeyFile, if set, serve TLS.
	CertFile, KeyFile string
	// IdleTimeout closes a keep-alive connection that waits this long for
	// its next request (DefaultIdleTimeout if 0).
	IdleTimeout time.Duration
	// ReadHeaderTimeout bounds the reading of a request head
	// (DefaultReadHeaderTimeout if 0).
	ReadHeaderTimeout time.Duration
}

// Serve serves h on ln until ctx ends, then shuts down, giving open
// requests (SSE streams) a short grace.
func Serve(ctx context.Context, ln net.Listener, h http.Handler, opts *ServeOptions) error {
	var o ServeOptions
	if opts != nil {
		o = *opts
	}
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = DefaultIdleTimeout
	}
	if o.ReadHeaderTimeout <= 0 {
		o.ReadHeaderTimeout = DefaultReadHeaderTimeout
	}
	// No ReadTimeout or WriteTimeout: an SSE stream may last for hours.
	srv := &http.Server{Handler: h, ReadHeaderTimeout: o.ReadHeaderTimeout, IdleTimeout: o.IdleTimeout}
	errc := make(chan error, 1)
	go func() {
		if o.CertFile != "" {
			errc <- srv.ServeTLS(ln, o.CertFile, o.KeyFile)
		} else {
			errc <- srv.Serve(ln)
		}
	}()
	select {
	case err := <-errc:
		return fmt.Errorf("serve %s: %w", ln.Addr(), err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		srv.Close()
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve %s: %w", ln.Addr(), err)
	}
	return nil
}
