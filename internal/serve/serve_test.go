package serve

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/board"
)

// TestForeignHostAndOrigin pins the DNS-rebinding guard: only the
// address the app listens on (or a loopback name with its port, or an
// allowed name) as Host, and only the app's own origin as Origin.
func TestForeignHostAndOrigin(t *testing.T) {
	srv, _ := start(t, &Options{Version: "test", AllowHosts: []string{"check.example.com"}})
	u, _ := url.Parse(srv.URL)
	port := u.Port()
	tests := []struct {
		name   string
		hdr    map[string]string
		status int
	}{
		{"own address", map[string]string{"Host": "127.0.0.1:" + port}, 200},
		{"localhost", map[string]string{"Host": "localhost:" + port}, 200},
		{"ipv6 loopback", map[string]string{"Host": "[::1]:" + port}, 200},
		{"allowed name", map[string]string{"Host": "check.example.com"}, 200},
		{"foreign name", map[string]string{"Host": "evil.example:" + port}, 403},
		{"foreign name without port", map[string]string{"Host": "evil.example"}, 403},
		{"rebound name", map[string]string{"Host": "127.0.0.1.nip.io:" + port}, 403},
		{"other port", map[string]string{"Host": "127.0.0.1:1"}, 403},
		{"loopback without port", map[string]string{"Host": "localhost"}, 403},
		{"own origin", map[string]string{"Origin": "http://127.0.0.1:" + port}, 200},
		{"foreign origin", map[string]string{"Origin": "http://evil.example"}, 403},
		{"loopback origin, other port", map[string]string{"Origin": "http://localhost:1"}, 403},
		{"null origin", map[string]string{"Origin": "null"}, 403},
		{"cross-site fetch", map[string]string{"Sec-Fetch-Site": "cross-site"}, 403},
		{"same-origin fetch", map[string]string{"Sec-Fetch-Site": "same-origin"}, 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, path := range []string{"/", "/api/info", "/assets/app.js"} {
				status, h, body := get(t, "GET", srv.URL+path, tt.hdr, "")
				if status != tt.status {
					t.Errorf("GET %s %v = %d, want %d: %s", path, tt.hdr, status, tt.status, body)
				}
				if status == 403 && !strings.Contains(body, `"forbidden_host"`) {
					t.Errorf("refusal body = %s", body)
				}
				if h.Get("Content-Security-Policy") == "" || h.Get("X-Content-Type-Options") != "nosniff" {
					t.Errorf("GET %s: security headers missing: %v", path, h)
				}
			}
		})
	}
}

// TestReadOnly: only GET and HEAD, and POST /api/check only in public
// mode.
func TestReadOnly(t *testing.T) {
	srv, _ := start(t, &Options{Version: "test"})
	for _, m := range []string{"POST", "PUT", "DELETE", "PATCH", "OPTIONS"} {
		for _, path := range []string{"/", "/api/sessions", "/api/check", "/api/snapshots"} {
			status, h, _ := get(t, m, srv.URL+path, nil, "")
			if status != http.StatusMethodNotAllowed || h.Get("Allow") != "GET, HEAD" {
				t.Errorf("%s %s = %d (Allow %q), want 405 GET, HEAD", m, path, status, h.Get("Allow"))
			}
		}
	}
	if status, _, _ := get(t, "HEAD", srv.URL+"/api/info", nil, ""); status != 200 {
		t.Errorf("HEAD /api/info = %d", status)
	}
}

