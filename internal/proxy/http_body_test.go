package proxy

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// Issue 26 item 8: a client that dribbles a request body (or stops
// sending it) held the request, and an upstream connection, open for
// ever. Past HTTPOptions.BodyTimeout the proxy answers 408 and records
// why. The bodies here never complete, so the outcome does not depend on
// the machine's speed; the client's deadline only guards against a hang.
func TestHTTPProxyBoundsASlowBody(t *testing.T) {
	tests := []struct {
		name string
		head string // request head after the request line
		sent string // the part of the body that is sent
	}{
		{"small body of known length", "Content-Length: 100\r\n", `{"jsonrpc":"2.0",`},
		{"chunked body", "Transfer-Encoding: chunked\r\n", "11\r\n{\"jsonrpc\":\"2.0\",\r\n"},
		{"big body of known length", fmt.Sprintf("Content-Length: %d\r\n", 2*smallBody), `{"jsonrpc":"2.0",`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, _ = io.Copy(io.Discard, r.Body)
				io.WriteString(w, "{}")
			}))
			defer upstream.Close()
			u, _ := url.Parse(upstream.URL)
			rec := &memRecorder{}
			ps := httptest.NewServer(NewHTTPProxy(&HTTPOptions{Target: u, Recorder: rec, BodyTimeout: 100 * time.Millisecond}))
			defer ps.Close()
			c, err := net.Dial("tcp", ps.Listener.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			c.SetDeadline(time.Now().Add(30 * time.Second))
			fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n%s\r\n%s", ps.Listener.Addr(), tt.head, tt.sent)
			resp, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err != nil {
				t.Fatalf("no response to a body that never ends: %v", err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusRequestTimeout || !strings.Contains(string(b), "did not arrive within 100ms") {
				t.Errorf("status %d %q, want 408 naming the bound", resp.StatusCode, b)
			}
			ps.Close()
			var errs []string
			for _, r := range rec.records() {
				if r.Error != "" {
					errs = append(errs, r.Error)
				}
			}
			if len(errs) != 1 || !strings.Contains(errs[0], "the request body did not arrive within 100ms") {
				t.Errorf("recorded errors %q, want the body timeout", errs)
			}
		})
	}
}

// The bound ends with the body: an event stream that answers a whole
// request outlives it. The stream is held open for more than twice the
// bound; a deadline left in place would cut it (that outcome does not
// depend on how fast the machine is: the time has passed either way; the
// 50-byte body has 2s to cross loopback).
func TestHTTPProxyBodyTimeoutSparesTheResponse(t *testing.T) {
	const bound = 2 * time.Second
	release := make(chan struct{})
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: {\"a\":1}\n\n")
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
			return
		}
		io.WriteString(w, "data: {\"a\":2}\n\n")
	}))
	defer upstream.Close()
	u, _ := url.Parse(upstream.URL)
	ps := httptest.NewServer(NewHTTPProxy(&HTTPOptions{Target: u, BodyTimeout: bound}))
	defer ps.Close()
	resp, err := http.Post(ps.URL+"/mcp", "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	if line, err := br.ReadString('\n'); err != nil || line != "data: {\"a\":1}\n" {
		t.Fatalf("first event %q, %v", line, err)
	}
	time.Sleep(bound + bound/2)
	close(release)
	rest, err := io.ReadAll(br)
	if err != nil || !strings.Contains(string(rest), `data: {"a":2}`) {
		t.Errorf("stream after the bound: %q, %v; want the second event", rest, err)
	}
}
