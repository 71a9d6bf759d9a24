package transport

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/jsonrpc"
)

// mcpHandler is a small Streamable HTTP server. It answers by method:
//
//	json       an application/json result, minting a session id
//	sse        an event stream: priming event, a notification, the result
//	           split over two data lines
//	open       like sse, then keeps the stream open until the client leaves
//	ping-me    an event stream with a ping request; the result follows once
//	           the client's answer was POSTed
//	hang       a priming event, then nothing until the client leaves
//	big        a 10 KB JSON body
//	auth       401 with WWW-Authenticate
//	redirect   302 to /elsewhere
//	headers    the request headers, as a JSON result
type mcpHandler struct {
	answers chan string // POSTed JSON-RPC responses
	left    chan string // methods whose stream the client abandoned
}

func newMCPHandler() *mcpHandler {
	return &mcpHandler{answers: make(chan string, 4), left: make(chan string, 4)}
}

func (h *mcpHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	m := jsonrpc.Decode(body)
	if m.IsResponse() {
		h.answers <- string(body)
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if r.Header.Get(sessionHeader) == "gone" {
		http.Error(w, "no such session", http.StatusNotFound)
		return
	}
	result := func(v any) []byte {
		b, _ := jsonrpc.EncodeResult(m.ID, v)
		return b
	}
	sse := func() {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		io.WriteString(w, "id: prime-1\ndata:\n\n")
		w.(http.Flusher).Flush()
	}
	switch m.Method {
	case "json":
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set(sessionHeader, "sess-1")
		w.Write(result("ok"))
	case "sse", "open":
		sse()
		io.WriteString(w, ": keep-alive\n\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}\n\n")
		res := string(result(map[string]int{"a": 1}))
		i := strings.Index(res, `"result"`)
		fmt.Fprintf(w, "id: 2\ndata: %s\ndata: %s\n\n", res[:i], res[i:])
		w.(http.Flusher).Flush()
		if m.Method == "open" {
			<-r.Context().Done()
			h.left <- m.Method
		}
	case "ping-me":
		sse()
		io.WriteString(w, "data: {\"jsonrpc\":\"2.0\",\"id\":\"srv-1\",\"method\":\"ping\"}\n\n")
		w.(http.Flusher).Flush()
		select {
		case ans := <-h.answers:
			fmt.Fprintf(w, "data: %s\n\n", result(ans))
		case <-r.Context().Done():
		}
	case "hang":
		sse()
		<-r.Context().Done()
	case "big":
		w.Header().Set("Content-Type", "application/json")
		w.Write(result(strings.Repeat("x", 10<<10)))
	case "auth":
		w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource"`)
		w.WriteHeader(http.StatusUnauthorized)
	case "redirect":
		http.Redirect(w, r, "/elsewhere", http.StatusFound)
	case "headers":
		w.Header().Set("Content-Type", "application/json")
		hs := map[string]string{}
		for k := range r.Header {
			hs[k] = r.Header.Get(k)
		}
		w.Write(result(hs))
	default:
		w.WriteHeader(http.StatusAccepted)
	}
}

type httpSetup struct {
	name string
	conn func(t *testing.T, h http.Handler, opts *HTTPOptions) *HTTPConn
}

// httpSetups runs the same tests over a loopback socket and in-process.
var httpSetups = []httpSetup{
	{"socket", func(t *testing.T, h http.Handler, opts *HTTPOptions) *HTTPConn {
		srv := httptest.NewServer(h)
		t.Cleanup(srv.Close)
		opts.URL = srv.URL + "/mcp"
		c, err := NewHTTP(opts)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}},
	{"in-process", func(t *testing.T, h http.Handler, opts *HTTPOptions) *HTTPConn {
		opts.URL = "http://fixture.invalid/mcp"
		opts.RoundTripper = HandlerRoundTripper(h)
		c, err := NewHTTP(opts)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}},
}

func TestHTTP(t *testing.T) {
	checkGoroutines(t)
	for _, s := range httpSetups {
		t.Run(s.name, func(t *testing.T) {
			t.Run("json", func(t *testing.T) {
				c := s.conn(t, newMCPHandler(), &HTTPOptions{})
				r, err := c.Call(testCtx(t), request(t, jsonrpc.IntID(1), "json"))
				if err != nil {
					t.Fatal(err)
				}
				if r.HTTP.Status != 200 || r.Response == nil || string(r.Response.Result) != `"ok"` {
					t.Fatalf("reply = %+v / %+v", r.HTTP, r.Response)
				}
				if got := c.SessionID(); got != "sess-1" {
					t.Errorf("SessionID = %q, want sess-1", got)
				}
			})
			t.Run("headers", func(t *testing.T) {
				c := s.conn(t, newMCPHandler(), &HTTPOptions{Header: http.Header{"Authorization": {"Bearer t"}, "X-Over": {"user"}}})
				c.SetSessionID("sess-9")
				call := request(t, jsonrpc.IntID(1), "headers")
				call.Header = http.Header{"X-Over": {"call"}}
				r, err := c.Call(testCtx(t), call)
				if err != nil {
					t.Fatal(err)
				}
				var got map[string]string
				if err := jsonUnmarshal(r.Response.Result, &got); err != nil {
					t.Fatal(err)
				}
				for k, want := range map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
					"Mcp-Session-Id": "sess-9", "Authorization": "Bearer t", "X-Over": "call"} {
					if got[k] != want {
						t.Errorf("header %s = %q, want %q", k, got[k], want)
					}
				}
				// Bare sends only the call's headers.
				call = request(t, jsonrpc.IntID(2), "headers")
				call.Bare = true
				call.Header = http.Header{"X-Only": {"1"}}
				r, err = c.Call(testCtx(t), call)
				if err != nil {
					t.Fatal(err)
				}
				got = nil
				jsonUnmarshal(r.Response.Result, &got)
				delete(got, "Accept-Encoding") // added by the socket transport
				delete(got, "Content-Length")
				if d := cmp.Diff(map[string]string{"X-Only": "1"}, got); d != "" {
					t.Errorf("bare headers mismatch (-want +got):\n%s", d)
				}
			})
			t.Run("sse", func(t *testing.T) {
				c := s.conn(t, newMCPHandler(), &HTTPOptions{})
				r, err := c.Call(testCtx(t), request(t, jsonrpc.IntID(2), "sse"))
				if err != nil {
					t.Fatal(err)
				}
				if r.Response == nil || string(r.Response.Result) != `{"a":1}` {
					t.Fatalf("Response = %+v", r.Response)
				}
				if want := "{\"jsonrpc\":\"2.0\",\"id\":2,\n\"result\":{\"a\":1}}"; string(r.Response.Raw) != want {
					t.Errorf("Raw = %q, want %q", r.Response.Raw, want)
				}
				if len(r.Related) != 1 || r.Related[0].Method != "notifications/progress" {
					t.Errorf("Related = %+v", r.Related)
				}
				if n := len(r.HTTP.Events); n != 3 || !r.HTTP.Events[0].HasData || len(r.HTTP.Events[0].Data) != 0 {
					t.Errorf("Events = %+v, want priming event first and 3 in all", r.HTTP.Events)
				}
				if !strings.HasPrefix(string(r.HTTP.Body), "id: prime-1\ndata:\n\n") {
					t.Errorf("Body = %q", r.HTTP.Body)
				}
			})
			t.Run("stream stays open", func(t *testing.T) {
				h := newMCPHandler()
				c := s.conn(t, h, &HTTPOptions{})
				r, err := c.Call(testCtx(t), request(t, jsonrpc.IntID(2), "open"))
				if err != nil || r.Response == nil {
					t.Fatalf("Call = %+v, %v", r, err)
				}
				if got := <-h.left; got != "open" {
					t.Errorf("handler saw %q leave", got)
				}
			})
			t.Run("server ping answered", func(t *testing.T) {
				c := s.conn(t, newMCPHandler(), &HTTPOptions{OnServerRequest: func(m jsonrpc.Message) []byte {
					b, _ := jsonrpc.EncodeResult(m.ID, struct{}{})
					return b
				}})
				r, err := c.Call(testCtx(t), request(t, jsonrpc.IntID(3), "ping-me"))
				if err != nil {
					t.Fatal(err)
				}
				if got, want := string(r.Response.Result), `"{\"jsonrpc\":\"2.0\",\"id\":\"srv-1\",\"result\":{}}"`; got != want {
					t.Errorf("result = %s, want %s", got, want)
				}
			})
			t.Run("401", func(t *testing.T) {
				c := s.conn(t, newMCPHandler(), &HTTPOptions{})
				r, err := c.Call(testCtx(t), request(t, jsonrpc.IntID(1), "auth"))
				if err != nil {
					t.Fatal(err)
				}
				if r.HTTP.Status != 401 || !strings.HasPrefix(r.HTTP.Header.Get("WWW-Authenticate"), "Bearer resource_metadata=") || r.Response != nil {
					t.Errorf("reply = %+v", r.HTTP)
				}
			})
			t.Run("302 not followed", func(t *testing.T) {
				c := s.conn(t, newMCPHandler(), &HTTPOptions{})
				r, err := c.Call(testCtx(t), request(t, jsonrpc.IntID(1), "redirect"))
				if err != nil {
					t.Fatal(err)
				}
				if r.HTTP.Status != 302 || r.HTTP.Header.Get("Location") != "/elsewhere" {
					t.Errorf("reply = %+v", r.HTTP)
				}
			})
			t.Run("truncated", func(t *testing.T) {
				c := s.conn(t, newMCPHandler(), &HTTPOptions{MaxResponseBytes: 1024})
				r, err := c.Call(testCtx(t), request(t, jsonrpc.IntID(1), "big"))
				if err != nil {
					t.Fatal(err)
				}
				if !r.HTTP.Truncated || len(r.HTTP.Body) != 1024 || r.Response != nil {
					t.Errorf("Truncated = %v, len(Body) = %d, Response = %v", r.HTTP.Truncated, len(r.HTTP.Body), r.Response)
				}
			})
			t.Run("deadline while streaming", func(t *testing.T) {
				c := s.conn(t, newMCPHandler(), &HTTPOptions{})
				ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
				defer cancel()
				r, err := c.Call(ctx, request(t, jsonrpc.IntID(1), "hang"))
				if !errors.Is(err, ErrTimeout) || !errors.Is(err, fault.ErrIncomplete) {
					t.Fatalf("Call = %v, want ErrTimeout", err)
				}
				if err.Error() != "server did not answer hang within 100ms" {
					t.Errorf("error = %q", err)
				}
				if r == nil || len(r.HTTP.Events) != 1 {
					t.Errorf("partial reply = %+v, want the priming event", r)
				}
			})
			t.Run("session 404 clears", func(t *testing.T) {
				c := s.conn(t, newMCPHandler(), &HTTPOptions{})
				c.SetSessionID("gone")
				r, err := c.Call(testCtx(t), request(t, jsonrpc.IntID(1), "x"))
				if err != nil || r.HTTP.Status != 404 {
					t.Fatalf("Call = %+v, %v", r, err)
				}
				if c.SessionID() != "" {
					t.Errorf("SessionID = %q after 404, want cleared", c.SessionID())
				}
			})
		})
	}
}

