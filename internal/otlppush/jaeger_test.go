package otlppush_test

// End-to-end tests against a real tracing backend: Jaeger v2 (built by
// .ci/run from internal/testenv/jaeger, named by $MCPWARD_JAEGER) on
// 127.0.0.1. The stdio shim and the HTTP proxy stream live OTLP to it,
// `sessions export --endpoint` pushes a recorded log to it, and every
// assertion is on what Jaeger's query API returns.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/cli"
	"github.com/mcpward/mcpward/internal/otlpspan"
	"github.com/mcpward/mcpward/internal/testenv"
)

// mainEnv makes the test binary run mcpward's Main (the fork and exec
// trick): the proxy, the fixture servers and sessions export are the real
// command line.
const mainEnv = "MCPWARD_OTLP_TEST_MAIN"

func TestMain(m *testing.M) {
	testenv.NoRaceExitPause()
	if os.Getenv(mainEnv) == "1" {
		os.Exit(cli.Main())
	}
	os.Exit(m.Run())
}

// mcpward returns a command running the test binary as mcpward, with its
// state directory under home.
func mcpward(t *testing.T, home string, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), mainEnv+"=1", "MCPWARD_HOME="+home, "NO_COLOR=1")
	return cmd
}

// Jaeger's query API (the JSON of /api/traces, as its UI reads it).
type jTrace struct {
	TraceID   string              `json:"traceID"`
	Spans     []jSpan             `json:"spans"`
	Processes map[string]jProcess `json:"processes"`
}

type jSpan struct {
	TraceID       string `json:"traceID"`
	SpanID        string `json:"spanID"`
	OperationName string `json:"operationName"`
	References    []struct {
		RefType string `json:"refType"`
		TraceID string `json:"traceID"`
		SpanID  string `json:"spanID"`
	} `json:"references"`
	StartTime int64 `json:"startTime"` // µs
	Duration  int64 `json:"duration"`  // µs
	Tags      []jKV `json:"tags"`
	Logs      []struct {
		Timestamp int64 `json:"timestamp"`
		Fields    []jKV `json:"fields"`
	} `json:"logs"`
	ProcessID string `json:"processID"`
}

type jProcess struct {
	ServiceName string `json:"serviceName"`
	Tags        []jKV  `json:"tags"`
}

type jKV struct {
	Key   string `json:"key"`
	Type  string `json:"type"`
	Value any    `json:"value"`
}

func tags(kvs []jKV) map[string]string {
	m := map[string]string{}
	for _, kv := range kvs {
		m[kv.Key] = fmt.Sprint(kv.Value)
	}
	return m
}

// events returns "name rule_id" of each span event (Jaeger's span logs).
func events(s jSpan) []string {
	var out []string
	for _, l := range s.Logs {
		f := tags(l.Fields)
		out = append(out, f["event"]+" "+f[otlpspan.AttrFindingRuleID])
	}
	return out
}

