package calls

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpward/mcpward/internal/session"
)

var t0 = time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)

// script turns a compact text into records: one per line,
// "[sess] dir [http xN sid=S status=N sse] frame", seq and time implied
// (each record 10ms after the previous one).
func script(t *testing.T, text string) []*session.Record {
	t.Helper()
	var out []*session.Record
	seq := map[string]uint64{}
	for i, line := range strings.Split(strings.TrimSpace(text), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		r := &session.Record{V: 1, Session: "s1", Label: "demo", Transport: session.Stdio,
			Time: t0.Add(time.Duration(i) * 10 * time.Millisecond)}
		for {
			word, rest, _ := strings.Cut(line, " ")
			switch {
			case strings.HasPrefix(word, "@"):
				r.Session = word[1:]
			case word == "c2s" || word == "s2c" || word == "stderr" || word == "meta":
				r.Dir = session.Direction(word)
			case word == "http":
				r.Transport = session.HTTP
			case strings.HasPrefix(word, "x") && len(word) > 1 && word[1] >= '0' && word[1] <= '9':
				fmt.Sscanf(word[1:], "%d", &r.Exchange)
			case strings.HasPrefix(word, "sid="):
				r.MCPSessionID = word[4:]
			case strings.HasPrefix(word, "status="):
				fmt.Sscanf(word[7:], "%d", &r.Status)
			case word == "sse":
				r.SSE = true
			case strings.HasPrefix(word, "hdr:"):
				k, v, _ := strings.Cut(word[4:], "=")
				if r.Header == nil {
					r.Header = map[string][]string{}
				}
				r.Header[k] = append(r.Header[k], v)
			case word == "-":
				rest = ""
				line = ""
			default:
				goto frame
			}
			line = rest
			continue
		frame:
			break
		}
		if line != "" {
			r.Frame, r.HasFrame, r.Size = []byte(line), true, int64(len(line))
		}
		seq[r.Session]++
		r.Seq = seq[r.Session]
		out = append(out, r)
	}
	return out
}

type run struct {
	store   *Store
	frames  []*Frame
	settled []*Call
}

func feed(t *testing.T, text string, opts *Options) *run {
	t.Helper()
	r := &run{}
	o := Options{}
	if opts != nil {
		o = *opts
	}
	o.OnFrame = func(f *Frame) { c := *f; r.frames = append(r.frames, &c) }
	o.OnSettle = func(c *Call) { cc := *c; r.settled = append(r.settled, &cc) }
	r.store = New(&o)
	for i, rec := range script(t, text) {
		r.store.Add(rec, i+1)
	}
	r.store.Flush()
	return r
}

// states lists "method id state" for settled and open calls, in settle order.
func (r *run) states() []string {
	var out []string
	for _, c := range r.settled {
		out = append(out, fmt.Sprintf("%s %s %s", c.Method, c.ID, c.State))
	}
	for _, c := range r.store.Open() {
		out = append(out, fmt.Sprintf("%s %s %s(open)", c.Method, c.ID, c.State))
	}
	return out
}

func (r *run) notes(n Note) []int {
	var lines []int
	for _, f := range r.frames {
		if f.Has(n) {
			lines = append(lines, f.Line)
		}
	}
	return lines
}