func TestHTTPConnectionRefused(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	c, err := NewHTTP(&HTTPOptions{URL: "http://" + addr + "/mcp"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, err = c.Call(testCtx(t), request(t, jsonrpc.IntID(1), "x"))
	if !errors.Is(err, ErrUnreachable) || !errors.Is(err, fault.ErrIncomplete) {
		t.Fatalf("Call = %v, want ErrUnreachable", err)
	}
	if want := "cannot reach " + addr + ": connection refused (is the server running?)"; err.Error() != want {
		t.Errorf("error = %q, want %q", err, want)
	}
}

func TestNewHTTPBadURL(t *testing.T) {
	for _, u := range []string{"", "ftp://x", "http://", "::"} {
		if _, err := NewHTTP(&HTTPOptions{URL: u}); !errors.Is(err, fault.ErrInput) {
			t.Errorf("NewHTTP(%q) = %v, want an input error", u, err)
		}
	}
}

func TestHandlerRoundTripperPanic(t *testing.T) {
	rt := HandlerRoundTripper(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("boom") }))
	req := httptest.NewRequest("GET", "http://x/", nil)
	if _, err := rt.RoundTrip(req); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("RoundTrip = %v, want the panic as an error", err)
	}
}

// legacyServer is a 2024-11-05 HTTP+SSE server: GET /sse opens the stream
// and announces /messages; POSTs there get 202 and the reply on the stream.
type legacyServer struct {
	mu       sync.Mutex
	stream   chan string
	endpoint string
}

