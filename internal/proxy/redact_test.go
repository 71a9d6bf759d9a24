package proxy

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/mcpward/mcpward/internal/redact"
	"github.com/mcpward/mcpward/internal/session"
)

// Secrets the redaction tests plant; none may reach a log or a feed.
var plantedSecrets = []string{
	"sk-abcdefghijklmnopqrstuvwx1234", // an API key shape (--redact-secrets)
	"hunter2-password-value",          // under a credential-named member
	"4111-1111-1111-1111",             // --redact-value
	"alice-ssn-123",                   // --redact-key ssn
	"argv-token-value",                // --token in the server's argv
}

func secretRedactor(t *testing.T) *redact.Redactor {
	t.Helper()
	red, err := redact.New(redact.Config{Secrets: true, Keys: []string{"ssn"}, Values: []string{`\d{4}-\d{4}-\d{4}-\d{4}`}})
	if err != nil {
		t.Fatal(err)
	}
	return red
}

const secretFrames = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"pay","arguments":{"card":"4111-1111-1111-1111","ssn":"alice-ssn-123","password":"hunter2-password-value"}}}
{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"key is sk-abcdefghijklmnopqrstuvwx1234"}]}}
plain text with sk-abcdefghijklmnopqrstuvwx1234 in it
`

// feedCapture collects what the Feed hook saw, copying frames as the hook
// contract asks.
type feedCapture struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (f *feedCapture) record(rec *session.Record) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.buf.Write(rec.Frame)
	f.buf.Write(rec.Info)
	f.buf.WriteString(rec.Path)
	for _, vs := range rec.Header {
		f.buf.WriteString(strings.Join(vs, ","))
	}
	f.buf.WriteByte('\n')
}

func checkNoSecrets(t *testing.T, where string, b []byte) {
	t.Helper()
	for _, s := range plantedSecrets {
		if bytes.Contains(b, []byte(s)) {
			t.Errorf("%s holds the secret %q", where, s)
		}
	}
}

func TestShimRedactsLogAndFeedNotPipe(t *testing.T) {
	argv, environ := helperCommand(t, "cat")
	argv = append(argv, "--token", "argv-token-value")
	var out, errOut, logBuf bytes.Buffer
	var feed feedCapture
	lg := NewLog(&logBuf, &LogOptions{Session: "S", Label: "L", Filter: RedactFilter(secretRedactor(t)), Feed: feed.record})
	st, err := RunStdio(context.Background(), &StdioOptions{
		Command: argv, Env: environ, Stdin: strings.NewReader(secretFrames), Stdout: &out, Stderr: &errOut, Recorder: lg,
	})
	if cerr := lg.Close(); err != nil || cerr != nil || st.Code != 0 {
		t.Fatalf("RunStdio() = %+v, %v; Close() = %v", st, err, cerr)
	}
	if out.String() != secretFrames || errOut.String() != secretFrames {
		t.Fatalf("relayed bytes changed: the pipe must carry the secrets untouched")
	}
	checkNoSecrets(t, "the session log", logBuf.Bytes())
	checkNoSecrets(t, "the feed", feed.buf.Bytes())
	recs := readLog(t, bytes.NewReader(logBuf.Bytes()))
	var redacted int
	for _, r := range recs {
		if r.Redacted {
			redacted++
		}
	}
	// start (argv) + 3 frames in each of c2s, s2c, stderr.
	if redacted != 10 {
		t.Errorf("%d records marked redacted, want 10", redacted)
	}
	lines := strings.Split(strings.TrimSuffix(secretFrames, "\n"), "\n")
	for _, r := range recs {
		if r.Dir == session.ClientToServer {
			if r.Size != int64(len(lines[0])) && r.Size != int64(len(lines[1])) && r.Size != int64(len(lines[2])) {
				t.Errorf("c2s record size %d is not an original line length", r.Size)
			}
		}
	}
}

func TestHTTPProxyRedactsLogAndFeedNotPipe(t *testing.T) {
	var gotBody []byte
	var gotParam string
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotBody, _ = io.ReadAll(r.Body)
		gotParam = r.Header.Get("Mcp-Param-Ssn")
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"sk-abcdefghijklmnopqrstuvwx1234"}]}}`)
	}))
	defer target.Close()
	u, _ := url.Parse(target.URL)
	var logBuf bytes.Buffer
	var feed feedCapture
	lg := NewLog(&logBuf, &LogOptions{Session: "S", Label: "L", Filter: RedactFilter(secretRedactor(t)), Feed: feed.record})
	ps := httptest.NewServer(NewHTTPProxy(&HTTPOptions{Target: u, Recorder: lg}))
	body := strings.Split(secretFrames, "\n")[0]
	req, _ := http.NewRequest(http.MethodPost, ps.URL+"/mcp?api_key=sk-abcdefghijklmnopqrstuvwx1234", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Mcp-Param-Ssn", "alice-ssn-123")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	respBody, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	ps.Close()
	if err := lg.Close(); err != nil {
		t.Fatal(err)
	}
	if string(gotBody) != body || gotParam != "alice-ssn-123" || !bytes.Contains(respBody, []byte("sk-abcdefghijklmnopqrstuvwx1234")) {
		t.Fatalf("relayed bytes changed: body %q, header %q, response %q", gotBody, gotParam, respBody)
	}
	checkNoSecrets(t, "the session log", logBuf.Bytes())
	checkNoSecrets(t, "the feed", feed.buf.Bytes())
	for _, r := range readLog(t, bytes.NewReader(logBuf.Bytes())) {
		if !r.Redacted {
			t.Errorf("record %d (%s) not marked redacted", r.Seq, r.Dir)
		}
		if r.Dir == session.ClientToServer && r.Size != int64(len(body)) {
			t.Errorf("request record size %d, want the original %d", r.Size, len(body))
		}
	}
}

