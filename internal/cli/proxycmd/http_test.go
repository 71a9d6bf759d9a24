package proxycmd

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/redact"
)

func TestNewCmdProxyAllowHostFlag(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		want    []string
		wantErr string
	}{
		{name: "repeatable", args: []string{"--target", "http://127.0.0.1:9000", "--allow-host", "mcp.internal", "--allow-host", "dev.box:7000", "--allow-host", "[::1]:7000"},
			want: []string{"mcp.internal", "dev.box:7000", "[::1]:7000"}},
		{name: "a URL", args: []string{"--target", "http://127.0.0.1:9000", "--allow-host", "http://mcp.internal"}, wantErr: "--allow-host wants a host name"},
		{name: "a bad port", args: []string{"--target", "http://127.0.0.1:9000", "--allow-host", "h:99999"}, wantErr: "--allow-host wants a host name"},
		{name: "empty", args: []string{"--target", "http://127.0.0.1:9000", "--allow-host", ""}, wantErr: "--allow-host wants a host name"},
		{name: "stdio", args: []string{"--allow-host", "h", "--", "srv"}, wantErr: "--allow-host applies only to the HTTP proxy"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ios, _, _, _ := iostreams.Test()
			f := &cmdutil.Factory{IOStreams: ios}
			var got *ProxyOptions
			cmd := NewCmdProxy(f, func(_ context.Context, o *ProxyOptions) error { got = o; return nil })
			cmd.SetArgs(tt.args)
			cmd.SetOut(io.Discard)
			cmd.SetErr(io.Discard)
			_, err := cmd.ExecuteC()
			if tt.wantErr != "" {
				var fe *cmdutil.FlagError
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.As(err, &fe) {
					t.Fatalf("error = %v, want a flag error containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, got.AllowHosts); d != "" {
				t.Errorf("AllowHosts mismatch (-want +got):\n%s", d)
			}
		})
	}
}

// Issue 12 item 6: the mcpSessionId and authChallenge fields of HTTP
// records bypassed the redactor (only the header copy was redacted), and
// reached the log, the live feed and OTLP's mcp.session.id. Every output
// is searched for the raw secret.
func TestHTTPRunRedactsSessionIDEverywhere(t *testing.T) {
	const secret = "TOPSECRET4242"
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Mcp-Session-Id", "sess-"+secret)
		w.Header().Set("WWW-Authenticate", `Bearer realm="`+secret+`"`)
		if r.URL.Path == "/sse" {
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"content\":[]}}\n\n")
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`)
	}))
	defer target.Close()
	var colMu sync.Mutex
	var spans bytes.Buffer
	col := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		colMu.Lock()
		spans.Write(b)
		colMu.Unlock()
	}))
	defer col.Close()

	// The live feed: a stand-in hub that keeps every byte it receives.
	// Unix socket paths are short: keep the directory short too.
	dir, err := os.MkdirTemp("", "mw")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	sock := filepath.Join(dir, "hub.sock")
	hubLn, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	var feedMu sync.Mutex
	var feedBytes bytes.Buffer
	feedDone := make(chan struct{})
	go func() {
		defer close(feedDone)
		var wg sync.WaitGroup
		for {
			c, err := hubLn.Accept()
			if err != nil {
				wg.Wait()
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				b, _ := io.ReadAll(c)
				c.Close()
				feedMu.Lock()
				feedBytes.Write(b)
				feedMu.Unlock()
			}()
		}
	}()

	u, _ := url.Parse(target.URL + "/mcp")
	u.User = url.UserPassword("admin", "pw-"+secret) // never printed or recorded
	trace := filepath.Join(t.TempDir(), "http.jsonl")
	ios, _, _, stderr := iostreams.Test()
	opts := &ProxyOptions{
		IO: ios, Now: time.Now, Version: "test",
		LookupEnv: func(string) (string, bool) { return "", false },
		Environ:   os.Environ, Getwd: os.Getwd,
		Target: u, Listen: "127.0.0.1:0", TraceFile: trace, HubSocket: sock,
		Redact:       redact.Config{Values: []string{secret}},
		OTLPEndpoint: col.URL,
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errc := make(chan error, 1)
	go func() { errc <- serveHTTP(ctx, opts, ln, nil) }()

	for i, path := range []string{"/mcp", "/sse"} {
		body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"x"}}`, i+1)
		req, _ := http.NewRequest(http.MethodPost, "http://"+ln.Addr().String()+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Mcp-Session-Id", "sess-"+secret)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		// The relayed bytes are never redacted.
		if resp.Header.Get("Mcp-Session-Id") != "sess-"+secret {
			t.Errorf("client got Mcp-Session-Id %q, want it unchanged", resp.Header.Get("Mcp-Session-Id"))
		}
	}
	cancel()
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	hubLn.Close()
	<-feedDone

	log, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	colMu.Lock()
	defer colMu.Unlock()
	feedMu.Lock()
	defer feedMu.Unlock()
	for _, out := range []struct {
		name, data, mustHave string
	}{
		{"log", string(log), `"mcpSessionId":"sess-[REDACTED]"`},
		{"live feed", feedBytes.String(), `"mcpSessionId":"sess-[REDACTED]"`},
		{"OTLP", spans.String(), `mcp.session.id`},
		{"stderr", stderr.String(), "proxying"},
	} {
		if strings.Contains(out.data, secret) {
			t.Errorf("the %s holds the raw secret:\n%s", out.name, out.data)
		}
		if !strings.Contains(out.data, out.mustHave) {
			t.Errorf("the %s lacks %q (did it receive the records?):\n%s", out.name, out.mustHave, out.data)
		}
	}
	if !strings.Contains(string(log), `"authChallenge":"Bearer realm=\"[REDACTED]\""`) {
		t.Errorf("the log lacks the redacted auth challenge:\n%s", log)
	}
}

// Issue 26 item 6: the start line printed the target's query secrets
// (?key=, ?code=, ?sig=) and its password.
func TestBannerTargetHidesQuerySecrets(t *testing.T) {
	u, _ := url.Parse("https://user:pw-s3cr3t@api.example/mcp?key=k-s3cr3t&code=c-s3cr3t&sig=g-s3cr3t&flag")
	got := bannerTarget(u)
	if strings.Contains(got, "s3cr3t") || !strings.Contains(got, "key=[REDACTED]") || !strings.Contains(got, "api.example/mcp") || !strings.Contains(got, "&flag") {
		t.Errorf("bannerTarget = %q, want the host and path, names kept, values and password hidden", got)
	}
}
