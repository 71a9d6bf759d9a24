package otlpspan

import (
	"encoding/hex"
	"io"
	"math"
	"strconv"
	"time"

	"github.com/mcpward/mcpward/internal/jsonrpc"
)

// A TraceID is a W3C / OpenTelemetry trace id; all zeros is invalid.
type TraceID [16]byte

// A SpanID is a span id; all zeros means none.
type SpanID [8]byte

// IsValid reports whether t is not all zeros.
func (t TraceID) IsValid() bool { return t != TraceID{} }

// IsValid reports whether s is not all zeros.
func (s SpanID) IsValid() bool { return s != SpanID{} }

// String returns t as 32 lowercase hex digits.
func (t TraceID) String() string { return hex.EncodeToString(t[:]) }

// String returns s as 16 lowercase hex digits.
func (s SpanID) String() string { return hex.EncodeToString(s[:]) }

// A SpanKind is the OTLP span kind enum.
type SpanKind int

// Span kinds (opentelemetry.proto.trace.v1.Span.SpanKind).
const (
	KindUnspecified SpanKind = 0
	KindInternal    SpanKind = 1
	KindServer      SpanKind = 2
	KindClient      SpanKind = 3
)

// A StatusCode is the OTLP status code enum.
type StatusCode int

// Status codes (opentelemetry.proto.trace.v1.Status.StatusCode).
const (
	StatusUnset StatusCode = 0
	StatusOK    StatusCode = 1
	StatusError StatusCode = 2
)

type valueKind uint8

const (
	kindString valueKind = iota
	kindInt
	kindBool
	kindDouble
	kindStrings
)

// A Value is an attribute value: a string, an int, a bool, a double or an
// array of strings.
type Value struct {
	kind valueKind
	s    string
	i    int64
	f    float64
	ss   []string
}

// An Attr is one key/value attribute of a span or a resource.
type Attr struct {
	Key   string
	Value Value
}

// String returns a string attribute.
func String(key, v string) Attr { return Attr{key, Value{kind: kindString, s: v}} }

// Int returns an integer attribute.
func Int(key string, v int64) Attr { return Attr{key, Value{kind: kindInt, i: v}} }

// Bool returns a boolean attribute.
func Bool(key string, v bool) Attr {
	a := Attr{key, Value{kind: kindBool}}
	if v {
		a.Value.i = 1
	}
	return a
}

// Double returns a floating-point attribute.
func Double(key string, v float64) Attr { return Attr{key, Value{kind: kindDouble, f: v}} }

// Strings returns an array-of-strings attribute.
func Strings(key string, v []string) Attr {
	return Attr{key, Value{kind: kindStrings, ss: append([]string(nil), v...)}}
}

// AsString returns the value as its string form (for tests and lookups).
func (v Value) AsString() string {
	switch v.kind {
	case kindInt:
		return strconv.FormatInt(v.i, 10)
	case kindBool:
		return strconv.FormatBool(v.i != 0)
	case kindDouble:
		return strconv.FormatFloat(v.f, 'g', -1, 64)
	case kindStrings:
		b := []byte{'['}
		for i, s := range v.ss {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonrpc.AppendString(b, s)
		}
		return string(append(b, ']'))
	}
	return v.s
}

// A Span is one finished span.
type Span struct {
	TraceID      TraceID
	SpanID       SpanID
	ParentSpanID SpanID // zero: a root span
	// TraceState is the W3C tracestate carried over from the parent.
	TraceState string
	Name       string
	Kind       SpanKind
	Start, End time.Time
	Attrs      []Attr
	Status     StatusCode
	// StatusMessage explains an error status.
	StatusMessage string
	// Events are the span's events (mcpward's findings).
	Events []Event
}

// An Event is a span event: a named, timed set of attributes.
type Event struct {
	Name  string
	Time  time.Time
	Attrs []Attr
}

// ResourceSpans are the spans of one resource (one recorded session).
type ResourceSpans struct {
	Resource []Attr
	Spans    []Span
}

// A Scope names the instrumentation scope of the spans.
type Scope struct {
	Name, Version string
}

