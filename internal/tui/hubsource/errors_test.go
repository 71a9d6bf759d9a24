package hubsource_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/calls"
	"github.com/mcpward/mcpward/internal/hub"
	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/sessionlog"
	"github.com/mcpward/mcpward/internal/tui/hubsource"
	"github.com/mcpward/mcpward/internal/tui/store"
)

// TestErrorCountSameEverywhere: one session log with a JSON-RPC error, a
// tool result with isError:true, a frame that is not JSON and a line that
// is not a record. `sessions list` (calls.Store over sessionlog.Read, then
// Flush), the hub's SessionInfo.Errors and the TUI store's Session.Errors
// give the same error count: 2 (docs/session-log.md: the error signal;
// a malformed line is a bad frame or a skipped line, not an error).
// Before, the hub said 1 (JSON-RPC errors only).
func TestErrorCountSameEverywhere(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "sessions"), 0o700); err != nil {
		t.Fatal(err)
	}
	const id = "01EEEEEEEEEEEEEEEEEEEEEEEE"
	base := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	lines := []struct {
		dir   session.Direction
		frame string
	}{
		{session.ClientToServer, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":"x"}}}`},
		{session.ServerToClient, `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"a must be a number"}}`},
		{session.ClientToServer, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{}}}`},
		{session.ServerToClient, `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"no"}],"isError":true}}`},
		{session.ServerToClient, `{"jsonrpc":"2.0","id":3,"result":`},
	}
	var b []byte
	for i, l := range lines {
		r := session.Record{Session: id, Label: "srv", Seq: uint64(i + 1), Time: base.Add(time.Duration(i) * time.Millisecond),
			Dir: l.dir, Transport: session.Stdio, HasFrame: true, Frame: []byte(l.frame)}
		b = session.AppendRecord(b, &r)
		if i == 2 {
			b = append(b, "{this line is not a record\n"...)
		}
	}
	path := filepath.Join(dir, "sessions", session.FileName("srv", id))
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}

	list := calls.New(nil)
	if _, _, err := sessionlog.Read(path, list.Add); err != nil {
		t.Fatal(err)
	}
	list.Flush()
	want, ok := list.Session(id)
	if !ok || want.Errors != 2 {
		t.Fatalf("sessions list's count: %v %+v, want 2 errors", ok, want)
	}

	h, err := hub.New(context.Background(), hub.Options{StateDir: dir, Socket: hub.NoSocket, PollInterval: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	src := hubsource.New(h)
	bt, err := src.Next(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	st := store.New(store.Options{})
	st.Ingest(bt.Records)
	st.Flush()
	st.SetInfo(src.Sessions())
	ss := st.Session(id)
	if ss == nil {
		t.Fatal("no session in the TUI store")
	}
	if ss.Errors != want.Errors {
		t.Errorf("TUI store Errors %d, sessions list %d", ss.Errors, want.Errors)
	}
	if ss.Info.Errors != want.Errors {
		t.Errorf("hub SessionInfo.Errors %d, sessions list %d", ss.Info.Errors, want.Errors)
	}
}
