package otlpspan

import (
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcpward/mcpward/internal/calls"
	"github.com/mcpward/mcpward/internal/jsonrpc"
)

// metricCallAttrs are the span attributes a call's duration is recorded
// with: those the MCP conventions list for the operation duration
// metrics, less the opt-in resource URI (high cardinality).
var metricCallAttrs = []string{
	AttrMCPMethodName, AttrErrorType, AttrGenAIToolName, AttrGenAIPromptName, AttrRPCResponseStatusCode,
	AttrGenAIOperationName, AttrMCPProtocolVersion, AttrNetworkTransport, AttrNetworkProtocolName,
}

// Metrics aggregates, cumulatively, the duration histograms of the MCP
// conventions and mcpward's count of findings. It is not safe for
// concurrent use.
//
// mcpward sees each exchange once, on the wire between the two peers, so
// a call's duration (request seen to response seen) is recorded under
// both mcp.client.operation.duration and mcp.server.operation.duration,
// and a session's under both session metrics: a dashboard built for
// either side's instrumentation sees the traffic. Calls that got no
// answer (pending, cancelled, superseded) are not measured.
type Metrics struct {
	start    time.Time
	op       map[string]*histPoint
	sess     map[string]*histPoint
	findings map[string]*sumPoint
}

type histPoint struct {
	attrs    []Attr
	count    uint64
	sum      float64
	min, max float64
	buckets  []uint64
}

type sumPoint struct {
	attrs []Attr
	n     int64
}

// NewMetrics returns an empty aggregation whose cumulative points start
// at start.
func NewMetrics(start time.Time) *Metrics {
	return &Metrics{start: start, op: map[string]*histPoint{}, sess: map[string]*histPoint{}, findings: map[string]*sumPoint{}}
}

// Empty reports whether nothing was recorded.
func (m *Metrics) Empty() bool { return len(m.op)+len(m.sess)+len(m.findings) == 0 }

// Call records the duration of a call that was answered, with the
// attributes of its span.
func (m *Metrics) Call(c *calls.Call, s *Span) {
	if c.State != calls.Completed && c.State != calls.Failed {
		return
	}
	var attrs []Attr
	for _, k := range metricCallAttrs {
		for _, a := range s.Attrs {
			if a.Key == k {
				attrs = append(attrs, a)
				break
			}
		}
	}
	record(m.op, attrs, c.End.Sub(c.Start).Seconds())
}

// Session records the duration of a session (its first record to its
// last): network.transport, mcp.protocol.version when one was negotiated,
// and error.type "exit_" and the code when a stdio server exited non-zero.
func (m *Metrics) Session(ss *calls.Session) {
	attrs := transportAttrs(ss.Transport)
	if ss.Revision != "" {
		attrs = append(attrs, String(AttrMCPProtocolVersion, string(ss.Revision)))
	}
	if ss.ExitCode != nil && *ss.ExitCode != 0 {
		attrs = append(attrs, String(AttrErrorType, "exit_"+strconv.Itoa(*ss.ExitCode)))
	}
	record(m.sess, attrs, ss.End.Sub(ss.Start).Seconds())
}

// Finding counts a finding by rule id, level, class and signal.
func (m *Metrics) Finding(f Finding) {
	attrs := []Attr{String(AttrFindingRuleID, f.RuleID), String(AttrFindingLevel, f.Level), String(AttrFindingClass, f.Class)}
	if f.Signal != "" {
		attrs = append(attrs, String(AttrFindingSignal, f.Signal))
	}
	k := attrKey(attrs)
	p, ok := m.findings[k]
	if !ok {
		p = &sumPoint{attrs: attrs}
		m.findings[k] = p
	}
	p.n++
}

func record(points map[string]*histPoint, attrs []Attr, v float64) {
	if v < 0 || math.IsNaN(v) {
		v = 0
	}
	k := attrKey(attrs)
	p, ok := points[k]
	if !ok {
		p = &histPoint{attrs: attrs, min: v, max: v, buckets: make([]uint64, len(DurationBounds)+1)}
		points[k] = p
	}
	p.count++
	p.sum += v
	p.min, p.max = min(p.min, v), max(p.max, v)
	// Bucket i holds (bounds[i-1], bounds[i]]; the last is above them all.
	i, _ := slices.BinarySearch(DurationBounds, v)
	p.buckets[i]++
}

func attrKey(attrs []Attr) string {
	var b strings.Builder
	for _, a := range attrs {
		b.WriteString(a.Key)
		b.WriteByte(0)
		b.WriteString(a.Value.AsString())
		b.WriteByte(0)
	}
	return b.String()
}

