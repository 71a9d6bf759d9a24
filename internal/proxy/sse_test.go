package proxy

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strings"
	"testing"

	"github.com/mcpward/mcpward/internal/jsonrpc"
	"github.com/mcpward/mcpward/internal/session"
)

// splitAll feeds stream to a splitter in the given read sizes and
// describes the events it returns.
func splitAll(stream []byte, max int, sizes func() int) []string {
	s := &sseSplitter{max: max}
	var got []string
	describe := func(evs []sseEvent) {
		for _, e := range evs {
			got = append(got, fmt.Sprintf("%q|%q|%v|%q|%d", e.event, e.id, e.hasData, e.data, e.size))
		}
	}
	for len(stream) > 0 {
		n := min(sizes(), len(stream))
		describe(s.feed(stream[:n]))
		stream = stream[n:]
	}
	describe(s.finish())
	return got
}

// The splitter returns what jsonrpc's SSEReader parses from the whole
// stream (events with an event type, id or data; the unterminated last one
// too), whatever the reads it arrives in.
func TestSSESplitterMatchesSSEReader(t *testing.T) {
	pieces := []string{"data: x", "data:y", "data", "data:", "data:  two", "event: e", "event:", "id: 7", "id",
		"id: a\x00b", "retry: 10", "retry: x", ": comment", ":", "other: v", "dat", "datas: v", "eventful: v", " data: x",
		"data: \xef\xbb\xbf", "\xef\xbb"}
	ends := []string{"\n", "\r", "\r\n"}
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 3000 {
		var b strings.Builder
		if r.IntN(4) == 0 {
			b.WriteString("\xef\xbb\xbf"[:1+r.IntN(3)])
		}
		for range r.IntN(12) {
			if r.IntN(3) > 0 {
				b.WriteString(pieces[r.IntN(len(pieces))])
			}
			b.WriteString(ends[r.IntN(len(ends))])
		}
		if r.IntN(2) == 0 {
			b.WriteString(pieces[r.IntN(len(pieces))]) // unterminated
		}
		stream := []byte(b.String())

		rd := jsonrpc.NewSSEReader(bytes.NewReader(stream))
		var want []string
		add := func(e jsonrpc.Event) {
			if e.HasData || e.HasID || e.Event != "" {
				data := e.Data
				if data == nil && e.HasData {
					data = []byte{}
				}
				want = append(want, fmt.Sprintf("%q|%q|%v|%q|%d", e.Event, e.ID, e.HasData, data, len(data)))
			}
		}
		for {
			e, err := rd.Next()
			if err != nil {
				break
			}
			add(e)
		}
		if e, ok := rd.Pending(); ok {
			add(e)
		}
		whole := splitAll(stream, 1<<20, func() int { return len(stream) })
		bytewise := splitAll(stream, 1<<20, func() int { return 1 })
		random := splitAll(stream, 1<<20, func() int { return 1 + r.IntN(8) })
		for name, got := range map[string][]string{"whole": whole, "bytewise": bytewise, "random": random} {
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("stream %d %q, %s reads:\n got %q\nwant %q", i, stream, name, got, want)
			}
		}
	}
}

// A CRLF whose CR ends one read and LF begins the next is one line end,
// also between blank lines.
func TestSSESplitterCRLFAcrossReads(t *testing.T) {
	reads := []string{"data: a\r", "\ndata: b\r", "\n\r", "\ndata: c\r\n\r", "\n"}
	s := &sseSplitter{max: 1 << 20}
	var got []string
	for _, r := range reads {
		for _, e := range s.feed([]byte(r)) {
			got = append(got, string(e.data))
		}
	}
	if len(s.finish()) != 0 {
		t.Error("an event was left over")
	}
	if want := []string{"a\nb", "c"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("events %q, want %q", got, want)
	}
}

// A capped event records the first max bytes of its data and the size of
// all of it (before, the size was that of the raw block: field names, line
// ends and all).
func TestSSESplitterCapsDataCountsAll(t *testing.T) {
	data := strings.Repeat("x", 300)
	stream := "event: message\ndata: " + data + "\ndata: " + data + "\n\n"
	for _, size := range []int{1, 7, 4096} {
		got := splitAll([]byte(stream), 100, func() int { return size })
		want := fmt.Sprintf("%q|%q|%v|%q|%d", "message", "", true, data[:100], 601)
		if len(got) != 1 || got[0] != want {
			t.Errorf("reads of %d: %q, want [%s]", size, got, want)
		}
	}
}

// allocated returns the bytes f allocates on the heap.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// Splitting a 1 MiB event that arrives in 4 KiB reads allocates a small
// multiple of the event (the data is copied twice), not the 11 MiB it
// took when the block was kept, parsed again by jsonrpc.ParseSSE and its
// data copied twice more. Speed is measured by BenchmarkSSESplit1MB.
func TestSSESplitterAllocatesLinearly(t *testing.T) {
	ev := bigSSEEvent(1 << 20)
	n := allocated(func() {
		s := &sseSplitter{max: DefaultMaxFrame}
		for i := 0; i < len(ev); i += 4 << 10 {
			s.feed(ev[i:min(i+4<<10, len(ev))])
		}
	})
	if n > 3<<20 {
		t.Errorf("splitting a 1 MiB event allocated %.1f MiB, want at most 3", float64(n)/(1<<20))
	}
	m := allocated(func() {
		c := newCapture(DefaultMaxFrame, 1<<20)
		chunk := make([]byte, 32<<10)
		for range 32 {
			c.Write(chunk)
		}
	})
	if m > 1<<20+64<<10 {
		t.Errorf("capturing a 1 MiB body of known length allocated %.1f MiB, want 1", float64(m)/(1<<20))
	}
}

