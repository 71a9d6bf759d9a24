package hub

import (
	"bytes"
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
	"weak"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpward/mcpward/internal/feed"
	"github.com/mcpward/mcpward/internal/session"
)

const sessA = "01JABCDEFGHJKMNPQRSTVWXYZ0"

func TestFeedToHub(t *testing.T) {
	noLeaks(t)
	dir := shortDir(t)
	h := newHub(t, Options{StateDir: dir})
	sub := h.Subscribe()
	p := newProxyLog(t, dir, sessA, feed.Options{PID: 42})
	p.send(1000)
	got := collect(t, sub, sessA, 1000)
	for i := uint64(1); i <= 1000; i++ {
		if !got[i] {
			t.Fatalf("seq %d missing", i)
		}
	}
	s, ok := sessionByID(h, sessA)
	if !ok {
		t.Fatal("session not listed")
	}
	if s.Requests != 1000 || s.Records != 1000 || s.Missing != 0 || s.Label != "srv" || s.Log != p.path {
		t.Errorf("SessionInfo = %+v", s)
	}
	recs, err := h.Records(sessA, 10, 12)
	if err != nil {
		t.Fatal(err)
	}
	var seqs []uint64
	for _, r := range recs {
		seqs = append(seqs, r.Seq)
	}
	if d := cmp.Diff([]uint64{10, 11, 12}, seqs); d != "" {
		t.Errorf("Records mismatch (-want +got):\n%s", d)
	}
	// The bytes are the log's: the frame is spliced, not re-encoded.
	if string(recs[0].Frame) != string(frame(9)) {
		t.Errorf("frame = %s, want %s", recs[0].Frame, frame(9))
	}
	p.close()
	h.Close()
}

func TestReconnectAfterHubRestart(t *testing.T) {
	noLeaks(t)
	dir := shortDir(t)
	// No StateDir: the second hub learns of the log from the hello only,
	// so what it gets from before its start comes from the gap fill.
	sock := feed.SocketPath(dir)
	h1 := newHub(t, Options{Socket: sock})
	sub := h1.Subscribe()
	p := newProxyLog(t, dir, sessA, feed.Options{})
	p.send(100)
	collect(t, sub, sessA, 100)
	h1.Close()

	p.send(100) // nobody listens: buffered or dropped from the feed
	h2 := newHub(t, Options{Socket: sock})
	sub2 := h2.Subscribe()
	p.send(100)
	got := collect(t, sub2, sessA, 300)
	if len(got) != 300 {
		t.Errorf("got %d records, want 300", len(got))
	}
	if st := p.sink.Stats(); st.Connects < 2 {
		t.Errorf("sink connected %d times, want 2 or more", st.Connects)
	}
}

// A subscriber that never reads does not hold up ingest, and when it
// reads again it gets at most Backlog records and a skip count.
func TestSlowConsumerDoesNotSlowFeed(t *testing.T) {
	noLeaks(t)
	dir := shortDir(t)
	h := newHub(t, Options{StateDir: dir, Backlog: 1000})
	slow := h.Subscribe()
	fast := h.Subscribe()
	p := newProxyLog(t, dir, sessA, feed.Options{})
	const n = 20000
	p.send(n)
	// The fast subscriber may fall behind the small backlog too; it only
	// paces the wait, the session's count is what is checked.
	for {
		if _, err := fast.Next(context.Background()); err != nil {
			t.Fatal(err)
		}
		if s, _ := sessionByID(h, sessA); s.Records == n {
			break
		}
	}
	b, err := slow.Next(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Records) != 1000 || b.Skipped != n-1000 {
		t.Errorf("slow subscriber got %d records, skipped %d; want 1000 and %d", len(b.Records), b.Skipped, n-1000)
	}
	if got := b.Records[len(b.Records)-1].Seq; got != n {
		t.Errorf("last record seq %d, want %d", got, n)
	}
}

