package otlpspan

import (
	"encoding/hex"
	"encoding/json"
	"strings"
)

// A TraceContext is a W3C trace context: the caller's trace and span.
type TraceContext struct {
	TraceID  TraceID
	ParentID SpanID
	Flags    byte
	// State is the tracestate header value, passed on unchanged.
	State string
}

// Meta keys of the W3C trace context in params._meta (the MCP
// convention: the header names, lowercase).
const (
	MetaTraceparent = "traceparent"
	MetaTracestate  = "tracestate"
)

// ParseTraceparent parses a W3C traceparent value
// ("00-<trace-id>-<parent-id>-<flags>"). It rejects version ff, ids of all
// zeros, uppercase hex and a version-00 value with trailing data; a later
// version may carry more fields after the fourth (W3C Trace Context §3.2).
func ParseTraceparent(s string) (TraceContext, bool) {
	var tc TraceContext
	if len(s) < 55 || s[2] != '-' || s[35] != '-' || s[52] != '-' {
		return tc, false
	}
	ver, ok := lowerHex(s[0:2])
	if !ok || ver[0] == 0xff || (ver[0] == 0 && len(s) != 55) || (len(s) > 55 && s[55] != '-') {
		return tc, false
	}
	tid, ok1 := lowerHex(s[3:35])
	pid, ok2 := lowerHex(s[36:52])
	flags, ok3 := lowerHex(s[53:55])
	if !ok1 || !ok2 || !ok3 {
		return tc, false
	}
	copy(tc.TraceID[:], tid)
	copy(tc.ParentID[:], pid)
	tc.Flags = flags[0]
	if !tc.TraceID.IsValid() || !tc.ParentID.IsValid() {
		return TraceContext{}, false
	}
	return tc, true
}

func lowerHex(s string) ([]byte, bool) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return nil, false
		}
	}
	b, err := hex.DecodeString(s)
	return b, err == nil
}

// validTracestate accepts a tracestate of at most 32 list members, each a
// key=value pair, within the 512 characters W3C lets a vendor keep.
func validTracestate(s string) bool {
	if s == "" || len(s) > 512 {
		return false
	}
	n := 0
	for m := range strings.SplitSeq(s, ",") {
		m = strings.TrimSpace(m)
		if m == "" {
			continue // empty members are allowed and ignored
		}
		n++
		k, v, ok := strings.Cut(m, "=")
		if !ok || k == "" || v == "" || n > 32 {
			return false
		}
	}
	return n > 0
}

// TraceContextFromMeta reads traceparent and tracestate from a request's
// params._meta. ok is false when there is no valid traceparent; an
// invalid tracestate is dropped on its own.
func TraceContextFromMeta(meta map[string]json.RawMessage) (tc TraceContext, ok bool) {
	raw, found := meta[MetaTraceparent]
	if !found {
		return tc, false
	}
	var tp string
	if json.Unmarshal(raw, &tp) != nil {
		return tc, false
	}
	if tc, ok = ParseTraceparent(strings.TrimSpace(tp)); !ok {
		return tc, false
	}
	var ts string
	if raw, found := meta[MetaTracestate]; found && json.Unmarshal(raw, &ts) == nil && validTracestate(ts) {
		tc.State = ts
	}
	return tc, true
}

// TraceContextFromHeader reads the traceparent and tracestate headers of
// an HTTP request (names case-insensitive; several tracestate values are
// joined with commas, as W3C Trace Context allows). ok is false when
// there is no single valid traceparent.
func TraceContextFromHeader(h map[string][]string) (tc TraceContext, ok bool) {
	var tp, ts []string
	for k, v := range h {
		switch {
		case strings.EqualFold(k, MetaTraceparent):
			tp = append(tp, v...)
		case strings.EqualFold(k, MetaTracestate):
			ts = append(ts, v...)
		}
	}
	if len(tp) != 1 {
		return tc, false
	}
	if tc, ok = ParseTraceparent(strings.TrimSpace(tp[0])); !ok {
		return tc, false
	}
	if s := strings.Join(ts, ","); validTracestate(s) {
		tc.State = s
	}
	return tc, true
}