// TestStrictCSP: the policy allows no inline script, no eval; the page
// loads its scripts and styles by URL only, with the right types.
func TestStrictCSP(t *testing.T) {
	srv, _ := start(t, &Options{Version: "test"})
	_, h, page := get(t, "GET", srv.URL+"/", nil, "")
	csp := h.Get("Content-Security-Policy")
	for _, bad := range []string{"unsafe-inline", "unsafe-eval", "*", "http:", "https:"} {
		if strings.Contains(csp, bad) {
			t.Errorf("CSP %q allows %s", csp, bad)
		}
	}
	if !strings.Contains(csp, "script-src 'self'") || !strings.Contains(csp, "default-src 'none'") {
		t.Errorf("CSP = %q", csp)
	}
	if m := regexp.MustCompile(`<script(?:\s+[^>]*)?>[^<]`).FindString(page); m != "" || strings.Contains(page, " on") && regexp.MustCompile(`\son[a-z]+=`).MatchString(page) {
		t.Errorf("the page has inline script: %q", m)
	}
	if regexp.MustCompile(`(?i)(src|href)="(https?:)?//`).MatchString(page) {
		t.Error("the page loads something from elsewhere")
	}
	for path, typ := range map[string]string{"/assets/app.js": "text/javascript", "/assets/filter.js": "text/javascript", "/assets/stream.js": "text/javascript",
		"/assets/style.css": "text/css", "/assets/report.css": "text/css"} {
		status, h, body := get(t, "GET", srv.URL+path, nil, "")
		if status != 200 || !strings.HasPrefix(h.Get("Content-Type"), typ) || len(body) < 100 {
			t.Errorf("GET %s = %d %q (%d bytes)", path, status, h.Get("Content-Type"), len(body))
		}
		if strings.Contains(body, "eval(") || strings.Contains(body, "new Function") || strings.Contains(body, "innerHTML") {
			t.Errorf("%s uses eval, new Function or innerHTML", path)
		}
	}
	for _, path := range []string{"/assets/index.html", "/assets/../serve.go", "/assets/nope.js"} {
		if status, _, _ := get(t, "GET", srv.URL+path, nil, ""); status != 404 {
			t.Errorf("GET %s = %d, want 404", path, status)
		}
	}
}

// TestBoardPageCSP: the board page (internal/board's rendering, inline
// style and script) runs under a policy that allows exactly its own
// inline elements by hash.
func TestBoardPageCSP(t *testing.T) {
	dir := t.TempDir()
	writeBoard(t, dir)
	srv, _ := start(t, &Options{Version: "test", Board: dir, Now: func() time.Time { return time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC) }})
	status, h, page := get(t, "GET", srv.URL+"/board", nil, "")
	if status != 200 || !strings.Contains(page, "weather-co") {
		t.Fatalf("GET /board = %d: %.300s", status, page)
	}
	csp := h.Get("Content-Security-Policy")
	if strings.Contains(csp, "unsafe") || !strings.Contains(csp, "script-src 'sha256-") {
		t.Errorf("board CSP = %q", csp)
	}
}

func writeBoard(t *testing.T, dir string) {
	t.Helper()
	b := board.Board{Date: "2026-11-30", GeneratedAt: "2026-11-30T06:00:00Z", MCPWardVersion: "test", Rows: []board.Row{
		{Server: "weather-co", URL: "https://weather.example/mcp", CheckedAt: "2026-11-30T06:00:00Z", Command: "mcpward compat --url https://weather.example/mcp", Status: board.StatusOK, Era: "modern-only", SupportedVersions: []string{"2026-07-28"}, Publishable: true},
		{Server: "<b>intranet</b>", URL: "https://intranet.example/mcp", CheckedAt: "2026-11-30T06:00:00Z", Status: board.StatusRefused, StatusDetail: "target not allowed", Publishable: true},
	}}
	data, _ := json.Marshal(b)
	writeFile(t, filepath.Join(dir, "2026-11-29.json"), `{"date":"2026-11-29","rows":[]}`)
	writeFile(t, filepath.Join(dir, "2026-11-30.json"), string(data))
}