// Secrets of the every-shape tests: a --redact-key value and a URL
// password. No part of either may reach the log or the feed.
var shapeSecrets = []string{"alice", "pw-url-s3cret"}

func checkNoShapeSecrets(t *testing.T, where string, b []byte) {
	t.Helper()
	for _, s := range shapeSecrets {
		if bytes.Contains(b, []byte(s)) {
			t.Errorf("%s holds the secret %q:\n%s", where, s, b)
		}
	}
}

func shapeRedactor(t *testing.T) *redact.Redactor {
	t.Helper()
	red, err := redact.New(redact.Config{Secrets: true, Keys: []string{"ssn"}})
	if err != nil {
		t.Fatal(err)
	}
	return red
}

// TestShimRedactsEveryShape: a server's argv with a URL password, and
// --redact-key values in lines that are not one JSON value and in frames
// over the record cap (issue 12, items 7 and 8).
func TestShimRedactsEveryShape(t *testing.T) {
	argv, environ := helperCommand(t, "cat")
	argv = append(argv, "postgres://admin:pw-url-s3cret@localhost/db")
	long := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":{"ssn":"alice-ssn-123","note":"` + strings.Repeat("x", 200) + `"}}}`
	cut := `{"jsonrpc":"2.0","id":2,"params":{"arguments":{"pad":"` + strings.Repeat("y", 30) + `","ssn":"alice-ssn-123"}}}`
	input := strings.Join([]string{
		long, // cut at the cap after the value
		cut,  // cut at the cap inside the value
		`{"jsonrpc":"2.0","id":3,"params":{"ssn":"alice-ssn-123"}} trailing`,
		`  "ssn": "alice-ssn-123",`,
		`name=bob&ssn=alice-ssn-123&plan=pro`,
		`INFO lookup ssn=alice-ssn-123 done`,
		`connecting to postgres://admin:pw-url-s3cret@localhost/db`,
	}, "\n") + "\n"
	var out, errOut, logBuf bytes.Buffer
	var feed feedCapture
	lg := NewLog(&logBuf, &LogOptions{Session: "S", Label: "L", Filter: RedactFilter(shapeRedactor(t)), Feed: feed.record})
	st, err := RunStdio(context.Background(), &StdioOptions{
		Command: argv, Env: environ, Stdin: strings.NewReader(input), Stdout: &out, Stderr: &errOut, Recorder: lg, MaxFrame: 80,
	})
	if cerr := lg.Close(); err != nil || cerr != nil || st.Code != 0 {
		t.Fatalf("RunStdio() = %+v, %v; Close() = %v", st, err, cerr)
	}
	if out.String() != input || errOut.String() != input {
		t.Fatalf("relayed bytes changed: the pipe must carry the secrets untouched")
	}
	checkNoShapeSecrets(t, "the session log", logBuf.Bytes())
	checkNoShapeSecrets(t, "the feed", feed.buf.Bytes())
	var truncated int
	for _, r := range readLog(t, bytes.NewReader(logBuf.Bytes())) {
		if r.Truncated {
			truncated++
		}
	}
	if truncated != 6 { // long and cut, in each of c2s, s2c and stderr
		t.Errorf("%d truncated records, want 6 (the test must cover frames over the cap)", truncated)
	}
}

