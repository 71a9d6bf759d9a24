package otlppush

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	metricspb "go.opentelemetry.io/proto/otlp/metrics/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/mcpward/mcpward/internal/proxy"
	"github.com/mcpward/mcpward/internal/redact"
	"github.com/mcpward/mcpward/internal/session"
)

// collector is an OTLP/HTTP collector on 127.0.0.1 that keeps every
// request it accepted, decoded with the official protos.
type collector struct {
	t   *testing.T
	srv *httptest.Server

	mu       sync.Mutex
	fail     int           // answer this many requests with 503 first
	gate     chan struct{} // if set, each request waits for it
	bodies   [][]byte
	reqs     []*tracepb.TracesData
	headers  []http.Header
	attempts int
	metrics  []*metricspb.MetricsData
}

func newCollector(t *testing.T) *collector {
	c := &collector{t: t}
	c.srv = httptest.NewServer(http.HandlerFunc(c.serve))
	t.Cleanup(c.srv.Close)
	return c
}

func (c *collector) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	if r.URL.Path == "/v1/metrics" && r.Method == http.MethodPost {
		var md metricspb.MetricsData // ExportMetricsServiceRequest without gRPC: same JSON
		if err := protojson.Unmarshal(body, &md); err != nil {
			c.t.Errorf("collector: bad OTLP JSON metrics: %v\n%s", err, body)
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		c.mu.Lock()
		c.metrics = append(c.metrics, &md)
		c.mu.Unlock()
		return
	}
	c.mu.Lock()
	gate := c.gate
	c.attempts++
	if r.URL.Path != "/v1/traces" || r.Method != http.MethodPost {
		c.mu.Unlock()
		http.Error(w, "wrong endpoint "+r.Method+" "+r.URL.Path, http.StatusNotFound)
		return
	}
	if c.fail > 0 {
		c.fail--
		c.mu.Unlock()
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	c.mu.Unlock()
	if gate != nil {
		<-gate
	}
	var td tracepb.TracesData // ExportTraceServiceRequest without gRPC: same JSON
	if err := protojson.Unmarshal(body, &td); err != nil {
		c.t.Errorf("collector: bad OTLP JSON: %v\n%s", err, body)
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	c.mu.Lock()
	c.bodies = append(c.bodies, body)
	c.reqs = append(c.reqs, &td)
	c.headers = append(c.headers, r.Header.Clone())
	c.mu.Unlock()
	w.WriteHeader(http.StatusOK)
}

// spans returns the names of every span received, in order.
func (c *collector) spans() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for _, td := range c.reqs {
		for _, rs := range td.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				for _, s := range ss.Spans {
					out = append(out, s.Name)
				}
			}
		}
	}
	return out
}

func (c *collector) batchSizes() []int {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []int
	for _, td := range c.reqs {
		n := 0
		for _, rs := range td.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				n += len(ss.Spans)
			}
		}
		out = append(out, n)
	}
	return out
}

var t0 = time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)

// callRecords returns n request/response pairs named tools/call tN.
func callRecords(n int) []session.Record {
	var recs []session.Record
	seq := uint64(0)
	add := func(dir session.Direction, body string) {
		seq++
		recs = append(recs, session.Record{Session: "S", Label: "L", Seq: seq, Time: t0.Add(time.Duration(seq) * time.Millisecond),
			Dir: dir, Transport: session.Stdio, Frame: []byte(body), HasFrame: true, Size: int64(len(body))})
	}
	for i := range n {
		add(session.ClientToServer, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"t%d"}}`, i, i))
		add(session.ServerToClient, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"content":[]}}`, i))
	}
	return recs
}

func newExporter(t *testing.T, c *collector, o Options) *Exporter {
	t.Helper()
	o.Endpoint = c.srv.URL
	if o.Backoff == 0 {
		o.Backoff, o.MaxBackoff = time.Millisecond, 2*time.Millisecond
	}
	if o.BatchDelay == 0 {
		o.BatchDelay = time.Hour // only size and Close send, unless a test says otherwise
	}
	e, err := New(&o)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func closeExporter(t *testing.T, e *Exporter) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return e.Close(ctx)
}

