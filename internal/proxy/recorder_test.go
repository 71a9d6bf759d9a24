package proxy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mcpward/mcpward/internal/session"
)

// gatedWriter blocks every write until gate is closed.
type gatedWriter struct {
	gate chan struct{}
	buf  bytes.Buffer
}

func (g *gatedWriter) Write(p []byte) (int, error) {
	<-g.gate
	return g.buf.Write(p)
}

func frameRec(s string) session.Record {
	return session.Record{Dir: session.ClientToServer, Transport: session.Stdio, Frame: []byte(s), HasFrame: true}
}

func TestLogBackpressureInsteadOfDropping(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := &gatedWriter{gate: make(chan struct{})}
		lg := NewLog(w, &LogOptions{QueueBytes: 2000})
		var done atomic.Int32
		go func() {
			for range 10 {
				lg.Record(frameRec(`"` + strings.Repeat("x", 400) + `"`))
				done.Add(1)
			}
		}()
		synctest.Wait()
		if n := done.Load(); n == 10 || n == 0 {
			t.Fatalf("%d of 10 records accepted while the disk is stalled; want the relay held back after a few", n)
		}
		close(w.gate)
		synctest.Wait()
		if err := lg.Close(); err != nil {
			t.Fatal(err)
		}
		recs := readLog(t, &w.buf)
		checkSeq(t, recs)
		if len(recs) != 10 {
			t.Errorf("log holds %d records, want 10", len(recs))
		}
	})
}

// flakyWriter fails while failing is set.
type flakyWriter struct {
	failing atomic.Bool
	buf     bytes.Buffer
}

func (f *flakyWriter) Write(p []byte) (int, error) {
	if f.failing.Load() {
		return 0, errors.New("no space left on device")
	}
	return f.buf.Write(p)
}

func TestLogCountsLostFrames(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := &flakyWriter{}
		w.failing.Store(true)
		lg := NewLog(w, nil)
		// The writer looks at the queue every flushEvery: sleeping past
		// that (fake time in the bubble) is what makes it try the write,
		// whether or not it was waiting already when Record was called.
		settle := func() { time.Sleep(2 * flushEvery); synctest.Wait() }
		lg.Record(frameRec(`1`), frameRec(`2`))
		settle()
		w.failing.Store(false)
		lg.Record(frameRec(`3`))
		settle()
		err := lg.Close()
		if err == nil || !strings.Contains(err.Error(), "2 frames lost") || !strings.Contains(err.Error(), "no space") {
			t.Errorf("Close() = %v, want 2 frames lost and why", err)
		}
		recs := readLog(t, &w.buf)
		if len(recs) != 2 || recs[0].Seq != 3 || recs[1].Kind != session.KindLost || recs[1].Seq != 4 {
			t.Fatalf("log = %d records, want frame seq 3 then a lost record seq 4", len(recs))
		}
		var info struct{ Frames int }
		json.Unmarshal(recs[1].Info, &info)
		if info.Frames != 2 {
			t.Errorf("lost record counts %d frames, want 2", info.Frames)
		}
		if st := lg.Stats(); st.Lost != 2 || st.Frames != 2 {
			t.Errorf("Stats() = %+v, want 2 lost, 2 written", st)
		}
	})
}

func TestLogFilterRunsBeforeEncoding(t *testing.T) {
	var buf bytes.Buffer
	var mu sync.Mutex
	var fed []uint64
	lg := NewLog(&buf, &LogOptions{
		Filter: func(r *session.Record) { r.Frame = bytes.ReplaceAll(r.Frame, []byte("secret"), []byte("******")) },
		Feed:   func(r *session.Record) { mu.Lock(); fed = append(fed, r.Seq); mu.Unlock() },
	})
	lg.Record(frameRec(`{"token":"secret"}`))
	lg.Close()
	if strings.Contains(buf.String(), "secret") {
		t.Errorf("log = %s, the filter did not run before writing", buf.String())
	}
	if len(fed) != 1 || fed[0] != 1 {
		t.Errorf("Feed saw %v, want [1]", fed)
	}
}

// FeedLine gets each record exactly as the log writes it, small frames
// (encoded into the line) and big ones (written from their own memory)
// alike, so the live feed never encodes a record a second time.
func TestFeedLineIsTheLoggedLine(t *testing.T) {
	big := `{"jsonrpc":"2.0","id":2,"result":{"text":"` + strings.Repeat("x", 64<<10) + `"}}`
	for _, withFile := range []bool{true, false} {
		var logged bytes.Buffer
		var fed bytes.Buffer
		var w io.Writer
		if withFile {
			w = &logged
		}
		lg := NewLog(w, &LogOptions{Session: "S", Label: "L",
			FeedLine: func(_ *session.Record, line [][]byte) {
				for _, p := range line {
					fed.Write(p)
				}
			}})
		lg.Record(frameRec(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`), frameRec(big), frameRec("not json"))
		if err := lg.Close(); err != nil {
			t.Fatal(err)
		}
		if bytes.Count(fed.Bytes(), []byte("\n")) != 3 {
			t.Fatalf("fed %d lines, want 3", bytes.Count(fed.Bytes(), []byte("\n")))
		}
		if withFile && !bytes.Equal(fed.Bytes(), logged.Bytes()) {
			t.Errorf("the fed lines differ from the log (%d vs %d bytes)", fed.Len(), logged.Len())
		}
		rd := session.NewReader(&fed)
		for i := 0; i < 3; i++ {
			if _, err := rd.Next(); err != nil {
				t.Fatalf("fed line %d: %v", i+1, err)
			}
		}
	}
}

// yieldingWriter lets the relays run between its writes, so that they
// fill batches while the writer holds others.
type yieldingWriter struct{ bytes.Buffer }

func (w *yieldingWriter) Write(p []byte) (int, error) {
	for range 20 {
		runtime.Gosched()
	}
	return w.Buffer.Write(p)
}

// TestLogReusesBatches relays many reads of small lines, from two relays
// at once, through one Log with a small queue, so that the batches the
// Log hands back are refilled while others are still queued: every line
// is logged once, whole, in its relay's order, with seqs in order.
func TestLogReusesBatches(t *testing.T) {
	var buf yieldingWriter
	lg := NewLog(&buf, &LogOptions{QueueBytes: 1 << 20})
	lines := func(tag string) []byte {
		var b bytes.Buffer
		for i := range 20000 {
			fmt.Fprintf(&b, `{"%s":%d,"pad":"%s"}`+"\n", tag, i, strings.Repeat("p", i%97))
		}
		return b.Bytes()
	}
	data := map[session.Direction][]byte{session.ClientToServer: lines("c"), session.ServerToClient: lines("s")}
	var wg sync.WaitGroup
	for dir, d := range data {
		wg.Go(func() {
			Relay(io.Discard, &pipeReader{data: d}, &RelayOptions{Recorder: lg, Dir: dir, Transport: session.Stdio})
		})
	}
	wg.Wait()
	if err := lg.Close(); err != nil {
		t.Fatal(err)
	}
	recs := readLog(t, &buf.Buffer)
	checkSeq(t, recs)
	got := map[session.Direction]*bytes.Buffer{session.ClientToServer: {}, session.ServerToClient: {}}
	for _, r := range recs {
		got[r.Dir].Write(r.Frame)
		got[r.Dir].WriteByte('\n')
	}
	for dir, d := range data {
		if !bytes.Equal(got[dir].Bytes(), d) {
			t.Errorf("%s: the logged frames differ from the relayed lines (%d bytes logged, %d relayed)", dir, got[dir].Len(), len(d))
		}
	}
}
