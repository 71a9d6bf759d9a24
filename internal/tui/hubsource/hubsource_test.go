package hubsource_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
	"weak"

	"github.com/mcpward/mcpward/internal/hub"
	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/tui/hubsource"
	"github.com/mcpward/mcpward/internal/tui/store"
)

// writeLog writes records 1..n of a session, each with a frame of size
// bytes, as a session log in dir/sessions.
func writeLog(t *testing.T, dir, id string, n, size int) {
	t.Helper()
	base := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	pad := bytes.Repeat([]byte{'x'}, size)
	var b []byte
	for i := 1; i <= n; i++ {
		r := session.Record{Session: id, Label: "srv", Seq: uint64(i), Time: base.Add(time.Duration(i) * time.Millisecond),
			Dir: session.ClientToServer, Transport: session.Stdio, HasFrame: true,
			Frame: fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","pad":"%s"}}`, i, pad)}
		b = session.AppendRecord(b, &r)
	}
	if err := os.WriteFile(filepath.Join(dir, "sessions", session.FileName("srv", id)), b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// The hub owns the live view's records and its MemoryBudget is the one
// bound on them: the store keeps only what it derives (rows, counters)
// and a weak reference, so a record the hub let go (evicted, demoted, or
// read back from the log for the first batch) is unreachable once the
// store has made its row, while the row stays.
func TestStoreKeepsNoRecordTheHubLetGo(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "sessions"), 0o700); err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		writeLog(t, dir, fmt.Sprintf("01DDDDDDDDDDDDDDDDDDDDDDD%d", i), 300, 1000)
	}
	const budget = 512 << 10
	h, err := hub.New(context.Background(), hub.Options{StateDir: dir, Socket: hub.NoSocket, MemoryBudget: budget,
		KeepFull: 100, PollInterval: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	src := hubsource.New(h)
	st := store.New(store.Options{})

	b, err := src.Next(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Records) <= 100 {
		t.Fatalf("first batch has %d records; want more than the hub keeps in full", len(b.Records))
	}
	tracked := make([]weak.Pointer[session.Record], len(b.Records))
	for i, r := range b.Records {
		tracked[i] = weak.Make(r)
	}
	st.Ingest(b.Records)
	b.Records = nil

	// The records the hub holds in memory (Records returns those as they
	// are; the rest it reads anew from the log).
	held := map[weak.Pointer[session.Record]]bool{}
	rows := 0
	for _, in := range h.Sessions() {
		recs, err := h.Records(in.ID, 1, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			held[weak.Make(r)] = true
		}
		if ss := st.Session(in.ID); ss != nil {
			rows += ss.Len()
		}
	}
	runtime.GC()
	var live, leaked int
	var liveBytes int64
	for _, p := range tracked {
		r := p.Value()
		switch {
		case r == nil:
		case held[p]:
			live++
			liveBytes += int64(len(r.Frame))
		default:
			leaked++
		}
	}
	if leaked > 0 {
		t.Errorf("%d records the hub no longer holds are kept alive by the store (%d held by the hub)", leaked, live)
	}
	if liveBytes > budget {
		t.Errorf("%d frame bytes reachable, over the hub's budget of %d", liveBytes, budget)
	}
	if rows != len(tracked) {
		t.Errorf("store has %d rows, want one per record (%d)", rows, len(tracked))
	}
	t.Logf("tracked %d live %d leaked %d rows %d sessions %d", len(tracked), live, leaked, rows, len(h.Sessions()))
	runtime.KeepAlive(src)
	runtime.KeepAlive(st) // the store must be alive for the check to mean anything
}