func TestExporterBatchesBySizeAndFlushesOnClose(t *testing.T) {
	c := newCollector(t)
	e := newExporter(t, c, Options{BatchSize: 3})
	for _, r := range callRecords(7) {
		e.Observe(&r)
	}
	if err := closeExporter(t, e); err != nil {
		t.Fatal(err)
	}
	got := c.batchSizes()
	total := 0
	for _, n := range got {
		if n > 3 {
			t.Errorf("batch of %d spans, want at most BatchSize 3", n)
		}
		total += n
	}
	if total != 7 {
		t.Errorf("collector got %d spans in batches %v, want 7", total, got)
	}
	st := e.Stats()
	if st.Spans != 7 || st.Sent != 7 || st.Records != 14 {
		t.Errorf("Stats() = %+v", st)
	}
}

func TestExporterRetriesThen200(t *testing.T) {
	c := newCollector(t)
	c.fail = 2
	e := newExporter(t, c, Options{})
	for _, r := range callRecords(2) {
		e.Observe(&r)
	}
	if err := closeExporter(t, e); err != nil {
		t.Fatal(err)
	}
	if got := c.spans(); len(got) != 2 {
		t.Errorf("spans %v, want 2 delivered once", got)
	}
	if st := e.Stats(); st.Requests != 3 || st.FailedSpans != 0 {
		t.Errorf("Stats() = %+v, want 3 requests (2 retried), none failed", st)
	}
}

func TestExporterGivesUpAfterMaxAttempts(t *testing.T) {
	c := newCollector(t)
	c.fail = 100
	var reported []error
	e := newExporter(t, c, Options{MaxAttempts: 3, OnError: func(err error) { reported = append(reported, err) }})
	for _, r := range callRecords(1) {
		e.Observe(&r)
	}
	err := closeExporter(t, e)
	if err == nil || !strings.Contains(err.Error(), "1 of 1 spans not delivered") {
		t.Errorf("Close() = %v, want a count of undelivered spans", err)
	}
	if st := e.Stats(); st.Requests != 3 || st.FailedSpans != 1 || len(reported) != 1 {
		t.Errorf("Stats() = %+v, reported %v; want 3 attempts and one failure", st, reported)
	}
}

func TestExporterBoundedDropsOldest(t *testing.T) {
	c := newCollector(t)
	c.gate = make(chan struct{})
	e := newExporter(t, c, Options{BatchSize: 2, MaxSpans: 4})
	recs := callRecords(20)
	for i := range recs {
		e.Observe(&recs[i]) // never blocks, though the collector is stalled
	}
	// Wait until all 20 calls were correlated (the collector holds the
	// first batch meanwhile).
	for deadline := time.Now().Add(20 * time.Second); e.Stats().Spans < 20; {
		if time.Now().After(deadline) {
			t.Fatalf("correlation stalled: %+v", e.Stats())
		}
		time.Sleep(time.Millisecond)
	}
	close(c.gate)
	if err := closeExporter(t, e); err == nil {
		t.Errorf("Close() = nil, want the dropped spans reported")
	}
	st := e.Stats()
	got := c.spans()
	if st.DroppedSpans == 0 || st.Sent+st.DroppedSpans != 20 || int64(len(got)) != st.Sent {
		t.Fatalf("Stats() = %+v, collector got %d; want sent+dropped = 20 with drops", st, len(got))
	}
	// The newest spans survive: the last one sent is the last call.
	if got[len(got)-1] != "tools/call t19" {
		t.Errorf("last span %q, want the newest call t19 (oldest dropped first)", got[len(got)-1])
	}
	if st.Sent > 2+4 {
		t.Errorf("%d spans sent; at most one batch in flight (2) plus the queue (4) fit", st.Sent)
	}
}

