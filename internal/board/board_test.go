package board

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mcpward/mcpward/internal/fixture"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/testenv"
	"github.com/mcpward/mcpward/internal/transport"
)

func TestPublishableBoundary(t *testing.T) {
	rep := time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		count int
		pub   time.Time
		want  bool
	}{
		{0, time.Time{}, true},
		{2, rep.Add(Embargo), true},
		{2, rep.Add(Embargo - time.Second), false},
		{2, rep.Add(Embargo + time.Hour), true},
	}
	for _, tt := range tests {
		var pub *time.Time
		if !tt.pub.IsZero() {
			pub = &tt.pub
		}
		if got := Publishable(tt.count, &rep, pub); got != tt.want {
			t.Errorf("Publishable(%d, +%s) = %v, want %v", tt.count, tt.pub.Sub(rep), got, tt.want)
		}
	}
	if Publishable(1, &rep, nil) || Publishable(1, nil, nil) {
		t.Error("unpublished finding publishable")
	}
}

func TestStale(t *testing.T) {
	d := time.Date(2026, 8, 1, 0, 0, 0, 0, time.UTC)
	if Stale("2026-08-01", d.Add(StaleAfter)) || !Stale("2026-08-01", d.Add(StaleAfter+time.Second)) {
		t.Error("stale boundary wrong: exactly 10 days is fresh")
	}
}

func TestParseRoster(t *testing.T) {
	for _, bad := range []string{`{"targets":{"a":{"url":"http://x.example/"}}}`, `{"targets":{"a":{"url":"https://x.example/","headers":{}}}}`,
		`{"targets":{"a":{"url":"https://u:p@x.example/"}}}`, `{}`} {
		if _, err := ParseRoster([]byte(bad), false); err == nil {
			t.Errorf("ParseRoster(%s) accepted", bad)
		}
	}
}

// countingServer serves a fixture's HTTP framing on loopback and counts
// the JSON-RPC methods it receives.
func countingServer(t *testing.T, name string, methods *sync.Map) string {
	t.Helper()
	srv := httptest.NewServer(countingHandler(t, name, methods))
	t.Cleanup(srv.Close)
	return srv.URL + "/"
}

// countingHandler is a fixture's HTTP framing that counts the JSON-RPC
// methods it receives.
func countingHandler(t *testing.T, name string, methods *sync.Map) http.Handler {
	t.Helper()
	fx, err := fixture.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	h := fx.HTTPHandler()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var m struct {
			Method string `json:"method"`
		}
		if json.Unmarshal(body, &m) == nil && m.Method != "" {
			n, _ := methods.LoadOrStore(m.Method, new(int))
			*n.(*int)++
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		h.ServeHTTP(w, r)
	})
}

// hosts is an upstream (Options.Upstream) that serves each host's
// handler in-process; a host it does not serve refuses the connection.
type hosts map[string]http.Handler

func (hs hosts) RoundTrip(r *http.Request) (*http.Response, error) {
	h, ok := hs[r.URL.Host]
	if !ok {
		return nil, fmt.Errorf("dial tcp %s: connect: connection refused", r.URL.Host)
	}
	return transport.HandlerRoundTripper(h).RoundTrip(r)
}

