package feed

import (
	"context"
	"errors"
	"net"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpward/mcpward/internal/session"
)

func TestBackoffBounds(t *testing.T) {
	tests := []struct {
		n        int
		lo, high time.Duration
	}{
		{1, 50 * time.Millisecond, 100 * time.Millisecond},
		{2, 100 * time.Millisecond, 200 * time.Millisecond},
		{3, 200 * time.Millisecond, 400 * time.Millisecond},
		{10, time.Second, 2 * time.Second},
		{1000, time.Second, 2 * time.Second},
	}
	for _, tt := range tests {
		for range 100 {
			if d := backoff(100*time.Millisecond, 2*time.Second, tt.n); d < tt.lo || d > tt.high {
				t.Fatalf("backoff(n=%d) = %s, want in [%s, %s]", tt.n, d, tt.lo, tt.high)
			}
		}
	}
}

// With the hub absent, the Sink retries with growing, capped waits, and
// Record never blocks.
func TestReconnectBackoffAndNoBlocking(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var at []time.Time
		s := New(&Options{
			MinBackoff: 100 * time.Millisecond, MaxBackoff: time.Second, BufferBytes: 1 << 10,
			Dial: func(context.Context) (net.Conn, error) {
				at = append(at, time.Now())
				return nil, errors.New("connection refused")
			},
		})
		for i := range 10000 {
			s.Record(&session.Record{Session: "s", Seq: uint64(i + 1), Dir: session.ClientToServer, Frame: []byte(`{}`), HasFrame: true})
		}
		time.Sleep(10 * time.Second)
		synctest.Wait()
		st := s.Stats()
		if st.Records != 10000 || st.Dropped == 0 || st.Sent != 0 {
			t.Errorf("stats %+v: want 10000 records, some dropped, none sent", st)
		}
		for i := 1; i < len(at); i++ {
			d := at[i].Sub(at[i-1])
			if d > time.Second || d < 50*time.Millisecond {
				t.Errorf("wait %d = %s, outside [50ms, 1s]", i, d)
			}
		}
		if len(at) < 10 || len(at) > 100 {
			t.Errorf("%d dial attempts in 10s", len(at))
		}
		s.Close()
	})
}

// A hub that stops reading cannot hold up Close beyond the grace period,
// and what it did not take is reported as missed on the next connection.
func TestStuckHubAndMissedReport(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		conns := make(chan net.Conn, 4)
		s := New(&Options{
			Session: "s", Label: "l", Log: "/x.jsonl", BufferBytes: 1 << 20, CloseGrace: time.Second,
			Dial: func(context.Context) (net.Conn, error) {
				a, b := net.Pipe()
				conns <- b
				return a, nil
			},
		})
		hub := <-conns
		r := session.NewReader(hub)
		hello, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		h, err := ParseControl(hello)
		if err != nil || hello.Kind != KindHello || h.Log != "/x.jsonl" || h.Next != 1 {
			t.Fatalf("hello = %+v %+v, %v", hello, h, err)
		}
		for i := range 3 {
			s.Record(&session.Record{Session: "s", Seq: uint64(i + 1), Dir: session.ClientToServer, Frame: []byte(`{"a":1}`), HasFrame: true})
		}
		for i := range 3 {
			rec, err := r.Next()
			if err != nil || rec.Seq != uint64(i+1) || string(rec.Frame) != `{"a":1}` {
				t.Fatalf("record %d: %+v, %v", i, rec, err)
			}
		}
		// The hub goes away: the next write fails, and its records are
		// reported on the next connection.
		hub.Close()
		s.Record(&session.Record{Session: "s", Seq: 4, Dir: session.ClientToServer, Frame: []byte(`{}`), HasFrame: true})
		hub2 := <-conns
		r2 := session.NewReader(hub2)
		hello2, err := r2.Next()
		if err != nil {
			t.Fatal(err)
		}
		h2, _ := ParseControl(hello2)
		if d := cmp.Diff([]Range{{4, 4}}, h2.Missed); d != "" || h2.Next != 5 {
			t.Errorf("second hello: next %d, missed mismatch (-want +got):\n%s", h2.Next, d)
		}
		// This hub never reads: Close gives up after the grace period.
		s.Record(&session.Record{Session: "s", Seq: 5, Dir: session.ClientToServer, Frame: []byte(`{}`), HasFrame: true})
		start := time.Now()
		s.Close()
		if d := time.Since(start); d != time.Second {
			t.Errorf("Close took %s, want the 1s grace", d)
		}
		hub2.Close()
	})
}