func TestExporterSendsHeadersAndBatchDelay(t *testing.T) {
	c := newCollector(t)
	e := newExporter(t, c, Options{Header: map[string]string{"X-Api-Key": "k1", "X-Tenant": "t"}, BatchDelay: time.Millisecond, BatchSize: 100})
	for _, r := range callRecords(1) {
		e.Observe(&r)
	}
	// One span, far below BatchSize: the delay sends it before Close.
	for deadline := time.Now().Add(20 * time.Second); e.Stats().Sent < 1; {
		if time.Now().After(deadline) {
			t.Fatalf("span not sent after BatchDelay: %+v", e.Stats())
		}
		time.Sleep(time.Millisecond)
	}
	if err := closeExporter(t, e); err != nil {
		t.Fatal(err)
	}
	h := c.headers[0]
	if h.Get("X-Api-Key") != "k1" || h.Get("X-Tenant") != "t" || h.Get("Content-Type") != "application/json" {
		t.Errorf("headers %v", h)
	}
}

func TestExporterEndpointPath(t *testing.T) {
	for in, want := range map[string]string{
		"http://127.0.0.1:4318":            "http://127.0.0.1:4318/v1/traces",
		"http://127.0.0.1:4318/":           "http://127.0.0.1:4318/v1/traces",
		"http://127.0.0.1:4318/v1/traces":  "http://127.0.0.1:4318/v1/traces",
		"https://127.0.0.1/otel/v1/traces": "https://127.0.0.1/otel/v1/traces",
	} {
		e, err := New(&Options{Endpoint: in})
		if err != nil {
			t.Fatal(err)
		}
		if e.url != want {
			t.Errorf("endpoint %s posts to %s, want %s", in, e.url, want)
		}
		_ = e.Close(context.Background())
	}
	if _, err := New(&Options{Endpoint: "127.0.0.1:4318"}); err == nil {
		t.Errorf("an endpoint without scheme must be refused")
	}
}

// The exporter sits behind the log's redaction filter: no secret reaches
// the collector, while the relayed bytes keep it.
func TestExporterBehindRedactingLog(t *testing.T) {
	c := newCollector(t)
	e := newExporter(t, c, Options{})
	red, err := redact.New(redact.Config{Secrets: true, Keys: []string{"ssn"}})
	if err != nil {
		t.Fatal(err)
	}
	lg := proxy.NewLog(nil, &proxy.LogOptions{Session: "S", Label: "L", Filter: proxy.RedactFilter(red), Export: e.Observe})
	req := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"sk-abcdefghijklmnopqrstuvwx1234","arguments":{"ssn":"alice-ssn-123"},` +
		`"_meta":{"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}}}`
	argv := []byte(`{"argv":["srv","--token","argv-token-value"]}`)
	lg.Record(
		session.Record{Dir: session.Meta, Transport: session.Stdio, Kind: session.KindStart, Info: argv},
		session.Record{Dir: session.ClientToServer, Transport: session.Stdio, Frame: []byte(req), HasFrame: true},
		session.Record{Dir: session.ServerToClient, Transport: session.Stdio, Frame: []byte(`{"jsonrpc":"2.0","id":1,"result":{}}`), HasFrame: true},
	)
	if err := lg.Close(); err != nil {
		t.Fatal(err)
	}
	if err := closeExporter(t, e); err != nil {
		t.Fatal(err)
	}
	var all []byte
	for _, b := range c.bodies {
		all = append(all, b...)
	}
	for _, s := range []string{"sk-abcdefghijklmnopqrstuvwx1234", "alice-ssn-123", "argv-token-value"} {
		if bytes.Contains(all, []byte(s)) {
			t.Errorf("collector received the secret %q", s)
		}
	}
	if len(c.reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(c.reqs))
	}
	sp := c.reqs[0].ResourceSpans[0].ScopeSpans[0].Spans[0]
	if got := base64.StdEncoding.EncodeToString(sp.TraceId); got != "4bf92f3577b34da6a3ce929d0e0e4736" {
		t.Errorf("trace id %s, want the request's traceparent", got)
	}
	if !bytes.Contains(all, []byte(`"process.command_args"`)) || !bytes.Contains(all, []byte(`[REDACTED]`)) {
		t.Errorf("resource should carry the redacted argv: %s", all)
	}
}

