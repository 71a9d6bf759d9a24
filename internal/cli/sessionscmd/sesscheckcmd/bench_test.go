package sesscheckcmd

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/sessionlog"
	"github.com/mcpward/mcpward/internal/traffic"
)

// BenchmarkCheckMillionFrames analyses a generated log of one million
// frames (about 1 GB: 500k tools/call exchanges with ~1 KB frames, some
// progress, errors and pending calls) and reports the peak RSS
// (VmHWM). Memory must stay bounded: the call store keeps summaries, not
// frames. It only runs under -bench.
func BenchmarkCheckMillionFrames(b *testing.B) {
	path := filepath.Join(b.TempDir(), "big.jsonl")
	fh, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(fh, 1<<20)
	pad := strings.Repeat("lorem ipsum ", 75)
	t0 := time.Date(2026, 8, 1, 0, 0, 0, 0, time.UTC)
	var buf []byte
	seq := uint64(0)
	put := func(dir session.Direction, frame string) {
		seq++
		buf = session.AppendRecord(buf[:0], &session.Record{Session: "01BIG", Label: "big", Seq: seq,
			Time: t0.Add(time.Duration(seq) * time.Millisecond), Dir: dir, Transport: session.Stdio,
			Frame: []byte(frame), HasFrame: true})
		w.Write(buf)
	}
	for i := 0; seq < 1_000_000; i++ {
		put(session.ClientToServer, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"tool%d","arguments":{"q":"%s"}}}`, i, i%50, pad))
		switch {
		case i%1000 == 999:
			put(session.ServerToClient, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"error":{"code":-32602,"message":"bad"}}`, i))
		case i%100000 == 5:
			// left pending
		default:
			put(session.ServerToClient, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"%s"}]}}`, i, pad))
		}
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	fh.Close()
	info, _ := os.Stat(path)
	b.SetBytes(info.Size())
	b.ResetTimer()
	for b.Loop() {
		findings := 0
		chk := traffic.New(&traffic.Options{File: path, OnFinding: func(traffic.Finding) { findings++ }})
		if _, _, err := sessionlog.Read(path, chk.Add); err != nil {
			b.Fatal(err)
		}
		chk.Finish()
		if findings == 0 {
			b.Fatal("no findings")
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(seq), "frames")
	if hwm := vmHWM(); hwm > 0 {
		b.ReportMetric(float64(hwm)/1024, "peak-RSS-MiB")
		if hwm > 200*1024 {
			b.Errorf("peak RSS %d KiB, want under 200 MiB", hwm)
		}
	}
}

// vmHWM returns the process's peak resident set in KiB (Linux only).
func vmHWM() int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			var n int64
			fmt.Sscanf(strings.TrimSpace(v), "%d", &n)
			return n
		}
	}
	return 0
}
