package jsonrpc

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

func TestParseSSE(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []Event
	}{
		{"one", "data: {\"a\":1}\n\n", []Event{{Data: []byte(`{"a":1}`), HasData: true}}},
		{"all fields", "event: message\nid: 7\nretry: 1500\ndata: x\n\n",
			[]Event{{ID: "7", Event: "message", Data: []byte("x"), Retry: 1500, HasID: true, HasData: true, HasRetry: true}}},
		{"multi-line data", "data: a\ndata:b\ndata:  c\n\n", []Event{{Data: []byte("a\nb\n c"), HasData: true}}},
		{"priming empty data", "id: p1\ndata:\n\n", []Event{{ID: "p1", Data: []byte{}, HasID: true, HasData: true}}},
		{"priming data without colon", "id: p1\ndata\n\n", []Event{{ID: "p1", Data: []byte{}, HasID: true, HasData: true}}},
		{"id only", "id: 5\n\n", []Event{{ID: "5", HasID: true}}},
		{"comments skipped", ": keepalive\n\n: another\ndata: x\n\n", []Event{{Data: []byte("x"), HasData: true}}},
		{"crlf", "event: endpoint\r\ndata: /mcp?s=1\r\n\r\n", []Event{{Event: "endpoint", Data: []byte("/mcp?s=1"), HasData: true}}},
		{"cr", "data: a\rdata: b\r\r", []Event{{Data: []byte("a\nb"), HasData: true}}},
		{"mixed endings", "data: a\r\ndata: b\rdata: c\n\r\n", []Event{{Data: []byte("a\nb\nc"), HasData: true}}},
		{"bom", "\xef\xbb\xbfdata: x\n\n", []Event{{Data: []byte("x"), HasData: true}}},
		{"unknown field ignored", "foo: bar\ndata: x\n\n", []Event{{Data: []byte("x"), HasData: true}}},
		{"unknown field only", "foo: bar\n\n", nil},
		{"bad retry ignored", "retry: 12a\ndata: x\n\n", []Event{{Data: []byte("x"), HasData: true}}},
		{"id with nul ignored", "id: a\x00b\ndata: x\n\n", []Event{{Data: []byte("x"), HasData: true}}},
		{"no space after colon", "data:x\n\n", []Event{{Data: []byte("x"), HasData: true}}},
		{"two spaces keep one", "data:  x\n\n", []Event{{Data: []byte(" x"), HasData: true}}},
		{"unterminated last event dropped", "data: a\n\ndata: b\n", []Event{{Data: []byte("a"), HasData: true}}},
		{"two events", "data: 1\n\ndata: 2\n\n", []Event{{Data: []byte("1"), HasData: true}, {Data: []byte("2"), HasData: true}}},
		{"empty", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseSSE([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("events mismatch (-want +got):\n%s", d)
			}
			// The same events arrive when bytes trickle in one at a time.
			r := NewSSEReader(iotest.OneByteReader(strings.NewReader(tt.in)))
			var slow []Event
			for {
				ev, err := r.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				slow = append(slow, ev)
			}
			if d := cmp.Diff(tt.want, slow); d != "" {
				t.Errorf("one-byte reads mismatch (-want +got):\n%s", d)
			}
		})
	}
}

func TestSSEReaderPendingAndLastID(t *testing.T) {
	r := NewSSEReader(strings.NewReader("id: 1\ndata: a\n\nid: 2\ndata: b"))
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("Next = %v, want EOF", err)
	}
	ev, ok := r.Pending()
	if !ok || string(ev.Data) != "b" || ev.ID != "2" {
		t.Errorf("Pending = %+v, %v; want data b, id 2", ev, ok)
	}
	if got := r.LastEventID(); got != "2" {
		t.Errorf("LastEventID = %q, want 2", got)
	}
}

// blockingReader yields its chunks, then blocks forever, like a stream
// that stays open.
type blockingReader struct{ chunks []string }

func (b *blockingReader) Read(p []byte) (int, error) {
	if len(b.chunks) == 0 {
		select {} // a test failure shows up as a deadlock
	}
	n := copy(p, b.chunks[0])
	b.chunks[0] = b.chunks[0][n:]
	if b.chunks[0] == "" {
		b.chunks = b.chunks[1:]
	}
	return n, nil
}

func TestSSEReaderDoesNotReadAhead(t *testing.T) {
	// After "\r" the reader must not wait for a possible "\n", and a short
	// first line must not wait for a possible byte order mark.
	for _, in := range []string{"data: x\r\r", "d", "data: x\n\n"} {
		r := NewSSEReader(&blockingReader{chunks: []string{in}})
		if in == "d" {
			r = NewSSEReader(&blockingReader{chunks: []string{"d", "ata: x\n\n"}})
		}
		ev, err := r.Next()
		if err != nil || string(ev.Data) != "x" {
			t.Errorf("Next(%q) = %+v, %v", in, ev, err)
		}
	}
}

func TestSSEReaderError(t *testing.T) {
	boom := errors.New("boom")
	r := NewSSEReader(io.MultiReader(strings.NewReader("data: a\n\ndata: b\n"), iotest.ErrReader(boom)))
	if ev, err := r.Next(); err != nil || string(ev.Data) != "a" {
		t.Fatalf("Next = %+v, %v", ev, err)
	}
	if _, err := r.Next(); !errors.Is(err, boom) {
		t.Fatalf("Next = %v, want boom", err)
	}
}
