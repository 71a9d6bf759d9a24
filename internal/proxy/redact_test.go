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
