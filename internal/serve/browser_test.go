package serve

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/contract"
	"github.com/mcpward/mcpward/internal/feed"
	"github.com/mcpward/mcpward/internal/report"
	"github.com/mcpward/mcpward/internal/report/text"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/snapshot"
	"github.com/mcpward/mcpward/internal/testenv/browser"
	"github.com/mcpward/mcpward/internal/verdict"
)

// setFilter types a filter the way the page sees typing: value, then an
// input event.
func setFilter(p *browser.Page, q string) {
	browser.Eval[bool](p, `(() => { const f = document.getElementById("filter"); f.value = `+quote(q)+`;
	f.dispatchEvent(new Event("input", {bubbles: true})); return true; })()`)
}

func quote(s string) string {
	var b bytes.Buffer
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// noMarkup fails if the planted description became elements anywhere.
func noMarkup(t *testing.T, p *browser.Page, where string) {
	t.Helper()
	for _, sel := range []string{"main img", "main script"} {
		if n := p.Count(sel); n != 0 {
			t.Errorf("%s: the planted markup became %d %q element(s)", where, n, sel)
		}
	}
	// The page's own <b> elements hold labels; the planted ones hold these.
	if n := browser.Eval[int](p, `[...document.querySelectorAll("main b")].filter((b) => ["bold", "redact"].includes(b.textContent)).length`); n != 0 {
		t.Errorf("%s: the planted markup became %d b element(s)", where, n)
	}
	if pwned := browser.Eval[bool](p, `document.body.dataset.pwned === "1"`); pwned {
		t.Errorf("%s: the planted handler ran", where)
	}
}

// TestBrowserSessions: the sessions page lists the recorded session and
// picks up a session fed to the hub over its socket; the session page
// shows the stream, filters it with the report's language, shows a tool
// description with markup as text, and follows a log that grows.
func TestBrowserSessions(t *testing.T) {
	e := newEnv(t)
	h := e.startHub(t, true)
	srv, _ := start(t, &Options{Version: "test", Hub: h, HubMode: "socket", SnapshotDir: e.snapshots, Token: "tok-123"})
	p := browser.New(t)
	// The URL mcpward serve prints: the token becomes a cookie that every
	// fetch and the event stream then carry.
	p.Load(srv.URL + "/?token=tok-123")
	p.WaitText("#sessions", "weather")
	p.WaitFunc("the event stream", `document.body.dataset.live === "1"`)
	if got := browser.Eval[string](p, `location.href`); got != srv.URL+"/" {
		t.Errorf("address bar = %q, want the token gone", got)
	}
	if got := p.Text("#sessions-table tbody"); !strings.Contains(got, "sessA") || !strings.Contains(got, "stdio") {
		t.Errorf("sessions table = %q", got)
	}
	p.Screenshot("serve-sessions")

	// A proxy feeds a new session to the hub: the list shows it, live.
	sink := feed.New(&feed.Options{Socket: h.Socket(), Session: "sessL", Label: "live-feed", Log: filepath.Join(e.sessions, "live-feed-9-cccc.jsonl"), PID: 9})
	t.Cleanup(func() { sink.Close() })
	sink.Record(&session.Record{V: session.Version, Session: "sessL", Label: "live-feed", Seq: 1, Time: time.Date(2026, 8, 1, 14, 0, 0, 0, time.UTC),
		Dir: session.ClientToServer, Transport: session.Stdio, Frame: []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`), HasFrame: true, Size: 40})
	p.WaitText("#sessions", "live-feed")
	p.Screenshot("serve-sessions-live")

	p.Click(`a[href="#/session/sessA"]`)
	p.WaitText("#count", "5 of 5 matching frames (5 in all)")
	p.WaitText("#findings", "") // rendered
	if got := p.Text("#rows"); !strings.Contains(got, "tools/list") || !strings.Contains(got, "tools/call evil_tool") || !strings.Contains(got, "server says hello") {
		t.Errorf("stream = %q", got)
	}
	// The filter language of the HTML report.
	setFilter(p, "status:error")
	p.WaitText("#count", "2 of 2 matching frames (5 in all)")
	setFilter(p, "kind:stderr")
	p.WaitText("#count", "1 of 1 matching frames (5 in all)")
	setFilter(p, "tool:evil dir:s2c")
	p.WaitText("#count", "1 of 1 matching frames (5 in all)")
	setFilter(p, "id:1 kind:response")
	p.WaitText("#count", "1 of 1 matching frames (5 in all)")
	// Open the tools/list answer: the description is text.
	p.Click("#rows tr.row")
	// Open every level of the JSON view (each opens lazily) until the
	// description is in.
	p.WaitFunc("the description in the opened frame", `(document.querySelectorAll("#rows details:not([open])").forEach((d) => { d.open = true; }),
		document.getElementById("rows").textContent.includes("<b>bold</b> & <script>alert(1)</script>"))`)
	noMarkup(t, p, "session page")
	p.Screenshot("serve-session")

	// The log grows: the page follows.
	f, err := os.OpenFile(filepath.Join(e.sessions, "weather-1-aaaa.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(logLine("sessA", "weather", 6))
	f.Close()
	p.WaitText("#count", "(6 in all)")
	p.NoErrors()
}

// TestBrowserSnapshots: the snapshots page lists both snapshots, a
// snapshot's tools show a description with markup as text, and the diff
// page groups the findings by tier and shows the CLI's report verbatim.
func TestBrowserSnapshots(t *testing.T) {
	e := newEnv(t)
	e.recordSnapshots(t)
	srv, _ := start(t, &Options{Version: "test", SnapshotDir: e.snapshots})
	p := browser.New(t)
	p.Load(srv.URL + "/#/snapshots")
	p.WaitText("#snapshots-table", "clean-fixture@2.0.0")
	if got := p.Text("#snapshots-table"); !strings.Contains(got, "a.snapshot.json") || !strings.Contains(got, "clean-fixture@1.0.0") {
		t.Errorf("snapshots = %q", got)
	}
	p.Screenshot("serve-snapshots")

	p.Click(`a[href="#/snapshot/b.snapshot.json"]`)
	p.WaitText("#tools", "get_weather")
	descs := browser.Eval[[]string](p, `[...document.querySelectorAll("#tools tbody tr")].map((tr) => tr.children[2].textContent)`)
	found := false
	for _, d := range descs {
		found = found || d == Markup
	}
	if !found {
		t.Errorf("descriptions = %q, want one equal to the planted markup", descs)
	}
	noMarkup(t, p, "snapshot page")
	p.Screenshot("serve-snapshot")

	browser.Eval[bool](p, `(location.hash = "#/snapshots", true)`)
	p.WaitText("#snapshots-table", "clean-fixture@2.0.0")
	p.Click("#diff")
	p.WaitText("#groups", "tool.removed")
	// Grouped by tier, most severe first.
	groups := browser.Eval[[]string](p, `[...document.querySelectorAll("#groups section.group")].map((g) => g.dataset.tier)`)
	if !strings.HasPrefix(strings.Join(groups, ","), "breaking,risky") || !strings.Contains("breaking,risky,compatible,cosmetic", strings.Join(groups, ",")) {
		t.Errorf("tier groups = %v, want breaking first, in tier order", groups)
	}
	// The report is `mcpward diff`'s text, byte for byte.
	want := diffText(t, e)
	if got := p.Text("#report"); got != want {
		t.Errorf("report differs from mcpward diff's text:\n--- page\n%s\n--- cli\n%s", got, want)
	}
	if got := p.Text("#markdown pre"); !strings.Contains(got, "tool.removed") || !strings.Contains(got, "|") {
		t.Errorf("markdown = %q", got)
	}
	if got := p.Text("#verdict"); !strings.Contains(got, "gate failed") || !strings.Contains(got, "exit 1") {
		t.Errorf("verdict = %q", got)
	}
	noMarkup(t, p, "diff page")
	p.Screenshot("serve-diff")
	p.NoErrors()
}

// diffText is what `mcpward diff a b` prints (text, piped) for the env's
// snapshots, as the diff command builds it.
func diffText(t *testing.T, e *env) string {
	t.Helper()
	oldPath, newPath := filepath.Join(e.snapshots, "a.snapshot.json"), filepath.Join(e.snapshots, "b.snapshot.json")
	old, err := contract.ReadSnapshot(oldPath, false)
	if err != nil {
		t.Fatal(err)
	}
	cur, err := contract.ReadSnapshot(newPath, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := snapshot.Comparable(old, cur); err != nil {
		t.Fatal(err)
	}
	gate, _ := verdict.ParseGate("risky", nil, nil)
	r := verdict.Compare(&verdict.Comparison{Command: "diff", Version: "test", Old: old, New: cur, OldPath: oldPath, NewPath: newPath,
		FindingFile: newPath, Gate: gate, Problems: append(verdict.SideProblems("old", old), verdict.SideProblems("new", cur)...)})
	var b bytes.Buffer
	if err := text.Write(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// compatResult is a saved compat Result with a verdict grid whose tool
// name carries markup.
func compatResult(t *testing.T, path string) {
	t.Helper()
	r := &result.Result{SchemaVersion: result.SchemaVersion, Tool: "mcpward", Version: "test", Command: "compat",
		Target: &result.Target{Name: "notes", Transport: "stdio", Endpoint: "degrader-honest"}, Findings: []result.Finding{},
		Evidence: result.Evidence{Complete: true, Status: "ok"},
		Compat: &result.Compat{Server: "degrader-honest@1.0.0", Era: "modern-only", SupportedVersions: []string{"2026-07-28"},
			Profiles:   []string{"modern-full", "no-elicitation"},
			Assertions: []result.Assertion{{ID: "transport.get_not_405", Verdict: "pass", Detail: "GET answered 405"}},
			Verdicts: map[string]map[string]string{
				"summarize_note": {"modern-full": "ok", "no-elicitation": "degraded-reported"},
				"<b>redact</b>":  {"modern-full": "ok", "no-elicitation": "declined-correctly"},
				"confirm_delete": {"modern-full": "ok", "no-elicitation": "violation"},
			}}}
	r.Violations = []result.RuleFinding{
		{RuleID: "elicitation.unsolicited", Level: "MUST", Class: "violation", Subject: "tools.confirm_delete", Message: "asked for elicitation the client did not declare", Profile: "no-elicitation"},
		{RuleID: "tools.call.degraded", Level: "MAY", Class: "info", Subject: "tools.summarize_note", Message: "answered a reduced result and said so"},
	}
	r.ExitCode = result.Violation
	var b bytes.Buffer
	if err := report.WriteJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, b.String())
}

// TestBrowserResults: a saved compat result shows its verdict grid and
// the report's text.
func TestBrowserResults(t *testing.T) {
	e := newEnv(t)
	compatResult(t, filepath.Join(e.results, "compat.json"))
	srv, _ := start(t, &Options{Version: "test", ResultDirs: []string{e.results}})
	p := browser.New(t)
	p.Load(srv.URL + "/#/results")
	p.WaitText("#results-table", "compat.json")
	p.Click(`#results-table a`)
	p.WaitText("#grid", "degraded-reported")
	rows := browser.Eval[[]string](p, `[...document.querySelectorAll("#grid tr")].map((tr) => [...tr.children].map((c) => c.textContent).join("|"))`)
	want := []string{"tool|modern-full|no-elicitation", "<b>redact</b>|ok|declined-correctly", "confirm_delete|ok|violation", "summarize_note|ok|degraded-reported"}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Errorf("grid rows = %q, want %q", rows, want)
	}
	// Issue 25 item 10: the violation cell is coloured, an ok cell is not.
	bg := func(sel string) string {
		return browser.Eval[string](p, `getComputedStyle(document.querySelector(`+quote(sel)+`)).backgroundColor`)
	}
	if got := bg(`#grid td[data-verdict="violation"]`); got != "rgb(255, 235, 233)" {
		t.Errorf("violation cell background = %s, want the red tint", got)
	}
	if got := bg(`#grid td[data-verdict="ok"]`); got != "rgba(0, 0, 0, 0)" {
		t.Errorf("ok cell background = %s, want none", got)
	}
	// The exit code, explained; the findings listed, coloured by class.
	if got := p.Text("#exit"); !strings.Contains(got, "exit 3: the server violates the protocol (a MUST-level rule)") {
		t.Errorf("exit line = %q", got)
	}
	findings := browser.Eval[[]string](p, `[...document.querySelectorAll("#findings .finding")].map((f) =>
		f.dataset.class + "|" + f.textContent + "|" + getComputedStyle(f.querySelector(".level")).color)`)
	wantF := []string{
		"violation|MUST elicitation.unsolicited tools.confirm_delete: asked for elicitation the client did not declare|rgb(204, 0, 0)",
		"info|MAY tools.call.degraded tools.summarize_note: answered a reduced result and said so|rgb(110, 110, 115)",
	}
	if strings.Join(findings, "\n") != strings.Join(wantF, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(findings, "\n"), strings.Join(wantF, "\n"))
	}
	if got := p.Text("#report"); !strings.Contains(got, "degraded-reported") {
		t.Errorf("report = %q", got)
	}
	noMarkup(t, p, "result page")
	p.Screenshot("serve-result")
	p.NoErrors()
}

// TestBrowserBoard: the board page runs its own inline script under the
// hash policy (the filter hides rows) without a console error.
func TestBrowserBoard(t *testing.T) {
	dir := t.TempDir()
	writeBoard(t, dir)
	srv, _ := start(t, &Options{Version: "test", Board: dir, Now: func() time.Time { return time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC) }})
	p := browser.New(t)
	p.Load(srv.URL + "/board")
	p.WaitText("#rows", "weather-co")
	if got := p.Text("#rows"); !strings.Contains(got, "<b>intranet</b>") || !strings.Contains(got, "refused: non-public address") {
		t.Errorf("board rows = %q", got)
	}
	if n := p.Count("#rows b"); n != 0 {
		t.Errorf("a server name became %d b element(s)", n)
	}
	setFilter(p, "weather")
	p.WaitFunc("the board's filter", `document.getElementById("row-weather-co").style.display === "" &&
		[...document.querySelectorAll("tr.row")].filter((r) => r.style.display === "none").length === 1`)
	p.Screenshot("serve-board")
	// Issue 25 item 10: the board keeps the app's navigation.
	if got := browser.Eval[[]string](p, `[...document.querySelectorAll("#nav a")].map((a) => a.textContent + " " + a.getAttribute("href"))`); strings.Join(got, ", ") != "Sessions /#/sessions, Snapshots /#/snapshots, Results /#/results, Board /board" {
		t.Errorf("board navigation = %q", got)
	}
	// Following the link (as a load, so the wait does not race the
	// navigation) leads back into the app.
	p.Load(browser.Eval[string](p, `document.querySelector('#nav a[href="/#/results"]').href`))
	p.WaitFunc("the results page", `location.hash === "#/results" && document.getElementById("main").dataset.ready === "1"`)
	p.NoErrors()
}

