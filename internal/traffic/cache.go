package traffic

import (
	"fmt"
	"slices"
	"time"

	"github.com/mcpward/mcpward/internal/calls"
	"github.com/mcpward/mcpward/internal/mcp"
	"github.com/mcpward/mcpward/internal/rules"
	"github.com/mcpward/mcpward/internal/session"
)

// A CacheTracker follows the cacheable results one session's client
// received, to see a client re-fetch one that was still fresh
// (cache.stale_refetch, mcpsnoop's cache_stale_refetch observation). The
// checker and the live view each keep one per session. It is not safe
// for concurrent use.
type CacheTracker struct {
	// fresh holds the fresh results by cache key; keys the key of each
	// open cacheable request.
	fresh map[string]cacheEntry
	keys  map[*calls.Call]string
}

// A cacheEntry is one fresh cacheable result: its key stays fresh until
// expires (the result's arrival plus its ttlMs).
type cacheEntry struct {
	method  string
	uri     string
	ttl     int64
	got     time.Time
	expires time.Time
}

// cacheKey is the spec's cache key: the method plus the result-affecting
// params (uri, cursor; an absent cursor differs from ""), and the uri.
func cacheKey(method string, p *calls.Params) (key, uri string) {
	key = method + "\x00"
	if p != nil {
		if method == mcp.MethodResourcesRead && p.HasName {
			uri = p.Name
		}
		key += uri + "\x00"
		if p.Cursor != nil {
			key += "c" + string(p.Cursor)
		}
	}
	return key, uri
}

// Frame takes the session's next frame and returns the stale-refetch
// observation it makes ("" for none): a client request for a key whose
// last result is still fresh (its time < received + ttlMs) and that no
// list_changed or resources/updated notification invalidated since.
// Refetching early is allowed (after a tool error, say), so this is
// information, never a fault. An MRTR retry continues its call and is not
// a fetch; a result with ttlMs 0, absent or negative is stale at once.
func (t *CacheTracker) Frame(f *calls.Frame) string {
	switch f.Kind {
	case calls.KindRequest:
		return t.request(f)
	case calls.KindResponse:
		t.result(f)
	case calls.KindNotification:
		t.notification(f)
	}
	return ""
}

func (t *CacheTracker) request(f *calls.Frame) string {
	rec, p := f.Record, f.Params
	if rec.Dir != session.ClientToServer || f.Batch || !slices.Contains(rules.CacheableMethods, f.Msg.Method) ||
		(p != nil && (p.HasRequestState || len(p.InputResponseKeys) > 0)) {
		return ""
	}
	key, _ := cacheKey(f.Msg.Method, p)
	if f.Call != nil {
		if t.keys == nil {
			t.keys = map[*calls.Call]string{}
		}
		t.keys[f.Call] = key
	}
	e, ok := t.fresh[key]
	if !ok || !rec.Time.Before(e.expires) {
		return ""
	}
	what := f.Msg.Method
	if e.uri != "" {
		what += " " + e.uri
	}
	return fmt.Sprintf("%s re-fetched %v after a result fresh for ttlMs %d, with no notification invalidating it",
		what, rec.Time.Sub(e.got).Round(time.Millisecond), e.ttl)
}

// result remembers a complete cacheable result with a positive ttlMs
// under the key its request was filed under.
func (t *CacheTracker) result(f *calls.Frame) {
	call := f.Call
	if call == nil {
		return
	}
	key, ok := t.keys[call]
	delete(t.keys, call)
	if !ok || call.Rounds != 1 || len(f.Msg.Result) == 0 {
		return
	}
	h, err := mcp.CacheHintsOf(f.Msg.Result)
	if err != nil || h.TTLMs == nil || *h.TTLMs <= 0 {
		return
	}
	if t.fresh == nil {
		t.fresh = map[string]cacheEntry{}
	}
	uri := ""
	if call.Method == mcp.MethodResourcesRead {
		uri = call.Name
	}
	at := f.Record.Time
	t.fresh[key] = cacheEntry{method: call.Method, uri: uri, ttl: *h.TTLMs, got: at,
		expires: at.Add(time.Duration(*h.TTLMs) * time.Millisecond)}
}

// invalidatedBy maps a server notification to the methods whose cached
// results it invalidates (resources/updated: resources/read of its uri).
var invalidatedBy = map[string][]string{
	"notifications/tools/list_changed":     {mcp.MethodToolsList},
	"notifications/prompts/list_changed":   {mcp.MethodPromptsList},
	"notifications/resources/list_changed": {mcp.MethodResourcesList, mcp.MethodResourcesTemplatesList},
}

// notification drops the entries a server notification invalidates.
func (t *CacheTracker) notification(f *calls.Frame) {
	if f.Record.Dir != session.ServerToClient || len(t.fresh) == 0 {
		return
	}
	methods := invalidatedBy[f.Msg.Method]
	updated := f.Msg.Method == "notifications/resources/updated"
	for k, e := range t.fresh {
		if slices.Contains(methods, e.method) ||
			(updated && e.method == mcp.MethodResourcesRead && f.Params != nil && e.uri == f.Params.Name) {
			delete(t.fresh, k)
		}
	}
}

// CacheHint is a cacheable result's hints as one short cell: "60s
// public", "0s private", "— public" without ttlMs, "" for a frame with
// neither (or that is not a result).
func CacheHint(f *calls.Frame) string {
	if f.Kind != calls.KindResponse || len(f.Msg.Result) == 0 || f.Msg.Result[0] != '{' {
		return ""
	}
	h, err := mcp.CacheHintsOf(f.Msg.Result)
	if h.TTLMs == nil && h.CacheScope == nil {
		if err != nil {
			return "invalid"
		}
		return ""
	}
	ttl, scope := "—", "—"
	if h.TTLMs != nil {
		ttl = fmtTTL(*h.TTLMs)
	}
	if h.CacheScope != nil {
		scope = *h.CacheScope
	}
	if err != nil {
		scope += "!"
	}
	return ttl + " " + scope
}

func fmtTTL(ms int64) string {
	d := time.Duration(ms) * time.Millisecond
	switch {
	case ms < 0:
		return fmt.Sprintf("%dms!", ms)
	case ms%1000 != 0 || ms == 0:
		if ms < 1000 {
			return fmt.Sprintf("%dms", ms)
		}
		return fmt.Sprintf("%.1fs", d.Seconds())
	case d < time.Minute || d%time.Minute != 0:
		return fmt.Sprintf("%ds", ms/1000)
	case d < time.Hour || d%time.Hour != 0:
		return fmt.Sprintf("%dm", int64(d/time.Minute))
	}
	return fmt.Sprintf("%dh", int64(d/time.Hour))
}
