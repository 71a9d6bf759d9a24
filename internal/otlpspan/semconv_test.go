package otlpspan

import (
	"bufio"
	"bytes"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	metricspb "go.opentelemetry.io/proto/otlp/metrics/v1"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/mcpward/mcpward/internal/calls"
	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/traffic"
)

// pinned reads testdata/semconv.txt: name -> where it may appear.
func pinned(t *testing.T) map[string][]string {
	t.Helper()
	b, err := os.ReadFile("testdata/semconv.txt")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 3 {
			t.Fatalf("semconv.txt: %q: want name, where, source", line)
		}
		if mine := strings.HasPrefix(f[0], "mcpward."); mine != (f[2] == "mcpward") {
			t.Errorf("semconv.txt: %s has source %s: mcpward's own names, and only they, are under mcpward.*", f[0], f[2])
		}
		out[f[0]] = strings.Split(f[1], ",")
	}
	return out
}

// richLog is a stdio session and an HTTP session that exercise most
// attributes: a tool call with isError, a prompt, a resource read that
// fails, an HTTP 500, trace context from _meta and from the HTTP header,
// a request with jsonrpc 1.0 (a finding), an exit code.
func richLog() []*session.Record {
	var recs []*session.Record
	seq := map[string]uint64{}
	at := t0
	add := func(sess string, tr session.Transport, dir session.Direction, ex uint64, hdr map[string][]string, status int, body string) {
		seq[sess]++
		at = at.Add(3 * time.Millisecond)
		r := &session.Record{Session: sess, Label: "lbl", Seq: seq[sess], Time: at, Dir: dir, Transport: tr,
			Exchange: ex, Header: hdr, Status: status}
		if tr == session.HTTP {
			r.MCPSessionID = "mcp-sid-1"
		}
		if dir == session.Meta {
			r.Kind, r.Info = body[:strings.IndexByte(body, ' ')], json.RawMessage(body[strings.IndexByte(body, ' ')+1:])
		} else if body != "" {
			r.Frame, r.HasFrame, r.Size = []byte(body), true, int64(len(body))
		}
		recs = append(recs, r)
	}
	S, H := session.Stdio, session.HTTP
	c2s, s2c := session.ClientToServer, session.ServerToClient
	add("S", S, session.Meta, 0, nil, 0, `start {"argv":["srv","--flag"]}`)
	add("S", S, c2s, 0, nil, 0, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"agent","version":"1"}}}`)
	add("S", S, s2c, 0, nil, 0, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"srv","version":"3"}}}`)
	add("S", S, c2s, 0, nil, 0, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"flaky","_meta":{"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}}}`)
	add("S", S, s2c, 0, nil, 0, `{"jsonrpc":"2.0","id":2,"result":{"content":[],"isError":true}}`)
	add("S", S, c2s, 0, nil, 0, `{"jsonrpc":"1.0","id":3,"method":"prompts/get","params":{"name":"greet"}}`)
	add("S", S, s2c, 0, nil, 0, `{"jsonrpc":"2.0","id":3,"result":{"messages":[]}}`)
	add("S", S, c2s, 0, nil, 0, `{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"file:///a.txt"}}`)
	add("S", S, s2c, 0, nil, 0, `{"jsonrpc":"2.0","id":4,"error":{"code":-32002,"message":"resource not found"}}`)
	add("S", S, session.Meta, 0, nil, 0, `exit {"code":3}`)

	add("H", H, session.Meta, 0, nil, 0, `start {"target":"http://127.0.0.1:9/mcp"}`)
	add("H", H, c2s, 1, map[string][]string{"Traceparent": {"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"}, "Tracestate": {"k=v"}}, 0,
		`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"echo"}}`)
	add("H", H, s2c, 1, nil, 200, `{"jsonrpc":"2.0","id":"a","result":{"content":[]}}`)
	add("H", H, c2s, 2, nil, 0, `{"jsonrpc":"2.0","id":"b","method":"tools/list"}`)
	add("H", H, s2c, 2, nil, 500, ``)
	return recs
}

// exportRich runs richLog through a traffic checker and a Builder and
// returns the trace and metrics requests.
func exportRich(t *testing.T) (traces, metrics []byte) {
	t.Helper()
	var spans []Span
	mx := NewMetrics(t0)
	b := NewBuilder(&BuilderOptions{Emit: func(c *calls.Call, s Span) { spans = append(spans, s); mx.Call(c, &s) }})
	chk := traffic.New(&traffic.Options{OnFrame: b.Frame, OnSettle: b.Settle, OnFinding: func(f traffic.Finding) {
		of := Finding{Session: f.Session, Seq: f.Seq, RuleID: f.RuleID, Level: f.Level, Class: f.Class, Message: f.Message, Signal: string(f.Signal)}
		b.Finding(of)
		mx.Finding(of)
	}})
	for i, r := range richLog() {
		chk.Add(r, i+1)
		b.Flush()
	}
	var rs []ResourceSpans
	for _, ss := range chk.Store().Sessions() {
		var mine []Span
		for _, s := range spans {
			if s.Attrs[slices.IndexFunc(s.Attrs, func(a Attr) bool { return a.Key == AttrSessionID })].Value.AsString() == ss.ID {
				mine = append(mine, s)
			}
		}
		rs = append(rs, ResourceSpans{Resource: append(SessionResource(ss), String(AttrServiceVersion, "test")), Spans: mine})
		mx.Session(ss)
	}
	traces = AppendRequest(nil, Scope{Name: "mcpward", Version: "test"}, rs...)
	metrics = mx.AppendMetricsRequest(nil, Scope{Name: "mcpward", Version: "test"},
		[]Attr{String(AttrServiceName, ServiceName)}, t0.Add(time.Minute))
	return traces, metrics
}

// TestEmittedNamesArePinned checks every name in the trace and metrics
// output against testdata/semconv.txt (and where it may appear), every
// span name against "{mcp.method.name} {target}", and that the list and
// the constants of semconv.go are the same set.
func TestEmittedNamesArePinned(t *testing.T) {
	pin := pinned(t)
	traces, metrics := exportRich(t)
	check := func(name, where string) {
		t.Helper()
		w, ok := pin[name]
		if !ok {
			t.Errorf("%s %q is emitted but not pinned in testdata/semconv.txt", where, name)
		} else if !slices.Contains(w, where) {
			t.Errorf("%q is emitted as a %s attribute; semconv.txt allows it in %v", name, where, w)
		}
	}
	td := decode(t, traces)
	spans := 0
	for _, rs := range td.ResourceSpans {
		for _, kv := range rs.Resource.Attributes {
			check(kv.Key, "resource")
		}
		for _, ss := range rs.ScopeSpans {
			for _, sp := range ss.Spans {
				spans++
				a := attrMap(sp.Attributes)
				for _, kv := range sp.Attributes {
					check(kv.Key, "span")
				}
				want := a[AttrMCPMethodName]
				if target := a[AttrGenAIToolName] + a[AttrGenAIPromptName]; target != "" {
					want += " " + target
				}
				if sp.Name != want {
					t.Errorf("span name %q, want {mcp.method.name} {target} = %q", sp.Name, want)
				}
				for _, ev := range sp.Events {
					check(ev.Name, "event")
					for _, kv := range ev.Attributes {
						check(kv.Key, "event")
					}
				}
			}
		}
	}
	if spans != 6 {
		t.Errorf("%d spans, want 6 (one per call)", spans)
	}
	var md metricspb.MetricsData
	if err := protojson.Unmarshal(metrics, &md); err != nil {
		t.Fatalf("not OTLP JSON metrics: %v\n%s", err, metrics)
	}
	for _, rm := range md.ResourceMetrics {
		for _, kv := range rm.Resource.Attributes {
			check(kv.Key, "resource")
		}
		for _, sm := range rm.ScopeMetrics {
			for _, m := range sm.Metrics {
				check(m.Name, "metric")
				var attrs [][]*commonpb.KeyValue
				for _, p := range m.GetHistogram().GetDataPoints() {
					attrs = append(attrs, p.Attributes)
				}
				for _, p := range m.GetSum().GetDataPoints() {
					attrs = append(attrs, p.Attributes)
				}
				for _, kvs := range attrs {
					for _, kv := range kvs {
						check(kv.Key, "metric")
					}
				}
			}
		}
	}

	// The list and semconv.go's Attr*, Event* and Metric* constants agree.
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "semconv.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	consts := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok || len(vs.Names) != 1 || len(vs.Values) != 1 {
			return true
		}
		name := vs.Names[0].Name
		lit, ok := vs.Values[0].(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING || !(strings.HasPrefix(name, "Attr") || strings.HasPrefix(name, "Event") || strings.HasPrefix(name, "Metric")) {
			return true
		}
		v, _ := strconv.Unquote(lit.Value)
		consts[v] = true
		return true
	})
	var listed []string
	for k := range pin {
		listed = append(listed, k)
	}
	if d := cmp.Diff(slices.Sorted(mapKeys(consts)), slices.Sorted(slices.Values(listed))); d != "" {
		t.Errorf("semconv.go constants and testdata/semconv.txt differ (-consts +list):\n%s", d)
	}
}

