package proxy

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/mcpward/mcpward/internal/session"
)

// newProxied starts target and a recording proxy in front of it, and
// returns the proxy's URL and a function that stops both and returns the
// log.
func newProxied(t *testing.T, target http.Handler) (string, func() []*session.Record) {
	t.Helper()
	ts := httptest.NewServer(target)
	u, _ := url.Parse(ts.URL)
	var logBuf bytes.Buffer
	lg := NewLog(&logBuf, &LogOptions{Session: "S", Label: "L"})
	ps := httptest.NewServer(NewHTTPProxy(&HTTPOptions{Target: u, Recorder: lg}))
	stop := func() []*session.Record {
		ps.Close()
		ts.Close()
		if err := lg.Close(); err != nil {
			t.Fatal(err)
		}
		return readLog(t, &logBuf)
	}
	return ps.URL, stop
}

// echoTarget answers a POST with its body (JSON) or, for /sse, with the
// body split into events; it answers GET and DELETE with 405 and 202.
func echoTarget() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Mcp-Session-Id", "sess-1")
		switch {
		case r.Method == http.MethodDelete:
			w.WriteHeader(http.StatusAccepted)
		case r.Method == http.MethodGet:
			w.WriteHeader(http.StatusMethodNotAllowed)
		case r.URL.Path == "/sse":
			w.Header().Set("Content-Type", "text/event-stream")
			for i, part := range bytes.Split(body, []byte("\n")) {
				fmt.Fprintf(w, "id: %d\nevent: message\ndata: %s\n\n", i, part)
				w.(http.Flusher).Flush()
			}
		default:
			w.Header().Set("Content-Type", "application/json")
			w.Write(body)
		}
	})
}