// TestAPI reads every page's data through the API.
func TestAPI(t *testing.T) {
	e := newEnv(t)
	e.recordSnapshots(t)
	h := e.startHub(t, false)
	writeFile(t, filepath.Join(e.results, "notes.json"), `{"not": "a result"}`)
	srv, _ := start(t, &Options{Version: "test", Hub: h, SnapshotDir: e.snapshots, ResultDirs: []string{e.results}})

	status, _, body := get(t, "GET", srv.URL+"/api/sessions", nil, "")
	if status != 200 || !strings.Contains(body, `"id":"sessA"`) || !strings.Contains(body, `"label":"weather"`) {
		t.Errorf("sessions = %d %s", status, body)
	}
	status, hdr, body := get(t, "GET", srv.URL+"/api/sessions/sessA", nil, "")
	if status != 200 || !strings.Contains(body, `"format":"mcpward.sessions.export"`) || !strings.Contains(body, `evil_tool`) {
		t.Errorf("session export = %d %.300s", status, body)
	}
	// The frames are the recorded bytes, markup included: served as JSON
	// that the browser must not sniff into HTML.
	if hdr.Get("Content-Type") != "application/json; charset=utf-8" || hdr.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("session export headers = %v", hdr)
	}
	if status, _, _ := get(t, "GET", srv.URL+"/api/sessions/nope", nil, ""); status != 404 {
		t.Errorf("unknown session = %d", status)
	}
	status, _, body = get(t, "GET", srv.URL+"/api/snapshots", nil, "")
	if status != 200 || !strings.Contains(body, `"name":"a.snapshot.json"`) || !strings.Contains(body, `"server":"clean-fixture@2.0.0"`) {
		t.Errorf("snapshots = %d %s", status, body)
	}
	status, _, body = get(t, "GET", srv.URL+"/api/diff?old=a.snapshot.json&new=b.snapshot.json", nil, "")
	if status != 200 || !strings.Contains(body, `"ruleId":"tool.removed"`) {
		t.Errorf("diff = %d %.400s", status, body)
	}
	for _, q := range []string{"old=../a.snapshot.json&new=b.snapshot.json", "old=a.snapshot.json&new=/etc/passwd", "old=&new="} {
		if status, _, _ := get(t, "GET", srv.URL+"/api/diff?"+q, nil, ""); status != 404 {
			t.Errorf("diff?%s = %d, want 404", q, status)
		}
	}
	status, _, body = get(t, "GET", srv.URL+"/api/results", nil, "")
	if status != 200 || strings.Contains(body, "notes.json") {
		t.Errorf("results = %d %s (a JSON file that is no Result is listed)", status, body)
	}
}

// TestEventsAnnounceNewSession: the event stream names a session whose
// log appears after the page subscribed.
func TestEventsAnnounceNewSession(t *testing.T) {
	e := newEnv(t)
	h := e.startHub(t, false)
	srv, _ := start(t, &Options{Version: "test", Hub: h})
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/api/events", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type = %q", ct)
	}
	sc := bufio.NewScanner(resp.Body)
	next := func(prefix string) string {
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), prefix) {
				return sc.Text()
			}
		}
		t.Fatalf("stream ended before %q: %v", prefix, sc.Err())
		return ""
	}
	next("event: hello")
	writeFile(t, filepath.Join(e.sessions, "late-2-bbbb.jsonl"), logLine("sessB", "late", 1))
	for {
		next("event: records")
		if d := next("data: "); strings.Contains(d, `"sessB"`) {
			break
		}
	}
}

// TestAccessToken: with a token, nothing but the favicon is served
// without it; ?token= on the page sets the cookie and redirects to the
// page without it.
func TestAccessToken(t *testing.T) {
	srv, _ := start(t, &Options{Version: "test", Token: "s3cret-token"})
	u, _ := url.Parse(srv.URL)
	cookie := "mcpward_serve_" + u.Port() + "=s3cret-token"
	tests := []struct {
		path   string
		hdr    map[string]string
		status int
	}{
		{"/", nil, 401},
		{"/api/sessions", nil, 401},
		{"/assets/app.js", nil, 401},
		{"/favicon.ico", nil, 204},
		{"/api/sessions?token=s3cret-token", nil, 401}, // the query works on the page only
		{"/?token=wrong", nil, 401},
		{"/api/sessions", map[string]string{"Cookie": "mcpward_serve_" + u.Port() + "=wrong"}, 401},
		{"/api/sessions", map[string]string{"Cookie": "mcpward_serve_1=s3cret-token"}, 401}, // another port's cookie
		{"/api/sessions", map[string]string{"Cookie": cookie}, 200},
		{"/", map[string]string{"Cookie": cookie}, 200},
	}
	for _, tt := range tests {
		if status, _, body := get(t, "GET", srv.URL+tt.path, tt.hdr, ""); status != tt.status {
			t.Errorf("GET %s %v = %d, want %d: %s", tt.path, tt.hdr, status, tt.status, body)
		}
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Get(srv.URL + "/?token=s3cret-token")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	c := resp.Header.Get("Set-Cookie")
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/" || !strings.HasPrefix(c, cookie+";") ||
		!strings.Contains(c, "HttpOnly") || !strings.Contains(c, "SameSite=Strict") {
		t.Errorf("token page = %d Location %q Set-Cookie %q", resp.StatusCode, resp.Header.Get("Location"), c)
	}
	// The guard comes first: a foreign Host is refused even with the token.
	if status, _, _ := get(t, "GET", srv.URL+"/api/sessions", map[string]string{"Cookie": cookie, "Host": "evil.example:" + u.Port()}, ""); status != 403 {
		t.Errorf("foreign Host with the token = %d, want 403", status)
	}
}
