package filter

import (
	"math"
	"strconv"
	"strings"
)

// A Row is what a filter sees of one frame or call. Empty fields match
// nothing but bare text.
type Row struct {
	// Method is the frame's method, or its call's for a response.
	Method string `json:"method,omitempty"`
	// Tool is the tool (or prompt, or resource) name of the call.
	Tool string `json:"tool,omitempty"`
	// ID is the JSON-RPC id as raw JSON ("7", "\"abc\"").
	ID string `json:"id,omitempty"`
	// RootID is the id of the call an MRTR retry continues.
	RootID string `json:"rootId,omitempty"`
	// Task is the task id of a task-backed call.
	Task string `json:"task,omitempty"`
	// Dir is c2s, s2c, stderr or meta.
	Dir string `json:"dir,omitempty"`
	// Kind is request, response, notification, stderr, invalid, transport
	// or meta.
	Kind string `json:"kind,omitempty"`
	// Status is the call's state: ok, error, pending, streaming,
	// superseded, cancelled, late_result.
	Status string `json:"status,omitempty"`
	// TaskStatus is the last task status of a task-backed call.
	TaskStatus string `json:"taskStatus,omitempty"`
	// HTTPStatus is the status of the HTTP response that carried the
	// frame (0 on stdio and on requests).
	HTTPStatus int `json:"httpStatus,omitempty"`
	// Warn marks a frame with a warning (a finding, a truncation);
	// Mismatch a routing header mismatch.
	Warn     bool `json:"warn,omitempty"`
	Mismatch bool `json:"mismatch,omitempty"`
	// Text is the raw frame or stderr line, for bare text.
	Text string `json:"text,omitempty"`
}

// A Query is a parsed filter. The zero Query matches every row.
type Query struct {
	terms []term
}

type term struct {
	key   string // "" for bare text
	value string // lowercased, quotes stripped (except for id)
	raw   string // the whole token, lowercased, for fallbacks
	num   int    // status: HTTP status when > 0
}

// keys maps every spelling of a key to its canonical name.
var keys = map[string]string{
	"tool": "tool", "t": "tool",
	"method": "method", "m": "method",
	"id":   "id",
	"task": "task",
	"dir":  "dir", "d": "dir",
	"kind": "kind", "k": "kind",
	"status": "status", "s": "status",
}

// Parse parses a filter. It never fails: a term it cannot read as a key
// and value is a substring term.
func Parse(s string) Query {
	var q Query
	for _, tok := range tokens(s) {
		q.terms = append(q.terms, parseTerm(tok))
	}
	return q
}

// tokens splits s on spaces outside double quotes.
func tokens(s string) []string {
	var out []string
	var b strings.Builder
	quoted := false
	for _, r := range s {
		switch {
		case r == '"':
			quoted = !quoted
			b.WriteRune(r)
		case (r == ' ' || r == '\t' || r == '\n' || r == '\r') && !quoted:
			if b.Len() > 0 {
				out = append(out, b.String())
				b.Reset()
			}
		default:
			b.WriteRune(r)
		}
	}
	if b.Len() > 0 {
		out = append(out, b.String())
	}
	return out
}

func unquote(s string) string {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		return s[1 : len(s)-1]
	}
	return s
}

func parseTerm(tok string) term {
	low := strings.ToLower(tok)
	k, v, ok := strings.Cut(tok, ":")
	canon, known := keys[strings.ToLower(k)]
	if !ok || !known || v == "" {
		return term{value: strings.ToLower(unquote(tok)), raw: low}
	}
	t := term{key: canon, raw: low}
	if canon == "id" {
		t.value = strings.ToLower(v)
		return t
	}
	t.value = strings.ToLower(unquote(v))
	if canon == "status" {
		if n, err := strconv.Atoi(t.value); err == nil && n > 0 && n <= math.MaxInt32 {
			t.num = n
		}
	}
	return t
}

// Match reports whether every term of q matches r.
func (q Query) Match(r *Row) bool {
	for i := range q.terms {
		if !q.terms[i].match(r) {
			return false
		}
	}
	return true
}

// Empty reports whether q has no terms.
func (q Query) Empty() bool { return len(q.terms) == 0 }

func contains(s, sub string) bool { return strings.Contains(strings.ToLower(s), sub) }

func (t *term) match(r *Row) bool {
	switch t.key {
	case "":
		return contains(r.Method, t.value) || contains(r.ID, t.value) || contains(r.Tool, t.value) ||
			contains(r.Task, t.value) || contains(r.Text, t.value)
	case "tool":
		return contains(r.Tool, t.value)
	case "method":
		return contains(r.Method, t.value)
	case "id":
		return idMatch(r.ID, t.value) || idMatch(r.RootID, t.value)
	case "task":
		return r.Task != "" && strings.ToLower(r.Task) == t.value
	case "dir":
		return dirs[t.value] != "" && dirs[t.value] == r.Dir
	case "kind":
		return kinds[t.value] != "" && kinds[t.value] == r.Kind
	case "status":
		return t.status(r)
	}
	return false
}

// idMatch compares a raw JSON id with a query value: exact (ignoring
// case), or the value without quotes against a string id.
func idMatch(id, v string) bool {
	if id == "" {
		return false
	}
	id = strings.ToLower(id)
	if id == v {
		return true
	}
	// id:abc finds "abc"; id:"abc" does not find abc.
	return len(id) >= 2 && id[0] == '"' && id[len(id)-1] == '"' && id[1:len(id)-1] == v
}

var dirs = map[string]string{
	"c2s": "c2s", "client": "c2s", "in": "c2s", "req": "c2s", "request": "c2s", "->": "c2s", "→": "c2s",
	"s2c": "s2c", "server": "s2c", "out": "s2c", "resp": "s2c", "response": "s2c", "<-": "s2c", "←": "s2c",
	"stderr": "stderr", "err": "stderr",
	"meta": "meta",
}

var kinds = map[string]string{
	"req": "request", "request": "request",
	"resp": "response", "response": "response",
	"notify": "notification", "notification": "notification", "ntf": "notification",
	"stderr":  "stderr",
	"invalid": "invalid", "corrupt": "invalid", "bad": "invalid",
	"transport": "transport", "http": "transport",
	"meta": "meta",
}

// statuses maps every spelling of a status value to its canonical name.
var statuses = map[string]string{
	"bad": "bad", "invalid": "bad",
	"warn": "warn", "warning": "warn",
	"mismatch": "mismatch",
	"err":      "error", "error": "error", "fail": "error", "failed": "error",
	"cancelled": "cancelled", "canceled": "cancelled", "cancel": "cancelled",
	"call_cancelled": "cancelled", "call-cancelled": "cancelled",
	"late": "late_result", "late_result": "late_result", "late-result": "late_result",
	"pending": "pending", "pend": "pending", "inflight": "pending",
	"ok": "ok", "success": "ok",
	"streaming": "streaming", "superseded": "superseded",
}

func (t *term) status(r *Row) bool {
	if t.num > 0 {
		return r.HTTPStatus == t.num
	}
	switch statuses[t.value] {
	case "bad":
		return r.Kind == "invalid"
	case "warn":
		return r.Warn
	case "mismatch":
		return r.Mismatch
	case "error":
		return r.Status == "error" || r.HTTPStatus >= 400
	case "cancelled":
		return r.Status == "cancelled" || r.TaskStatus == "cancelled"
	case "late_result":
		return r.Status == "late_result"
	case "pending":
		return r.Status == "pending"
	case "ok":
		return r.Status == "ok"
	case "streaming":
		return r.Status == "streaming"
	case "superseded":
		return r.Status == "superseded"
	}
	return false
}
