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

// A cacheEntry is one fresh cacheable result a client received: its key
// stays fresh until expires (the result's arrival plus its ttlMs).
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

// cacheRequest judges cache.stale_refetch: a client request for a key
// whose last result is still fresh (now < received + ttlMs) and that no
// list_changed or resources/updated notification invalidated since
// (mcpsnoop's cache_stale_refetch observation). Refetching early is
// allowed (after a tool error, say), so the rule is info. An MRTR retry
// continues its call and is not a fetch.
func (c *Checker) cacheRequest(f *calls.Frame, r func(rule, msg string)) {
	rec, p := f.Record, f.Params
	if rec.Dir != session.ClientToServer || f.Batch || !slices.Contains(rules.CacheableMethods, f.Msg.Method) ||
		(p != nil && (p.HasRequestState || len(p.InputResponseKeys) > 0)) {
		return
	}
	st := c.state(rec.Session)
	key, _ := cacheKey(f.Msg.Method, p)
	if f.Call != nil {
		if st.cacheKeys == nil {
			st.cacheKeys = map[*calls.Call]string{}
		}
		st.cacheKeys[f.Call] = key
	}
	e, ok := st.cache[key]
	if !ok || !rec.Time.Before(e.expires) {
		return
	}
	what := f.Msg.Method
	if e.uri != "" {
		what += " " + e.uri
	}
	r("cache.stale_refetch", fmt.Sprintf("%s re-fetched %v after a result fresh for ttlMs %d, with no notification invalidating it",
		what, rec.Time.Sub(e.got).Round(time.Millisecond), e.ttl))
}

// cacheResult remembers a complete cacheable result with a positive
// ttlMs under its request's key (0, absent or negative: stale at once).
// The key is the one its request was filed under.
func (c *Checker) cacheResult(f *calls.Frame, call *calls.Call) {
	if call == nil {
		return
	}
	st := c.state(f.Record.Session)
	key, ok := st.cacheKeys[call]
	delete(st.cacheKeys, call)
	if !ok || call.Rounds != 1 || len(f.Msg.Result) == 0 {
		return
	}
	h, err := mcp.CacheHintsOf(f.Msg.Result)
	if err != nil || h.TTLMs == nil || *h.TTLMs <= 0 {
		return
	}
	if st.cache == nil {
		st.cache = map[string]cacheEntry{}
	}
	uri := ""
	if call.Method == mcp.MethodResourcesRead {
		uri = call.Name
	}
	t := f.Record.Time
	st.cache[key] = cacheEntry{method: call.Method, uri: uri, ttl: *h.TTLMs, got: t,
		expires: t.Add(time.Duration(*h.TTLMs) * time.Millisecond)}
}

// invalidatedBy maps a server notification to the methods whose cached
// results it invalidates (resources/updated: resources/read of its uri).
var invalidatedBy = map[string][]string{
	"notifications/tools/list_changed":     {mcp.MethodToolsList},
	"notifications/prompts/list_changed":   {mcp.MethodPromptsList},
	"notifications/resources/list_changed": {mcp.MethodResourcesList, mcp.MethodResourcesTemplatesList},
}

// cacheNotification drops the entries a server notification invalidates.
func (c *Checker) cacheNotification(f *calls.Frame) {
	if f.Record.Dir != session.ServerToClient {
		return
	}
	st := c.state(f.Record.Session)
	if len(st.cache) == 0 {
		return
	}
	methods := invalidatedBy[f.Msg.Method]
	updated := f.Msg.Method == "notifications/resources/updated"
	for k, e := range st.cache {
		if slices.Contains(methods, e.method) ||
			(updated && e.method == mcp.MethodResourcesRead && f.Params != nil && e.uri == f.Params.Name) {
			delete(st.cache, k)
		}
	}
}
