package hub

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/feed"
	"github.com/mcpward/mcpward/internal/proxy"
	"github.com/mcpward/mcpward/internal/session"
)

// shortDir returns a state directory whose hub.sock fits the Unix socket
// path limit (t.TempDir paths carry the test name and can be too long).
func shortDir(t *testing.T) string {
	t.Helper()
	d, err := os.MkdirTemp("", "mw")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	if err := os.MkdirAll(filepath.Join(d, "sessions"), 0o700); err != nil {
		t.Fatal(err)
	}
	return d
}

// noLeaks fails the test if goroutines started during it are still
// running at its end. It waits a little for goroutines that are exiting,
// as goleak does; it asserts nothing about speed.
func noLeaks(t *testing.T) {
	t.Helper()
	base := runtime.NumGoroutine()
	t.Cleanup(func() {
		for range 5000 {
			if runtime.NumGoroutine() <= base {
				return
			}
			time.Sleep(time.Millisecond)
		}
		buf := make([]byte, 1<<20)
		n := runtime.Stack(buf, true)
		t.Errorf("goroutines: %d at start, %d at end:\n%s", base, runtime.NumGoroutine(), buf[:n])
	})
}

func frame(i int) []byte {
	return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo"}}`, i)
}

func mkRec(sess, label string, seq uint64, t time.Time) session.Record {
	return session.Record{Session: sess, Label: label, Seq: seq, Time: t, Dir: session.ClientToServer,
		Transport: session.Stdio, Frame: frame(int(seq)), HasFrame: true}
}

// writeLog writes records 1..n of a session to path and returns the path.
func writeLog(t *testing.T, path, sess string, from, to uint64) string {
	t.Helper()
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var b []byte
	base := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for i := from; i <= to; i++ {
		r := mkRec(sess, "srv", i, base.Add(time.Duration(i)*time.Millisecond))
		b = session.AppendRecord(b, &r)
	}
	if _, err := f.Write(b); err != nil {
		t.Fatal(err)
	}
	return path
}

// proxyLog is what a proxy does: a Log writing the session file, with a
// feed Sink on its Feed hook.
type proxyLog struct {
	*proxy.Log
	sink *feed.Sink
	f    *os.File
	path string
}

func newProxyLog(t *testing.T, dir, sess string, fo feed.Options) *proxyLog {
	t.Helper()
	path := filepath.Join(dir, "sessions", session.FileName("srv", sess))
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	fo.Session, fo.Label, fo.Log = sess, "srv", path
	if fo.Socket == "" {
		fo.Socket = feed.SocketPath(dir)
	}
	if fo.MinBackoff == 0 {
		fo.MinBackoff, fo.MaxBackoff = time.Millisecond, 5*time.Millisecond
	}
	sink := feed.New(&fo)
	lg := proxy.NewLog(f, &proxy.LogOptions{Session: sess, Label: "srv", Feed: sink.Record})
	p := &proxyLog{Log: lg, sink: sink, f: f, path: path}
	t.Cleanup(func() { p.close() })
	return p
}

func (p *proxyLog) close() {
	p.Log.Close()
	p.sink.Close()
	p.f.Close()
}

// send records n frames through the proxy's Log.
func (p *proxyLog) send(n int) {
	for i := range n {
		p.Record(session.Record{Dir: session.ClientToServer, Transport: session.Stdio, Frame: frame(i), HasFrame: true})
	}
}

// collect reads from sub until it holds want distinct seqs of sess, and
// returns how many batches that took.
func collect(t *testing.T, sub *Subscription, sess string, want int) map[uint64]bool {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	got := map[uint64]bool{}
	for len(got) < want {
		b, err := sub.Next(ctx)
		if err != nil {
			t.Fatalf("Next after %d of %d records: %v", len(got), want, err)
		}
		for _, r := range b.Records {
			if r.Session == sess {
				got[r.Seq] = true
			}
		}
	}
	return got
}

func newHub(t *testing.T, opts Options) *Hub {
	t.Helper()
	if opts.PollInterval == 0 {
		opts.PollInterval = 5 * time.Millisecond
	}
	h, err := New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

func sessionByID(h *Hub, id string) (SessionInfo, bool) {
	for _, s := range h.Sessions() {
		if s.ID == id {
			return s, true
		}
	}
	return SessionInfo{}, false
}
