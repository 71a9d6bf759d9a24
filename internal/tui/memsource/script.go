package memsource

import (
	"fmt"
	"time"

	"github.com/mcpward/mcpward/internal/session"
)

// Script returns a short scripted stdio session against a clean@v1-like
// server: start, initialize, tools/list, two tool calls (one an error),
// a progress notification, a stderr line and a call left pending. Times
// start at t0, 10 ms apart.
func Script(id, label string, t0 time.Time) []*session.Record {
	var recs []*session.Record
	seq := uint64(0)
	add := func(dir session.Direction, frame string) *session.Record {
		seq++
		r := &session.Record{V: session.Version, Session: id, Label: label, Seq: seq,
			Time: t0.Add(time.Duration(seq) * 10 * time.Millisecond), Dir: dir, Transport: session.Stdio,
			Frame: []byte(frame), HasFrame: frame != "", Size: int64(len(frame))}
		if frame != "" && dir != session.Stderr {
			r.RawFrame = r.Frame
		}
		recs = append(recs, r)
		return r
	}
	st := add(session.Meta, "")
	st.Kind = session.KindStart
	st.Info = []byte(`{"argv":["mcpward","fixture","serve","clean@v1"],"cwd":"/tmp"}`)
	c, s := session.ClientToServer, session.ServerToClient
	add(c, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"roots":{},"elicitation":{}},"clientInfo":{"name":"demo-client","version":"1.0"}}}`)
	add(s, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{"listChanged":true},"logging":{}},"serverInfo":{"name":"clean","version":"1.0.0"},"instructions":"Use echo to test."}}`)
	add(c, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	add(c, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	add(s, `{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"echo","description":"Echo the text back.","inputSchema":{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}},{"name":"add","description":"Add two numbers.","inputSchema":{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}}}}]}}`)
	add(c, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"héllo 世界"},"_meta":{"progressToken":"p1"}}}`)
	add(s, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p1","progress":1,"total":2}}`)
	add(s, `{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"héllo 世界"}]}}`)
	add(session.Stderr, "server: echo done")
	add(c, `{"jsonrpc":"2.0","id":"abc","method":"tools/call","params":{"name":"add","arguments":{"a":"x"}}}`)
	add(s, `{"jsonrpc":"2.0","id":"abc","error":{"code":-32602,"message":"a must be a number"}}`)
	add(c, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{"text":"slow"}}}`)
	return recs
}

// Call returns a tools/call request and its result for a synthetic
// session (the benchmark's producers).
func Call(id, label string, seq uint64, t time.Time, n int) (req, resp *session.Record) {
	mk := func(seq uint64, dir session.Direction, frame string) *session.Record {
		return &session.Record{V: session.Version, Session: id, Label: label, Seq: seq, Time: t, Dir: dir,
			Transport: session.Stdio, Frame: []byte(frame), RawFrame: []byte(frame), HasFrame: true, Size: int64(len(frame))}
	}
	req = mk(seq, session.ClientToServer, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"text":"m%d"}}}`, n, n))
	resp = mk(seq+1, session.ServerToClient, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"m%d"}]}}`, n, n))
	return req, resp
}