func TestCallStates(t *testing.T) {
	tests := []struct {
		name string
		log  string
		want []string
	}{
		{"completed and failed", `
c2s {"jsonrpc":"2.0","id":1,"method":"tools/list"}
s2c {"jsonrpc":"2.0","id":1,"result":{"tools":[]}}
c2s {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"a"}}
s2c {"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"no"}}
c2s {"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"a"}}
s2c {"jsonrpc":"2.0","id":3,"result":{"content":[],"isError":true}}`,
			[]string{"tools/list 1 ok", "tools/call 2 error", "tools/call 3 error"}},
		{"superseded, cancelled, late result", `
c2s {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}}
c2s {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"b"}}
c2s {"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}
s2c {"jsonrpc":"2.0","id":1,"result":{"content":[]}}
s2c {"jsonrpc":"2.0","id":1,"result":{"content":[]}}`,
			[]string{"tools/call 1 superseded", "tools/call 1 cancelled", "tools/call 1 late_result"}},
		{"string and number ids differ; null ids are separate", `
c2s {"jsonrpc":"2.0","id":"1","method":"ping"}
c2s {"jsonrpc":"2.0","id":1,"method":"ping"}
s2c {"jsonrpc":"2.0","id":1,"result":{}}
s2c {"jsonrpc":"2.0","id":"1","result":{}}`,
			[]string{"ping 1 ok", `ping "1" ok`}},
		{"pending at the end", `
c2s {"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"slow"}}`,
			[]string{"tools/call 9 pending(open)"}},
		{"listen is streaming, its notifications attach", `
c2s {"jsonrpc":"2.0","id":5,"method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}
s2c {"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"notifications":{"toolsListChanged":true},"_meta":{"io.modelcontextprotocol/subscriptionId":5}}}
s2c {"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":5}}}`,
			[]string{"subscriptions/listen 5 streaming(open)"}},
		{"task stays pending until tasks/get says completed", `
c2s {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"long"}}
s2c {"jsonrpc":"2.0","id":1,"result":{"resultType":"task","taskId":"t1","status":"working"}}
c2s {"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"taskId":"t1"}}
s2c {"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","taskId":"t1","status":"working"}}
c2s {"jsonrpc":"2.0","id":3,"method":"tasks/get","params":{"taskId":"t1"}}
s2c {"jsonrpc":"2.0","id":3,"result":{"resultType":"complete","taskId":"t1","status":"completed","result":{"content":[],"isError":true}}}`,
			[]string{"tasks/get 2 ok", "tools/call 1 error", "tasks/get 3 ok"}},
		{"MRTR retry folds into one call", `
c2s {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"book"}}
s2c {"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"q":{"method":"elicitation/create","params":{}}},"requestState":"abc"}}
c2s {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"book","inputResponses":{"q":{"action":"accept"}},"requestState":"abc"}}
s2c {"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","content":[]}}`,
			[]string{"tools/call 1 ok"}},
		{"several sessions in one file", `
@a c2s {"jsonrpc":"2.0","id":1,"method":"ping"}
@b c2s {"jsonrpc":"2.0","id":1,"method":"ping"}
@b s2c {"jsonrpc":"2.0","id":1,"result":{}}
@a s2c {"jsonrpc":"2.0","id":1,"result":{}}`,
			[]string{"ping 1 ok", "ping 1 ok"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := feed(t, tt.log, nil)
			if d := cmp.Diff(tt.want, r.states()); d != "" {
				t.Errorf("states mismatch (-want +got):\n%s", d)
			}
		})
	}
}

func TestNotes(t *testing.T) {
	tests := []struct {
		name string
		log  string
		note Note
		want []int
	}{
		{"unmatched response", `
s2c {"jsonrpc":"2.0","id":7,"result":{}}`, NoteUnmatched, []int{1}},
		// Issue 22 item 3: a response the log numbered before its request
		// (within InvertWindow) is paired, not unmatched.
		{"inverted pair", `
s2c {"jsonrpc":"2.0","id":7,"result":{}}
c2s {"jsonrpc":"2.0","id":7,"method":"ping"}`, NoteInverted, []int{1}},
		{"inverted pair is not unmatched", `
s2c {"jsonrpc":"2.0","id":7,"result":{}}
c2s {"jsonrpc":"2.0","id":7,"method":"ping"}`, NoteUnmatched, nil},
		{"duplicate response", `
c2s {"jsonrpc":"2.0","id":1,"method":"ping"}
s2c {"jsonrpc":"2.0","id":1,"result":{}}
s2c {"jsonrpc":"2.0","id":1,"result":{}}`, NoteDuplicate, []int{3}},
		{"progress not increasing", `
c2s {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","_meta":{"progressToken":"p"}}}
s2c {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":5}}
s2c {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":5}}
s2c {"jsonrpc":"2.0","id":1,"result":{"content":[]}}`, NoteProgressNotIncreasing, []int{3}},
		{"progress after completion", `
c2s {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","_meta":{"progressToken":7}}}
s2c {"jsonrpc":"2.0","id":1,"result":{"content":[]}}
s2c {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":7,"progress":1}}`, NoteProgressLate, []int{3}},
		{"MRTR requestState changed", `
c2s {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"book"}}
s2c {"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"q":{"method":"roots/list"}},"requestState":"abc"}}
c2s {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"book","inputResponses":{"q":{}},"requestState":"abd"}}`, NoteStateChanged, []int{3}},
		{"MRTR requestState missing", `
c2s {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"book"}}
s2c {"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"q":{"method":"roots/list"}},"requestState":"abc"}}
c2s {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"book","inputResponses":{"q":{}}}}`, NoteStateMissing, []int{3}},
		{"error signal", `
c2s {"jsonrpc":"2.0","id":1,"method":"ping"}
s2c {"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"x"}}
s2c {"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse"}}`, NoteError, []int{2, 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := feed(t, tt.log, nil)
			if d := cmp.Diff(tt.want, r.notes(tt.note)); d != "" {
				t.Errorf("lines with note mismatch (-want +got):\n%s", d)
			}
		})
	}
}