// A gate makes the hub unreachable while records are produced: the feed
// drops them (its buffer holds one), then tells the hub, which reads them
// back from the log.
func TestDroppedFeedRecordsRecoveredFromLog(t *testing.T) {
	noLeaks(t)
	dir := shortDir(t)
	h := newHub(t, Options{Socket: feed.SocketPath(dir)}) // no StateDir: only the gap fill reads the log
	sub := h.Subscribe()
	gate := make(chan struct{})
	p := newProxyLog(t, dir, sessA, feed.Options{
		BufferBytes: 1,
		Dial: func(ctx context.Context) (net.Conn, error) {
			select {
			case <-gate:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			var d net.Dialer
			return d.DialContext(ctx, "unix", feed.SocketPath(dir))
		},
	})
	p.send(500)
	// Wait until the Log has handed all 500 to the sink.
	for p.sink.Stats().Records < 500 {
		p.Stats() // the Log's writer runs on its own goroutine
		time.Sleep(time.Millisecond)
	}
	if st := p.sink.Stats(); st.Dropped < 400 {
		t.Fatalf("sink dropped %d records, want most of 500", st.Dropped)
	}
	close(gate)
	got := collect(t, sub, sessA, 500)
	if len(got) != 500 {
		t.Errorf("got %d, want 500", len(got))
	}
	s, _ := sessionByID(h, sessA)
	if s.Missing != 0 {
		t.Errorf("Missing = %d, want 0", s.Missing)
	}
}

func TestBackfillNewestN(t *testing.T) {
	noLeaks(t)
	dir := shortDir(t)
	ids := []string{"01AAAAAAAAAAAAAAAAAAAAAAA1", "01AAAAAAAAAAAAAAAAAAAAAAA2", "01AAAAAAAAAAAAAAAAAAAAAAA3",
		"01AAAAAAAAAAAAAAAAAAAAAAA4", "01AAAAAAAAAAAAAAAAAAAAAAA5"}
	paths := map[string]string{}
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, id := range ids {
		p := writeLog(t, filepath.Join(dir, "sessions", session.FileName("srv", id)), id, 1, 10)
		mt := base.Add(time.Duration(i) * time.Hour)
		if err := os.Chtimes(p, mt, mt); err != nil {
			t.Fatal(err)
		}
		paths[id] = p
	}
	h := newHub(t, Options{StateDir: dir, History: 3, Socket: NoSocket})
	var got []string
	for _, s := range h.Sessions() {
		got = append(got, s.ID)
		if s.Records != 10 {
			t.Errorf("session %s: %d records, want 10", s.ID, s.Records)
		}
	}
	if d := cmp.Diff(ids[2:], got); d != "" {
		t.Errorf("sessions mismatch (-want +got):\n%s", d)
	}
	// An old log that grows again is picked up (mcpsnoop read history
	// only at start).
	sub := h.Subscribe()
	writeLog(t, paths[ids[0]], ids[0], 11, 12)
	collect(t, sub, ids[0], 2)
	if s, ok := sessionByID(h, ids[0]); !ok || s.Records != 12 {
		t.Errorf("revived session: %+v, want 12 records", s)
	}
}

func TestPickUpLogCreatedLater(t *testing.T) {
	noLeaks(t)
	dir := shortDir(t)
	h := newHub(t, Options{StateDir: dir, Socket: NoSocket})
	sub := h.Subscribe()
	path := filepath.Join(dir, "sessions", session.FileName("srv", sessA))
	writeLog(t, path, sessA, 1, 5)
	collect(t, sub, sessA, 5)
	writeLog(t, path, sessA, 6, 8) // and it keeps being tailed
	collect(t, sub, sessA, 3)
}

func TestTornLastLine(t *testing.T) {
	noLeaks(t)
	dir := shortDir(t)
	path := writeLog(t, filepath.Join(dir, "sessions", session.FileName("srv", sessA)), sessA, 1, 3)
	r4 := mkRec(sessA, "srv", 4, time.Now())
	line := session.AppendRecord(nil, &r4)
	appendFile(t, path, line[:len(line)/2])
	h := newHub(t, Options{StateDir: dir, Socket: NoSocket})
	sub := h.Subscribe()
	s, _ := sessionByID(h, sessA)
	if s.Records != 3 || s.Problems != 0 {
		t.Errorf("after torn line: %d records, %d problems; want 3 and 0", s.Records, s.Problems)
	}
	appendFile(t, path, line[len(line)/2:]) // the writer finishes the line
	got := collect(t, sub, sessA, 1)
	if !got[4] {
		t.Errorf("completed line not ingested: %v", got)
	}
}

func appendFile(t *testing.T, path string, b []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(b); err != nil {
		t.Fatal(err)
	}
}

func TestCorruptLineCountedAndSkipped(t *testing.T) {
	dir := shortDir(t)
	path := writeLog(t, filepath.Join(dir, "sessions", session.FileName("srv", sessA)), sessA, 1, 2)
	appendFile(t, path, []byte("{not json\n"))
	writeLog(t, path, sessA, 3, 4)
	h := newHub(t, Options{StateDir: dir, Socket: NoSocket})
	s, _ := sessionByID(h, sessA)
	if s.Records != 4 || s.Problems != 1 {
		t.Errorf("%d records, %d problems; want 4 and 1", s.Records, s.Problems)
	}
}

func TestBoundedMemory(t *testing.T) {
	noLeaks(t)
	const budget = 2 << 20
	h := newHub(t, Options{Socket: NoSocket, MemoryBudget: budget, KeepFull: 100, KeepSummaries: 1000})
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var last string
	for s := range 50 {
		id := "01BBBBBBBBBBBBBBBBBBBBBB" + string(rune('A'+s/26)) + string(rune('A'+s%26))
		last = id
		var batch []*session.Record
		for i := uint64(1); i <= 2000; i++ {
			r := mkRec(id, "srv", i, base.Add(time.Duration(i)*time.Millisecond))
			batch = append(batch, &r)
		}
		h.ingest(batch, "")
		if st := h.Stats(); st.Memory > budget {
			t.Fatalf("after session %d: memory %d over budget %d", s, st.Memory, budget)
		}
	}
	st := h.Stats()
	if st.Evicted == 0 {
		t.Errorf("no session evicted: %+v", st)
	}
	s, ok := sessionByID(h, last)
	if !ok || s.InMemory != 100 || s.Summarised != 1000 || s.Records != 2000 {
		t.Errorf("newest session: %+v", s)
	}
	if n := len(h.Index(last)); n != 1100 {
		t.Errorf("Index has %d entries, want 1100", n)
	}
}

func TestRecordsReadBackFromLog(t *testing.T) {
	dir := shortDir(t)
	writeLog(t, filepath.Join(dir, "sessions", session.FileName("srv", sessA)), sessA, 1, 100)
	h := newHub(t, Options{StateDir: dir, Socket: NoSocket, KeepFull: 10})
	recs, err := h.Records(sessA, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 100 {
		t.Fatalf("got %d records, want 100", len(recs))
	}
	for i, r := range recs {
		if r.Seq != uint64(i+1) {
			t.Fatalf("record %d has seq %d", i, r.Seq)
		}
	}
}

func TestSecondHubRefusedStaleSocketRemoved(t *testing.T) {
	noLeaks(t)
	dir := shortDir(t)
	sock := feed.SocketPath(dir)
	if err := os.WriteFile(sock, nil, 0o600); err != nil { // stale leftover
		t.Fatal(err)
	}
	h := newHub(t, Options{Socket: sock})
	_, err := New(context.Background(), Options{Socket: sock})
	if !errors.Is(err, ErrHubRunning) {
		t.Errorf("second hub: err = %v, want ErrHubRunning", err)
	}
	h.Close()
	if _, err := os.Stat(sock); !os.IsNotExist(err) {
		t.Errorf("socket left after Close: %v", err)
	}
}

func TestSocketPathTooLong(t *testing.T) {
	long := "/tmp/" + string(make([]byte, 0)) + filepath.Join(repeat("d", 120), "hub.sock")
	_, err := New(context.Background(), Options{Socket: long})
	if err == nil {
		t.Fatal("no error for a socket path over the limit")
	}
}

func repeat(s string, n int) string {
	b := make([]byte, 0, n)
	for range n {
		b = append(b, s...)
	}
	return string(b)
}

func TestSubscriptionEndsOnClose(t *testing.T) {
	noLeaks(t)
	h := newHub(t, Options{Socket: NoSocket})
	sub := h.Subscribe()
	done := make(chan error)
	go func() {
		_, err := sub.Next(context.Background())
		done <- err
	}()
	h.Close()
	if err := <-done; !errors.Is(err, ErrClosed) {
		t.Errorf("Next after Close: %v, want ErrClosed", err)
	}
}

func TestClientAndServerInfo(t *testing.T) {
	h := newHub(t, Options{Socket: NoSocket})
	now := time.Now()
	recs := []*session.Record{
		{Session: sessA, Seq: 1, Time: now, Dir: session.ClientToServer, HasFrame: true,
			RawFrame: []byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"clientInfo":{"name":"claude","version":"1.2"}}}`)},
		{Session: sessA, Seq: 2, Time: now, Dir: session.ServerToClient, HasFrame: true,
			RawFrame: []byte(`{"jsonrpc":"2.0","id":0,"result":{"serverInfo":{"name":"weather","version":"0.1"}}}`)},
		{Session: sessA, Seq: 3, Time: now, Dir: session.ServerToClient, HasFrame: true,
			RawFrame: []byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"nope"}}`)},
		{Session: sessA, Seq: 4, Time: now, Dir: session.ClientToServer, HasFrame: true,
			RawFrame: []byte(`[{"jsonrpc":"2.0","method":"notifications/x"},{"jsonrpc":"2.0","id":9,"method":"ping"}]`)},
		{Session: sessA, Seq: 5, Time: now, Dir: session.Stderr, HasFrame: true, Frame: []byte("boom")},
	}
	for _, r := range recs {
		if r.Frame == nil {
			r.Frame = r.RawFrame // as the reader gives them: Frame always, RawFrame when valid JSON
		}
	}
	h.ingest(recs, "")
	s, _ := sessionByID(h, sessA)
	want := SessionInfo{Client: &Peer{"claude", "1.2"}, Server: &Peer{"weather", "0.1"},
		Requests: 2, Notifications: 1, Responses: 2, Errors: 1, Stderr: 1, Records: 5}
	got := SessionInfo{Client: s.Client, Server: s.Server, Requests: s.Requests, Notifications: s.Notifications,
		Responses: s.Responses, Errors: s.Errors, Stderr: s.Stderr, Records: s.Records}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("SessionInfo mismatch (-want +got):\n%s", d)
	}
}

