package proxy

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/session"
)

// Issue 12 item 2: an upstream that died in the middle of a stream ended
// the client's response cleanly (the terminating chunk was written), so
// the client took a truncated stream for a whole one.
func TestHTTPProxyUpstreamDeathAbortsClient(t *testing.T) {
	for _, ct := range []string{"text/event-stream", "application/json"} {
		t.Run(ct, func(t *testing.T) {
			target := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", ct)
				io.WriteString(w, "data: {\"progress\":1}\n\n")
				w.(http.Flusher).Flush()
				// The server dies: its connection closes without the
				// terminating chunk.
				panic(http.ErrAbortHandler)
			})
			ts := httptest.NewServer(target)
			defer ts.Close()
			u, _ := url.Parse(ts.URL)
			rec := &memRecorder{}
			ps := httptest.NewServer(NewHTTPProxy(&HTTPOptions{Target: u, Recorder: rec}))
			defer ps.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, ps.URL+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Errorf("client read %q and %v, want the bytes sent and an unexpected EOF", got, err)
			}
			if string(got) != "data: {\"progress\":1}\n\n" {
				t.Errorf("client got %q", got)
			}
			ps.Close()
			var errs []string
			for _, r := range rec.records() {
				if r.Error != "" {
					errs = append(errs, r.Error)
				}
			}
			if len(errs) != 1 || !strings.HasPrefix(errs[0], "upstream body: ") {
				t.Errorf("recorded errors %q, want one upstream body error", errs)
			}
		})
	}
}

// Issue 12 item 5: a client that hung up in the middle of a stream was
// recorded as "upstream body: context canceled", blaming the server.
func TestHTTPProxyClientAbortRecordedAsClient(t *testing.T) {
	targetDone := make(chan struct{})
	target := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer close(targetDone)
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: {\"progress\":1}\n\n")
		w.(http.Flusher).Flush()
		<-r.Context().Done() // the proxy gave up the upstream request
	})
	ts := httptest.NewServer(target)
	defer ts.Close()
	u, _ := url.Parse(ts.URL)
	rec := &memRecorder{}
	ps := httptest.NewServer(NewHTTPProxy(&HTTPOptions{Target: u, Recorder: rec}))
	defer ps.Close()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, ps.URL+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(resp.Body).ReadString('\n')
	if err != nil || line != "data: {\"progress\":1}\n" {
		t.Fatalf("first line %q, %v", line, err)
	}
	cancel() // the client hangs up
	resp.Body.Close()
	select {
	case <-targetDone:
	case <-time.After(30 * time.Second):
		t.Fatal("the proxy did not give up the upstream request after the client left")
	}
	ps.Close() // waits for the proxy's handler: every record is in
	var errs []string
	for _, r := range rec.records() {
		if r.Error != "" {
			errs = append(errs, r.Error)
		}
	}
	if len(errs) != 1 || !strings.HasPrefix(errs[0], "client went away") {
		t.Errorf("recorded errors %q, want one saying the client went away", errs)
	}
}

// A client that hangs up in the middle of its request body is recorded
// as such, and nothing is sent upstream.
func TestHTTPProxyClientAbortMidBody(t *testing.T) {
	reached := make(chan struct{}, 1)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { reached <- struct{}{} }))
	defer ts.Close()
	u, _ := url.Parse(ts.URL)
	rec := &memRecorder{}
	ps := httptest.NewUnstartedServer(NewHTTPProxy(&HTTPOptions{Target: u, Recorder: rec}))
	active := make(chan struct{}, 1)
	ps.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateActive {
			active <- struct{}{} // the request head is read: the handler runs
		}
	}
	ps.Start()
	defer ps.Close()
	c, err := net.Dial("tcp", strings.TrimPrefix(ps.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\"", strings.TrimPrefix(ps.URL, "http://"))
	<-active
	c.Close()
	ps.Close() // waits for the proxy's handler
	recs := rec.records()
	if len(recs) != 2 || string(recs[0].Frame) != `{"jsonrpc"` || !recs[0].Truncated || recs[0].Size != 100 ||
		!strings.HasPrefix(recs[1].Error, "client went away while sending the request body") {
		t.Errorf("records = %+v, want the partial request and a client abort", recs)
	}
	select {
	case <-reached:
		t.Error("a partial request body was sent upstream")
	default:
	}
}