// TestHTTPProxyRedactsEveryShape: a query string, a form-encoded body, a
// Location header, a --target URL with userinfo in the start record and an
// error quoting a URL (issue 12, items 7 and 8).
func TestHTTPProxyRedactsEveryShape(t *testing.T) {
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Location", "https://127.0.0.1/callback?code=1&ssn=alice-ssn-123")
		w.Header().Set("Content-Type", "application/x-www-form-urlencoded")
		w.WriteHeader(http.StatusFound)
		io.WriteString(w, "ssn=alice-ssn-123&ok=1")
	}))
	defer target.Close()
	u, _ := url.Parse(target.URL)
	var logBuf bytes.Buffer
	var feed feedCapture
	lg := NewLog(&logBuf, &LogOptions{Session: "S", Label: "L", Filter: RedactFilter(shapeRedactor(t)), Feed: feed.record})
	lg.Record(session.Record{Dir: session.Meta, Transport: session.HTTP, Kind: session.KindStart,
		Info: []byte(`{"target":"http://admin:pw-url-s3cret@127.0.0.1:9/mcp","listen":"127.0.0.1:7000"}`)})
	ps := httptest.NewServer(NewHTTPProxy(&HTTPOptions{Target: u, Recorder: lg}))
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Post(ps.URL+"/mcp?ssn=alice-ssn-123", "application/x-www-form-urlencoded", strings.NewReader("user=bob&ssn=alice-ssn-123"))
	if err != nil {
		t.Fatal(err)
	}
	respBody, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	ps.Close()
	lg.Record(session.Record{Dir: session.Meta, Transport: session.HTTP, Kind: session.KindNote,
		Error: `upstream: Post "http://admin:pw-url-s3cret@127.0.0.1:9/mcp?ssn=alice-ssn-123": connection refused`})
	if err := lg.Close(); err != nil {
		t.Fatal(err)
	}
	if string(respBody) != "ssn=alice-ssn-123&ok=1" || !strings.Contains(resp.Header.Get("Location"), "alice-ssn-123") {
		t.Fatalf("relayed bytes changed: body %q, Location %q", respBody, resp.Header.Get("Location"))
	}
	checkNoShapeSecrets(t, "the session log", logBuf.Bytes())
	checkNoShapeSecrets(t, "the feed", feed.buf.Bytes())
	if n := len(readLog(t, bytes.NewReader(logBuf.Bytes()))); n != 4 {
		t.Errorf("%d records, want 4 (start, request, response, note)", n)
	}
}

// TestShimRedactsIssue26Shapes: on a server's stderr (and its stdout), one
// record a line: a pretty-printed config dump whose password is on the
// line after its name, JSON escaped once and twice, a command line with
// "--api-key VALUE" and "--token=VALUE", and a URL whose query carries a
// code and a signature. None reaches the log or the feed; the pipe carries
// every byte (issue 26 item 6).
func TestShimRedactsIssue26Shapes(t *testing.T) {
	argv, environ := helperCommand(t, "cat")
	input := strings.Join([]string{
		`loaded config {`,
		`  "password":`,
		`      "split-s3cret",`,
		`  "port": 8080`,
		`}`,
		`payload="{\"api_key\":\"esc1-s3cret\"}"`,
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\"cfg\":\"{\\\"api_key\\\":\\\"esc2-s3cret\\\"}\"}"}]}}`,
		`exec server --api-key flag-s3cret --token=eq-s3cret --port 80`,
		`callback https://127.0.0.1/cb?code=code-s3cret&sig=sig-s3cret&state=ok`,
	}, "\n") + "\n"
	var out, errOut, logBuf bytes.Buffer
	var feed feedCapture
	red, err := redact.New(redact.Config{Secrets: true})
	if err != nil {
		t.Fatal(err)
	}
	lg := NewLog(&logBuf, &LogOptions{Session: "S", Label: "L", Filter: RedactFilter(red), Feed: feed.record})
	st, err := RunStdio(context.Background(), &StdioOptions{
		Command: argv, Env: environ, Stdin: strings.NewReader(input), Stdout: &out, Stderr: &errOut, Recorder: lg,
	})
	if cerr := lg.Close(); err != nil || cerr != nil || st.Code != 0 {
		t.Fatalf("RunStdio() = %+v, %v; Close() = %v", st, err, cerr)
	}
	if out.String() != input || errOut.String() != input {
		t.Fatalf("relayed bytes changed: the pipe must carry the secrets untouched")
	}
	for where, b := range map[string][]byte{"the session log": logBuf.Bytes(), "the feed": feed.buf.Bytes()} {
		if bytes.Contains(b, []byte("s3cret")) {
			t.Errorf("%s holds a secret:\n%s", where, b)
		}
	}
	var stderrLines []string
	for _, r := range readLog(t, bytes.NewReader(logBuf.Bytes())) {
		if r.Dir == session.Stderr {
			stderrLines = append(stderrLines, string(r.Frame))
		}
	}
	if len(stderrLines) != 9 || stderrLines[2] != `      "[REDACTED]",`+"\n" && stderrLines[2] != `      "[REDACTED]",` {
		t.Errorf("stderr records %q: want 9, the third `      \"[REDACTED]\",`", stderrLines)
	}
}

