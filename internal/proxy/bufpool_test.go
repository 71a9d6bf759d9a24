package proxy

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
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

func TestBufferPoolFrames(t *testing.T) {
	p := newBufferPool(32 << 20)
	if b := p.getFrame(poolMin - 1); b != nil {
		t.Fatalf("getFrame(%d) = %d bytes, want nil (left to the allocator)", poolMin-1, len(b))
	}
	a := p.getFrame(100_000)
	if len(a) != 100_000 {
		t.Fatalf("len(getFrame(100000)) = %d", len(a))
	}
	p.putFrame(a)
	if b := p.getFrame(99_000); &b[0] != &a[0] {
		t.Errorf("a frame buffer handed back was not lent again for a frame of its class")
	}
	var nilPool *bufferPool
	if b := nilPool.getFrame(1 << 20); b != nil {
		t.Errorf("a nil pool lent a frame buffer")
	}

	var bufs [][]byte
	for range 2 * p.limit / (1 << 20) {
		bufs = append(bufs, p.getFrame(1<<20))
	}
	for _, b := range bufs {
		p.putFrame(b)
	}
	if p.spare > p.limit {
		t.Errorf("the pool keeps %d spare bytes, bound %d", p.spare, p.limit)
	}
}

func TestReadBufferComesBackWithItsLastHolder(t *testing.T) {
	p := newBufferPool(32 << 20)
	rb := p.getRead(relayBufSize)
	rb.refs.Add(1) // a lease
	rb.unref(p)    // the relay moves on
	if len(p.reads) != 0 {
		t.Fatal("a leased read buffer went back to the pool")
	}
	(&lease{pool: p, reads: []*readBuffer{rb}}).end()
	if len(p.reads) != 1 || p.reads[0] != rb {
		t.Fatal("the read buffer did not come back when its lease ended")
	}
	if again := p.getRead(relayBufSize); again != rb || again.refs.Load() != 1 {
		t.Errorf("the pool did not lend the buffer again, held once")
	}
}