// The metrics of the MCP conventions follow the spans at Close, valid
// against the official protos; the calls of a session without trace
// context share the session's trace.
func TestExporterSendsMetricsAfterSpans(t *testing.T) {
	c := newCollector(t)
	e := newExporter(t, c, Options{})
	for _, r := range callRecords(3) {
		e.Observe(&r)
	}
	if err := closeExporter(t, e); err != nil {
		t.Fatal(err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.metrics) != 1 {
		t.Fatalf("%d metrics requests, want 1 (at Close)", len(c.metrics))
	}
	var names []string
	var count uint64
	for _, m := range c.metrics[0].ResourceMetrics[0].ScopeMetrics[0].Metrics {
		names = append(names, m.Name)
		if m.Name == "mcp.client.operation.duration" {
			for _, p := range m.GetHistogram().DataPoints {
				count += p.Count
			}
		}
	}
	if strings.Join(names, " ") != "mcp.client.operation.duration mcp.server.operation.duration" || count != 3 {
		t.Errorf("metrics %v with %d calls, want the two operation durations over 3 calls", names, count)
	}
	traces := map[string]bool{}
	for _, td := range c.reqs {
		for _, sp := range td.ResourceSpans[0].ScopeSpans[0].Spans {
			traces[base64.StdEncoding.EncodeToString(sp.TraceId)] = true
		}
	}
	if len(traces) != 1 {
		t.Errorf("%d traces for one session's calls, want 1", len(traces))
	}
	if st := e.Stats(); st.MetricsSent != 1 || st.MetricsRefused {
		t.Errorf("Stats() = %+v, want one metrics request sent", st)
	}
}

// A collector without a metrics pipeline answers 404 to /v1/metrics:
// metrics are turned off, the spans are still delivered and Close does
// not report a failure.
func TestExporterMetrics404TurnsMetricsOff(t *testing.T) {
	var mu sync.Mutex
	paths := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths[r.URL.Path]++
		mu.Unlock()
		if r.URL.Path != "/v1/traces" {
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	e, err := New(&Options{Endpoint: srv.URL, Backoff: time.Millisecond, MaxBackoff: 2 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range callRecords(1) {
		e.Observe(&r)
	}
	if err := closeExporter(t, e); err != nil {
		t.Errorf("Close() = %v, want nil (a backend without metrics is not a failure)", err)
	}
	st := e.Stats()
	if !st.MetricsRefused || st.MetricsFailed != 0 || st.Sent != 1 {
		t.Errorf("Stats() = %+v, want metrics refused, 1 span sent", st)
	}
	mu.Lock()
	defer mu.Unlock()
	if paths["/v1/metrics"] != 1 {
		t.Errorf("posted to /v1/metrics %d times, want once (a 404 is not retried)", paths["/v1/metrics"])
	}
}

// PushTraces splits a big export at resourceSpans elements into requests
// under MaxPushBytes, each a valid OTLP request, and loses no span.
func TestPushTracesSplitsAtResources(t *testing.T) {
	c := newCollector(t)
	big := strings.Repeat("x", MaxPushBytes/3)
	var els []string
	for i := range 5 {
		els = append(els, fmt.Sprintf(`{"resource":{"attributes":[]},"scopeSpans":[{"scope":{"name":"mcpward"},"spans":[`+
			`{"traceId":"4bf92f3577b34da6a3ce929d0e0e4736","spanId":"00f067aa0ba902b%d","name":"s%d","kind":3,`+
			`"startTimeUnixNano":"1","endTimeUnixNano":"2","attributes":[{"key":"pad","value":{"stringValue":"%s"}}],"status":{"code":0}}]}]}`, i, i, big))
	}
	body := []byte(`{"resourceSpans":[` + "\n" + strings.Join(els, ",\n") + "]}\n")
	n, err := PushTraces(context.Background(), &Options{Endpoint: c.srv.URL}, body)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.spans(); len(got) != 5 || n != len(c.reqs) || n != 3 {
		t.Errorf("PushTraces = %d requests, collector got %d with spans %v; want 3 requests (2+2+1 resources), 5 spans", n, len(c.reqs), got)
	}
	for _, b := range c.bodies {
		if len(b) > MaxPushBytes {
			t.Errorf("a request of %d bytes, over MaxPushBytes", len(b))
		}
	}
}
