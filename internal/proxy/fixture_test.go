package proxy

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/mcpward/mcpward/internal/fixture"
	"github.com/mcpward/mcpward/internal/session"
)

// The embedded fixtures behind the proxies: what the client sees through
// the proxy is exactly what it sees talking to the fixture directly, and
// the log holds every frame.

const fixtureInput = `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}
{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}
not json at all
{"jsonrpc":"2.0","id":3,"method":"ping"}
`

func TestFixtureBehindStdioShim(t *testing.T) {
	f, err := fixture.Lookup("clean@v1")
	if err != nil {
		t.Fatal(err)
	}
	var direct, directErr bytes.Buffer
	if _, err := f.Serve(context.Background(), strings.NewReader(fixtureInput), &direct, &directErr); err != nil {
		t.Fatal(err)
	}
	res := runShim(t, "fixture:clean@v1", []byte(fixtureInput))
	if res.err != nil || res.status.Code != 0 {
		t.Fatalf("RunStdio() = %+v, %v", res.status, res.err)
	}
	if !bytes.Equal(res.stdout, direct.Bytes()) {
		t.Errorf("through the shim the client got\n%s\nwant (direct)\n%s", res.stdout, direct.Bytes())
	}
	if got := streamOf(res.log, session.ServerToClient); !bytes.Equal(got, direct.Bytes()) {
		t.Error("s2c records do not rebuild the fixture's output")
	}
	if got := streamOf(res.log, session.ClientToServer); string(got) != fixtureInput {
		t.Error("c2s records do not rebuild the client's input")
	}
	var results int
	for _, r := range res.log {
		if r.Dir == session.ServerToClient && r.RawFrame != nil && bytes.Contains(r.RawFrame, []byte(`"result"`)) {
			results++
		}
	}
	if results < 2 {
		t.Errorf("log holds %d results from the fixture, want at least 2", results)
	}
}

func TestFixtureBehindHTTPProxy(t *testing.T) {
	f, err := fixture.Lookup("clean@v1")
	if err != nil {
		t.Fatal(err)
	}
	direct := httptest.NewServer(f.HTTPHandler())
	defer direct.Close()
	u, _ := url.Parse(direct.URL)
	var logBuf bytes.Buffer
	lg := NewLog(&logBuf, nil)
	proxied := httptest.NewServer(NewHTTPProxy(&HTTPOptions{Target: u, Recorder: lg}))
	defer proxied.Close()

	list := `{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}`
	type req struct {
		method, body string
		hdr          map[string]string
	}
	reqs := []req{
		{method: "GET"},
		{method: "DELETE"},
		{method: "POST", body: list, hdr: map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list"}},
		{method: "POST", body: list},
		{method: "POST", body: `{"jsonrpc":`, hdr: map[string]string{"MCP-Protocol-Version": "2026-07-28"}},
	}
	do := func(base string, rq req) (int, string, []byte) {
		r, _ := http.NewRequest(rq.method, base+"/", strings.NewReader(rq.body))
		if rq.body == "" {
			r.Body = http.NoBody
		}
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Accept", "application/json, text/event-stream")
		for k, v := range rq.hdr {
			r.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header.Get("Content-Type"), b
	}
	for _, rq := range reqs {
		ds, dct, db := do(direct.URL, rq)
		ps, pct, pb := do(proxied.URL, rq)
		if ds != ps || dct != pct || !bytes.Equal(db, pb) {
			t.Errorf("%s %.30s: direct %d %q %q, proxied %d %q %q", rq.method, rq.body, ds, dct, db, ps, pct, pb)
		}
	}
	proxied.Close()
	lg.Close()
	recs := readLog(t, &logBuf)
	checkSeq(t, recs)
	exchanges := map[uint64]bool{}
	for _, r := range recs {
		exchanges[r.Exchange] = true
	}
	if len(exchanges) != len(reqs) {
		t.Errorf("log holds %d exchanges, want %d", len(exchanges), len(reqs))
	}
}