// TestHTTPProxyRedactsSessionAndQuery: under --redact-secrets the
// Mcp-Session-Id (a bearer credential of its session) is recorded as one
// pseudonym in the request, the response and their header copies, and the
// query's code and signature go from the recorded path and the Location
// header; the client and server get every value unchanged (issue 26 item 6).
func TestHTTPProxyRedactsSessionAndQuery(t *testing.T) {
	const sid = "sid-s3cret-4f1c9a"
	var gotSID, gotQuery string
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		gotSID, gotQuery = r.Header.Get("Mcp-Session-Id"), r.URL.RawQuery
		w.Header().Set("Mcp-Session-Id", sid)
		w.Header().Set("Location", "https://127.0.0.1/cb?code=code-s3cret&state=ok")
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{}}`)
	}))
	defer target.Close()
	u, _ := url.Parse(target.URL)
	red, err := redact.New(redact.Config{Secrets: true})
	if err != nil {
		t.Fatal(err)
	}
	filter, httpFields := RedactFilter(red), RedactHTTPFilter(red)
	var logBuf bytes.Buffer
	var feed feedCapture
	lg := NewLog(&logBuf, &LogOptions{Session: "S", Label: "L", Filter: func(r *session.Record) { filter(r); httpFields(r) }, Feed: feed.record})
	ps := httptest.NewServer(NewHTTPProxy(&HTTPOptions{Target: u, Recorder: lg}))
	req, _ := http.NewRequest(http.MethodPost, ps.URL+"/mcp?sig=sig-s3cret&sv=2024", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Mcp-Session-Id", sid)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	ps.Close()
	if err := lg.Close(); err != nil {
		t.Fatal(err)
	}
	if gotSID != sid || gotQuery != "sig=sig-s3cret&sv=2024" || resp.Header.Get("Mcp-Session-Id") != sid || !strings.Contains(resp.Header.Get("Location"), "code-s3cret") {
		t.Fatalf("relayed values changed: server got %q %q, client got %q %q", gotSID, gotQuery, resp.Header.Get("Mcp-Session-Id"), resp.Header.Get("Location"))
	}
	for where, b := range map[string][]byte{"the session log": logBuf.Bytes(), "the feed": feed.buf.Bytes()} {
		if bytes.Contains(b, []byte("s3cret")) {
			t.Errorf("%s holds a secret:\n%s", where, b)
		}
	}
	recs := readLog(t, bytes.NewReader(logBuf.Bytes()))
	if len(recs) != 2 {
		t.Fatalf("%d records, want the request and the response", len(recs))
	}
	pseudo := recs[0].MCPSessionID
	if !strings.HasPrefix(pseudo, "[REDACTED:") {
		t.Errorf("request mcpSessionId %q, want a pseudonym", pseudo)
	}
	for _, r := range recs {
		if r.MCPSessionID != pseudo || r.Header["Mcp-Session-Id"][0] != pseudo || !r.Redacted {
			t.Errorf("%s: mcpSessionId %q, header %q, redacted %v; want the one pseudonym %q everywhere", r.Dir, r.MCPSessionID, r.Header["Mcp-Session-Id"], r.Redacted, pseudo)
		}
	}
	if recs[0].Path != "/mcp?sig=[REDACTED]&sv=2024" || recs[1].Header["Location"][0] != "https://127.0.0.1/cb?code=[REDACTED]&state=ok" {
		t.Errorf("path %q, Location %q: want the code and the signature hidden, names kept", recs[0].Path, recs[1].Header["Location"])
	}
}