func (s *legacyServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/sse":
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, ": hello\n\nevent: endpoint\ndata: %s\n\n", s.endpoint)
		w.(http.Flusher).Flush()
		for {
			select {
			case msg := <-s.stream:
				fmt.Fprintf(w, "event: message\ndata: %s\n\n", msg)
				w.(http.Flusher).Flush()
			case <-r.Context().Done():
				return
			}
		}
	case r.Method == http.MethodPost && r.URL.Path == "/messages":
		body, _ := io.ReadAll(r.Body)
		m := jsonrpc.Decode(body)
		w.WriteHeader(http.StatusAccepted)
		switch {
		case m.Method == "ping-me":
			s.stream <- `{"jsonrpc":"2.0","id":"srv-1","method":"ping"}`
			s.mu.Lock()
			defer s.mu.Unlock()
		case m.IsResponse():
			b, _ := jsonrpc.EncodeResult(jsonrpc.IntID(2), string(body))
			s.stream <- string(b)
		case m.Kind == jsonrpc.KindRequest:
			b, _ := jsonrpc.EncodeResult(m.ID, m.Method)
			s.stream <- `{"jsonrpc":"2.0","method":"notifications/message","params":{}}`
			s.stream <- string(b)
		}
	default:
		http.NotFound(w, r)
	}
}