// With the Log handing buffers back to the relays, a buffer is read into
// again while other frames are still queued: every frame in the log must
// still be the line that was relayed, redacted or not, and so must every
// line fed live.
func TestLogWithRecycledBuffersKeepsEveryFrame(t *testing.T) {
	for _, redact := range []bool{false, true} {
		t.Run(fmt.Sprintf("filter=%v", redact), func(t *testing.T) {
			r := rand.New(rand.NewPCG(7, 7))
			var data []byte
			var lines [][]byte
			for i := range 200 {
				size := []int{20, 200, 9_000, 70_000, 150_000, 600_000}[r.IntN(6)] + r.IntN(5000)
				if i > 80 {
					size = r.IntN(300) // runs of small lines, many per read
				}
				line := fmt.Appendf(nil, `{"i":%d,"s":"%s"}`, i, bytes.Repeat([]byte{byte('a' + i%26)}, size))
				lines = append(lines, line)
				data = append(append(data, line...), '\n')
			}
			var logBuf bytes.Buffer
			var mu sync.Mutex
			var fed [][]byte
			opts := &LogOptions{
				// A small queue: the relay waits on the writer, so buffers
				// come back and are read into again all through the run.
				QueueBytes: 1 << 20,
				FeedLine: func(_ *session.Record, line [][]byte) {
					mu.Lock()
					fed = append(fed, bytes.Join(line, nil))
					mu.Unlock()
				},
			}
			marker, redacted := []byte(`"i":1`), []byte(`"i":"*"`)
			if redact {
				// Replaces some frames with new slices, as redaction does.
				opts.Filter = func(rec *session.Record) {
					if bytes.Contains(rec.Frame, marker) {
						rec.Frame = bytes.ReplaceAll(rec.Frame, marker, redacted)
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
				if redact {
					want = bytes.ReplaceAll(want, marker, redacted)
				}
				if !bytes.Equal(rec.Frame, want) {
					t.Fatalf("record %d: frame of %d bytes differs from line of %d", i, len(rec.Frame), len(want))
				}
				if !bytes.Equal(fed[i], logLines[i]) {
					t.Fatalf("record %d: the fed line differs from the logged line", i)
				}
			}
			if len(lg.pool.reads) == 0 || lg.pool.spare == 0 {
				t.Errorf("%d read buffers and %d bytes of frame buffers came back; want some of each", len(lg.pool.reads), lg.pool.spare)
			}
		})
	}
}

// The pool is what keeps a logging relay from allocating memory at the
// rate of the traffic: every buffer a relay reads into or joins a long
// line into comes back once its records are written, and is lent again.
// This pins that behaviour by counting the buffers the pool allocated, not
// the process's allocations (which other goroutines add to: measuring
// TotalAlloc against a margin failed on a busy machine). How much a relay
// allocates is measured by BenchmarkRelayLogPipe (-benchmem).
func TestRelayRecyclesBuffers(t *testing.T) {
	const queue = 1 << 20
	for _, tc := range []struct {
		name  string
		line  int
		count int
	}{
		{"300KB", 300_000, 24}, // joined frames, 7 MB per run
		{"10KB", 10_000, 800},  // slices of the read buffers, 8 MB per run
	} {
		t.Run(tc.name, func(t *testing.T) {
			line := append([]byte(`{"s":"`+string(bytes.Repeat([]byte("x"), tc.line))+`"}`), '\n')
			data := bytes.Repeat(line, tc.count)
			lg := NewLog(discard{}, &LogOptions{QueueBytes: queue})
			const runs = 5
			for range runs {
				Relay(discard{}, &pipeReader{data: data}, &RelayOptions{Recorder: lg})
			}
			if err := lg.Close(); err != nil {
				t.Fatal(err)
			}
			p := lg.pool
			// What is lent at once is bounded by the queue (the relay
			// waits when it is full), whatever the timing: the queue's
			// worth of buffers, the one being read into, the pieces of a
			// line, and the chunk being written. Without reuse a relay
			// allocates every buffer anew: runs times the data.
			newReads, newFrames := p.newReads.Load(), p.newFrames.Load()
			perRun := int64(len(data) / relayBufSize)
			bound := 2*int64(queue/relayBufSize) + 8
			t.Logf("%d runs: %d read buffers and %d frame buffers allocated", runs, newReads, newFrames)
			if newReads > bound {
				t.Errorf("the pool allocated %d read buffers over %d runs (%d per run without reuse), want at most %d", newReads, runs, perRun, bound)
			}
			if frameBound := 2*int64(queue/tc.line) + 8; newFrames > frameBound {
				t.Errorf("the pool allocated %d frame buffers over %d runs of %d lines, want at most %d", newFrames, runs, tc.count, frameBound)
			}
			// Everything lent came back once the Log was closed.
			p.mu.Lock()
			defer p.mu.Unlock()
			frames := 0
			for _, l := range p.frames {
				frames += len(l)
			}
			if int64(len(p.reads)) != newReads || int64(frames) != newFrames {
				t.Errorf("%d of %d read buffers and %d of %d frame buffers came back to the pool, want all", len(p.reads), newReads, frames, newFrames)
			}
			if tc.line > poolMin && newFrames == 0 {
				t.Errorf("no frame buffer was lent for %d-byte lines that span read buffers", tc.line)
			}
		})
	}
}

type discard struct{}

func (discard) Write(b []byte) (int, error) { return len(b), nil }

// Lines of a steady size longer than a read buffer are recorded as slices
// of buffers that grew to hold them, not joined from the buffers they
// spanned: only the first line (whose size was not yet known) and a line
// longer than the ones before are joined. Every frame still reaches the
// log whole.
func TestRelayGrowsBuffersForLongLines(t *testing.T) {
	for _, size := range []int{300_000, 1_100_000} {
		t.Run(strconv.Itoa(size), func(t *testing.T) {
			var data []byte
			for i := range 20 {
				data = append(data, fmt.Sprintf(`{"i":%d,"s":"%s"}`+"\n", i, strings.Repeat("x", size))...)
			}
			var frames [][]byte
			lg := NewLog(discard{}, &LogOptions{Feed: func(r *session.Record) {
				frames = append(frames, bytes.Clone(r.Frame))
			}})
			res := Relay(discard{}, &pipeReader{data: data}, &RelayOptions{Recorder: lg})
			if err := lg.Close(); err != nil {
				t.Fatal(err)
			}
			if res.Frames != 20 || len(frames) != 20 {
				t.Fatalf("%d frames recorded, %d fed, want 20", res.Frames, len(frames))
			}
			for i, f := range frames {
				if want := fmt.Sprintf(`{"i":%d,"s":"%s"}`, i, strings.Repeat("x", size)); string(f) != want {
					t.Fatalf("frame %d: %d bytes, not the line relayed (%d bytes)", i, len(f), len(want))
				}
			}
			if j := lg.pool.joins.Load(); j > 2 {
				t.Errorf("%d of 20 lines were joined from the buffers they spanned, want at most 2", j)
			}
		})
	}
}

// Spare frame buffers give way to read buffers: a relay whose buffers
// grew to its lines no longer joins them, and frame buffers left from its
// first lines kept its read buffers out of the pool, to be allocated
// again for every line.
func TestPoolKeepsReadBuffersOverSpareFrames(t *testing.T) {
	const size = 1 << 20
	p := newBufferPool(4 * size)
	var frames [][]byte
	for range 4 {
		frames = append(frames, p.getFrame(size))
	}
	rb := p.getRead(size)
	for _, f := range frames {
		p.putFrame(f)
	}
	rb.unref(p)
	if again := p.getRead(size); again != rb {
		t.Errorf("the read buffer was not kept: %d spare bytes of frame buffers filled the pool", p.spare)
	}
	if p.newReads.Load() != 1 {
		t.Errorf("%d read buffers allocated, want 1", p.newReads.Load())
	}
}

// embeddedLog is a Recorder that embeds a Log, as the CLI's
// recording.Recording does.
type embeddedLog struct{ *Log }

// TestRelayLendsToEmbeddedLog: a relay recording into a type that embeds
// a Log reads into the Log's pool and lends it its buffers. Before, only
// a *Log itself got them, so `mcpward proxy` (whose recorder is a
// recording.Recording) allocated every read buffer anew.
func TestRelayLendsToEmbeddedLog(t *testing.T) {
	lg := NewLog(discard{}, nil)
	data := bytes.Repeat([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`+"\n"), 20000)
	res := Relay(discard{}, &pipeReader{data: data}, &RelayOptions{Recorder: embeddedLog{lg}})
	if err := lg.Close(); err != nil {
		t.Fatal(err)
	}
	if res.Frames != 20000 {
		t.Errorf("%d frames, want 20000", res.Frames)
	}
	if n := lg.pool.newReads.Load(); n == 0 {
		t.Error("the relay did not read into the Log's pool")
	}
}