// mcpsnoop bug 2: a server request on one connection answered by a POST on
// another was left pending with an unmatched response. Pairing goes by
// Mcp-Session-Id and id, never by connection.
func TestHTTPServerRequestAnsweredOnAnotherExchange(t *testing.T) {
	r := feed(t, `
http x1 sid=S c2s {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ask"}}
http x1 sid=S s2c sse {"jsonrpc":"2.0","id":"e1","method":"elicitation/create","params":{}}
http x2 sid=S c2s {"jsonrpc":"2.0","id":"e1","result":{"action":"accept"}}
http x2 sid=S s2c status=202 -
http x1 sid=S s2c sse {"jsonrpc":"2.0","id":1,"result":{"content":[]}}`, nil)
	if d := cmp.Diff([]string{`elicitation/create "e1" ok`, "tools/call 1 ok"}, r.states()); d != "" {
		t.Errorf("states mismatch (-want +got):\n%s", d)
	}
	if got := r.notes(NoteUnmatched); got != nil {
		t.Errorf("unmatched responses on lines %v, want none", got)
	}
}

// Stateless HTTP clients may reuse small ids concurrently: requests are
// scoped by their exchange, so neither is superseded.
func TestHTTPStatelessSameIDOnTwoExchanges(t *testing.T) {
	r := feed(t, `
http x1 c2s {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}}
http x2 c2s {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"b"}}
http x2 s2c status=200 {"jsonrpc":"2.0","id":1,"result":{"content":[]}}
http x1 s2c status=500 -`, nil)
	if d := cmp.Diff([]string{"tools/call 1 ok", "tools/call 1 error"}, r.states()); d != "" {
		t.Errorf("states mismatch (-want +got):\n%s", d)
	}
	if got := r.settled[1].Name; got != "a" {
		t.Errorf("the 500 failed tool %q, want a", got)
	}
	if got := r.notes(NoteIDReused); got != nil {
		t.Errorf("id reuse reported on lines %v", got)
	}
}

func TestRevisionOfEachRequest(t *testing.T) {
	r := feed(t, `
c2s {"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{}}}
s2c {"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"srv","version":"1"}}}
c2s {"jsonrpc":"2.0","id":1,"method":"tools/list"}
c2s {"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}
http hdr:Mcp-Protocol-Version=2025-11-25 c2s {"jsonrpc":"2.0","id":3,"method":"tools/list"}`, nil)
	var got []string
	for _, f := range r.frames {
		if f.Kind == KindRequest {
			got = append(got, string(f.Revision))
		}
	}
	want := []string{"2025-06-18", "2025-06-18", "2026-07-28", "2025-11-25"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("revisions mismatch (-want +got):\n%s", d)
	}
	if ss, _ := r.store.Session("s1"); ss.ServerName != "srv" {
		t.Errorf("server name %q, want srv", ss.ServerName)
	}
}

func TestBatchElementsAreFrames(t *testing.T) {
	r := feed(t, `
c2s [{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"}]
s2c [{"jsonrpc":"2.0","id":1,"result":{}}]`, nil)
	var kinds []string
	for _, f := range r.frames {
		kinds = append(kinds, fmt.Sprintf("%s %v/%d", f.Kind, f.Batch, f.BatchIndex))
	}
	want := []string{"request true/0", "notification true/1", "response true/0"}
	if d := cmp.Diff(want, kinds); d != "" {
		t.Errorf("frames mismatch (-want +got):\n%s", d)
	}
}

