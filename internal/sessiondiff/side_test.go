package sessiondiff

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcpward/mcpward/internal/session"
)

// TestSideBuilder: a side holds every tools/call in request order, settled
// or still open, with canonical arguments (member order does not matter),
// and the session's latest tool list.
func TestSideBuilder(t *testing.T) {
	t0 := time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)
	frames := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"add","inputSchema":{"type":"object"}}]}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":{"b":2,"a":1}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}}`,
		`{"jsonrpc":"2.0","id":3,"result":{"content":[],"isError":true}}`,
	}
	b := NewSideBuilder()
	for i, f := range frames {
		dir := session.ClientToServer
		if strings.Contains(f, `"result"`) {
			dir = session.ServerToClient
		}
		b.Add(&session.Record{V: 1, Session: "s1", Seq: uint64(i + 1), Time: t0.Add(time.Duration(i) * time.Millisecond),
			Dir: dir, Frame: []byte(f), HasFrame: true}, i+1)
	}
	side := b.Side("a.jsonl", "s1")
	key, args := canonArgs([]byte(`{"a":1,"b":2}`))
	want := &Side{
		Name:   "a.jsonl",
		Listed: true,
		Tools:  []ToolDef{{Name: "add"}},
		Calls: []Call{
			{Tool: "add", Key: key, Args: args, Status: "error", Duration: 2 * time.Millisecond, Finished: true, Line: 5},
			{Tool: "add", Key: key, Args: args, Status: "pending", Line: 6},
		},
	}
	if d := cmp.Diff(want, side, cmpopts.IgnoreFields(ToolDef{}, "Raw")); d != "" {
		t.Errorf("side mismatch (-want +got):\n%s", d)
	}
	if args != `{"a":1,"b":2}` {
		t.Errorf("args display %q", args)
	}
}