// searchUntil asks Jaeger for mcpward's traces until done(traces) is true
// (spans reach storage asynchronously after the receiver accepts them),
// at most 60 s. It returns the last answer and the raw JSON.
func searchUntil(t *testing.T, j *testenv.Jaeger, since time.Time, done func([]jTrace) bool) ([]jTrace, []byte) {
	t.Helper()
	q := url.Values{"service": {otlpspan.ServiceName}, "limit": {"100"},
		"start": {strconv.FormatInt(since.Add(-time.Hour).UnixMicro(), 10)}}
	var ans struct {
		Data []jTrace `json:"data"`
	}
	var raw json.RawMessage
	deadline := time.Now().Add(60 * time.Second)
	for wait := 20 * time.Millisecond; ; wait = min(2*wait, time.Second) {
		q.Set("end", strconv.FormatInt(time.Now().Add(time.Hour).UnixMicro(), 10))
		ans.Data = nil
		if j.GetJSON(t, "/api/traces?"+q.Encode(), &raw) == http.StatusOK {
			if err := json.Unmarshal(raw, &ans); err != nil {
				t.Fatal(err)
			}
			if done(ans.Data) {
				return ans.Data, raw
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("jaeger did not show the expected traces within 60 s; last answer:\n%s", raw)
		}
		time.Sleep(wait)
	}
}

func spanCount(ts []jTrace) int {
	n := 0
	for _, tr := range ts {
		n += len(tr.Spans)
	}
	return n
}

// byName returns the spans of all traces by operation name.
func byName(ts []jTrace) map[string][]jSpan {
	m := map[string][]jSpan{}
	for _, tr := range ts {
		for _, s := range tr.Spans {
			m[s.OperationName] = append(m[s.OperationName], s)
		}
	}
	return m
}

func names(ts []jTrace) []string {
	var out []string
	for _, tr := range ts {
		for _, s := range tr.Spans {
			out = append(out, s.OperationName)
		}
	}
	slices.Sort(out)
	return out
}

// lineReader reads lines from r on a goroutine, so a test can wait for
// one with a bound.
type lineReader chan string

func readLines(r io.Reader) lineReader {
	c := make(lineReader, 64)
	go func() {
		defer close(c)
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64<<10), 8<<20)
		for sc.Scan() {
			c <- sc.Text()
		}
	}()
	return c
}

// next returns the next line matching re, within 60 s.
func (c lineReader) next(t *testing.T, re string) string {
	t.Helper()
	rx := regexp.MustCompile(re)
	timeout := time.After(60 * time.Second)
	for {
		select {
		case l, ok := <-c:
			if !ok {
				t.Fatalf("stream ended before a line matching %q", re)
			}
			if rx.MatchString(l) {
				return l
			}
		case <-timeout:
			t.Fatalf("no line matching %q within 60 s", re)
		}
	}
}

// waitExit waits for cmd within 60 s.
func waitExit(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Logf("%s: %v", cmd.Args[1], err)
		}
	case <-time.After(60 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("%s did not exit within 60 s", strings.Join(cmd.Args[1:], " "))
	}
}

const (
	agentTrace  = "4bf92f3577b34da6a3ce929d0e0e4736"
	agentParent = "00f067aa0ba902b7"
	secret      = "hunter2-swordfish"
)

