package transport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
)

// HandlerRoundTripper returns a RoundTripper that serves each request by
// calling h in-process, without a socket. The response body streams
// through a pipe as h writes it, so an event stream that stays open works
// and http.Flusher is supported. Closing the response body cancels the
// request's context, as a client disconnecting would.
func HandlerRoundTripper(h http.Handler) http.RoundTripper {
	return handlerRT{h: h}
}

type handlerRT struct{ h http.Handler }

func (rt handlerRT) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithCancel(req.Context())
	sreq := req.Clone(ctx)
	if sreq.Body == nil {
		sreq.Body = http.NoBody
	}
	sreq.RemoteAddr = "127.0.0.1:1"
	sreq.RequestURI = req.URL.RequestURI()
	if sreq.Host == "" {
		sreq.Host = req.URL.Host
	}
	if ua, ok := sreq.Header["User-Agent"]; ok && len(ua) == 1 && ua[0] == "" {
		delete(sreq.Header, "User-Agent") // an empty one is not sent on the wire
	}
	pr, pw := io.Pipe()
	// A deadline ends a body that is still streaming, as on a socket.
	context.AfterFunc(ctx, func() { pr.CloseWithError(context.Cause(ctx)) })
	w := &pipeResponseWriter{
		header:  http.Header{},
		pw:      pw,
		started: make(chan struct{}),
	}
	go func() {
		defer func() {
			if p := recover(); p != nil {
				w.fail(fmt.Errorf("handler panicked: %v", p))
				return
			}
			w.WriteHeader(http.StatusOK) // a handler that wrote nothing
			pw.Close()
		}()
		rt.h.ServeHTTP(w, sreq)
	}()
	select {
	case <-w.started:
	case <-ctx.Done():
		cancel()
		pr.CloseWithError(ctx.Err())
		return nil, ctx.Err()
	}
	if w.err != nil {
		cancel()
		return nil, w.err
	}
	return &http.Response{
		Status:        strconv.Itoa(w.status) + " " + http.StatusText(w.status),
		StatusCode:    w.status,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        w.sent,
		Body:          &cancelBody{PipeReader: pr, cancel: cancel},
		ContentLength: -1,
		Request:       req,
	}, nil
}

// cancelBody cancels the handler's context when the client closes it.
type cancelBody struct {
	*io.PipeReader
	cancel context.CancelFunc
}

func (b *cancelBody) Close() error {
	b.cancel()
	return b.PipeReader.CloseWithError(errors.New("response body closed"))
}

type pipeResponseWriter struct {
	header http.Header
	sent   http.Header // snapshot at WriteHeader, as net/http does
	pw     *io.PipeWriter

	once    sync.Once
	started chan struct{}
	status  int
	err     error
}

func (w *pipeResponseWriter) Header() http.Header { return w.header }

func (w *pipeResponseWriter) WriteHeader(code int) {
	w.once.Do(func() {
		w.status = code
		w.sent = w.header.Clone()
		close(w.started)
	})
}

func (w *pipeResponseWriter) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.pw.Write(p)
}

// Flush implements http.Flusher; writes already go straight to the pipe.
func (w *pipeResponseWriter) Flush() { w.WriteHeader(http.StatusOK) }

func (w *pipeResponseWriter) fail(err error) {
	w.once.Do(func() {
		w.err = err
		close(w.started)
	})
	w.pw.CloseWithError(err)
}
