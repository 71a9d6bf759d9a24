package proxy

import (
	"bytes"
	"context"
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

	"github.com/mcpward/mcpward/internal/jsonrpc"
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
}

// An HTTPProxy is a reverse proxy for MCP over HTTP: Streamable HTTP (JSON
// and SSE responses, GET streams, DELETE) and the 2024-11-05 HTTP+SSE
// transport. Requests go to the same path on the target; bodies are
// streamed both ways without buffering, a response flushed after every
// read. Every exchange gets an id that its records share.
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
// session, content negotiation and the auth challenge; never credentials.
func recordedHeaders(h http.Header) map[string][]string {
	var out map[string][]string
	for k, v := range h {
		ck := http.CanonicalHeaderKey(k)
		switch {
		case ck == "Mcp-Protocol-Version", ck == "Mcp-Method", ck == "Mcp-Name", strings.HasPrefix(ck, "Mcp-Param-"),
			ck == "Mcp-Session-Id", ck == "Content-Type", ck == "Accept", ck == "Last-Event-Id",
			ck == "Www-Authenticate", ck == "Location", ck == "Content-Encoding":
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
	var body *capture
	if r.Body != nil && r.Body != http.NoBody && r.ContentLength != 0 {
		body = &capture{max: p.opts.MaxFrame}
		out.Body = &teeBody{rc: r.Body, c: body, onEnd: func() { emitReq(body) }}
	} else {
		out.Body = nil
		emitReq(nil)
	}

	resp, err := p.opts.Transport.RoundTrip(out)
	if err != nil {
		emitReq(body)
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
	if isSSE {
		sse = &sseSplitter{max: p.opts.MaxFrame}
		if r.Method == http.MethodGet {
			endpoint = &endpointRewrite{from: p.origin, to: proxyOrigin(r)}
		}
	} else {
		whole = &capture{max: p.opts.MaxFrame}
	}
	buf := make([]byte, 32<<10)
	var readErr, writeErr error
	for {
		n, err := resp.Body.Read(buf)
		if n > 0 {
			chunk := buf[:n]
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
			if sse != nil {
				p.recordEvents(&respRec, sse.feed(chunk))
			} else {
				whole.Write(chunk)
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				readErr = err
			}
			break
		}
		if writeErr != nil {
			// The client is gone; stop reading the upstream.
			break
		}
	}
	if endpoint != nil && len(endpoint.held) > 0 && writeErr == nil {
		_, _ = w.Write(endpoint.held)
		_ = rc.Flush()
	}
	switch {
	case sse != nil:
		p.recordEvents(&respRec, sse.finish())
		if readErr != nil || writeErr != nil {
			p.record(session.Record{Time: p.opts.Now(), Dir: session.ServerToClient, Transport: session.HTTP, Exchange: ex, Error: streamErr(readErr, writeErr)})
		}
	default:
		rec := respRec
		rec.Time = p.opts.Now()
		if b, size := whole.freeze(); size > 0 {
			rec.Frame, rec.HasFrame, rec.Size, rec.Truncated = b, true, size, size > int64(len(b))
		}
		if readErr != nil || writeErr != nil {
			rec.Error = streamErr(readErr, writeErr)
		}
		p.record(rec)
	}
}

func streamErr(readErr, writeErr error) string {
	switch {
	case readErr != nil:
		return "upstream body: " + readErr.Error()
	case writeErr != nil:
		return "client went away: " + writeErr.Error()
	}
	return ""
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
	if room := c.max - len(c.buf); room > 0 {
		c.buf = append(c.buf, b[:min(room, len(b))]...)
	}
	return len(b), nil
}

// freeze returns the captured bytes and stops capturing.
func (c *capture) freeze() ([]byte, int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.frozen = true
	return c.buf, c.size
}

// teeBody captures a request body as the transport reads it.
type teeBody struct {
	rc    io.ReadCloser
	c     *capture
	onEnd func()
}

func (t *teeBody) Read(p []byte) (int, error) {
	n, err := t.rc.Read(p)
	t.c.Write(p[:n])
	if err != nil {
		t.onEnd()
	}
	return n, err
}

func (t *teeBody) Close() error {
	t.onEnd()
	return t.rc.Close()
}

// sseEvent is one recorded server-sent event.
type sseEvent struct {
	event, id string
	data      []byte
	hasData   bool
	size      int64
}

// sseSplitter cuts a text/event-stream into event blocks at blank lines
// (CRLF, LF or CR line ends) as bytes arrive, and parses each complete
// block. Blocks without an event field, id or data (comments, retry) are
// not returned.
type sseSplitter struct {
	max     int
	block   []byte
	size    int64
	midLine bool // the current line has content
	cr      bool // the last byte was CR (a following LF belongs to it)
}

func (s *sseSplitter) feed(chunk []byte) []sseEvent {
	var out []sseEvent
	from, i := 0, 0
	for i < len(chunk) {
		c := chunk[i]
		if c != '\r' && c != '\n' {
			s.cr, s.midLine = false, true
			j := bytes.IndexAny(chunk[i:], "\r\n")
			if j < 0 {
				break
			}
			i += j
			continue
		}
		i++
		if c == '\n' && s.cr {
			s.cr = false
			continue
		}
		s.cr = c == '\r'
		if !s.midLine {
			// A blank line: the event ends here.
			s.add(chunk[from:i])
			from = i
			if e, ok := s.parse(); ok {
				out = append(out, e)
			}
		}
		s.midLine = false
	}
	s.add(chunk[from:])
	return out
}

func (s *sseSplitter) add(b []byte) {
	s.size += int64(len(b))
	if room := s.max - len(s.block); room > 0 {
		s.block = append(s.block, b[:min(room, len(b))]...)
	}
}

// parse turns the assembled block into an event and resets.
func (s *sseSplitter) parse() (sseEvent, bool) {
	block, size := s.block, s.size
	s.block, s.size = nil, 0
	evs, _ := jsonrpc.ParseSSE(append(block, '\n', '\n'))
	if len(evs) == 0 {
		return sseEvent{}, false
	}
	e := evs[0]
	if !e.HasData && !e.HasID && e.Event == "" {
		return sseEvent{}, false
	}
	data := e.Data
	if data == nil && e.HasData {
		data = []byte{}
	}
	ev := sseEvent{event: e.Event, id: e.ID, data: data, hasData: e.HasData, size: int64(len(data))}
	if size > int64(len(block)) {
		ev.size = size // the block was cut at the cap: the data is partial
	}
	return ev, true
}

func (s *sseSplitter) finish() []sseEvent {
	if len(bytes.TrimSpace(s.block)) == 0 {
		return nil
	}
	e, ok := s.parse()
	if !ok {
		return nil
	}
	return []sseEvent{e}
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

// Serve serves h on ln until ctx ends, then shuts down, giving open
// requests (SSE streams) a short grace. With certFile and keyFile it
// serves TLS.
func Serve(ctx context.Context, ln net.Listener, h http.Handler, certFile, keyFile string) error {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 30 * time.Second}
	errc := make(chan error, 1)
	go func() {
		if certFile != "" {
			errc <- srv.ServeTLS(ln, certFile, keyFile)
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
