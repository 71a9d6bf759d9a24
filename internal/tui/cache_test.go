package tui

import (
	"fmt"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/session"
)

// cacheScript is a modern session whose client lists tools twice inside
// the first result's ttlMs.
func cacheScript() []*session.Record {
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	frames := []struct {
		dir   session.Direction
		frame string
	}{
		{session.ClientToServer, `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{` + meta + `}}`},
		{session.ServerToClient, `{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","tools":[],"ttlMs":60000,"cacheScope":"public"}}`},
		{session.ClientToServer, `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{` + meta + `}}`},
		{session.ServerToClient, `{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","tools":[],"ttlMs":1500,"cacheScope":"private"}}`},
	}
	var out []*session.Record
	for i, f := range frames {
		out = append(out, &session.Record{V: session.Version, Session: "cache-1", Label: "cache", Seq: uint64(i + 1),
			Time: t0.Add(time.Duration(i) * 100 * time.Millisecond), Dir: f.dir, Transport: session.Stdio,
			Frame: []byte(f.frame), RawFrame: []byte(f.frame), HasFrame: true, Size: int64(len(f.frame))})
	}
	return out
}

// TestStreamCacheHints: the stream shows each cacheable result's ttlMs and
// cacheScope (a CACHE column from 120 columns, in the detail below that),
// and marks the request that re-fetched a result still fresh.
func TestStreamCacheHints(t *testing.T) {
	for _, w := range []int{140, 110} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			hs := newHarness(t, w, 20, Options{})
			hs.push(cacheScript()...)
			hs.keys("enter")
			if w >= 120 {
				hs.want("CACHE", "1m public", "1.5s private")
			} else {
				hs.wantNot("CACHE")
				hs.want("cache 1m public · ", "cache 1.5s private · ")
			}
			hs.want("↻ tools/list re-fetched 100ms after a")
		})
	}
}