func TestRangeJSON(t *testing.T) {
	h := &Hello{Missed: []Range{{1, 5}, {9, 9}}}
	b := AppendControl(nil, KindGap, "s", "l", time.Unix(0, 0), h)
	rec, err := session.NewReader(bytesReader(b)).Next()
	if err != nil {
		t.Fatal(err)
	}
	got, err := ParseControl(rec)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(h, got); d != "" || got.MissedCount() != 6 {
		t.Errorf("round trip mismatch (-want +got):\n%s", d)
	}
	var r Range
	for _, bad := range []string{`[0,1]`, `[5,2]`, `[1]`, `"x"`} {
		if err := r.UnmarshalJSON([]byte(bad)); err == nil {
			t.Errorf("UnmarshalJSON(%s): no error", bad)
		}
	}
}

func TestAddMissedBounded(t *testing.T) {
	var m []Range
	for i := uint64(1); i <= 2000; i += 2 {
		m = addMissed(m, Range{i, i})
	}
	if len(m) > maxMissed {
		t.Fatalf("%d ranges kept, want at most %d", len(m), maxMissed)
	}
	if m[0].From != 1 || m[len(m)-1].To != 1999 {
		t.Errorf("ranges do not span all missed seqs: first %v last %v", m[0], m[len(m)-1])
	}
	if d := cmp.Diff([]Range{{1, 3}}, addMissed([]Range{{1, 2}}, Range{3, 3})); d != "" {
		t.Errorf("adjacent ranges not merged:\n%s", d)
	}
}

func TestCheckSocketPath(t *testing.T) {
	if err := CheckSocketPath("/tmp/x/hub.sock"); err != nil {
		t.Error(err)
	}
	long := make([]byte, MaxSocketPath+1)
	for i := range long {
		long[i] = 'a'
	}
	if err := CheckSocketPath(string(long)); err == nil {
		t.Error("no error for a path over the limit")
	}
}

// The hub parses control records from any local process that connects.
func FuzzParseControl(f *testing.F) {
	f.Add([]byte(`{"v":1,"session":"s","label":"l","seq":0,"ts":"2026-01-01T00:00:00Z","dir":"meta","kind":"feed-hello","info":{"log":"/x","pid":1,"next":5,"missed":[[1,4]]}}` + "\n"))
	f.Add([]byte(`{"v":1,"session":"s","seq":0,"ts":"2026-01-01T00:00:00Z","dir":"meta","kind":"feed-gap","info":{"missed":[[0,1],[3,2]]}}` + "\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		r := session.NewReader(bytesReader(b))
		for {
			rec, err := r.Next()
			if err != nil {
				return
			}
			if h, err := ParseControl(rec); err == nil {
				for _, m := range h.Missed {
					if m.From == 0 || m.To < m.From {
						t.Errorf("bad range accepted: %v", m)
					}
				}
			}
		}
	})
}

// The buffer starts small and doubles up to its bound: a shim whose hub
// never connects must not allocate the whole bound on its first record
// (that started a GC cycle early in every logging shim's start-up), and
// filling it still keeps every record up to the bound.
func TestBufferGrowsToItsBound(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const bound = 1 << 20
		s := New(&Options{BufferBytes: bound, MinBackoff: time.Hour, MaxBackoff: time.Hour,
			Dial: func(context.Context) (net.Conn, error) { return nil, errors.New("no hub") }})
		defer s.Close()
		line := append(make([]byte, 99), '\n')
		s.Line(1, line)
		s.mu.Lock()
		first := cap(s.buf)
		s.mu.Unlock()
		if first > minBufferBytes {
			t.Errorf("first record: buffer of %d bytes, want at most %d", first, minBufferBytes)
		}
		for seq := uint64(2); seq <= 2*bound/100; seq++ {
			s.Line(seq, line)
		}
		s.mu.Lock()
		held, capacity := len(s.buf), cap(s.buf)
		s.mu.Unlock()
		if held < bound || held > bound+100 {
			t.Errorf("held %d bytes, want the bound %d (one record may overshoot)", held, bound)
		}
		if capacity > bound+bound/8 {
			t.Errorf("capacity %d, want at most the bound plus an eighth (%d)", capacity, bound+bound/8)
		}
		if st := s.Stats(); st.Dropped != int64(2*bound/100)-int64(held/100) {
			t.Errorf("dropped %d of %d records, holding %d", st.Dropped, 2*bound/100, held/100)
		}
	})
}