func mapKeys(m map[string]bool) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// TestSpansFollowMCPConventions pins the attributes, names, statuses and
// events of the rich log's spans.
func TestSpansFollowMCPConventions(t *testing.T) {
	traces, _ := exportRich(t)
	td := decode(t, traces)
	type row struct {
		Name, Trace, Parent, Status, Msg string
		Attrs                            map[string]string
		Events                           []string
	}
	var got []row
	for _, rs := range td.ResourceSpans {
		for _, sp := range rs.ScopeSpans[0].Spans {
			a := attrMap(sp.Attributes)
			keep := map[string]string{}
			for _, k := range []string{AttrMCPMethodName, AttrJSONRPCRequestID, AttrGenAIToolName, AttrGenAIOperationName, AttrGenAIPromptName,
				AttrMCPResourceURI, AttrMCPSessionID, AttrMCPProtocolVersion, AttrNetworkTransport, AttrNetworkProtocolName, AttrErrorType,
				AttrRPCResponseStatusCode, AttrHTTPResponseStatusCode, AttrCallTraceSource, AttrCallFindings, AttrCallViolations} {
				if v, ok := a[k]; ok {
					keep[k] = v
				}
			}
			var evs []string
			for _, ev := range sp.Events {
				ea := attrMap(ev.Attributes)
				evs = append(evs, ev.Name+" "+ea[AttrFindingRuleID]+" "+ea[AttrFindingLevel]+" "+ea[AttrFindingClass])
			}
			tr := id(sp.TraceId)
			switch tr {
			case SessionTraceID("S").String():
				tr = "session S"
			case SessionTraceID("H").String():
				tr = "session H"
			}
			got = append(got, row{sp.Name, tr, id(sp.ParentSpanId), sp.Status.GetCode().String(), sp.Status.GetMessage(), keep, evs})
		}
	}
	want := []row{
		{Name: "initialize", Trace: "session S", Status: "STATUS_CODE_UNSET",
			Attrs: map[string]string{"mcp.method.name": "initialize", "jsonrpc.request.id": "1", "mcp.protocol.version": "2025-06-18", "network.transport": "pipe"}},
		{Name: "tools/call flaky", Trace: "4bf92f3577b34da6a3ce929d0e0e4736", Parent: "00f067aa0ba902b7", Status: "STATUS_CODE_ERROR", Msg: "tool result isError",
			Attrs: map[string]string{"mcp.method.name": "tools/call", "jsonrpc.request.id": "2", "gen_ai.tool.name": "flaky", "gen_ai.operation.name": "execute_tool",
				"mcp.protocol.version": "2025-06-18", "network.transport": "pipe", "error.type": "tool_error", "mcpward.call.findings": "1"},
			Events: []string{"mcpward.finding message.error_response MAY info"}},
		{Name: "prompts/get greet", Trace: "session S", Status: "STATUS_CODE_UNSET",
			Attrs: map[string]string{"mcp.method.name": "prompts/get", "jsonrpc.request.id": "3", "gen_ai.prompt.name": "greet",
				"mcp.protocol.version": "2025-06-18", "network.transport": "pipe", "mcpward.call.findings": "1", "mcpward.call.violations": "1"},
			Events: []string{"mcpward.finding message.jsonrpc_version MUST violation"}},
		{Name: "resources/read", Trace: "session S", Status: "STATUS_CODE_ERROR", Msg: "resource not found",
			Attrs: map[string]string{"mcp.method.name": "resources/read", "jsonrpc.request.id": "4", "mcp.resource.uri": "file:///a.txt",
				"mcp.protocol.version": "2025-06-18", "network.transport": "pipe", "error.type": "-32002", "rpc.response.status_code": "-32002",
				"mcpward.call.findings": "1"},
			Events: []string{"mcpward.finding message.error_response MAY info"}},
		{Name: "tools/call echo", Trace: "0af7651916cd43dd8448eb211c80319c", Parent: "b7ad6b7169203331", Status: "STATUS_CODE_UNSET",
			Attrs: map[string]string{"mcp.method.name": "tools/call", "jsonrpc.request.id": "a", "gen_ai.tool.name": "echo", "gen_ai.operation.name": "execute_tool",
				"mcp.session.id": "mcp-sid-1", "network.transport": "tcp", "network.protocol.name": "http", "mcpward.call.trace_source": "http_header"}},
		{Name: "tools/list", Trace: "session H", Status: "STATUS_CODE_ERROR", Msg: "HTTP 500",
			Attrs: map[string]string{"mcp.method.name": "tools/list", "jsonrpc.request.id": "b", "mcp.session.id": "mcp-sid-1", "network.transport": "tcp",
				"network.protocol.name": "http", "error.type": "500", "http.response.status_code": "500", "mcpward.call.findings": "1"},
			Events: []string{"mcpward.finding transport.http_error MAY info"}},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("spans mismatch (-want +got):\n%s", d)
	}
}

