package proxy

import (
	"bytes"
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