func TestMissingFramesAndOutOfOrder(t *testing.T) {
	s := New(nil)
	for i, seq := range []uint64{1, 2, 5, 6, 6} {
		s.Add(&session.Record{V: 1, Session: "s", Seq: seq, Time: t0, Dir: session.Stderr}, i+1)
	}
	ss, _ := s.Session("s")
	if ss.Missing != 2 || ss.OutOfOrder != 1 {
		t.Errorf("missing %d, out of order %d; want 2 and 1", ss.Missing, ss.OutOfOrder)
	}
}

func TestSummary(t *testing.T) {
	r := feed(t, `
c2s {"jsonrpc":"2.0","id":1,"method":"tools/list"}
s2c {"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a", "description":"Adds.","inputSchema":{"type":"object"}}],"nextCursor":"p2"}}
c2s {"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":"p2"}}
s2c {"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"b","inputSchema":{"type":"object"}}]}}
c2s {"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"a"}}
s2c {"jsonrpc":"2.0","id":3,"result":{"content":[]}}
c2s {"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"zz"}}
s2c {"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"unknown tool"}}`, nil)
	sum := r.store.Summary("s1")
	defA := int64(len(`{"name":"a","description":"Adds.","inputSchema":{"type":"object"}}`))
	defB := int64(len(`{"name":"b","inputSchema":{"type":"object"}}`))
	if sum.ToolCount != 2 || !sum.ListComplete || sum.DefinitionBytes != defA+defB {
		t.Errorf("tools %d complete %v bytes %d; want 2 true %d", sum.ToolCount, sum.ListComplete, sum.DefinitionBytes, defA+defB)
	}
	if d := cmp.Diff([]string{"zz"}, sum.Undeclared); d != "" {
		t.Errorf("undeclared mismatch (-want +got):\n%s", d)
	}
	var names []string
	for _, ts := range sum.Tools {
		names = append(names, fmt.Sprintf("%s calls=%d err=%d p50=%v result=%d", ts.Name, ts.Calls, ts.Errors, ts.Latency.P50, ts.ResultBytes))
	}
	want := []string{"zz calls=1 err=1 p50=10ms result=0", "a calls=1 err=0 p50=10ms result=14", "b calls=0 err=0 p50=0s result=0"}
	if d := cmp.Diff(want, names); d != "" {
		t.Errorf("tools mismatch (-want +got):\n%s", d)
	}
}

func TestPercentilesNearestRank(t *testing.T) {
	var d durations
	for i := 1; i <= 100; i++ {
		d.add(time.Duration(i) * time.Millisecond)
	}
	got := d.percentiles()
	want := Percentiles{P50: 50 * time.Millisecond, P95: 95 * time.Millisecond, P99: 99 * time.Millisecond, Max: 100 * time.Millisecond}
	if got != want {
		t.Errorf("percentiles = %+v, want %+v", got, want)
	}
}

// Settled calls leave the store: after many calls only the tombstone ring
// remains.
func TestBoundedMemory(t *testing.T) {
	s := New(&Options{Tombstones: 8})
	seq := uint64(0)
	for i := range 10000 {
		for _, f := range []string{
			fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"a","_meta":{"progressToken":%d}}}`, i, i),
			fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"content":[]}}`, i),
		} {
			seq++
			dir := session.ClientToServer
			if strings.Contains(f, "result") {
				dir = session.ServerToClient
			}
			s.Add(&session.Record{V: 1, Session: "s", Seq: seq, Time: t0, Dir: dir, Frame: []byte(f), HasFrame: true}, int(seq))
		}
	}
	if len(s.open) != 0 || len(s.tombs) > 8 || len(s.tokens) != 0 || len(s.closed) > 4096 {
		t.Errorf("open %d tombs %d tokens %d closed %d", len(s.open), len(s.tombs), len(s.tokens), len(s.closed))
	}
}

