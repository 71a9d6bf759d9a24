package transport

import (
	"context"
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

// An SSEConn is a [Conn] over the deprecated HTTP+SSE transport of
// 2024-11-05: replies arrive on a long-lived GET event stream, requests are
// POSTed to the endpoint that stream announced.
type SSEConn struct {
	h        *HTTPConn
	endpoint *url.URL
	r        *router
	cancel   context.CancelFunc
	body     io.Closer
	done     chan struct{}
	// Stream is the GET exchange that opened the stream (status, headers,
	// the events before the endpoint).
	Stream *HTTPInfo

	mu        sync.Mutex
	closed    bool
	closeOnce sync.Once
}

// StatusError reports an HTTP+SSE stream that could not be opened because
// the server answered the GET with something else than an event stream.
type StatusError struct {
	Status      int
	ContentType string
	Body        []byte
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("GET for an HTTP+SSE stream answered %d %s", e.Status, e.ContentType)
}

// DialSSE opens the event stream of a 2024-11-05 server: it GETs opts.URL
// and waits, within ctx, for the first "endpoint" event, whose data is the
// URI to POST to (resolved against opts.URL; another origin is refused).
// The stream then lives until Close, independent of ctx.
func DialSSE(ctx context.Context, opts *HTTPOptions) (_ *SSEConn, err error) {
	h, err := NewHTTP(opts)
	if err != nil {
		return nil, err
	}
	sctx, cancel := context.WithCancel(context.Background())
	stop := context.AfterFunc(ctx, cancel) // until the endpoint arrived
	defer func() {
		stop()
		if err != nil {
			cancel()
		}
	}()
	req, err := http.NewRequestWithContext(sctx, http.MethodGet, h.u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("build GET request: %w", err)
	}
	req.Header.Set("Accept", "text/event-stream")
	for k, vs := range h.opts.Header {
		req.Header[http.CanonicalHeaderKey(k)] = vs
	}
	resp, err := h.client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, incomplete(fmt.Sprintf("server did not open an event stream at %s in time", h.u.Redacted()), ErrTimeout, ctx.Err())
		}
		return nil, netError(h.u, err)
	}
	defer func() {
		if err != nil {
			resp.Body.Close()
		}
	}()
	info := &HTTPInfo{Status: resp.StatusCode, Header: resp.Header, ContentType: resp.Header.Get("Content-Type")}
	if mt, _, _ := mime.ParseMediaType(info.ContentType); resp.StatusCode != http.StatusOK || mt != "text/event-stream" {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		se := &StatusError{Status: resp.StatusCode, ContentType: info.ContentType, Body: body}
		return nil, incomplete(se.Error(), ErrUnreachable, se)
	}

	sr := jsonrpc.NewSSEReader(resp.Body)
	var endpoint *url.URL
	for endpoint == nil {
		ev, rerr := sr.Next()
		if rerr != nil {
			if ctx.Err() != nil {
				return nil, incomplete(fmt.Sprintf("server sent no endpoint event at %s in time", h.u.Redacted()), ErrTimeout, ctx.Err())
			}
			return nil, incomplete(fmt.Sprintf("event stream at %s ended before an endpoint event", h.u.Redacted()), ErrExited, rerr)
		}
		info.Events = append(info.Events, ev)
		if ev.Event != "endpoint" {
			continue
		}
		ref, perr := url.Parse(strings.TrimSpace(string(ev.Data)))
		if perr != nil {
			return nil, incomplete(fmt.Sprintf("endpoint event %q is not a URI", ev.Data), ErrUnreachable, perr)
		}
		endpoint = h.u.ResolveReference(ref)
		if endpoint.Scheme != h.u.Scheme || endpoint.Host != h.u.Host {
			return nil, incomplete(fmt.Sprintf("endpoint %s is on another origin than %s; refusing to send to it", endpoint.Redacted(), h.u.Host), ErrUnreachable, nil)
		}
	}

	c := &SSEConn{h: h, endpoint: endpoint, cancel: cancel, body: resp.Body, done: make(chan struct{}), Stream: info}
	c.r = newRouter(opts.OnFrame, opts.OnServerRequest)
	c.r.answer = func(frame []byte) {
		r, err := h.do(sctx, endpoint, &Call{Frame: frame}, false)
		switch {
		case err != nil:
			c.r.diag(fmt.Sprintf("answer to a server request not delivered: %v", err), frame)
		case r.HTTP.Status/100 != 2:
			c.r.diag(fmt.Sprintf("answer to a server request got HTTP %d", r.HTTP.Status), frame)
		}
	}
	go c.readLoop(sr)
	return c, nil
}

func (c *SSEConn) readLoop(sr *jsonrpc.SSEReader) {
	defer close(c.done)
	var rerr error
	for {
		ev, err := sr.Next()
		if err != nil {
			rerr = err
			break
		}
		switch {
		case ev.Event != "" && ev.Event != "message":
			c.r.diag(fmt.Sprintf("event of type %q ignored", ev.Event), ev.Data)
		case len(ev.Data) == 0:
		default:
			c.r.receive(ev.Data)
		}
	}
	c.r.end(func(method string) error {
		if c.isClosed() {
			return incomplete(method+": connection closed", ErrClosed, nil)
		}
		return incomplete("server closed the event stream before answering "+method, ErrExited, rerr)
	})
}

func (c *SSEConn) isClosed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
}

// Endpoint returns the URI requests are POSTed to.
func (c *SSEConn) Endpoint() string { return c.endpoint.String() }

// Kind implements [Conn]; it returns "sse".
func (c *SSEConn) Kind() string { return "sse" }

// Diagnostics returns oddities seen on the stream: events of other types,
// replies nobody waited for, junk data.
func (c *SSEConn) Diagnostics() []Diagnostic {
	return append(c.r.diagnostics(), c.h.Diagnostics()...)
}

// Call POSTs the frame to the endpoint and, for a request, waits for the
// reply on the event stream. Reply.HTTP describes the POST (normally 202).
// A non-2xx POST returns at once with that status; a reply in the POST's
// own JSON body is accepted too.
func (c *SSEConn) Call(ctx context.Context, call *Call) (*Reply, error) {
	if c.isClosed() {
		return nil, incomplete("call "+methodOf(call.Frame)+": connection closed", ErrClosed, nil)
	}
	var w *waiter
	if !call.ID.IsZero() {
		var err error
		if w, err = c.r.register(call.ID, call.Frame); err != nil {
			return nil, err
		}
	}
	start := time.Now()
	post, err := c.h.do(ctx, c.endpoint, call, false)
	if err != nil || w == nil || post.Response != nil || post.HTTP.Status/100 != 2 {
		if w != nil {
			c.r.unregister(call.ID, err != nil)
		}
		return post, err
	}
	reply, err := c.r.await(ctx, call.ID, w, call.Frame, start)
	if reply != nil {
		reply.HTTP = post.HTTP
		reply.Related = append(post.Related, reply.Related...)
	}
	return reply, err
}

// Close cancels the event stream and waits for its reader.
func (c *SSEConn) Close() error {
	c.closeOnce.Do(func() {
		c.mu.Lock()
		c.closed = true
		c.mu.Unlock()
		c.cancel()
		c.body.Close()
		<-c.done
		c.r.answers.Wait()
		c.h.Close()
	})
	return nil
}
