package otlpspan

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/mcpward/mcpward/internal/calls"
	"github.com/mcpward/mcpward/internal/session"
)

var t0 = time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)

// testSession is a stdio session: start, initialize, a traced tools/call,
// a failing call, a cancelled one, a lost record and a pending call.
func testSession(id string) []*session.Record {
	frames := []struct {
		dir  session.Direction
		kind string
		body string
	}{
		{session.Meta, session.KindStart, `{"argv":["npx","weather-server","--token","[REDACTED]"],"cwd":"/w"}`},
		{session.ClientToServer, "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`},
		{session.ServerToClient, "", `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"weather","version":"2.0"}}}`},
		{session.ClientToServer, "", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_weather","arguments":{},"_meta":{"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01","tracestate":"congo=t61rcWkgMzE"}}}`},
		{session.ServerToClient, "", `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"sunny"}]}}`},
		{session.ClientToServer, "", `{"jsonrpc":"2.0","id":"a\"b","method":"tools/call","params":{"name":"boom"}}`},
		{session.ServerToClient, "", `{"jsonrpc":"2.0","id":"a\"b","error":{"code":-32602,"message":"bad"}}`},
		{session.ClientToServer, "", `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"slow"}}`},
		{session.ClientToServer, "", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":4}}`},
		{session.Meta, session.KindLost, `{"frames":2,"bytes":100}`},
		{session.ClientToServer, "", `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"never"}}`},
	}
	var recs []*session.Record
	for i, f := range frames {
		r := &session.Record{Session: id, Label: "weather", Seq: uint64(i + 1), Time: t0.Add(time.Duration(i) * time.Millisecond),
			Dir: f.dir, Transport: session.Stdio, Kind: f.kind}
		if f.dir == session.Meta {
			r.Info = json.RawMessage(f.body)
		} else {
			r.Frame, r.HasFrame, r.RawFrame, r.Size = []byte(f.body), true, json.RawMessage(f.body), int64(len(f.body))
		}
		recs = append(recs, r)
	}
	return recs
}

// exportLog runs records through a store and a Builder and encodes the
// spans per session, as `sessions export -T otlp` would.
func exportLog(t *testing.T, recs []*session.Record) []byte {
	t.Helper()
	bySession := map[string][]Span{}
	b := NewBuilder(&BuilderOptions{Emit: func(c *calls.Call, s Span) { bySession[c.Session] = append(bySession[c.Session], s) }})
	st := calls.New(&calls.Options{OnFrame: b.Frame, OnSettle: b.Settle})
	for i, r := range recs {
		st.Add(r, i+1)
		b.Flush()
	}
	var rs []ResourceSpans
	for _, s := range st.Sessions() {
		rs = append(rs, ResourceSpans{Resource: SessionResource(s), Spans: bySession[s.ID]})
	}
	return AppendRequest(nil, Scope{Name: "mcpward", Version: "test"}, rs...)
}

// id returns an id field as the string that was sent. OTLP JSON carries
// ids as hex, an exception to the proto3 JSON mapping that protojson does
// not know: it reads the hex digits as base64 (they are all in its
// alphabet, and 32 and 16 digits are whole base64 quanta). Encoding the
// bytes back to base64 gives the digits again, so the test still checks
// what a collector reads.
func id(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

// decode checks body against the official protos, strictly. TracesData
// is the ExportTraceServiceRequest message without the gRPC service (the
// proto says the two are wire compatible: field 1, resource_spans), so the
// test needs neither gRPC nor grpc-gateway.
func decode(t *testing.T, body []byte) *tracepb.TracesData {
	t.Helper()
	var req tracepb.TracesData
	if err := (protojson.UnmarshalOptions{DiscardUnknown: false}).Unmarshal(body, &req); err != nil {
		t.Fatalf("not a valid OTLP JSON ExportTraceServiceRequest: %v\n%s", err, body)
	}
	return &req
}

func attrMap(kvs []*commonpb.KeyValue) map[string]string {
	m := map[string]string{}
	for _, kv := range kvs {
		switch v := kv.Value.Value.(type) {
		case *commonpb.AnyValue_StringValue:
			m[kv.Key] = v.StringValue
		case *commonpb.AnyValue_IntValue:
			m[kv.Key] = fmt.Sprint(v.IntValue)
		case *commonpb.AnyValue_BoolValue:
			m[kv.Key] = fmt.Sprint(v.BoolValue)
		case *commonpb.AnyValue_ArrayValue:
			var parts []string
			for _, e := range v.ArrayValue.Values {
				parts = append(parts, e.GetStringValue())
			}
			m[kv.Key] = strings.Join(parts, " ")
		}
	}
	return m
}

func TestExportDecodesWithOfficialProtos(t *testing.T) {
	recs := append(testSession("S1"), testSession("S2")...)
	req := decode(t, exportLog(t, recs))
	if len(req.ResourceSpans) != 2 {
		t.Fatalf("%d resources, want one per session (2)", len(req.ResourceSpans))
	}
	rs := req.ResourceSpans[0]
	wantRes := map[string]string{
		"service.name": "mcpward", "mcpward.session.id": "S1", "mcpward.server.label": "weather", "mcpward.transport": "stdio",
		"process.command": "npx", "process.command_args": "npx weather-server --token [REDACTED]",
		"mcpward.server.name": "weather", "mcpward.server.version": "2.0",
		"mcpward.session.lost_frames": "2", "mcpward.session.frames": "9", "mcpward.session.errors": "1",
	}
	if d := cmp.Diff(wantRes, attrMap(rs.Resource.Attributes)); d != "" {
		t.Errorf("resource attributes mismatch (-want +got):\n%s", d)
	}
	ss := rs.ScopeSpans[0]
	if ss.Scope.Name != "mcpward" || ss.Scope.Version != "test" {
		t.Errorf("scope = %v", ss.Scope)
	}
	type row struct {
		Name, Parent, State, Err, Msg string
		Kind                          tracepb.Span_SpanKind
		Status                        tracepb.Status_StatusCode
		DurMS                         int64
	}
	var got []row
	for _, sp := range ss.Spans {
		a := attrMap(sp.Attributes)
		got = append(got, row{sp.Name, id(sp.ParentSpanId), a["mcpward.call.state"], a["error.type"],
			sp.Status.GetMessage(), sp.Kind, sp.Status.GetCode(), int64(sp.EndTimeUnixNano-sp.StartTimeUnixNano) / 1e6})
	}
	// The pending call (id 5) has no span: it never settled.
	want := []row{
		{Name: "initialize", State: "ok", Kind: tracepb.Span_SPAN_KIND_CLIENT, DurMS: 1},
		{Name: "tools/call get_weather", Parent: "00f067aa0ba902b7", State: "ok", Kind: tracepb.Span_SPAN_KIND_CLIENT, DurMS: 1},
		{Name: "tools/call boom", State: "error", Err: "-32602", Msg: "bad", Kind: tracepb.Span_SPAN_KIND_CLIENT, Status: tracepb.Status_STATUS_CODE_ERROR, DurMS: 1},
		{Name: "tools/call slow", State: "cancelled", Kind: tracepb.Span_SPAN_KIND_CLIENT, DurMS: 1},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("spans mismatch (-want +got):\n%s", d)
	}
	traced := ss.Spans[1]
	if id(traced.TraceId) != "4bf92f3577b34da6a3ce929d0e0e4736" || traced.TraceState != "congo=t61rcWkgMzE" {
		t.Errorf("traced span: trace %s state %q; want the request's traceparent and tracestate", id(traced.TraceId), traced.TraceState)
	}
	a := attrMap(traced.Attributes)
	for k, v := range map[string]string{"mcp.method.name": "tools/call", "gen_ai.tool.name": "get_weather",
		"gen_ai.operation.name": "execute_tool", "jsonrpc.request.id": "2", "mcp.protocol.version": "2025-06-18",
		"network.transport": "pipe", "mcpward.session.id": "S1"} {
		if a[k] != v {
			t.Errorf("attribute %s = %q, want %q", k, a[k], v)
		}
	}
	if a := attrMap(ss.Spans[2].Attributes); a["jsonrpc.request.id"] != `"a\"b"` || a["rpc.response.status_code"] != "-32602" {
		t.Errorf("string id with an escape = %q, want the raw JSON; status code %q", a["jsonrpc.request.id"], a["rpc.response.status_code"])
	}
	// Untraced calls share the session's stable trace; spans ids differ.
	s1, s2 := req.ResourceSpans[0].ScopeSpans[0].Spans, req.ResourceSpans[1].ScopeSpans[0].Spans
	if want := SessionTraceID("S1"); id(s1[0].TraceId) != want.String() {
		t.Errorf("untraced span trace %s, want SessionTraceID %s", id(s1[0].TraceId), want)
	}
	if string(s1[0].SpanId) == string(s2[0].SpanId) || string(s1[0].TraceId) == string(s2[0].TraceId) {
		t.Errorf("two sessions share span or trace ids")
	}
}

func TestExportIsDeterministic(t *testing.T) {
	a, b := exportLog(t, testSession("S")), exportLog(t, testSession("S"))
	if string(a) != string(b) {
		t.Errorf("two exports of one log differ")
	}
}

func TestValuesEncodeAsProtoJSON(t *testing.T) {
	sp := Span{TraceID: TraceID{1}, SpanID: SpanID{2}, Name: "n\x00\"\xff", Start: t0, End: t0.Add(-time.Second),
		Attrs: []Attr{Int("i", -1<<62), Bool("b", true), Bool("f", false), Double("d", 1.5), Strings("s", []string{"a", "<b>"}), String("u", "é\u2028")}}
	req := decode(t, AppendRequest(nil, Scope{Name: "x"}, ResourceSpans{Spans: []Span{sp}}))
	got := req.ResourceSpans[0].ScopeSpans[0].Spans[0]
	if got.Name != "n\x00\"\uFFFD" {
		t.Errorf("name = %q", got.Name)
	}
	if got.EndTimeUnixNano != got.StartTimeUnixNano {
		t.Errorf("an end before the start must be clamped to it")
	}
	want := map[string]string{"i": fmt.Sprint(int64(-1 << 62)), "b": "true", "f": "false", "s": "a <b>", "u": "é\u2028"}
	a := attrMap(got.Attributes)
	delete(a, "d")
	if d := cmp.Diff(want, a); d != "" {
		t.Errorf("attributes mismatch (-want +got):\n%s", d)
	}
	if d := got.Attributes[3].Value.GetDoubleValue(); d != 1.5 {
		t.Errorf("double = %v", d)
	}
	// No spans, no resource.
	if got := string(AppendRequest(nil, Scope{Name: "x"}, ResourceSpans{Resource: []Attr{String("a", "b")}})); got != `{"resourceSpans":[]}` {
		t.Errorf("empty request = %s", got)
	}
}

func TestParseTraceparent(t *testing.T) {
	tests := []struct {
		in string
		ok bool
	}{
		{"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", true},
		{"01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-more", true}, // a later version may add fields
		{"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-more", false},
		{"ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", false},
		{"00-00000000000000000000000000000000-00f067aa0ba902b7-01", false},
		{"00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01", false},
		{"00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01", false},
		{"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7", false},
		{"", false},
	}
	for _, tt := range tests {
		if _, ok := ParseTraceparent(tt.in); ok != tt.ok {
			t.Errorf("ParseTraceparent(%q) ok = %v, want %v", tt.in, ok, tt.ok)
		}
	}
}

func TestTraceContextFromMetaDropsBadTracestate(t *testing.T) {
	tp := `"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"`
	tests := []struct {
		state, want string
	}{
		{`"a=1,b=2"`, "a=1,b=2"},
		{`"novalue"`, ""},
		{`"` + strings.Repeat("k=v,", 33) + `"`, ""},
		{`7`, ""},
	}
	for _, tt := range tests {
		tc, ok := TraceContextFromMeta(map[string]json.RawMessage{"traceparent": json.RawMessage(tp), "tracestate": json.RawMessage(tt.state)})
		if !ok || tc.State != tt.want {
			t.Errorf("tracestate %s: got %q ok %v, want %q", tt.state, tc.State, ok, tt.want)
		}
	}
}

func FuzzParseTraceparent(f *testing.F) {
	f.Add("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
	f.Add("cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-x")
	f.Fuzz(func(t *testing.T, s string) {
		tc, ok := ParseTraceparent(s)
		if !ok {
			return
		}
		if !tc.TraceID.IsValid() || !tc.ParentID.IsValid() {
			t.Fatalf("accepted zero ids in %q", s)
		}
		if got := s[3:35]; got != tc.TraceID.String() {
			t.Fatalf("trace id %s from %q", tc.TraceID, s)
		}
	})
}