func randomBody(r *rand.Rand) []byte {
	switch r.IntN(4) {
	case 0:
		return []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"<x>&"}}`, r.IntN(1000)))
	case 1:
		b := make([]byte, r.IntN(2000)+1)
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		return b
	case 2:
		return bytes.Repeat([]byte(`{"a":"b"} `), r.IntN(50_000))
	}
	return []byte("{\n  \"pretty\": true\n}\r\n")
}

func TestHTTPProxyConcurrentLossless(t *testing.T) {
	proxyURL, stop := newProxied(t, echoTarget())
	const clients, each = 8, 12
	var mu sync.Mutex
	var bodies [][]byte
	var wg sync.WaitGroup
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(c), 5))
			for range each {
				body := randomBody(r)
				resp, err := http.Post(proxyURL+"/mcp", "application/json", bytes.NewReader(body))
				if err != nil {
					t.Error(err)
					return
				}
				got, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if !bytes.Equal(got, body) {
					t.Errorf("response body differs from what the target sent (%d vs %d bytes)", len(got), len(body))
				}
				mu.Lock()
				bodies = append(bodies, body)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	recs := stop()
	checkSeq(t, recs)
	byEx := map[uint64][]*session.Record{}
	for _, r := range recs {
		byEx[r.Exchange] = append(byEx[r.Exchange], r)
	}
	if len(byEx) != clients*each {
		t.Fatalf("log holds %d exchanges, want %d", len(byEx), clients*each)
	}
	seen := map[string]int{}
	for _, b := range bodies {
		seen[string(b)]++
	}
	for ex, rs := range byEx {
		if len(rs) != 2 || rs[0].Dir != session.ClientToServer || rs[1].Dir != session.ServerToClient {
			t.Fatalf("exchange %d: %d records, want request then response", ex, len(rs))
		}
		if !bytes.Equal(rs[0].Frame, rs[1].Frame) {
			t.Errorf("exchange %d: recorded request and response bodies differ", ex)
		}
		if rs[0].Method != "POST" || rs[0].Path != "/mcp" || rs[1].Status != 200 || rs[1].MCPSessionID != "sess-1" {
			t.Errorf("exchange %d: method %q path %q status %d session %q", ex, rs[0].Method, rs[0].Path, rs[1].Status, rs[1].MCPSessionID)
		}
		seen[string(rs[0].Frame)]--
	}
	for b, n := range seen {
		if n != 0 {
			t.Errorf("body of %d bytes recorded %d times too few", len(b), n)
		}
	}
}

func TestHTTPProxySSEEventsRecorded(t *testing.T) {
	proxyURL, stop := newProxied(t, echoTarget())
	body := "{\"id\":1}\nnot json\n{\"id\":2}"
	resp, err := http.Post(proxyURL+"/sse", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	want := "id: 0\nevent: message\ndata: {\"id\":1}\n\nid: 1\nevent: message\ndata: not json\n\nid: 2\nevent: message\ndata: {\"id\":2}\n\n"
	if string(got) != want {
		t.Errorf("client got %q, want %q", got, want)
	}
	recs := stop()
	var frames []string
	for _, r := range recs {
		if r.SSE {
			frames = append(frames, r.SSEID+"|"+r.SSEEvent+"|"+string(r.Frame))
		}
	}
	wantFrames := []string{"0|message|{\"id\":1}", "1|message|not json", "2|message|{\"id\":2}"}
	if fmt.Sprint(frames) != fmt.Sprint(wantFrames) {
		t.Errorf("SSE records = %q, want %q", frames, wantFrames)
	}
}

func TestHTTPProxyStreamsWithoutBuffering(t *testing.T) {
	release := make(chan struct{})
	target := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: {\"first\":true}\r\n\r\n")
		w.(http.Flusher).Flush()
		<-release
		io.WriteString(w, "data: {\"second\":true}\r\n\r\n")
	})
	proxyURL, stop := newProxied(t, target)
	resp, err := http.Post(proxyURL+"/mcp", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(resp.Body)
	// The first event arrives while the target is still holding the
	// second: the proxy does not wait for the body to end.
	line, err := br.ReadString('\n')
	if err != nil || line != "data: {\"first\":true}\r\n" {
		t.Fatalf("first line = %q, %v", line, err)
	}
	close(release)
	rest, _ := io.ReadAll(br)
	resp.Body.Close()
	if string(rest) != "\r\ndata: {\"second\":true}\r\n\r\n" {
		t.Errorf("rest = %q", rest)
	}
	recs := stop()
	n := 0
	for _, r := range recs {
		if r.SSE {
			n++
		}
	}
	if n != 2 {
		t.Errorf("recorded %d events, want 2", n)
	}
}

func TestHTTPProxyPreservesPathsAndRecordsGetDelete(t *testing.T) {
	var paths []string
	var mu sync.Mutex
	target := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths = append(paths, r.Method+" "+r.URL.RequestURI()+" host="+r.Host)
		mu.Unlock()
		if r.Header.Get("X-Forwarded-For") != "" {
			t.Error("proxy added X-Forwarded-For")
		}
		w.WriteHeader(http.StatusOK)
	})
	proxyURL, stop := newProxied(t, target)
	u, _ := url.Parse(proxyURL)
	for _, c := range []struct{ method, path string }{
		{"GET", "/.well-known/oauth-protected-resource"},
		{"GET", "/mcp?x=1&y=%2F"},
		{"DELETE", "/mcp"},
	} {
		req, _ := http.NewRequest(c.method, proxyURL+c.path, nil)
		req.Header.Set("Mcp-Session-Id", "abc")
		req.Header.Set("Authorization", "Bearer secret")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	recs := stop()
	_ = u
	for _, p := range paths {
		if !strings.HasPrefix(strings.SplitN(p, " ", 3)[1], "/") {
			t.Errorf("bad path %q", p)
		}
	}
	want := []string{"GET /.well-known/oauth-protected-resource", "GET /mcp?x=1&y=%2F", "DELETE /mcp"}
	for i, w := range want {
		if !strings.HasPrefix(paths[i], w+" ") {
			t.Errorf("target saw %q, want %q", paths[i], w)
		}
	}
	var reqs []string
	for _, r := range recs {
		if r.Dir == session.ClientToServer {
			reqs = append(reqs, r.Method+" "+r.Path+" "+r.MCPSessionID)
			if _, ok := r.Header["Authorization"]; ok {
				t.Error("Authorization was recorded")
			}
		}
	}
	if fmt.Sprint(reqs) != fmt.Sprint([]string{"GET /.well-known/oauth-protected-resource abc", "GET /mcp?x=1&y=%2F abc", "DELETE /mcp abc"}) {
		t.Errorf("recorded requests = %q", reqs)
	}
}

func TestHTTPProxyAuthChallengeVerbatim(t *testing.T) {
	const challenge = `Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource", scope="a b"`
	proxyURL, stop := newProxied(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("WWW-Authenticate", challenge)
		w.WriteHeader(http.StatusUnauthorized)
	}))
	resp, err := http.Post(proxyURL+"/mcp", "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 401 || resp.Header.Get("Www-Authenticate") != challenge {
		t.Errorf("client got %d %q", resp.StatusCode, resp.Header.Get("Www-Authenticate"))
	}
	recs := stop()
	last := recs[len(recs)-1]
	if last.Status != 401 || last.AuthChallenge != challenge {
		t.Errorf("recorded %d %q, want 401 and the challenge verbatim", last.Status, last.AuthChallenge)
	}
}