// TestJaegerStdioProxy runs the stdio shim with --otlp-endpoint in front
// of a fixture server, drives a session through it and reads the spans
// back from Jaeger: one trace for the session's untraced calls, the
// traced call in the agent's trace under the agent's span, a span per
// call with its name, kind, duration and status, the finding on the
// failed call as a span event, and the redacted resource URI.
func TestJaegerStdioProxy(t *testing.T) {
	j := testenv.StartJaeger(t)
	home := t.TempDir()
	start := time.Now()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// The fixture server is this binary too; it inherits mainEnv from the
	// shim's environment.
	cmd := mcpward(t, home, "proxy", "--otlp-endpoint", j.OTLP, "--label", "jaeger-stdio", "--redact-value", "hunter2-[a-z]+",
		"--", exe, "fixture", "serve", "legacy-2025-06-18")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() }) // a no-op once it has exited
	out := readLines(stdout)
	send := func(frame string) {
		t.Helper()
		if _, err := io.WriteString(stdin, frame+"\n"); err != nil {
			t.Fatalf("write %s: %v", frame, err)
		}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"jaeger-test","version":"1"}}}`)
	out.next(t, `"id":1`)
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	out.next(t, `"id":2`)
	send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"no_such_tool","arguments":{}}}`)
	out.next(t, `"id":3`)
	send(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"},"_meta":{"traceparent":"00-` + agentTrace + `-` + agentParent + `-01"}}}`)
	out.next(t, `"id":4`)
	send(`{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":"notes://x?token=` + secret + `"}}`)
	out.next(t, `"id":5`)
	stdin.Close()
	waitExit(t, cmd)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("proxy stderr:\n%s", stderr.String())
		}
	})

	// Jaeger answers 404 to /v1/metrics: metrics are turned off without
	// an error, and every span was delivered.
	if strings.Contains(stderr.String(), "otlp export") {
		t.Errorf("the proxy reported an export failure:\n%s", stderr.String())
	}
	traces, raw := searchUntil(t, j, start, func(ts []jTrace) bool { return spanCount(ts) >= 5 })
	t.Logf("jaeger: %d traces, %d spans: %v", len(traces), spanCount(traces), names(traces))
	if got, want := names(traces), []string{"initialize", "resources/read", "tools/call echo", "tools/call no_such_tool", "tools/list"}; !slices.Equal(got, want) {
		t.Errorf("span names %v, want %v (one span per call, notifications have none)", got, want)
	}
	if len(traces) != 2 {
		t.Errorf("%d traces, want 2: the session's and the agent's", len(traces))
	}
	spans := byName(traces)
	var session string
	for _, tr := range traces {
		for _, s := range tr.Spans {
			tg := tags(s.Tags)
			if tg["span.kind"] != "client" {
				t.Errorf("%s: span.kind %q, want client", s.OperationName, tg["span.kind"])
			}
			if s.Duration <= 0 || s.StartTime < start.UnixMicro() {
				t.Errorf("%s: start %d duration %d µs, want a real interval after the test's start", s.OperationName, s.StartTime, s.Duration)
			}
			if tg["network.transport"] != "pipe" || tg["mcp.protocol.version"] != "2025-06-18" {
				t.Errorf("%s: network.transport %q mcp.protocol.version %q, want pipe, 2025-06-18", s.OperationName, tg["network.transport"], tg["mcp.protocol.version"])
			}
			if p := tr.Processes[s.ProcessID]; p.ServiceName != "mcpward" || tags(p.Tags)["mcpward.server.label"] != "jaeger-stdio" {
				t.Errorf("%s: process %+v, want service mcpward, label jaeger-stdio", s.OperationName, p)
			}
			session = tg["mcpward.session.id"]
		}
	}
	if sp := spans["tools/call echo"]; len(sp) == 1 {
		if sp[0].TraceID != agentTrace || len(sp[0].References) != 1 || sp[0].References[0].SpanID != agentParent {
			t.Errorf("traced call: trace %s refs %+v, want the agent's trace %s under span %s", sp[0].TraceID, sp[0].References, agentTrace, agentParent)
		}
	}
	want := otlpspan.SessionTraceID(session).String()
	for _, n := range []string{"initialize", "tools/list", "tools/call no_such_tool", "resources/read"} {
		if sp := spans[n]; len(sp) == 1 && sp[0].TraceID != want {
			t.Errorf("%s: trace %s, want the session's %s", n, sp[0].TraceID, want)
		}
	}
	if sp := spans["tools/call no_such_tool"]; len(sp) == 1 {
		tg := tags(sp[0].Tags)
		if tg["otel.status_code"] != "ERROR" || tg["error"] != "true" || tg["error.type"] != "-32602" || tg["rpc.response.status_code"] != "-32602" ||
			tg["otel.status_description"] != "Unknown tool: no_such_tool" {
			t.Errorf("failed call tags %v, want status ERROR with the JSON-RPC message, error.type = rpc.response.status_code = -32602", tg)
		}
		if ev := events(sp[0]); !slices.Contains(ev, "mcpward.finding message.error_response") {
			t.Errorf("failed call events %v, want the message.error_response finding", ev)
		}
	}
	if sp := spans["resources/read"]; len(sp) == 1 {
		if uri := tags(sp[0].Tags)["mcp.resource.uri"]; !strings.HasPrefix(uri, "notes://x?token=") || strings.Contains(uri, secret) {
			t.Errorf("mcp.resource.uri %q, want the URI with its secret redacted", uri)
		}
	}
	if bytes.Contains(raw, []byte(secret)) {
		t.Errorf("jaeger holds the secret %q", secret)
	}
}

