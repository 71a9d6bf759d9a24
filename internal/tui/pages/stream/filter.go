package stream

import (
	"strconv"
	"strings"

	"github.com/mcpward/mcpward/internal/calls"
	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/tui/store"
)

// A Predicate selects rows.
type Predicate func(*store.Row) bool

// Compile turns the filter language (mcpsnoop §4.3) into a predicate.
// Tokens are ANDed; a key:value token with an unknown key, and bare text,
// is a case-insensitive substring match over method, tool, id, status and
// the frame text. Unlike mcpsnoop, `id:abc` and `id:"abc"` both match the
// string id "abc" (and `id:"7"` matches only the string, `id:7` both).
// When package internal/filter lands this becomes an adapter to it.
func Compile(text string) Predicate {
	var preds []Predicate
	for _, tok := range strings.Fields(text) {
		preds = append(preds, token(tok))
	}
	return func(r *store.Row) bool {
		for _, p := range preds {
			if !p(r) {
				return false
			}
		}
		return true
	}
}

func token(tok string) Predicate {
	k, v, ok := strings.Cut(tok, ":")
	if ok && v != "" {
		lv := strings.ToLower(v)
		switch strings.ToLower(k) {
		case "tool", "t":
			return func(r *store.Row) bool { return strings.Contains(strings.ToLower(r.Tool), lv) }
		case "method", "m":
			return func(r *store.Row) bool {
				return strings.Contains(strings.ToLower(r.Method), lv) ||
					r.Call != nil && strings.Contains(strings.ToLower(r.Call.Method), lv)
			}
		case "id":
			return idPred(v)
		case "task":
			return func(r *store.Row) bool { return r.Call != nil && r.Call.TaskID == v }
		case "dir", "d":
			if p := dirPred(lv); p != nil {
				return p
			}
		case "kind", "k":
			if p := kindPred(lv); p != nil {
				return p
			}
		case "status", "s":
			if p := statusPred(lv); p != nil {
				return p
			}
		}
	}
	lt := strings.ToLower(tok)
	return func(r *store.Row) bool { return Haystack(r, lt) }
}

// Haystack reports whether needle (lower case) is in the row's text.
func Haystack(r *store.Row, needle string) bool {
	for _, s := range []string{r.Method, r.Tool, r.ID, r.Detail, store.Status(r)} {
		if strings.Contains(strings.ToLower(s), needle) {
			return true
		}
	}
	if r.Call != nil && strings.Contains(strings.ToLower(r.Call.TaskID), needle) {
		return true
	}
	return r.Rec != nil && len(r.Rec.Frame) < 1<<16 && strings.Contains(strings.ToLower(string(r.Rec.Frame)), needle)
}

func idPred(v string) Predicate {
	want := []string{v}
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		want = append(want, strconv.Quote(v)) // id:abc finds the string id "abc"
	}
	return func(r *store.Row) bool {
		for _, w := range want {
			if strings.EqualFold(r.ID, w) || r.Call != nil && strings.EqualFold(r.Call.ID, w) {
				return true
			}
		}
		return false
	}
}

func dirPred(v string) Predicate {
	var d session.Direction
	switch v {
	case "c2s", "client", "in", "req", "request", "->", "→":
		d = session.ClientToServer
	case "s2c", "server", "out", "resp", "response", "<-", "←":
		d = session.ServerToClient
	case "stderr", "err":
		d = session.Stderr
	default:
		return nil
	}
	return func(r *store.Row) bool { return r.Dir == d }
}

func kindPred(v string) Predicate {
	var k calls.Kind
	switch v {
	case "req", "request":
		k = calls.KindRequest
	case "resp", "response":
		k = calls.KindResponse
	case "notify", "notification", "ntf":
		k = calls.KindNotification
	case "stderr":
		k = calls.KindStderr
	case "invalid", "corrupt", "bad":
		k = calls.KindInvalid
	case "transport", "http":
		k = calls.KindTransport
	default:
		return nil
	}
	return func(r *store.Row) bool { return r.Kind == k }
}

func statusPred(v string) Predicate {
	if n, err := strconv.Atoi(v); err == nil {
		return func(r *store.Row) bool { return r.HTTPStatus == n }
	}
	is := func(want ...string) Predicate {
		return func(r *store.Row) bool {
			st := store.Status(r)
			for _, w := range want {
				if st == w {
					return true
				}
			}
			return false
		}
	}
	switch v {
	case "bad", "invalid":
		return is("bad")
	case "warn", "warning":
		return func(r *store.Row) bool { return store.Warning(r) != "" }
	case "err", "error", "fail", "failed":
		return func(r *store.Row) bool { return store.Status(r) == "err" || r.HTTPStatus >= 400 }
	case "cancelled", "canceled":
		return func(r *store.Row) bool { return r.Call != nil && r.Call.TaskStatus == "cancelled" }
	case "cancel", "call_cancelled", "call-cancelled":
		return is("cancel")
	case "late", "late_result", "late-result":
		return is("late")
	case "pending", "pend", "inflight":
		return is("pending")
	case "ok", "success":
		return is("ok")
	case "mismatch":
		return func(r *store.Row) bool { return r.ErrCode == -32020 }
	}
	return nil
}