// AppendMetricsRequest appends an OTLP JSON ExportMetricsServiceRequest
// (the body of POST /v1/metrics) holding the aggregation as of now, with
// one resource, to dst. Points are in a stable order.
func (m *Metrics) AppendMetricsRequest(dst []byte, scope Scope, resource []Attr, now time.Time) []byte {
	dst = append(dst, `{"resourceMetrics":[{"resource":{"attributes":`...)
	dst = appendAttrs(dst, resource)
	dst = append(dst, `},"scopeMetrics":[{"scope":{"name":`...)
	dst = jsonrpc.AppendString(dst, scope.Name)
	if scope.Version != "" {
		dst = append(dst, `,"version":`...)
		dst = jsonrpc.AppendString(dst, scope.Version)
	}
	dst = append(dst, `},"metrics":[`...)
	n := 0
	sep := func() {
		if n > 0 {
			dst = append(dst, ',')
		}
		n++
	}
	if len(m.op) > 0 {
		for _, name := range []string{MetricClientOperationDuration, MetricServerOperationDuration} {
			sep()
			dst = m.appendHistogram(dst, name, "The duration of the MCP request or notification, as mcpward observed it between the peers.", m.op, now)
		}
	}
	if len(m.sess) > 0 {
		for _, name := range []string{MetricClientSessionDuration, MetricServerSessionDuration} {
			sep()
			dst = m.appendHistogram(dst, name, "The duration of the MCP session, as mcpward recorded it.", m.sess, now)
		}
	}
	if len(m.findings) > 0 {
		sep()
		dst = append(dst, `{"name":"`+MetricFindings+`","description":"mcpward's findings on the traffic, by rule.","unit":"{finding}","sum":{"dataPoints":[`...)
		for i, k := range slices.Sorted(maps.Keys(m.findings)) {
			p := m.findings[k]
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, `{"attributes":`...)
			dst = appendAttrs(dst, p.attrs)
			dst = m.appendTimes(dst, now)
			dst = append(dst, `,"asInt":"`...)
			dst = strconv.AppendInt(dst, p.n, 10)
			dst = append(dst, `"}`...)
		}
		dst = append(dst, `],"aggregationTemporality":2,"isMonotonic":true}}`...)
	}
	return append(dst, "]}]}]}"...)
}

func (m *Metrics) appendTimes(dst []byte, now time.Time) []byte {
	dst = append(dst, `,"startTimeUnixNano":"`...)
	dst = appendNanos(dst, m.start)
	dst = append(dst, `","timeUnixNano":"`...)
	dst = appendNanos(dst, now)
	return append(dst, '"')
}

func (m *Metrics) appendHistogram(dst []byte, name, desc string, points map[string]*histPoint, now time.Time) []byte {
	dst = append(dst, `{"name":`...)
	dst = jsonrpc.AppendString(dst, name)
	dst = append(dst, `,"description":`...)
	dst = jsonrpc.AppendString(dst, desc)
	dst = append(dst, `,"unit":"s","histogram":{"dataPoints":[`...)
	for i, k := range slices.Sorted(maps.Keys(points)) {
		p := points[k]
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"attributes":`...)
		dst = appendAttrs(dst, p.attrs)
		dst = m.appendTimes(dst, now)
		// fixed64 is a string in proto3 JSON.
		dst = append(dst, `,"count":"`...)
		dst = strconv.AppendUint(dst, p.count, 10)
		dst = append(dst, `","sum":`...)
		dst = strconv.AppendFloat(dst, p.sum, 'g', -1, 64)
		dst = append(dst, `,"bucketCounts":[`...)
		for j, c := range p.buckets {
			if j > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, '"')
			dst = strconv.AppendUint(dst, c, 10)
			dst = append(dst, '"')
		}
		dst = append(dst, `],"explicitBounds":[`...)
		for j, b := range DurationBounds {
			if j > 0 {
				dst = append(dst, ',')
			}
			dst = strconv.AppendFloat(dst, b, 'g', -1, 64)
		}
		dst = append(dst, `],"min":`...)
		dst = strconv.AppendFloat(dst, p.min, 'g', -1, 64)
		dst = append(dst, `,"max":`...)
		dst = strconv.AppendFloat(dst, p.max, 'g', -1, 64)
		dst = append(dst, '}')
	}
	return append(dst, `],"aggregationTemporality":2}}`...)
}
