package hub

import (
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/calls"
	"github.com/mcpward/mcpward/internal/session"
)

// TestErrorsAsCallsCounts: the hub's Errors is calls.Session.Errors, the
// count `sessions list`, `sessions check` and the TUI give (the error
// signal, calls.NoteError): a JSON-RPC error and a tool result with
// isError:true count, a malformed line does not (it is a bad frame).
// Before, the hub counted JSON-RPC errors only (1, where the others say 2).
func TestErrorsAsCallsCounts(t *testing.T) {
	h := newHub(t, Options{Socket: NoSocket})
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
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
	var recs []*session.Record
	for i, l := range lines {
		recs = append(recs, &session.Record{V: session.Version, Session: sessA, Seq: uint64(i + 1), Time: now.Add(time.Duration(i) * time.Millisecond),
			Dir: l.dir, Transport: session.Stdio, Frame: []byte(l.frame), RawFrame: []byte(l.frame), HasFrame: true, Size: int64(len(l.frame))})
	}
	h.ingest(recs, "")
	st := calls.New(&calls.Options{})
	for i, r := range recs {
		st.Add(r, i+1)
	}
	st.Flush()
	want, _ := st.Session(sessA)
	got, _ := sessionByID(h, sessA)
	if want.Errors != 2 {
		t.Fatalf("calls counts %d errors, want 2 (the JSON-RPC error and isError:true)", want.Errors)
	}
	if got.Errors != want.Errors {
		t.Errorf("hub Errors %d, calls.Session.Errors %d", got.Errors, want.Errors)
	}
}