// A 1 MiB event that reaches the proxy in many small reads (the target
// flushes every 1,000 bytes) reaches the client byte for byte, and is
// recorded once, whole; behind a proxy that caps records at 64 KiB it is
// recorded capped, with the data's full size.
func TestHTTPProxyBigSSEEventInSmallReads(t *testing.T) {
	ev := bigSSEEvent(1 << 20)
	data := ev[len("event: message\ndata: ") : len(ev)-2]
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for i := 0; i < len(ev); i += 1000 {
			w.Write(ev[i:min(i+1000, len(ev))])
			w.(http.Flusher).Flush()
		}
	}))
	defer target.Close()
	u, _ := url.Parse(target.URL)
	for _, max := range []int{0, 64 << 10} {
		rec := &memRecorder{}
		ps := httptest.NewServer(NewHTTPProxy(&HTTPOptions{Target: u, Recorder: rec, MaxFrame: max}))
		resp, err := http.Post(ps.URL+"/mcp", "application/json", strings.NewReader("{}"))
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		ps.Close()
		if err != nil || !bytes.Equal(got, ev) {
			t.Fatalf("max %d: client got %d bytes (%v), want the %d sent, unchanged", max, len(got), err, len(ev))
		}
		var events []session.Record
		for _, r := range rec.records() {
			if r.SSE {
				events = append(events, r)
			}
		}
		if len(events) != 1 {
			t.Fatalf("max %d: %d events recorded, want 1", max, len(events))
		}
		e := events[0]
		wantFrame := data
		if max > 0 {
			wantFrame = data[:max]
		}
		if e.SSEEvent != "message" || !bytes.Equal(e.Frame, wantFrame) || e.Size != int64(len(data)) || e.Truncated != (max > 0) {
			t.Errorf("max %d: recorded event %q, %d bytes of %d, truncated %v; want message, %d of %d, truncated %v",
				max, e.SSEEvent, len(e.Frame), e.Size, e.Truncated, len(wantFrame), len(data), max > 0)
		}
	}
}

// A CRLF split across the proxy's reads (the target waits until the client
// has each piece) is relayed unchanged and ends one line, not two.
func TestHTTPProxySSECRLFAcrossReads(t *testing.T) {
	pieces := []string{"data: a\r", "\ndata: b\r", "\n\r", "\ndata: c\r\n\r", "\n"}
	next := make(chan struct{})
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for _, p := range pieces {
			io.WriteString(w, p)
			w.(http.Flusher).Flush()
			<-next
		}
	}))
	defer target.Close()
	u, _ := url.Parse(target.URL)
	rec := &memRecorder{}
	ps := httptest.NewServer(NewHTTPProxy(&HTTPOptions{Target: u, Recorder: rec}))
	defer ps.Close()
	resp, err := http.Post(ps.URL+"/mcp", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pieces {
		got := make([]byte, len(p))
		if _, err := io.ReadFull(resp.Body, got); err != nil || string(got) != p {
			t.Fatalf("client got %q (%v), want %q", got, err, p)
		}
		next <- struct{}{}
	}
	if rest, _ := io.ReadAll(resp.Body); len(rest) > 0 {
		t.Errorf("client got %q more", rest)
	}
	resp.Body.Close()
	ps.Close()
	var got []string
	for _, r := range rec.records() {
		if r.SSE {
			got = append(got, string(r.Frame))
		}
	}
	if want := []string{"a\nb", "c"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("recorded events %q, want %q", got, want)
	}
}

// A proxy that records nothing (--no-trace) keeps no copy of bodies or
// events and still relays JSON and SSE responses unchanged.
func TestHTTPProxyWithoutRecorderRelaysUnchanged(t *testing.T) {
	ev := bigSSEEvent(100 << 10)
	js := ev[len("event: message\ndata: ") : len(ev)-2]
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/sse" {
			w.Header().Set("Content-Type", "text/event-stream")
			w.Write(ev)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(js)
	}))
	defer target.Close()
	u, _ := url.Parse(target.URL)
	ps := httptest.NewServer(NewHTTPProxy(&HTTPOptions{Target: u}))
	defer ps.Close()
	for path, want := range map[string][]byte{"/sse": ev, "/json": js} {
		resp, err := http.Post(ps.URL+path, "application/json", strings.NewReader("{}"))
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: client got %d bytes (%v), want the %d sent, unchanged", path, len(got), err, len(want))
		}
	}
}

// A body's capture is allocated from its Content-Length, but not beyond
// the record cap nor maxPrealloc: a length announced is not yet sent.
func TestCaptureAllocatesFromLength(t *testing.T) {
	for _, c := range []struct {
		max         int
		length      int64
		wantCap     int
		description string
	}{
		{DefaultMaxFrame, 1 << 20, 1 << 20, "known length"},
		{100, 1 << 20, 100, "capped by the record cap"},
		{DefaultMaxFrame, 1 << 40, maxPrealloc, "capped by maxPrealloc"},
		{DefaultMaxFrame, -1, 0, "unknown length"},
	} {
		if got := cap(newCapture(c.max, c.length).buf); got != c.wantCap {
			t.Errorf("%s: capacity %d, want %d", c.description, got, c.wantCap)
		}
	}
	c := newCapture(DefaultMaxFrame, 1<<40)
	c.Write(bytes.Repeat([]byte("x"), maxPrealloc+1))
	if b, size := c.freeze(); len(b) != maxPrealloc+1 || size != maxPrealloc+1 {
		t.Errorf("captured %d of %d, want all %d", len(b), size, maxPrealloc+1)
	}
}