// TestBrowserCheck: the public check form against a loopback fixture
// (test policy), then a refused input shown as the API's error.
func TestBrowserCheck(t *testing.T) {
	target, methods := fixtureServer(t, "clean@v1")
	srv, _ := start(t, &Options{Version: "test", Public: true, Check: &CheckOptions{AllowLoopback: true, Timeout: time.Minute, RequestTimeout: 30 * time.Second}})
	p := browser.New(t)
	p.Load(srv.URL + "/")
	p.WaitFunc("the check form", `!!document.getElementById("check-form")`)
	if n := p.Count(`#nav a[data-page="sessions"]`); n != 0 {
		t.Error("the public app links the sessions page")
	}
	browser.Eval[bool](p, `(document.getElementById("url").value = `+quote(target)+`, true)`)
	p.Click(`#check-form button[type=submit]`)
	p.WaitText("#check-result", "checked — era: modern-only")
	if got := p.Text("#check-result"); !strings.Contains(got, "no MUST-level findings") {
		t.Errorf("check result = %q", got)
	}
	if _, called := methods.Load("tools/call"); called {
		t.Error("the check sent tools/call")
	}
	p.Screenshot("serve-check")
	browser.Eval[bool](p, `(document.getElementById("url").value = "ftp://example.com/mcp", true)`)
	p.Click(`#check-form button[type=submit]`)
	p.WaitText("#error", "the URL must be https://")
	p.Screenshot("serve-check-refused")
	// A 400 from fetch is logged by Chromium as a failed resource load;
	// only that one is expected.
	p.Sync()
	for _, e := range p.Errors() {
		if !strings.Contains(e, "/api/check") || !strings.Contains(e, "400") {
			t.Errorf("console error: %s", e)
		}
	}
}