// Issue 12 item 3: the proxy accepted any Host and rewrote it to the
// target's, defeating the server's own DNS rebinding protection.
func TestHTTPProxyRefusesRebinding(t *testing.T) {
	var mu sync.Mutex
	var seenOrigin []string
	target := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seenOrigin = append(seenOrigin, r.Header.Get("Origin"))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{}}`)
	})
	ts := httptest.NewServer(target)
	defer ts.Close()
	u, _ := url.Parse(ts.URL)
	rec := &memRecorder{}
	ps := httptest.NewServer(NewHTTPProxy(&HTTPOptions{Target: u, Recorder: rec, Loopback: true, AllowHosts: []string{"mcp.internal", "Dev.Box:9999"}}))
	defer ps.Close()
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(ps.URL, "http://"))

	tests := []struct {
		name, host, origin string
		want               int
	}{
		{name: "loopback address", host: "127.0.0.1:" + port, want: 200},
		{name: "localhost", host: "LOCALHOST:" + port, want: 200},
		{name: "ipv6 loopback", host: "[::1]:" + port, want: 200},
		{name: "loopback origin", host: "localhost:" + port, origin: "http://localhost:6274", want: 200},
		{name: "allowed name any port", host: "mcp.internal:8080", origin: "https://mcp.internal", want: 200},
		{name: "allowed name:port", host: "dev.box:9999", want: 200},
		{name: "rebound name", host: "evil.example.com:" + port, want: 403},
		{name: "rebound name no port", host: "evil.example.com", want: 403},
		{name: "loopback other port", host: "127.0.0.1:1", want: 403},
		{name: "allowed name wrong port", host: "dev.box:1", want: 403},
		{name: "foreign origin", host: "127.0.0.1:" + port, origin: "https://evil.example.com", want: 403},
		{name: "null origin", host: "127.0.0.1:" + port, origin: "null", want: 403},
		{name: "origin with rebound host", host: "127.0.0.1:" + port, origin: "http://evil.example.com:" + port, want: 403},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodPost, ps.URL+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
			req.Host = tt.host
			if tt.origin != "" {
				req.Header.Set("Origin", tt.origin)
			}
			mu.Lock()
			seenOrigin = nil
			mu.Unlock()
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			mu.Lock()
			defer mu.Unlock()
			if resp.StatusCode != tt.want {
				t.Fatalf("Host %q Origin %q: status %d, want %d (%s)", tt.host, tt.origin, resp.StatusCode, tt.want, body)
			}
			if tt.want == 403 {
				var msg struct {
					JSONRPC string `json:"jsonrpc"`
					ID      any    `json:"id"`
					Error   struct {
						Code    int    `json:"code"`
						Message string `json:"message"`
					} `json:"error"`
				}
				if err := json.Unmarshal(body, &msg); err != nil || msg.JSONRPC != "2.0" || msg.Error.Code != -32600 || !strings.Contains(msg.Error.Message, "rebinding") ||
					resp.Header.Get("Content-Type") != "application/json" {
					t.Errorf("403 body %q (%s), want a JSON-RPC error naming DNS rebinding", body, resp.Header.Get("Content-Type"))
				}
				if seenOrigin != nil {
					t.Errorf("a refused request reached the target")
				}
				return
			}
			if len(seenOrigin) != 1 || seenOrigin[0] != tt.origin {
				t.Errorf("target saw Origin %q, want %q unchanged", seenOrigin, tt.origin)
			}
		})
	}
	ps.Close()
	refused := 0
	for _, r := range rec.records() {
		if r.Status == 403 && strings.Contains(r.Error, "rebinding") {
			refused++
		}
	}
	if refused != 7 {
		t.Errorf("recorded %d refusals, want 7", refused)
	}
}

// Without Loopback (a proxy listening on the network with --allow-remote)
// the names clients use are not known: any Host passes.
func TestHTTPProxyRemoteListenerAcceptsNames(t *testing.T) {
	proxyURL, stop := newProxied(t, echoTarget())
	defer stop()
	req, _ := http.NewRequest(http.MethodPost, proxyURL+"/mcp", strings.NewReader(`{}`))
	req.Host = "proxy.example.com"
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("status %d, want 200", resp.StatusCode)
	}
}

// Issue 12 item 4: the proxy's server had no IdleTimeout, so finished
// keep-alive connections stayed open for good. The test sets a short one
// and waits for the server to close the connection: it reads EOF.
func TestServeClosesIdleConnections(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Serve(ctx, ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, "ok")
		}), &ServeOptions{IdleTimeout: 50 * time.Millisecond})
	}()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// A hang guard only: the server closes the connection long before.
	c.SetDeadline(time.Now().Add(30 * time.Second))
	fmt.Fprintf(c, "GET /mcp HTTP/1.1\r\nHost: %s\r\n\r\n", ln.Addr())
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "ok" || resp.Close {
		t.Fatalf("response %q close=%v, want a kept-alive ok", body, resp.Close)
	}
	if n, err := br.Read(make([]byte, 1)); n != 0 || err != io.EOF {
		t.Errorf("idle connection: read %d bytes, %v; want EOF (closed by the server)", n, err)
	}
}

// The request body of a refused, aborted or failed exchange is never the
// reason of a second record; each exchange records its request once.
func TestHTTPProxyRecordsEachRequestOnce(t *testing.T) {
	proxyURL, stop := newProxied(t, echoTarget())
	for _, body := range []string{"", "{}", strings.Repeat("x", smallBody+1)} {
		resp, err := http.Post(proxyURL+"/mcp", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(got) != body {
			t.Errorf("echo of %d bytes came back as %d", len(body), len(got))
		}
	}
	reqs := 0
	for _, r := range stop() {
		if r.Dir == session.ClientToServer {
			reqs++
		}
	}
	if reqs != 3 {
		t.Errorf("%d request records, want 3", reqs)
	}
}
