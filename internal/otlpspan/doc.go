// Package otlpspan turns correlated MCP calls into OpenTelemetry spans and
// metrics and encodes them as OTLP/HTTP JSON ExportTraceServiceRequest and
// ExportMetricsServiceRequest bodies (POST /v1/traces, /v1/metrics), by
// hand: no OpenTelemetry SDK, no protobuf runtime. Names follow the
// OpenTelemetry semantic conventions for MCP; semconv.go lists every name
// emitted, testdata/semconv.txt pins it.
//
// The package is pure (no os, no net, no clock): `sessions export -T otlp`
// uses it over a whole log, the live exporter (internal/otlppush) over the
// records of a running proxy. Both feed a [calls.Store] (or a traffic
// checker, whose findings become span events) through a [Builder], which
// remembers each request's W3C trace context from its params._meta (else
// its HTTP traceparent header) and emits one [Span] per settled call:
//
//	var spans []otlpspan.Span
//	b := otlpspan.NewBuilder(&otlpspan.BuilderOptions{Emit: func(c *calls.Call, s otlpspan.Span) { spans = append(spans, s) }})
//	st := calls.New(&calls.Options{OnFrame: b.Frame, OnSettle: b.Settle})
//	for line, rec := range records {
//		st.Add(rec, line)
//	}
//	var res []otlpspan.ResourceSpans
//	for _, s := range st.Sessions() {
//		res = append(res, otlpspan.ResourceSpans{Resource: otlpspan.SessionResource(s), Spans: spansOf(s.ID)})
//	}
//	body := otlpspan.AppendRequest(nil, otlpspan.Scope{Name: "mcpward", Version: v}, res...)
//
// # Encoding
//
// The JSON follows the OTLP/JSON rules of the OTLP specification: trace
// and span ids are lowercase hex strings (not base64), times are unix
// nanoseconds as decimal strings, span kind and status code are the enum
// integers, 64-bit integer attribute values are strings, field names are
// lowerCamelCase. Tests decode the output with the official protos.
//
// # Difference from mcpsnoop
//
// mcpsnoop built each live span in a throwaway store from two frames, so
// its resource carried a bogus missing-frames count (the seq gap between
// request and response). Here one store sees every record of the session;
// the resource reports frames lost only as the recorder's own lost records
// declare them, and only when there were any.
package otlpspan