// TestMetricsDecodeWithOfficialProtos checks the duration histograms and
// the findings count against the official metrics protos.
func TestMetricsDecodeWithOfficialProtos(t *testing.T) {
	_, body := exportRich(t)
	var md metricspb.MetricsData
	if err := (protojson.UnmarshalOptions{DiscardUnknown: false}).Unmarshal(body, &md); err != nil {
		t.Fatalf("not a valid OTLP JSON ExportMetricsServiceRequest: %v\n%s", err, body)
	}
	ms := md.ResourceMetrics[0].ScopeMetrics[0].Metrics
	var names []string
	for _, m := range ms {
		names = append(names, m.Name)
	}
	if d := cmp.Diff([]string{MetricClientOperationDuration, MetricServerOperationDuration, MetricClientSessionDuration,
		MetricServerSessionDuration, MetricFindings}, names); d != "" {
		t.Fatalf("metrics mismatch (-want +got):\n%s", d)
	}
	op := ms[0]
	if op.Unit != "s" || op.GetHistogram().GetAggregationTemporality() != metricspb.AggregationTemporality_AGGREGATION_TEMPORALITY_CUMULATIVE {
		t.Errorf("%s: unit %q, temporality %v; want s, cumulative", op.Name, op.Unit, op.GetHistogram().GetAggregationTemporality())
	}
	var total uint64
	for _, p := range op.GetHistogram().DataPoints {
		if !slices.Equal(p.ExplicitBounds, DurationBounds) || len(p.BucketCounts) != len(DurationBounds)+1 {
			t.Errorf("bounds %v buckets %d, want the conventions' %v", p.ExplicitBounds, len(p.BucketCounts), DurationBounds)
		}
		var n uint64
		for _, c := range p.BucketCounts {
			n += c
		}
		if n != p.Count {
			t.Errorf("buckets add up to %d, count %d", n, p.Count)
		}
		total += p.Count
		a := attrMap(p.Attributes)
		// Each call here takes 3 ms: the first bucket (<= 10 ms).
		if p.BucketCounts[0] != p.Count || p.GetMin() != 0.003 || p.GetMax() != 0.003 {
			t.Errorf("%v: buckets %v min %v max %v; want every 3 ms call in the first", a, p.BucketCounts, p.GetMin(), p.GetMax())
		}
		if _, ok := a[AttrMCPResourceURI]; ok {
			t.Errorf("a duration point carries mcp.resource.uri (opt-in, high cardinality): %v", a)
		}
	}
	if total != 6 {
		t.Errorf("%d calls measured, want 6", total)
	}
	sess := ms[2].GetHistogram().DataPoints
	if len(sess) != 2 {
		t.Fatalf("%d session points, want 2 (stdio exit 3, http)", len(sess))
	}
	if a := attrMap(sess[0].Attributes); a[AttrErrorType] != "exit_3" || a[AttrNetworkTransport] != "pipe" {
		t.Errorf("stdio session point %v, want error.type exit_3 over pipe", a)
	}
	var findings int64
	for _, p := range ms[4].GetSum().DataPoints {
		findings += p.GetAsInt()
	}
	if !ms[4].GetSum().IsMonotonic || findings != 4 {
		t.Errorf("findings sum %d (monotonic %v), want 4", findings, ms[4].GetSum().IsMonotonic)
	}
}

// A request logged before the initialize response (the shim records each
// direction as it relays it) still gets the session's revision: the one
// known when it is answered.
func TestRevisionFromSessionWhenAnswered(t *testing.T) {
	recs := testSession("R")[:3] // start, initialize, its response
	early := *recs[1]
	early.Seq, early.Frame = 3, []byte(`{"jsonrpc":"2.0","id":9,"method":"tools/list"}`)
	resp := *recs[2]
	resp.Seq, resp.Frame = 4, []byte(`{"jsonrpc":"2.0","id":9,"result":{"tools":[]}}`)
	recs[2].Seq = 2
	recs = []*session.Record{recs[0], recs[1], &early, recs[2], &resp}
	for i, r := range recs {
		r.Seq = uint64(i + 1)
		r.RawFrame = nil
	}
	req := decode(t, exportLog(t, recs))
	for _, sp := range req.ResourceSpans[0].ScopeSpans[0].Spans {
		if v := attrMap(sp.Attributes)[AttrMCPProtocolVersion]; v != "2025-06-18" {
			t.Errorf("%s: mcp.protocol.version %q, want the session's 2025-06-18", sp.Name, v)
		}
	}
}