// TestJaegerHTTPProxy runs the HTTP proxy with --otlp-endpoint in front
// of a fixture served over HTTP; a request whose HTTP traceparent header
// names the agent's trace joins it.
func TestJaegerHTTPProxy(t *testing.T) {
	j := testenv.StartJaeger(t)
	home := t.TempDir()
	start := time.Now()
	srv := mcpward(t, home, "fixture", "serve", "legacy-2025-06-18", "--http", "127.0.0.1:0")
	srvErr, err := srv.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Process.Kill(); _ = srv.Wait() })
	target := regexp.MustCompile(`http://\S+`).FindString(readLines(srvErr).next(t, `listening on http://`))

	px := mcpward(t, home, "proxy", "--target", target, "--listen", "127.0.0.1:0", "--otlp-endpoint", j.OTLP, "--label", "jaeger-http")
	pxErr, err := px.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := px.Start(); err != nil {
		t.Fatal(err)
	}
	pxLines := readLines(pxErr)
	addr := regexp.MustCompile(`proxying (http://\S+)`).FindStringSubmatch(pxLines.next(t, `proxying http://`))[1]
	pxLog := make(chan []string, 1)
	go func() {
		var ls []string
		for l := range pxLines {
			ls = append(ls, l)
		}
		pxLog <- ls
	}()
	t.Cleanup(func() {
		_ = px.Process.Kill() // a no-op once it has exited
		if ls := <-pxLog; t.Failed() {
			t.Logf("proxy stderr:\n%s", strings.Join(ls, "\n"))
		}
	})

	sid := ""
	post := func(body string, hdr map[string]string) string {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, addr, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2025-06-18")
		if sid != "" {
			req.Header.Set("Mcp-Session-Id", sid)
		}
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		resp, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
		if err != nil {
			t.Fatalf("POST %s: %v", body, err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if s := resp.Header.Get("Mcp-Session-Id"); s != "" {
			sid = s
		}
		return string(b)
	}
	post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"jaeger-test","version":"1"}}}`, nil)
	post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, nil)
	post(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, nil)
	post(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}}}`,
		map[string]string{"traceparent": "00-" + agentTrace + "-" + agentParent + "-01"})
	if err := px.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	waitExit(t, px)

	traces, _ := searchUntil(t, j, start, func(ts []jTrace) bool { return spanCount(ts) >= 3 })
	t.Logf("jaeger: %d traces, %d spans: %v", len(traces), spanCount(traces), names(traces))
	if got, want := names(traces), []string{"initialize", "tools/call echo", "tools/list"}; !slices.Equal(got, want) {
		t.Errorf("span names %v, want %v", got, want)
	}
	if len(traces) != 2 {
		t.Errorf("%d traces, want 2: the session's and the agent's", len(traces))
	}
	spans := byName(traces)
	for _, tr := range traces {
		for _, s := range tr.Spans {
			tg := tags(s.Tags)
			if tg["span.kind"] != "client" || tg["network.transport"] != "tcp" || tg["network.protocol.name"] != "http" || tg["mcp.method.name"] == "" {
				t.Errorf("%s: tags %v, want a client span over tcp/http", s.OperationName, tg)
			}
			if s.OperationName != "initialize" && tg["mcp.session.id"] != sid {
				t.Errorf("%s: mcp.session.id %q, want the server's %q", s.OperationName, tg["mcp.session.id"], sid)
			}
			if s.Duration <= 0 {
				t.Errorf("%s: duration %d µs", s.OperationName, s.Duration)
			}
		}
	}
	if sp := spans["tools/call echo"]; len(sp) == 1 {
		tg := tags(sp[0].Tags)
		if sp[0].TraceID != agentTrace || len(sp[0].References) != 1 || sp[0].References[0].SpanID != agentParent || tg["mcpward.call.trace_source"] != "http_header" {
			t.Errorf("call with a traceparent header: trace %s refs %+v tags %v, want the agent's trace under its span", sp[0].TraceID, sp[0].References, tg)
		}
		if tg["gen_ai.tool.name"] != "echo" || tg["gen_ai.operation.name"] != "execute_tool" {
			t.Errorf("tool call tags %v", tg)
		}
	}
}

