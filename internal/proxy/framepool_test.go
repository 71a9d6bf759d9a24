package proxy

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/mcpward/mcpward/internal/session"
)

func TestClassSize(t *testing.T) {
	for _, n := range []int{poolMin, poolMin + 1, 100_000, 1<<20 - 1, 1 << 20, 1<<20 + 1, 1_500_000, 8<<20 - 1, 64 << 20} {
		c := classSize(n)
		if c < n || c > n+n/4 {
			t.Errorf("classSize(%d) = %d, want in [n, 1.25n]", n, c)
		}
		if classSize(c) != c {
			t.Errorf("classSize(%d) = %d is not a class of its own (%d)", n, c, classSize(c))
		}
	}
	// The frames of one size share a class, so they share buffers.
	if classSize(1<<20-1) != classSize(1<<20) {
		t.Errorf("a 1 MiB frame with and without its newline fall in different classes")
	}
}

func TestFramePoolReusesOnlyWhatItLent(t *testing.T) {
	p := newFramePool()
	if b := p.get(poolMin - 1); b != nil {
		t.Fatalf("get(%d) = %d bytes, want nil (left to the allocator)", poolMin-1, len(b))
	}
	a := p.get(100_000)
	if len(a) != 100_000 {
		t.Fatalf("len(get(100000)) = %d", len(a))
	}
	p.put(a)
	if b := p.get(99_000); &b[0] != &a[0] {
		t.Errorf("a buffer handed back was not lent again for a frame of its class")
	}

	// A frame the pool did not lend (an HTTP body, a frame a Filter
	// replaced) is never taken in, even with a fitting capacity.
	foreign := make([]byte, 100_000, classSize(100_000))
	p.put(foreign)
	if b := p.get(100_000); &b[0] == &foreign[0] {
		t.Errorf("the pool lent a buffer it never owned")
	}
	// A buffer handed back twice is taken once.
	c := p.get(200_000)
	p.put(c)
	p.put(c)
	d, e := p.get(200_000), p.get(200_000)
	if &d[0] == &e[0] {
		t.Errorf("a buffer handed back twice was lent twice")
	}
	if len(p.lent) != 4 {
		t.Errorf("%d buffers lent, want 4", len(p.lent))
	}
}

func TestFramePoolSpareBound(t *testing.T) {
	p := newFramePool()
	var bufs [][]byte
	for range 2 * maxSpare / (1 << 20) {
		bufs = append(bufs, p.get(1<<20))
	}
	for _, b := range bufs {
		p.put(b)
	}
	if p.spare > maxSpare {
		t.Errorf("the pool keeps %d spare bytes, bound %d", p.spare, maxSpare)
	}
	if len(p.lent) != 0 {
		t.Errorf("%d buffers still counted as lent", len(p.lent))
	}
}

// With the Log handing frame buffers back to the relays, a buffer is
// lent again while other frames are still queued: every frame in the log
// must still be the line that was relayed, redacted or not, and so must
// every line fed live.
func TestLogWithRecycledFramesKeepsEveryFrame(t *testing.T) {
	for _, redact := range []bool{false, true} {
		t.Run(fmt.Sprintf("filter=%v", redact), func(t *testing.T) {
			r := rand.New(rand.NewPCG(7, 7))
			var data []byte
			var lines [][]byte
			for i := range 48 {
				size := []int{200, 70_000, 150_000, 600_000}[r.IntN(4)] + r.IntN(5000)
				line := fmt.Appendf(nil, `{"i":%d,"s":"%s"}`, i, bytes.Repeat([]byte{byte('a' + i%26)}, size))
				lines = append(lines, line)
				data = append(append(data, line...), '\n')
			}
			var logBuf bytes.Buffer
			var mu sync.Mutex
			var fed [][]byte
			opts := &LogOptions{
				// A small queue: the relay waits on the writer, so buffers
				// come back and are lent again all through the run.
				QueueBytes: 1 << 20,
				FeedLine: func(_ *session.Record, line [][]byte) {
					mu.Lock()
					fed = append(fed, bytes.Join(line, nil))
					mu.Unlock()
				},
			}
			if redact {
				// Replaces every frame that holds an "x"-free marker with a
				// new slice, as redaction does, and leaves the others.
				opts.Filter = func(rec *session.Record) {
					if bytes.Contains(rec.Frame, []byte(`"i":1`)) {
						rec.Frame = bytes.ReplaceAll(rec.Frame, []byte(`"i":1`), []byte(`"i":"*"`))
						rec.Redacted = true
					}
				}
			}
			lg := NewLog(&logBuf, opts)
			var out bytes.Buffer
			Relay(&out, &bigChunkReader{r: r, data: data}, &RelayOptions{Dir: session.ServerToClient, Recorder: lg})
			if err := lg.Close(); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out.Bytes(), data) {
				t.Fatal("relayed bytes differ")
			}
			recs := readLog(t, bytes.NewReader(logBuf.Bytes()))
			if len(recs) != len(lines) {
				t.Fatalf("%d records, want %d", len(recs), len(lines))
			}
			logLines := bytes.SplitAfter(logBuf.Bytes(), []byte("\n"))
			for i, rec := range recs {
				want := lines[i]
				if redact && bytes.Contains(want, []byte(`"i":1`)) {
					want = bytes.ReplaceAll(want, []byte(`"i":1`), []byte(`"i":"*"`))
				}
				if !bytes.Equal(rec.Frame, want) {
					t.Fatalf("record %d: frame of %d bytes differs from line of %d", i, len(rec.Frame), len(want))
				}
				if !bytes.Equal(fed[i], logLines[i]) {
					t.Fatalf("record %d: the fed line differs from the logged line", i)
				}
			}
			if n := len(lg.pool.lent); n != 0 {
				t.Errorf("%d frame buffers never came back", n)
			}
			if lg.pool.spare == 0 {
				t.Errorf("no frame buffer was kept for reuse")
			}
		})
	}
}

// The pool is what keeps a relay of long frames from allocating a new
// frame per line.
func TestRelayRecyclesFrameBuffers(t *testing.T) {
	line := append([]byte(`{"s":"`+string(bytes.Repeat([]byte("x"), 300_000))+`"}`), '\n')
	data := bytes.Repeat(line, 24)
	lg := NewLog(&bytes.Buffer{}, &LogOptions{QueueBytes: 1 << 20})
	defer lg.Close()
	allocs := testing.AllocsPerRun(3, func() {
		Relay(discard{}, &pipeReader{data: data}, &RelayOptions{Recorder: lg})
	})
	var grown int64
	lg.pool.mu.Lock()
	for size, l := range lg.pool.free {
		grown += int64(size * len(l))
	}
	lg.pool.mu.Unlock()
	// 24 frames of 300 KB per run: without reuse that is 24 frame
	// allocations per run; with it, a handful of buffers in all.
	if grown > 4<<20 {
		t.Errorf("the pool holds %d MiB for 300 KB frames", grown>>20)
	}
	if allocs > 20 { // 16 here with the pool, 39 without
		t.Errorf("%.0f allocations per relay of 24 frames", allocs)
	}
}

type discard struct{}

func (discard) Write(b []byte) (int, error) { return len(b), nil }
