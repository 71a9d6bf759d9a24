package proxy

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/mcpward/mcpward/internal/fixture"
	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/traffic"
)

// The scan rules on live traffic (issue 28 item 3): poisoned@v1's
// tools/list and its list_notes result pass through both proxies byte for
// byte, and the traffic checker (what sessions check and the live OTLP
// exporter run over the same records) reports the poisoning with the
// scan rule ids.

const poisonedMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}`

var poisonedRequests = []string{
	`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{` + poisonedMeta + `}}`,
	`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_notes","arguments":{},` + poisonedMeta + `}}`,
}

// wantScan are the findings (rule, where) the poisoned session must give.
var wantScan = []string{
	`scan.instruction_marker tool "get_weather" | description:`,
	`scan.sensitive_request tool "get_weather" | description:`,
	`scan.secrecy tool "get_weather" | description:`,
	`scan.result_instruction | tools/call "list_notes" id 2 result content[0]:`,
}

func scanFindings(t *testing.T, recs []*session.Record) []string {
	t.Helper()
	var got []string
	c := traffic.New(&traffic.Options{OnFinding: func(f traffic.Finding) {
		if strings.HasPrefix(f.RuleID, "scan.") {
			got = append(got, f.RuleID+" "+f.Subject+" | "+f.Message)
		}
	}})
	for i, r := range recs {
		c.Add(r, i+1)
	}
	c.Finish()
	for _, w := range wantScan {
		rule, where, _ := strings.Cut(w, " ")
		if !slices.ContainsFunc(got, func(g string) bool { return strings.HasPrefix(g, rule+" ") && strings.Contains(g, where) }) {
			t.Errorf("no %s finding on %s; scan findings:\n%s", rule, where, strings.Join(got, "\n"))
		}
	}
	return got
}

func TestPoisonedFixtureBehindStdioShim(t *testing.T) {
	f, err := fixture.Lookup("poisoned@v1")
	if err != nil {
		t.Fatal(err)
	}
	input := strings.Join(poisonedRequests, "\n") + "\n"
	var direct, directErr bytes.Buffer
	if _, err := f.Serve(context.Background(), strings.NewReader(input), &direct, &directErr); err != nil {
		t.Fatal(err)
	}
	res := runShim(t, "fixture:poisoned@v1", []byte(input))
	if res.err != nil || res.status.Code != 0 {
		t.Fatalf("RunStdio() = %+v, %v", res.status, res.err)
	}
	if !bytes.Equal(res.stdout, direct.Bytes()) {
		t.Errorf("through the shim the client got\n%s\nwant (direct)\n%s", res.stdout, direct.Bytes())
	}
	scanFindings(t, res.log)
}

func TestPoisonedFixtureBehindHTTPProxy(t *testing.T) {
	f, err := fixture.Lookup("poisoned@v1")
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
	do := func(base, body, method string) []byte {
		r, _ := http.NewRequest("POST", base+"/", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Accept", "application/json, text/event-stream")
		r.Header.Set("MCP-Protocol-Version", "2026-07-28")
		r.Header.Set("Mcp-Method", method)
		if method == "tools/call" {
			r.Header.Set("Mcp-Name", "list_notes")
		}
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return b
	}
	for i, body := range poisonedRequests {
		method := []string{"tools/list", "tools/call"}[i]
		if d, p := do(direct.URL, body, method), do(proxied.URL, body, method); !bytes.Equal(d, p) {
			t.Errorf("%s: direct %q, proxied %q", method, d, p)
		}
	}
	proxied.Close()
	lg.Close()
	scanFindings(t, readLog(t, &logBuf))
}
