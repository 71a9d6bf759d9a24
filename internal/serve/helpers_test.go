package serve

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/contract"
	"github.com/mcpward/mcpward/internal/hub"
	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/snapshot"
)

// Markup is the tool description the tests plant: a page that rendered
// it as HTML would create an img element whose handler breaks the CSP.
const Markup = `<img src=x onerror="document.body.dataset.pwned=1"><b>bold</b> & <script>alert(1)</script>`

// logA is a recorded stdio session: tools/list, its answer (a tool whose
// description is Markup), a failed tools/call and a stderr line.
const logA = `{"v":1,"session":"sessA","label":"weather","seq":1,"ts":"2026-08-01T12:00:00Z","dir":"c2s","transport":"stdio","frame":{"jsonrpc":"2.0","id":1,"method":"tools/list"}}
{"v":1,"session":"sessA","label":"weather","seq":2,"ts":"2026-08-01T12:00:00.010Z","dir":"s2c","transport":"stdio","frame":{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"evil_tool","description":"<img src=x onerror=\"document.body.dataset.pwned=1\"><b>bold</b> & <script>alert(1)</script>","inputSchema":{"type":"object"}}]}}}
{"v":1,"session":"sessA","label":"weather","seq":3,"ts":"2026-08-01T12:00:01Z","dir":"c2s","transport":"stdio","frame":{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"evil_tool","arguments":{}}}}
{"v":1,"session":"sessA","label":"weather","seq":4,"ts":"2026-08-01T12:00:01.020Z","dir":"s2c","transport":"stdio","frame":{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"bad arguments"}}}
{"v":1,"session":"sessA","label":"weather","seq":5,"ts":"2026-08-01T12:00:01.030Z","dir":"stderr","transport":"stdio","frameText":"server says hello"}
`

// logLine is one record of a second session, for live updates.
func logLine(sess, label string, seq int) string {
	return `{"v":1,"session":"` + sess + `","label":"` + label + `","seq":` + itoa(seq) + `,"ts":"2026-08-01T13:00:0` + itoa(seq%10) + `Z","dir":"c2s","transport":"stdio","frame":{"jsonrpc":"2.0","id":` + itoa(seq) + `,"method":"ping"}}` + "\n"
}

func itoa(n int) string { return strconv.Itoa(n) }

// env is a state directory with logA, a snapshot directory with two
// comparable snapshots, and a results directory.
type env struct {
	state, sessions, snapshots, results string
}

func newEnv(t testing.TB) *env {
	t.Helper()
	root := t.TempDir()
	e := &env{state: filepath.Join(root, "state"), snapshots: filepath.Join(root, "repo", ".mcpward"), results: filepath.Join(root, "repo", "out")}
	e.sessions = session.Layout{Root: e.state}.Sessions()
	for _, d := range []string{e.sessions, e.snapshots, e.results} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(e.sessions, "weather-1-aaaa.jsonl"), logA)
	return e
}

func writeFile(t testing.TB, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}

// recordSnapshots records clean@v1 as a.snapshot.json and
// drift-breaking@v2 as b.snapshot.json, b's get_weather description
// replaced by Markup (its digests recomputed).
func (e *env) recordSnapshots(t *testing.T) {
	t.Helper()
	for _, x := range []struct{ name, fixture string }{{"a", "clean@v1"}, {"b", "drift-breaking@v2"}} {
		ct, err := contract.FromSpec(x.name, &connect.Spec{Fixture: x.fixture})
		if err != nil {
			t.Fatal(err)
		}
		obs, err := contract.Observe(context.Background(), ct, &contract.ObserveOptions{Version: "test",
			Now: func() time.Time { return time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC) }})
		if err != nil || !obs.Complete() {
			t.Fatalf("observe %s: %v %v", x.fixture, err, obs.Problems)
		}
		s := obs.Snapshot
		if x.name == "b" {
			for _, tool := range s.Surface.Tools {
				if tool["name"] == "get_weather" {
					tool["description"] = Markup
				}
			}
			d, err := snapshot.SurfaceDigest(&s.Surface)
			if err != nil {
				t.Fatal(err)
			}
			s.SurfaceDigest, s.EntityDigests = d, nil
		}
		if err := contract.WriteSnapshot(contract.SnapshotPath(e.snapshots, x.name), s); err != nil {
			t.Fatal(err)
		}
	}
}

// startHub starts a hub over the env's state directory: with a socket
// (for feeds) when socket is set, else following the logs only.
func (e *env) startHub(t testing.TB, socket bool) *hub.Hub {
	t.Helper()
	opts := hub.Options{StateDir: e.state, PollInterval: 20 * time.Millisecond, Socket: hub.NoSocket}
	if socket {
		opts.Socket = ""
	}
	h, err := hub.New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

// start serves app on a loopback port.
func start(t testing.TB, opts *Options) (*httptest.Server, *Server) {
	t.Helper()
	app, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(app)
	srv.Config.BaseContext = func(net.Listener) context.Context { return t.Context() }
	srv.Start()
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
		app.Close()
	})
	return srv, app
}

// get does one request and returns its status, headers and body.
func get(t *testing.T, method, url string, hdr map[string]string, body string) (int, http.Header, string) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range hdr {
		if k == "Host" {
			req.Host = v
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}