func TestSSE(t *testing.T) {
	checkGoroutines(t)
	ls := &legacyServer{stream: make(chan string, 8), endpoint: "/messages?sessionId=abc"}
	srv := httptest.NewServer(ls)
	defer srv.Close()
	c, err := DialSSE(testCtx(t), &HTTPOptions{URL: srv.URL + "/sse", OnServerRequest: func(m jsonrpc.Message) []byte {
		b, _ := jsonrpc.EncodeResult(m.ID, struct{}{})
		return b
	}})
	if err != nil {
		t.Fatal(err)
	}
	if c.Kind() != "sse" || c.Endpoint() != srv.URL+"/messages?sessionId=abc" {
		t.Errorf("Kind, Endpoint = %q, %q", c.Kind(), c.Endpoint())
	}
	r, err := c.Call(testCtx(t), request(t, jsonrpc.IntID(1), "tools/list"))
	if err != nil {
		t.Fatal(err)
	}
	if r.HTTP.Status != 202 || string(r.Response.Result) != `"tools/list"` || len(r.Related) != 1 {
		t.Errorf("reply = %d %s, related %d", r.HTTP.Status, r.Response.Raw, len(r.Related))
	}
	// The server's ping is answered by a POST; the server then sends id 2.
	r, err = c.Call(testCtx(t), request(t, jsonrpc.IntID(2), "ping-me"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(r.Response.Result), `"{\"jsonrpc\":\"2.0\",\"id\":\"srv-1\",\"result\":{}}"`; got != want {
		t.Errorf("result = %s, want %s", got, want)
	}
	c.Close()
	if _, err := c.Call(testCtx(t), request(t, jsonrpc.IntID(3), "x")); !errors.Is(err, ErrClosed) {
		t.Errorf("Call after Close = %v, want ErrClosed", err)
	}
	srv.CloseClientConnections()
}

func TestDialSSEErrors(t *testing.T) {
	tests := []struct {
		name     string
		endpoint string
		path     string
		want     string
	}{
		{"other origin", "http://127.0.0.2:1/messages", "/sse", "endpoint http://127.0.0.2:1/messages is on another origin than "},
		{"not an event stream", "/messages", "/other", "GET for an HTTP+SSE stream answered 404 text/plain; charset=utf-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(&legacyServer{stream: make(chan string), endpoint: tt.endpoint})
			defer srv.Close()
			c, err := DialSSE(testCtx(t), &HTTPOptions{URL: srv.URL + tt.path})
			if err == nil {
				c.Close()
				t.Fatal("DialSSE succeeded")
			}
			if !errors.Is(err, fault.ErrIncomplete) || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("DialSSE = %v, want %q…", err, tt.want)
			}
		})
	}
}

func TestParseHeaderFlag(t *testing.T) {
	tests := []struct {
		in, name, value string
		bad             bool
	}{
		{in: "Authorization=Bearer x=y", name: "Authorization", value: "Bearer x=y"},
		{in: "x-api-key: abc", name: "X-Api-Key", value: "abc"},
		{in: "X-Empty=", name: "X-Empty", value: ""},
		{in: "=v", bad: true},
		{in: "novalue", bad: true},
		{in: "bad name=v", bad: true},
		{in: "X=a\nb", bad: true},
	}
	for _, tt := range tests {
		name, value, err := ParseHeaderFlag(tt.in)
		if tt.bad {
			if !errors.Is(err, fault.ErrInput) {
				t.Errorf("ParseHeaderFlag(%q) = %v, want an input error", tt.in, err)
			}
			continue
		}
		if err != nil || name != tt.name || value != tt.value {
			t.Errorf("ParseHeaderFlag(%q) = %q, %q, %v; want %q, %q", tt.in, name, value, err, tt.name, tt.value)
		}
	}
}

func TestExpandEnv(t *testing.T) {
	env := map[string]string{"TOKEN": "s3cr3t", "EMPTY": "", "_A1": "x"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	tests := []struct {
		in, want, unset string
	}{
		{in: "Bearer ${TOKEN}", want: "Bearer s3cr3t"},
		{in: "${TOKEN}${_A1}-${EMPTY}", want: "s3cr3tx-"},
		{in: "$TOKEN stays", want: "$TOKEN stays"},
		{in: "${1BAD} ${ not} ${", want: "${1BAD} ${ not} ${"},
		{in: "${TOKEN", want: "${TOKEN"},
		{in: "a ${MISSING} b", unset: "MISSING"},
	}
	for _, tt := range tests {
		got, err := ExpandEnv(tt.in, lookup)
		if tt.unset != "" {
			if !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), tt.unset) {
				t.Errorf("ExpandEnv(%q) = %v, want an input error naming %s", tt.in, err, tt.unset)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ExpandEnv(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
