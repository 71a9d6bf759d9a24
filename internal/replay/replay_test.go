package replay

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpward/mcpward/internal/session"
)

func logOf(t *testing.T) []byte {
	t.Helper()
	t0 := time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)
	var b []byte
	add := func(sess string, seq uint64, dir session.Direction, frame string) {
		b = session.AppendRecord(b, &session.Record{Session: sess, Label: "demo", Seq: seq, Time: t0, Dir: dir,
			Transport: session.Stdio, Frame: []byte(frame), HasFrame: true})
	}
	b = session.AppendRecord(b, &session.Record{Session: "S1", Label: "demo", Seq: 1, Time: t0, Dir: session.Meta, Transport: session.Stdio,
		Kind: session.KindStart, Info: json.RawMessage(`{"argv":["srv","-v"],"cwd":"/srv","envNames":["HOME","TOKEN"]}`)})
	add("S1", 2, session.ClientToServer, `{"jsonrpc":"2.0","id":"abc","method":"tools/call","params":{"name":"t","arguments":{"a":1}}}`)
	add("S1", 3, session.ServerToClient, `{"jsonrpc":"2.0","id":"other","result":{}}`)
	add("S1", 4, session.ServerToClient, `{"jsonrpc":"2.0","id":"abc","result":{"content":[]}}`)
	add("S2", 1, session.ClientToServer, `{"jsonrpc":"2.0","id":7,"method":"ping"}`)
	return b
}

func TestFind(t *testing.T) {
	tests := []struct {
		name     string
		sel      Selector
		method   string
		seq      uint64
		response string
		command  []string
	}{
		{"bare string id", Selector{ID: "abc"}, "tools/call", 2, `{"jsonrpc":"2.0","id":"abc","result":{"content":[]}}`, []string{"srv", "-v"}},
		{"quoted id", Selector{ID: `"abc"`}, "tools/call", 2, `{"jsonrpc":"2.0","id":"abc","result":{"content":[]}}`, []string{"srv", "-v"}},
		{"by seq in a session", Selector{Seq: 1, Session: "S2"}, "ping", 1, "", nil},
		{"number id", Selector{ID: "7"}, "ping", 1, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rc, err := Find(bytes.NewReader(logOf(t)), tt.sel)
			if err != nil {
				t.Fatal(err)
			}
			if rc.Method != tt.method || rc.Seq != tt.seq || string(rc.Response) != tt.response || !cmp.Equal(rc.Command, tt.command) {
				t.Errorf("got %s seq %d response %s command %v", rc.Method, rc.Seq, rc.Response, rc.Command)
			}
		})
	}
	if _, err := Find(bytes.NewReader(logOf(t)), Selector{ID: "7", Session: "S1"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("id 7 in S1: %v, want ErrNotFound", err)
	}
	if _, err := Find(bytes.NewReader(logOf(t)), Selector{Seq: 3}); !errors.Is(err, ErrNotFound) {
		t.Errorf("seq 3 (a response): %v, want ErrNotFound", err)
	}
}

func TestCompare(t *testing.T) {
	tests := []struct {
		name string
		a, b string
		want []Change
	}{
		{"same but reordered and spaced", `{"id":1,"result":{"a":1,"b":[1,2]}}`, `{ "result": {"b":[1,2], "a":1}, "id":9 }`, nil},
		{"changed value", `{"result":{"t":"x"}}`, `{"result":{"t":"y"}}`, []Change{{Op: "~", Path: "result.t", Before: `"x"`, After: `"y"`}}},
		{"error became result", `{"error":{"code":1}}`, `{"result":{}}`, []Change{{Op: "-", Path: "error", Before: `{"code":1}`}, {Op: "+", Path: "result", After: `{}`}}},
		{"array grew", `{"r":[1]}`, `{"r":[1,2]}`, []Change{{Op: "+", Path: "r[1]", After: "2"}}},
		{"odd key", `{"r":{"a b":1}}`, `{"r":{"a b":2}}`, []Change{{Op: "~", Path: `r["a b"]`, Before: "1", After: "2"}}},
		{"type change", `{"r":1}`, `{"r":"1"}`, []Change{{Op: "~", Path: "r", Before: "1", After: `"1"`}}},
		{"html kept", `{"r":"<b>"}`, `{"r":"&"}`, []Change{{Op: "~", Path: "r", Before: `"<b>"`, After: `"&"`}}},
		{"invalid", `{`, `}`, []Change{{Op: "~", Path: "$", Before: "{", After: "}"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if d := cmp.Diff(tt.want, Compare([]byte(tt.a), []byte(tt.b))); d != "" {
				t.Errorf("Compare (-want +got):\n%s", d)
			}
		})
	}
}

func TestEditParams(t *testing.T) {
	rec := json.RawMessage(`{"name":"t","arguments":{"a":1,"list":[1,2]},"_meta":{"x":1}}`)
	tests := []struct {
		name    string
		opts    Options
		want    string
		edited  bool
		wantErr bool
	}{
		{"unchanged keeps bytes", Options{}, string(rec), false, false},
		{"set string and json", Options{Set: []string{"arguments.city=Lyon", "arguments.n=3", "arguments.list.1={\"x\":true}"}},
			`{"_meta":{"x":1},"arguments":{"a":1,"city":"Lyon","list":[1,{"x":true}],"n":3},"name":"t"}`, true, false},
		{"set creates objects", Options{Set: []string{"extra.deep.v=null"}},
			`{"_meta":{"x":1},"arguments":{"a":1,"list":[1,2]},"extra":{"deep":{"v":null}},"name":"t"}`, true, false},
		{"replace", Options{Params: json.RawMessage(`{"name":"u"}`)}, `{"name":"u"}`, true, false},
		{"bad index", Options{Set: []string{"arguments.list.5=1"}}, "", false, true},
		{"into a string", Options{Set: []string{"name.x=1"}}, "", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, edited, err := editParams(rec, &tt.opts)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err %v", err)
			}
			if err == nil && (string(got) != tt.want || edited != tt.edited) {
				t.Errorf("got %s edited %v, want %s %v", got, edited, tt.want, tt.edited)
			}
		})
	}
}

func TestDropEnvelopeAndEnv(t *testing.T) {
	got := dropEnvelope(json.RawMessage(`{"name":"t","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","traceparent":"00-x"}}`))
	if string(got) != `{"_meta":{"traceparent":"00-x"},"name":"t"}` {
		t.Errorf("dropEnvelope = %s", got)
	}
	kept, missing := filterEnv(func() []string { return []string{"HOME=/h", "PATH=/bin", "TOKEN=t"} }, []string{"HOME", "TOKEN", "GONE"})
	if !cmp.Equal(kept, []string{"HOME=/h", "TOKEN=t"}) || !cmp.Equal(missing, []string{"GONE"}) {
		t.Errorf("filterEnv = %v, %v", kept, missing)
	}
}

func FuzzCompare(f *testing.F) {
	f.Add([]byte(`{"a":[1,{"b":2}]}`), []byte(`{"a":[1]}`))
	f.Add([]byte(`1`), []byte(`"x"`))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		if len(Compare(a, a)) != 0 && json.Valid(a) {
			t.Fatalf("Compare(a, a) differs for %q", a)
		}
		Compare(a, b)
	})
}