// TestJaegerSessionsExport pushes a recorded log with `sessions export
// -T otlp --check --endpoint` and reads it back by trace id: durations as
// recorded, statuses, findings as events, redaction applied.
func TestJaegerSessionsExport(t *testing.T) {
	j := testenv.StartJaeger(t)
	home := t.TempDir()
	t0 := time.Now().Add(-time.Minute).UTC()
	type fr struct {
		ms   int
		dir  string
		body string
	}
	frames := []fr{
		{0, "c2s", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`},
		{12, "s2c", `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"srv","version":"1"}}}`},
		{20, "c2s", `{"jsonrpc":"2.0","method":"notifications/initialized"}`},
		{30, "c2s", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"lookup","arguments":{"q":"` + secret + `"},"_meta":{"traceparent":"00-` + agentTrace + `-` + agentParent + `-01"}}}`},
		{275, "s2c", `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"ok"}]}}`},
		{300, "c2s", `{"jsonrpc":"2.0","id":3,"method":"prompts/get","params":{"name":"summarize"}}`},
		{340, "s2c", `{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"unknown prompt"}}`},
		{400, "c2s", `{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"file:///` + secret + `.txt"}}`},
		{450, "s2c", `{"jsonrpc":"2.0","id":4,"result":{"contents":[]}}`},
	}
	var log bytes.Buffer
	for i, f := range frames {
		fmt.Fprintf(&log, `{"v":1,"session":"01JAEGEREXPORT","label":"exported","seq":%d,"ts":%q,"dir":%q,"transport":"stdio","size":%d,"frame":%s}`+"\n",
			i+1, t0.Add(time.Duration(f.ms)*time.Millisecond).Format(time.RFC3339Nano), f.dir, len(f.body), f.body)
	}
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, log.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := mcpward(t, home, "sessions", "export", path, "-T", "otlp", "--check", "--redact-value", "hunter2-[a-z]+", "--endpoint", j.OTLP)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("sessions export --endpoint: %v\n%s", err, out)
	}

	traces, raw := searchUntil(t, j, t0, func(ts []jTrace) bool { return spanCount(ts) >= 4 })
	t.Logf("jaeger: %d traces, %d spans: %v", len(traces), spanCount(traces), names(traces))
	if got, want := names(traces), []string{"initialize", "prompts/get summarize", "resources/read", "tools/call lookup"}; !slices.Equal(got, want) {
		t.Errorf("span names %v, want %v", got, want)
	}
	session := otlpspan.SessionTraceID("01JAEGEREXPORT").String()
	type row struct {
		Trace, Parent, Status, ErrorType string
		DurationUS                       int64
		Events                           []string
	}
	got := map[string]row{}
	for _, tr := range traces {
		for _, s := range tr.Spans {
			tg := tags(s.Tags)
			r := row{Trace: s.TraceID, Status: tg["otel.status_code"], ErrorType: tg["error.type"], DurationUS: s.Duration, Events: events(s)}
			if r.Trace == session {
				r.Trace = "session"
			}
			if len(s.References) > 0 {
				r.Parent = s.References[0].SpanID
			}
			got[s.OperationName] = r
		}
	}
	want := map[string]row{
		"initialize":            {Trace: "session", DurationUS: 12000},
		"tools/call lookup":     {Trace: agentTrace, Parent: agentParent, DurationUS: 245000},
		"prompts/get summarize": {Trace: "session", Status: "ERROR", ErrorType: "-32602", DurationUS: 40000, Events: []string{"mcpward.finding message.error_response"}},
		"resources/read":        {Trace: "session", DurationUS: 50000},
	}
	for name, w := range want {
		if g := got[name]; fmt.Sprint(g) != fmt.Sprint(w) {
			t.Errorf("%s: got %+v, want %+v", name, g, w)
		}
	}
	if bytes.Contains(raw, []byte(secret)) {
		t.Errorf("jaeger holds the secret %q", secret)
	}
}
