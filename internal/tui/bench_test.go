package tui

import (
	"context"
	"flag"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/tui/memsource"
)

var benchFrames = flag.Int("bench-frames", 10_000_000, "frames fed by BenchmarkMemory10M")

// drive runs the model's loop as bubbletea does: the wait command returns
// coalesced batches, a tick every 1/30 s rebuilds the screen. It stops
// when total frames were ingested, and returns the latencies from record
// creation to the first rendered screen that contains it (sampled: the
// newest record of each batch).
func drive(m *Model, src *memsource.Source, total int) (lat []time.Duration) {
	tick := time.Now()
	frame := time.Second / 30
	var pendingStamp []time.Time
	for int(m.st.Ingested) < total {
		msg := m.waitCmd()().(FramesMsg)
		if msg.Err != nil {
			break
		}
		if n := len(msg.Batch.Records); n > 0 {
			pendingStamp = append(pendingStamp, msg.Batch.Records[n-1].Time)
		}
		m.Update(msg)
		if now := time.Now(); now.Sub(tick) >= frame {
			tick = now
			m.Update(TickMsg(now))
			_ = m.View()
			done := time.Now()
			for _, s := range pendingStamp {
				lat = append(lat, done.Sub(s))
			}
			pendingStamp = pendingStamp[:0]
		}
	}
	return lat
}

func produce(ctx context.Context, src *memsource.Source, producers, perSec, total int) {
	var wg sync.WaitGroup
	each := total / producers
	for p := range producers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := fmt.Sprintf("bench-%d-%012x", p, p)
			start := time.Now()
			rate := float64(perSec) / float64(producers)
			for i := 0; i < each; i += 2 {
				if perSec > 0 {
					due := start.Add(time.Duration(float64(i) / rate * float64(time.Second)))
					if d := time.Until(due); d > 0 {
						time.Sleep(d)
					}
				}
				if ctx.Err() != nil {
					return
				}
				req, resp := memsource.Call(id, "bench", uint64(i+1), time.Now(), i)
				src.Push(req, resp)
			}
		}()
	}
	wg.Wait()
}

// BenchmarkIngest100k feeds 100,000 frames per second from 4 producers
// for 3 s and reports the rate sustained and frame-to-screen latency.
func BenchmarkIngest100k(b *testing.B) {
	for range b.N {
		const rate, producers, secs = 100_000, 4, 3
		src := memsource.New(false)
		m := New(Options{Source: src, NoColor: true})
		m.Update(tea_size(160, 50))
		m.active = pageStream
		m.str.SetSession("bench-0-000000000000")
		ctx, cancel := context.WithCancel(context.Background())
		start := time.Now()
		go produce(ctx, src, producers, rate, rate*secs)
		lat := drive(m, src, rate*secs)
		el := time.Since(start)
		cancel()
		slices.Sort(lat)
		b.ReportMetric(float64(m.st.Ingested)/el.Seconds(), "frames/s")
		if len(lat) > 0 {
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
		}
	}
}

// BenchmarkIngestMax feeds frames unpaced from 4 producers: the ceiling.
func BenchmarkIngestMax(b *testing.B) {
	for range b.N {
		const total = 1_000_000
		src := memsource.New(false)
		m := New(Options{Source: src, NoColor: true})
		m.Update(tea_size(160, 50))
		start := time.Now()
		go produce(context.Background(), src, 4, 0, total)
		drive(m, src, total)
		b.ReportMetric(float64(m.st.Ingested)/time.Since(start).Seconds(), "frames/s")
	}
}

// BenchmarkMemory10M feeds -bench-frames frames (10 million by default)
// and reports the heap in use afterwards: the row window and the
// per-session counters are all that is kept.
func BenchmarkMemory10M(b *testing.B) {
	for range b.N {
		src := memsource.New(false)
		m := New(Options{Source: src, NoColor: true})
		m.Update(tea_size(160, 50))
		go produce(context.Background(), src, 4, 0, *benchFrames)
		drive(m, src, *benchFrames)
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "heap-MiB")
		b.ReportMetric(float64(m.st.Ingested), "frames")
	}
}