// The memory budget is the real bound: once a session is evicted (or a
// record demoted to a summary), nothing in the hub keeps its records
// alive, not even the backlog of a subscriber that has not read them yet.
func TestEvictedRecordsUnreachable(t *testing.T) {
	const budget = 256 << 10
	h := newHub(t, Options{Socket: NoSocket, MemoryBudget: budget, KeepFull: 100, KeepSummaries: 1000})
	sub := h.Subscribe() // never reads: its backlog (DefaultBacklog) covers every record
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	type tracked struct {
		sess string
		seq  uint64
		p    weak.Pointer[session.Record]
	}
	var all []tracked
	for s := range 20 {
		id := "01CCCCCCCCCCCCCCCCCCCCCC" + string(rune('A'+s/26)) + string(rune('A'+s%26))
		batch := make([]*session.Record, 0, 300)
		for i := uint64(1); i <= 300; i++ {
			r := mkRec(id, "srv", i, base.Add(time.Duration(s*1000+int(i))*time.Millisecond))
			r.Frame = bytes.Repeat([]byte{'x'}, 1000)
			batch = append(batch, &r)
			all = append(all, tracked{id, i, weak.Make(&r)})
		}
		h.ingest(batch, "")
	}
	if st := h.Stats(); st.Evicted == 0 || st.Memory > budget {
		t.Fatalf("want evictions within budget %d: %+v", budget, st)
	}
	// What the hub still holds in full, by session and seq.
	held := map[string]map[uint64]bool{}
	for _, in := range h.Sessions() {
		recs, err := h.Records(in.ID, 1, 0)
		if err != nil {
			t.Fatal(err)
		}
		held[in.ID] = map[uint64]bool{}
		for _, r := range recs {
			held[in.ID][r.Seq] = true
		}
	}
	runtime.GC()
	var live, gone, wrong int
	var bytesLive int64
	for _, tr := range all {
		r := tr.p.Value()
		switch {
		case r != nil && !held[tr.sess][tr.seq]:
			wrong++
		case r != nil:
			live++
			bytesLive += int64(len(r.Frame))
		default:
			gone++
		}
	}
	if wrong > 0 {
		t.Errorf("%d records the hub let go are still reachable (%d live, %d gone)", wrong, live, gone)
	}
	if bytesLive > budget {
		t.Errorf("%d frame bytes reachable, over the budget of %d", bytesLive, budget)
	}
	// The subscriber that fell behind is told what it missed.
	b, err := sub.Next(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got := uint64(len(b.Records)) + b.Skipped; got != uint64(len(all)) {
		t.Errorf("subscriber got %d records + %d skipped, want %d in all", len(b.Records), b.Skipped, len(all))
	}
	if len(b.Records) != live {
		t.Errorf("subscriber got %d records, want the %d the hub holds", len(b.Records), live)
	}
	runtime.KeepAlive(sub)
}