// AppendRequest appends an ExportTraceServiceRequest holding rs, in OTLP
// JSON, to dst. Resources without spans are left out.
func AppendRequest(dst []byte, scope Scope, rs ...ResourceSpans) []byte {
	dst = append(dst, `{"resourceSpans":[`...)
	first := true
	for _, r := range rs {
		if len(r.Spans) == 0 {
			continue
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = append(dst, `{"resource":{"attributes":`...)
		dst = appendAttrs(dst, r.Resource)
		dst = append(dst, `},"scopeSpans":[{"scope":{"name":`...)
		dst = jsonrpc.AppendString(dst, scope.Name)
		if scope.Version != "" {
			dst = append(dst, `,"version":`...)
			dst = jsonrpc.AppendString(dst, scope.Version)
		}
		dst = append(dst, `},"spans":[`...)
		for i := range r.Spans {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendSpan(dst, &r.Spans[i])
		}
		dst = append(dst, `]}]}`...)
	}
	return append(dst, "]}"...)
}

// WriteRequest writes the request of AppendRequest to w.
func WriteRequest(w io.Writer, scope Scope, rs ...ResourceSpans) error {
	_, err := w.Write(AppendRequest(nil, scope, rs...))
	return err
}

func appendSpan(dst []byte, s *Span) []byte {
	dst = append(dst, `{"traceId":"`...)
	dst = hex.AppendEncode(dst, s.TraceID[:])
	dst = append(dst, `","spanId":"`...)
	dst = hex.AppendEncode(dst, s.SpanID[:])
	dst = append(dst, '"')
	if s.TraceState != "" {
		dst = append(dst, `,"traceState":`...)
		dst = jsonrpc.AppendString(dst, s.TraceState)
	}
	if s.ParentSpanID.IsValid() {
		dst = append(dst, `,"parentSpanId":"`...)
		dst = hex.AppendEncode(dst, s.ParentSpanID[:])
		dst = append(dst, '"')
	}
	dst = append(dst, `,"name":`...)
	dst = jsonrpc.AppendString(dst, s.Name)
	dst = append(dst, `,"kind":`...)
	dst = strconv.AppendInt(dst, int64(s.Kind), 10)
	dst = append(dst, `,"startTimeUnixNano":"`...)
	dst = appendNanos(dst, s.Start)
	dst = append(dst, `","endTimeUnixNano":"`...)
	end := s.End
	if end.Before(s.Start) {
		end = s.Start
	}
	dst = appendNanos(dst, end)
	dst = append(dst, `","attributes":`...)
	dst = appendAttrs(dst, s.Attrs)
	if len(s.Events) > 0 {
		dst = append(dst, `,"events":[`...)
		for i, ev := range s.Events {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, `{"timeUnixNano":"`...)
			dst = appendNanos(dst, ev.Time)
			dst = append(dst, `","name":`...)
			dst = jsonrpc.AppendString(dst, ev.Name)
			dst = append(dst, `,"attributes":`...)
			dst = appendAttrs(dst, ev.Attrs)
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
	}
	dst = append(dst, `,"status":{`...)
	if s.StatusMessage != "" {
		dst = append(dst, `"message":`...)
		dst = jsonrpc.AppendString(dst, s.StatusMessage)
		dst = append(dst, ',')
	}
	dst = append(dst, `"code":`...)
	dst = strconv.AppendInt(dst, int64(s.Status), 10)
	return append(dst, "}}"...)
}

func appendNanos(dst []byte, t time.Time) []byte {
	if t.IsZero() || t.UnixNano() < 0 {
		return append(dst, '0')
	}
	return strconv.AppendUint(dst, uint64(t.UnixNano()), 10)
}

func appendAttrs(dst []byte, attrs []Attr) []byte {
	dst = append(dst, '[')
	for i, a := range attrs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"key":`...)
		dst = jsonrpc.AppendString(dst, a.Key)
		dst = append(dst, `,"value":`...)
		dst = appendValue(dst, a.Value)
		dst = append(dst, '}')
	}
	return append(dst, ']')
}

func appendValue(dst []byte, v Value) []byte {
	switch v.kind {
	case kindInt:
		// int64 is a string in proto3 JSON.
		dst = append(dst, `{"intValue":"`...)
		dst = strconv.AppendInt(dst, v.i, 10)
		return append(dst, `"}`...)
	case kindBool:
		return append(dst, `{"boolValue":`+strconv.FormatBool(v.i != 0)+`}`...)
	case kindDouble:
		dst = append(dst, `{"doubleValue":`...)
		switch {
		case math.IsNaN(v.f):
			dst = append(dst, `"NaN"`...)
		case math.IsInf(v.f, 1):
			dst = append(dst, `"Infinity"`...)
		case math.IsInf(v.f, -1):
			dst = append(dst, `"-Infinity"`...)
		default:
			dst = strconv.AppendFloat(dst, v.f, 'g', -1, 64)
		}
		return append(dst, '}')
	case kindStrings:
		dst = append(dst, `{"arrayValue":{"values":[`...)
		for i, s := range v.ss {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, `{"stringValue":`...)
			dst = jsonrpc.AppendString(dst, s)
			dst = append(dst, '}')
		}
		return append(dst, "]}}"...)
	}
	dst = append(dst, `{"stringValue":`...)
	dst = jsonrpc.AppendString(dst, v.s)
	return append(dst, '}')
}
