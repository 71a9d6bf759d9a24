package proxy

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// bigSSEEvent is one SSE message event of about size bytes, shaped as
// bench/cmd/httpbench's upstream sends it.
func bigSSEEvent(size int) []byte {
	msg := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"` +
		strings.Repeat("x", size) + `"}],"isError":false}}`
	return []byte("event: message\ndata: " + msg + "\n\n")
}

// BenchmarkSSESplit1MB splits one 1 MiB event delivered in 4 KiB reads,
// as the HTTP proxy does for the log.
func BenchmarkSSESplit1MB(b *testing.B) {
	ev := bigSSEEvent(1 << 20)
	b.SetBytes(int64(len(ev)))
	b.ReportAllocs()
	for b.Loop() {
		s := &sseSplitter{max: DefaultMaxFrame}
		n := 0
		for i := 0; i < len(ev); i += 4 << 10 {
			n += len(s.feed(ev[i:min(i+4<<10, len(ev))]))
		}
		n += len(s.finish())
		if n != 1 {
			b.Fatalf("%d events, want 1", n)
		}
	}
}

// BenchmarkCaptureJSON1MB captures a 1 MiB JSON response body delivered
// in 32 KiB reads (the proxy's read size), its length known up front.
func BenchmarkCaptureJSON1MB(b *testing.B) {
	body := bytes.Repeat([]byte("x"), 1<<20)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		c := newCapture(DefaultMaxFrame, int64(len(body)))
		for i := 0; i < len(body); i += 32 << 10 {
			c.Write(body[i:min(i+32<<10, len(body))])
		}
		if got, size := c.freeze(); size != int64(len(body)) || len(got) != len(body) {
			b.Fatalf("captured %d of %d", len(got), size)
		}
	}
}

// BenchmarkHTTPProxy1MB sends requests through the proxy, recording to a
// session log file, for a 1 MiB JSON response (with
// Content-Length) and a 1 MiB SSE event (chunked), as
// bench/cmd/httpbench's upstream sends them. The whole path is in one
// process here, so it is for profiles; bench/cmd/httpbench compares with a
// bare reverse proxy.
func BenchmarkHTTPProxy1MB(b *testing.B) {
	ev := bigSSEEvent(1 << 20)
	js := ev[len("event: message\ndata: ") : len(ev)-2]
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		if r.URL.Path == "/sse" {
			w.Header().Set("Content-Type", "text/event-stream")
			w.Write(ev)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(js)))
		w.Write(js)
	}))
	defer target.Close()
	u, _ := url.Parse(target.URL)
	f, err := os.Create(filepath.Join(b.TempDir(), "session.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	lg := NewLog(f, &LogOptions{Session: "S", Label: "L"})
	defer lg.Close()
	ps := httptest.NewServer(NewHTTPProxy(&HTTPOptions{Target: u, Recorder: lg}))
	defer ps.Close()
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	for _, path := range []string{"/json", "/sse"} {
		b.Run(path[1:], func(b *testing.B) {
			b.SetBytes(int64(len(js)))
			b.ReportAllocs()
			for b.Loop() {
				resp, err := client.Post(ps.URL+path, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`))
				if err != nil {
					b.Fatal(err)
				}
				n, err := io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if err != nil || n < int64(len(js)) {
					b.Fatalf("read %d bytes: %v", n, err)
				}
			}
		})
	}
}