func TestHTTPProxyUnreachableTarget502(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	u, _ := url.Parse("http://" + addr + "/mcp")
	rec := &memRecorder{}
	ps := httptest.NewServer(NewHTTPProxy(&HTTPOptions{Target: u, Recorder: rec}))
	defer ps.Close()
	resp, err := http.Post(ps.URL+"/mcp", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadGateway || !strings.Contains(string(body), "cannot reach") {
		t.Errorf("got %d %q, want 502 saying why", resp.StatusCode, body)
	}
	recs := rec.records()
	if len(recs) != 2 || recs[1].Status != 502 || recs[1].Error == "" {
		t.Errorf("records = %+v, want the request and a 502 with the error", recs)
	}
}

func TestHTTPProxyLegacyEndpointRewrite(t *testing.T) {
	var targetOrigin string
	target := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		if r.URL.Path == "/abs" {
			fmt.Fprintf(w, ": hello\n\nevent: endpoint\ndata: %s/messages?sessionId=1\n\n", targetOrigin)
		} else {
			io.WriteString(w, "event: endpoint\ndata: /messages?sessionId=2\n\n")
		}
		io.WriteString(w, "event: message\ndata: {}\n\n")
	})
	ts := httptest.NewServer(target)
	defer ts.Close()
	targetOrigin = ts.URL
	u, _ := url.Parse(ts.URL)
	rec := &memRecorder{}
	ps := httptest.NewServer(NewHTTPProxy(&HTTPOptions{Target: u, Recorder: rec}))
	defer ps.Close()
	get := func(path string) string {
		resp, err := http.Get(ps.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	if got, want := get("/abs"), ": hello\n\nevent: endpoint\ndata: "+ps.URL+"/messages?sessionId=1\n\nevent: message\ndata: {}\n\n"; got != want {
		t.Errorf("absolute endpoint: client got %q, want %q", got, want)
	}
	if got, want := get("/rel"), "event: endpoint\ndata: /messages?sessionId=2\n\nevent: message\ndata: {}\n\n"; got != want {
		t.Errorf("relative endpoint: client got %q, want %q", got, want)
	}
	for _, r := range rec.records() {
		if r.SSEEvent == "endpoint" && strings.Contains(string(r.Frame), ps.URL) {
			t.Errorf("the record holds the rewritten endpoint %q; it must keep what the server sent", r.Frame)
		}
	}
}

func TestSSESplitterChunking(t *testing.T) {
	stream := "event: a\r\ndata: 1\r\n\r\n: comment\n\ndata: x\ndata: y\n\nid: 7\rdata: z\r\r" + "data: tail"
	for size := 1; size <= len(stream); size++ {
		s := &sseSplitter{max: 1 << 20}
		var got []string
		for i := 0; i < len(stream); i += size {
			for _, e := range s.feed([]byte(stream[i:min(i+size, len(stream))])) {
				got = append(got, e.event+"|"+e.id+"|"+string(e.data))
			}
		}
		for _, e := range s.finish() {
			got = append(got, e.event+"|"+e.id+"|"+string(e.data))
		}
		want := []string{"a||1", "||x\ny", "|7|z", "||tail"}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("chunk size %d: events %q, want %q", size, got, want)
		}
	}
}