// TestRunBoardLoopback runs a board over loopback addresses whose servers
// are in-process fixtures (Options.Upstream), in a testing/synctest
// bubble: the timeouts compat waits out (a GET stream that stays open)
// pass on the bubble's clock. TestRunBoardRealSocket dials a real one.
func TestRunBoardLoopback(t *testing.T) {
	var methods sync.Map
	const clean, paged, legacy = "http://127.0.0.1:1001/", "http://127.0.0.1:1002/", "http://127.0.0.1:1003/"
	upstream := hosts{
		"127.0.0.1:1001": countingHandler(t, "clean@v1", &methods),
		"127.0.0.1:1002": countingHandler(t, "paginated", &methods),
		"127.0.0.1:1003": countingHandler(t, "nonconformant-legacy", &methods),
	}
	rep := time.Date(2026, 8, 1, 0, 0, 0, 0, time.UTC)
	pub7 := rep.Add(Embargo)
	pub6 := rep.Add(Embargo - time.Minute)
	roster := fmt.Sprintf(`{"targets":{
		"clean": {"url": %q},
		"paged-embargoed": {"url": %q, "reportedAt": %q, "publishedAt": %q},
		"paged-published": {"url": %q, "reportedAt": %q, "publishedAt": %q},
		"legacy": {"url": %q},
		"gone": {"url": "http://127.0.0.1:1/"}}}`,
		clean, paged, rep.Format(time.RFC3339), pub6.Format(time.RFC3339), paged, rep.Format(time.RFC3339), pub7.Format(time.RFC3339), legacy)
	r, err := ParseRoster([]byte(roster), true)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 8, 20, 6, 17, 0, 0, time.UTC)
	var (
		progress []string
		b        *Board
	)
	synctest.Test(t, func(*testing.T) {
		b = RunBoard(context.Background(), r, Options{Now: func() time.Time { return now }, Version: "test", AllowLoopback: true, Timeout: 3 * time.Second,
			Upstream: upstream, Progress: func(s string) { progress = append(progress, s) }})
	})
	rows := map[string]Row{}
	for _, row := range b.Rows {
		rows[row.Server] = row
	}
	if got := rows["clean"]; got.Status != StatusOK || got.Era != "modern-only" || got.MustViolationCount != 0 || !got.Publishable || len(got.Assertions) == 0 {
		t.Errorf("clean row = %+v", got)
	}
	if got := rows["paged-embargoed"]; got.MustViolationCount != 1 || got.Publishable || got.Era != "" || got.Assertions != nil || got.Findings != nil {
		t.Errorf("embargoed row shows detail: %+v", got)
	}
	if got := rows["paged-published"]; got.MustViolationCount != 1 || !got.Publishable || got.Findings == nil {
		t.Errorf("published row (exactly 7 days) = %+v", got)
	}
	if got := rows["gone"]; got.Status != StatusUnreachable {
		t.Errorf("gone row = %+v", got)
	}
	// nonconformant-legacy plants three MUST violations over HTTP: an
	// unsupported version served, a foreign Origin served, and a request on
	// an ended session served (the last since 24c4e14).
	if got := rows["legacy"]; got.Status != StatusOK || got.MustViolationCount != 3 {
		t.Errorf("legacy row = %+v", got)
	}
	if !strings.HasPrefix(rows["clean"].Command, "mcpward compat --url "+clean) {
		t.Errorf("command = %q", rows["clean"].Command)
	}
	if len(progress) != 5 {
		t.Errorf("progress = %v", progress)
	}
	if _, called := methods.Load("tools/call"); called {
		t.Error("the board sent tools/call")
	}
	if _, listed := methods.Load("tools/list"); !listed {
		t.Error("the counting wrapper saw no tools/list: the count is not working")
	}

	// Render, then load the page in headless Chromium if present.
	var html bytes.Buffer
	if err := Render(&html, b, now); err != nil {
		t.Fatal(err)
	}
	page := html.String()
	for _, want := range []string{`id="row-clean"`, "pending disclosure", "not tested (unreachable)"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	for _, banned := range []string{"grade", "score", "insecure", "vulnerab", "rating:"} {
		if strings.Contains(strings.ToLower(page), banned) {
			t.Errorf("page uses banned word %q", banned)
		}
	}
	if strings.Contains(page, "src=\"http") || strings.Contains(page, "href=\"http") {
		t.Error("page fetches something external")
	}
	browserCheck(t, page)
}

// TestRunBoardRealSocket: the board's own upstream dials the pinned
// address of a real loopback server, on real time.
func TestRunBoardRealSocket(t *testing.T) {
	var methods sync.Map
	clean := countingServer(t, "clean@v1", &methods)
	r, err := ParseRoster([]byte(fmt.Sprintf(`{"targets":{"clean":{"url":%q}}}`, clean)), true)
	if err != nil {
		t.Fatal(err)
	}
	b := RunBoard(context.Background(), r, Options{Version: "test", AllowLoopback: true, Timeout: 3 * time.Second})
	if len(b.Rows) != 1 || b.Rows[0].Status != StatusOK || b.Rows[0].Era != "modern-only" || b.Rows[0].MustViolationCount != 0 {
		t.Errorf("rows = %+v", b.Rows)
	}
	if _, listed := methods.Load("tools/list"); !listed {
		t.Error("the server saw no tools/list")
	}
}

