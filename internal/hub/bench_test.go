package hub

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/feed"
	"github.com/mcpward/mcpward/internal/session"
)

// latencyHist counts latencies in 1µs buckets up to ~262ms, plus overflow.
type latencyHist struct {
	b    [1 << 18]uint64
	over uint64
	max  time.Duration
	n    uint64
}

func (h *latencyHist) add(d time.Duration) {
	h.n++
	h.max = max(h.max, d)
	us := d.Microseconds()
	if us < 0 {
		us = 0
	}
	if us >= int64(len(h.b)) {
		h.over++
		return
	}
	h.b[us]++
}

func (h *latencyHist) quantile(q float64) time.Duration {
	want := uint64(q * float64(h.n))
	var acc uint64
	for i, c := range h.b {
		acc += c
		if acc >= want && acc > 0 {
			return time.Duration(i) * time.Microsecond
		}
	}
	return h.max
}

func rssMiB() float64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			var kb float64
			fmt.Sscanf(strings.TrimSpace(v), "%f", &kb)
			return kb / 1024
		}
	}
	return 0
}

// benchFeeds sends b.N frames to a hub over real Unix sockets from
// `feeds` proxies, paced at `rate` frames per second in total (0: as fast
// as they go), and reports the ingest rate, the frame-to-subscriber
// latency (from the record's time stamp to Subscription.Next returning
// it), and memory at the end. Run the 10-million-frame case with
//
//	go test ./internal/hub -run '^$' -bench HubFeed100k -benchtime 10000000x
func benchFeeds(b *testing.B, feeds int, rate float64) {
	dir, err := os.MkdirTemp("", "mwb")
	if err != nil {
		b.Fatal(err)
	}
	defer os.RemoveAll(dir)
	sock := feed.SocketPath(dir)
	h, err := New(context.Background(), Options{Socket: sock})
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	sub := h.Subscribe()
	total := uint64(b.N)

	var hist latencyHist
	consumed := make(chan struct{})
	go func() {
		defer close(consumed)
		var seen uint64
		for seen < total {
			batch, err := sub.Next(context.Background())
			if err != nil {
				return
			}
			now := time.Now()
			for _, r := range batch.Records {
				hist.add(now.Sub(r.Time))
			}
			seen += uint64(len(batch.Records)) + batch.Skipped
			if seen < total && h.Stats().Ingested+sumDropped() >= total {
				return // the rest was dropped by the feeds
			}
		}
	}()

	sinks := make([]*feed.Sink, feeds)
	for i := range sinks {
		sinks[i] = feed.New(&feed.Options{Socket: sock, Session: fmt.Sprintf("bench-%d", i), Label: "bench"})
	}
	dropped = func() uint64 {
		var n uint64
		for _, s := range sinks {
			n += uint64(s.Stats().Dropped)
		}
		return n
	}
	runtime.GC()
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	for i, s := range sinks {
		n := b.N / feeds
		if i == 0 {
			n += b.N % feeds
		}
		wg.Go(func() {
			rec := session.Record{Session: fmt.Sprintf("bench-%d", i), Label: "bench", Dir: session.ClientToServer,
				Transport: session.Stdio, HasFrame: true}
			var line []byte
			perFeed := rate / float64(feeds)
			for k := range n {
				if perFeed > 0 && k%64 == 0 {
					due := start.Add(time.Duration(float64(k) / perFeed * float64(time.Second)))
					if d := time.Until(due); d > 0 {
						time.Sleep(d)
					}
				}
				rec.Seq = uint64(k + 1)
				rec.Time = time.Now()
				rec.Frame = fmt.Appendf(rec.Frame[:0], `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello world"}}}`, k)
				line = session.AppendRecord(line[:0], &rec)
				s.Line(rec.Seq, line)
			}
		})
	}
	wg.Wait()
	<-consumed
	elapsed := time.Since(start)
	b.StopTimer()
	st := h.Stats()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(st.Ingested)/elapsed.Seconds(), "frames/s")
	b.ReportMetric(float64(hist.quantile(0.50).Microseconds()), "p50-µs")
	b.ReportMetric(float64(hist.quantile(0.99).Microseconds()), "p99-µs")
	b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "heap-MiB")
	b.ReportMetric(rssMiB(), "rss-MiB")
	b.ReportMetric(float64(sumDropped()), "dropped")
	for _, s := range sinks {
		s.Close()
	}
	b.ReportMetric(0, "ns/op")
}

// dropped is set by benchFeeds to count frames the feeds dropped.
var dropped func() uint64

func sumDropped() uint64 {
	if dropped == nil {
		return 0
	}
	return dropped()
}

// BenchmarkHubFeed100k paces 4 feeds at 100,000 frames/s in total.
func BenchmarkHubFeed100k(b *testing.B) { benchFeeds(b, 4, 100_000) }

// BenchmarkHubFeed200k paces 4 feeds at 200,000 frames/s in total: twice
// the target, to show the headroom.
func BenchmarkHubFeed200k(b *testing.B) { benchFeeds(b, 4, 200_000) }

// BenchmarkHubFeedMax lets 4 feeds send as fast as they can.
func BenchmarkHubFeedMax(b *testing.B) { benchFeeds(b, 4, 0) }
