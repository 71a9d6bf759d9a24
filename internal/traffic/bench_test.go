package traffic

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/session"
)

var benchFrames = flag.Int("bench-frames", 100_000, "frames in the log BenchmarkCheckLog generates (1000000 makes ~1 GB)")

// writeBenchLog writes a stdio session of n frames to path: an initialize
// handshake, then tools/call requests (~250 bytes) each answered by a
// result with ~1.8 KB of text, about 1 KB per frame on average with the
// record envelope, as a busy agent's log looks. With modern, the session
// is 2026-07-28: every request declares its revision in _meta and every
// result has a resultType, so the rules of that era run too.
func writeBenchLog(tb testing.TB, path string, n int, modern bool) int64 {
	tb.Helper()
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	t0 := time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)
	rec := session.Record{Session: "01JBENCHSESSION0000000000", Label: "bench", Transport: session.Stdio, HasFrame: true}
	var line []byte
	emit := func(dir session.Direction, frame []byte) {
		rec.Seq++
		rec.Time = t0.Add(time.Duration(rec.Seq) * time.Millisecond)
		rec.Dir, rec.Frame, rec.Size = dir, frame, int64(len(frame))
		line = session.AppendRecord(line[:0], &rec)
		w.Write(line)
	}
	text := strings.Repeat("lorem ipsum dolor sit amet ", 66)
	var frame []byte
	if modern {
		emit(session.ClientToServer, []byte(`{"jsonrpc":"2.0","id":0,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}`))
		emit(session.ServerToClient, []byte(`{"jsonrpc":"2.0","id":0,"result":{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"serverInfo":{"name":"srv","version":"1"},"ttlMs":60000,"cacheScope":"public"}}`))
	} else {
		emit(session.ClientToServer, []byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`))
		emit(session.ServerToClient, []byte(`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"srv","version":"1"}}}`))
		emit(session.ClientToServer, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	}
	for id := 1; int(rec.Seq) < n; id++ {
		if modern {
			frame = fmt.Appendf(frame[:0], `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"search","arguments":{"query":"frame %d","limit":10,"filters":{"lang":"go","path":"internal/"}},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`, id, id)
		} else {
			frame = fmt.Appendf(frame[:0], `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"search","arguments":{"query":"frame %d","limit":10,"filters":{"lang":"go","path":"internal/"}}}}`, id, id)
		}
		emit(session.ClientToServer, frame)
		rt := ""
		if modern {
			rt = `"resultType":"complete",`
		}
		frame = fmt.Appendf(frame[:0], `{"jsonrpc":"2.0","id":%d,"result":{%s"content":[{"type":"text","text":"%s %d"}],"isError":false}}`, id, rt, text, id)
		emit(session.ServerToClient, frame)
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	st, err := f.Stat()
	if err != nil {
		tb.Fatal(err)
	}
	f.Close()
	return st.Size()
}

// BenchmarkCheckLog reads a generated log and runs the traffic checker
// over it, as `sessions check` does: session reader, call store, rules.
// -bench-frames=1000000 gives the ~1 GB case; peak-RSS-MiB is the
// process's high-water mark (the generator streams to a file, so it adds
// little).
func BenchmarkCheckLog(b *testing.B) {
	b.Run("2025-06-18", func(b *testing.B) { benchCheckLog(b, false) })
	b.Run("2026-07-28", func(b *testing.B) { benchCheckLog(b, true) })
}

func benchCheckLog(b *testing.B, modern bool) {
	path := filepath.Join(b.TempDir(), "bench.jsonl")
	size := writeBenchLog(b, path, *benchFrames, modern)
	b.SetBytes(size)
	findings := 0
	for b.Loop() {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		c := New(&Options{File: path, OnFinding: func(Finding) { findings++ }})
		rd := session.NewReader(f)
		for n := 1; ; n++ {
			rec, err := rd.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			c.Add(rec, n)
		}
		c.Finish()
		f.Close()
	}
	b.ReportMetric(float64(*benchFrames), "frames")
	b.ReportMetric(float64(findings)/float64(b.N), "findings")
	b.ReportMetric(peakRSSMiB(), "peak-RSS-MiB")
}

func peakRSSMiB() float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for l := range strings.SplitSeq(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			var kb float64
			fmt.Sscanf(strings.TrimSpace(v), "%f", &kb)
			return kb / 1024
		}
	}
	return 0
}