func TestRenderEscapesAndEmpty(t *testing.T) {
	var out bytes.Buffer
	b := &Board{Date: "2026-08-20", Rows: []Row{{Server: "<script>alert(1)</script>", URL: "https://x.example/\"><img src=x>", Status: StatusOK, Publishable: true,
		Findings: []result.RuleFinding{{RuleID: "x", Message: "<b>hi</b>"}}}}}
	if err := Render(&out, b, time.Date(2026, 8, 21, 0, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "<script>alert") || strings.Contains(out.String(), "<img src=x>") || strings.Contains(out.String(), "<b>hi") {
		t.Errorf("server strings not escaped:\n%s", out.String())
	}
	out.Reset()
	if err := Render(&out, &Board{Date: "2026-08-20", Rows: []Row{}}, time.Date(2026, 8, 21, 0, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `id="empty"`) || strings.Contains(out.String(), `id="stale"`) {
		t.Errorf("empty state wrong:\n%s", out.String())
	}
}

// browserCheck loads the page in headless Chromium (CI installs the
// chromium package), checks that the rows render and no console error is
// logged, and writes a screenshot to $MCPWARD_ARTIFACTS or a temp dir.
func browserCheck(t *testing.T, page string) {
	bin := testenv.Chromium(t)
	dir := testenv.ArtifactDir(t)
	file := filepath.Join(t.TempDir(), "board.html")
	if err := os.WriteFile(file, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	dom, err := exec.Command(bin, append(testenv.ChromiumArgs(t), "--dump-dom", "file://"+file)...).CombinedOutput()
	if err != nil {
		t.Fatalf("chromium --dump-dom: %v\n%s", err, dom)
	}
	if !strings.Contains(string(dom), `id="row-clean"`) {
		t.Errorf("rendered DOM lacks the rows")
	}
	if strings.Contains(string(dom), "Uncaught") || strings.Contains(string(dom), `"CONSOLE`) && strings.Contains(string(dom), "Error") {
		t.Errorf("console error while loading the page:\n%s", dom)
	}
	shot := filepath.Join(dir, "board.png")
	if out, err := exec.Command(bin, append(testenv.ChromiumArgs(t), "--screenshot="+shot, "--window-size=1280,900", "file://"+file)...).CombinedOutput(); err != nil {
		t.Errorf("chromium --screenshot: %v\n%s", err, out)
	}
	if fi, err := os.Stat(shot); err != nil || fi.Size() == 0 {
		t.Errorf("no screenshot written at %s", shot)
	}
	t.Logf("screenshot: %s", shot)
}

// TestRefusedTarget pins issue 13 item 11: a target the address policy
// refuses is neither "unreachable" nor clean: the row says it was refused,
// carries no findings and no reproduce command, and the page shows no
// MUST-level verdict for it.
func TestRefusedTarget(t *testing.T) {
	r, err := ParseRoster([]byte(`{"targets":{"intranet":{"url":"https://wiki.corp.example/mcp"}}}`), false)
	if err != nil {
		t.Fatal(err)
	}
	resolve := func(ctx context.Context, host string) ([]netip.Addr, error) {
		return []netip.Addr{netip.MustParseAddr("10.1.2.3")}, nil
	}
	now := time.Date(2026, 8, 20, 6, 17, 0, 0, time.UTC)
	b := RunBoard(context.Background(), r, Options{Now: func() time.Time { return now }, Resolve: resolve, Timeout: time.Second})
	if len(b.Rows) != 1 {
		t.Fatalf("rows = %d", len(b.Rows))
	}
	row := b.Rows[0]
	if row.Status != StatusRefused || row.Command != "" || row.MustViolationCount != 0 || len(row.Findings) != 0 || len(row.Assertions) != 0 {
		t.Errorf("refused row = %+v", row)
	}
	if !strings.Contains(row.StatusDetail, "private") {
		t.Errorf("status detail %q does not say why", row.StatusDetail)
	}
	var page bytes.Buffer
	if err := Render(&page, b, now); err != nil {
		t.Fatal(err)
	}
	html := page.String()
	if !strings.Contains(html, "refused: non-public address") {
		t.Error("page does not say the target was refused")
	}
	for _, bad := range []string{"not tested (unreachable)", "no MUST-level findings", "mcpward compat --url"} {
		if strings.Contains(html, bad) {
			t.Errorf("page shows %q for a refused target", bad)
		}
	}
}

// TestWorkflowRoster pins issue 13 item 11: the board workflow reads a
// roster that is in the repository and that the strict reader accepts
// (https only, no credentials).
func TestWorkflowRoster(t *testing.T) {
	wf, err := os.ReadFile(filepath.Join("..", "..", ".github", "workflows", "board.yml"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`mcpward board run (\S+)`).FindSubmatch(wf)
	if m == nil {
		t.Fatal("board.yml runs no 'mcpward board run ROSTER'")
	}
	b, err := os.ReadFile(filepath.Join("..", "..", string(m[1])))
	if err != nil {
		t.Fatalf("the workflow's roster is not in the repository: %v", err)
	}
	r, err := ParseRoster(b, false)
	if err != nil {
		t.Fatalf("%s: %v", m[1], err)
	}
	if len(r.Targets) == 0 {
		t.Errorf("%s lists no servers", m[1])
	}
}