func FuzzStore(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}}`), []byte(`{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","requestState":"x"}}`), true)
	f.Add([]byte(`[{"jsonrpc":"2.0","id":null,"method":"x"},1,[]]`), []byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":{}}}`), false)
	f.Add([]byte(`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":null}}`), []byte(`{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":1},null],"nextCursor":""}}`), true)
	f.Fuzz(func(t *testing.T, a, b []byte, http bool) {
		s := New(&Options{Tombstones: 2, OnFrame: func(*Frame) {}, OnSettle: func(*Call) {}})
		tr := session.Stdio
		if http {
			tr = session.HTTP
		}
		for i, fr := range [][]byte{a, b, a, b} {
			dir := session.ClientToServer
			if i%2 == 1 {
				dir = session.ServerToClient
			}
			s.Add(&session.Record{V: 1, Session: "s", Seq: uint64(i + 1), Time: t0, Dir: dir, Transport: tr,
				Exchange: uint64(i/2 + 1), Frame: fr, HasFrame: true, Status: 200 * (i % 2)}, i+1)
		}
		_ = s.Summary("s")
		_ = s.Open()
	})
}

func TestEstimateTokens(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{"", 0},
		{"hello world", 2},
		{`{"name":"get_weather"}`, 6},
		{"12345", 2},
		{"日本", 2},
	}
	for _, tt := range tests {
		if got := EstimateTokens([]byte(tt.in)); got != tt.want {
			t.Errorf("EstimateTokens(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

// Issue 22 item 3: a response numbered before its request is held until
// the request follows (then handed on after it, paired, its call
// completed), until a record later than InvertWindow lets it go as
// unmatched, or until the session ends.
func TestInvertedPair(t *testing.T) {
	tests := []struct {
		name    string
		log     string
		flush   bool
		order   []int // the lines, as handed to OnFrame
		states  []string
		errors  int64
		pending int
	}{
		{"paired", `
c2s {"jsonrpc":"2.0","id":1,"method":"ping"}
s2c {"jsonrpc":"2.0","id":2,"error":{"code":-1,"message":"x"}}
c2s {"jsonrpc":"2.0","id":2,"method":"ping"}
s2c {"jsonrpc":"2.0","id":1,"result":{}}`, false, []int{1, 3, 2, 4}, []string{"ping 2 error", "ping 1 ok"}, 1, 0},
		// 10 ms a record: the sixth is beyond the window of the first.
		{"let go by time", `
s2c {"jsonrpc":"2.0","id":9,"error":{"code":-1,"message":"x"}}
c2s {"jsonrpc":"2.0","method":"notifications/initialized"}
c2s {"jsonrpc":"2.0","method":"notifications/initialized"}
c2s {"jsonrpc":"2.0","method":"notifications/initialized"}
c2s {"jsonrpc":"2.0","method":"notifications/initialized"}
c2s {"jsonrpc":"2.0","method":"notifications/initialized"}
c2s {"jsonrpc":"2.0","id":9,"method":"ping"}`, false, []int{2, 3, 4, 5, 6, 1, 7}, nil, 1, 1},
		{"let go at the end of the session", `
s2c {"jsonrpc":"2.0","id":9,"result":{}}
meta {}`, false, []int{1, 2}, nil, 0, 0},
		{"let go by Flush", `
s2c {"jsonrpc":"2.0","id":9,"result":{}}`, true, []int{1}, nil, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var order []int
			var settled []string
			s := New(&Options{
				OnFrame:  func(f *Frame) { order = append(order, f.Line) },
				OnSettle: func(c *Call) { settled = append(settled, fmt.Sprintf("%s %s %s", c.Method, c.ID, c.State)) },
			})
			for i, rec := range script(t, tt.log) {
				if rec.Dir == session.Meta {
					rec.Kind = session.KindExit
				}
				s.Add(rec, i+1)
			}
			if tt.flush {
				s.Flush()
			}
			if d := cmp.Diff(tt.order, order); d != "" {
				t.Errorf("OnFrame order mismatch (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.states, settled); d != "" {
				t.Errorf("settled calls mismatch (-want +got):\n%s", d)
			}
			ss, _ := s.Session("s1")
			if ss.Errors != tt.errors {
				t.Errorf("Errors = %d, want %d", ss.Errors, tt.errors)
			}
			if n := len(s.Open()); n != tt.pending {
				t.Errorf("%d calls open, want %d", n, tt.pending)
			}
		})
	}
}
