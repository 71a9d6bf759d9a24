package site

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/site/engine"
	"github.com/mcpward/mcpward/internal/site/sitetest"
	"github.com/mcpward/mcpward/internal/testenv/browser"
)

// served is a static server over the written site, as a static host
// would serve it, that records every request.
type served struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []string // "METHOD /path"
}

func serve(t *testing.T, dir string) *served {
	s := &served{}
	files := http.FileServer(http.Dir(dir))
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.reqs = append(s.reqs, r.Method+" "+r.URL.Path)
		s.mu.Unlock()
		files.ServeHTTP(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *served) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.reqs)
}

func (s *served) count(req string) int {
	n := 0
	for _, r := range s.requests() {
		if r == req {
			n++
		}
	}
	return n
}

// writeSite builds the real engine and writes the site with one board.
func writeSite(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if _, err := Write(dir, &Options{Version: "test", Engine: testEngine(t), Boards: []Board{testBoard(t, "2026-11-30")},
		Now: func() time.Time { return time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC) }}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// groupLines is what the page shows as findings: one "group: line" per
// finding, in order.
func groupLines(p *browser.Page) []string {
	return browser.Eval[[]string](p, `[...document.querySelectorAll("#groups section.group")].flatMap(
		(g) => [...g.querySelectorAll("li")].map((li) => g.dataset.group + ": " + li.textContent))`)
}

func reportLines(rep *engine.Report) []string {
	out := []string{}
	for _, g := range rep.Groups {
		for _, l := range g.Lines {
			out = append(out, g.Name+": "+l.Text)
		}
	}
	return out
}

func readInput(t *testing.T, path string) engine.Input {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return engine.Input{Name: filepath.Base(path), Data: b}
}

// TestEnginePage drives the engine page in Chromium: two snapshots
// dropped give the CLI's findings grouped by tier, each linked to its
// rule; markup in a tool's name and description stays text; a Result
// pasted renders; no console error; and the only requests are GETs of the
// site's own files, the engine fetched once and only when first needed.
func TestEnginePage(t *testing.T) {
	t.Parallel()
	dir := writeSite(t)
	p := browser.New(t)
	srv := serve(t, dir)
	in := t.TempDir()
	clean := sitetest.Record(t, in, "clean", "clean@v1", "clean@v1")
	breaking := sitetest.Record(t, in, "breaking", "drift-breaking@v2", "clean@v1")
	hostile := sitetest.HostileSnapshot(t, clean, in, "hostile")

	p.Load(srv.URL + "/engine.html")
	p.WaitFunc("the page script", `document.body.dataset.ready === "1"`)
	if n := srv.count("GET /engine.wasm.gz") + srv.count("GET /engine-worker.js"); n != 0 {
		t.Errorf("the engine was loaded before it was needed (%d requests)", n)
	}

	// 1. Two snapshots dropped together: the diff, as the CLI words it.
	start := time.Now()
	p.DropFiles("#drop-old", clean, breaking)
	p.WaitText("#verdict", "gate fail-on=risky -> DRIFT (exit 1)")
	t.Logf("time to first result (drop to findings, engine loaded cold): %v; the worker says %s ms",
		time.Since(start).Round(time.Millisecond), browser.Eval[string](p, `document.body.dataset.elapsedMs`))
	want, err := engine.Diff(readInput(t, clean), readInput(t, breaking), engine.DiffOptions{Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if got := groupLines(p); !slices.Equal(got, reportLines(want)) {
		t.Errorf("findings shown:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(reportLines(want), "\n"))
	}
	if !strings.Contains(strings.Join(groupLines(p), "\n"), "breaking: breaking   tool.removed                       tools.archive_note — tool \"archive_note\" was removed") {
		t.Error("the tool.removed line is not the CLI's")
	}
	if got := p.Text("#text"); got != want.Text {
		t.Errorf("text report:\n%s\nwant:\n%s", got, want.Text)
	}
	if n := p.Count(`#groups a.rule[href="rules.html#tool.removed"]`); n != 1 {
		t.Errorf("%d links to tool.removed's rule", n)
	}
	if n, m := p.Count("#groups li"), p.Count("#groups li a.rule"); n != m || n == 0 {
		t.Errorf("%d findings, %d linked to their rule", n, m)
	}
	// Issue 25 item 10: the result, below the inputs, is brought into view.
	if !inView(p, "output") {
		t.Error("the result is not in view after the diff")
	}
	p.Screenshot("site-engine-diff")

	// 2. The hostile snapshot chosen as the new side: a tool named with
	// markup, descriptions of markup, all shown as text.
	p.SetFiles("#file-new", hostile)
	p.WaitText("#chosen-new", "hostile.snapshot.json")
	p.WaitText("#verdict", "gate fail-on=risky -> DRIFT (exit 1)")
	p.WaitText("#groups", "tool.description.changed")
	p.WaitText("#groups", "tool.added                         tools."+sitetest.HostileName+" — tool ")
	assertNoInjection(t, p)

	// 3. A Result document holding markup in a finding, pasted.
	rep, err := engine.Diff(readInput(t, clean), readInput(t, hostile), engine.DiffOptions{Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	json.Unmarshal([]byte(rep.Result), &doc)
	doc["findings"].([]any)[0].(map[string]any)["message"] = "description is now " + sitetest.Hostile
	pasted, _ := json.Marshal(doc)
	p.Paste("#paste-doc", string(pasted))
	p.WaitText("#verdict", "DRIFT (exit 1)")
	p.WaitText("#groups", "description is now "+sitetest.Hostile)
	p.WaitText("#report-title", "Diff")
	assertNoInjection(t, p)
	p.Screenshot("site-engine-result")

	// 4. An unusable input: the CLI's error line.
	p.Paste("#paste-doc", `{"tool": "other"}`)
	p.WaitText("#failure-message", `mcpward: read result pasted doc: not a mcpward result: no "tool": "mcpward" and "schemaVersion" (exit 4)`)

	p.NoErrors()
	for _, r := range srv.requests() {
		if !strings.HasPrefix(r, "GET /") {
			t.Errorf("request %q sent something", r)
		}
		if path := strings.TrimPrefix(r, "GET /"); path != "favicon.ico" {
			if _, err := os.Stat(filepath.Join(dir, path)); err != nil {
				t.Errorf("request for %q, not a file of the site", r)
			}
		}
	}
	if n := srv.count("GET /engine.wasm.gz"); n != 1 {
		t.Errorf("engine.wasm.gz fetched %d times, want once", n)
	}
	for _, u := range p.Requests() {
		if !strings.HasPrefix(u, srv.URL+"/") {
			t.Errorf("the page requested %s, outside the site", u)
		}
	}
	t.Logf("requests: %s", strings.Join(srv.requests(), ", "))
}

// assertNoInjection: no element came from the inputs, no script ran.
func assertNoInjection(t *testing.T, p *browser.Page) {
	t.Helper()
	if n := p.Count("#output img, #output b, #output script, #injected"); n != 0 {
		t.Errorf("%d elements injected from the input", n)
	}
	if title := browser.Eval[string](p, `document.title`); title != "Engine — mcpward" {
		t.Errorf("a script from the input ran: title %q", title)
	}
}

// TestEnginePageBigLog drops a 50 MB session log: it is read in pieces
// with progress shown after each, the page keeps answering meanwhile, and
// the MUST violation in the middle of the log is found.
func TestEnginePageBigLog(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the 50 MB log is not generated")
	}
	dir := writeSite(t)
	p := browser.New(t, browser.Options{Wait: 5 * time.Minute, Timeout: 10 * time.Minute})
	srv := serve(t, dir)
	log := filepath.Join(t.TempDir(), "big.jsonl")
	records := sitetest.Log(t, log, 50<<20)
	fi, _ := os.Stat(log)

	p.Load(srv.URL + "/engine.html")
	p.WaitFunc("the page script", `document.body.dataset.ready === "1"`)
	// A heartbeat on the page's main thread: the longest pause between
	// ticks says whether the page froze (logged, not asserted).
	browser.Eval[bool](p, `(() => { const hb = window.heartbeat = {max: 0, ticks: 0, last: performance.now()};
	setInterval(() => { const now = performance.now(); hb.max = Math.max(hb.max, now - hb.last); hb.last = now; hb.ticks++; }, 20);
	return true; })()`)
	// Every reading progress the page shows ("Checking NAME: X of Y"),
	// caught as it is shown: the engine's own download reports progress
	// first, and a poll of #status could see either.
	browser.Eval[bool](p, `(() => { const st = document.getElementById("status"); window.readStatus = [];
	new MutationObserver(() => { if (st.textContent.startsWith("Checking ") && st.textContent.includes(" of ")) window.readStatus.push(st.textContent); })
		.observe(st, {childList: true, characterData: true, subtree: true});
	return true; })()`)
	start := time.Now()
	p.DropFiles("#drop-log", log)
	// While the log is read, the page answers and shows progress.
	p.WaitFunc("progress while reading", `window.readStatus.length >= 5`)
	if status := browser.Eval[string](p, `window.readStatus[0]`); !strings.Contains(status, "Checking big.jsonl: ") || !strings.Contains(status, " of 50.0 MB") {
		t.Errorf("status while reading = %q", status)
	}
	p.WaitText("#verdict", "MUST violations (exit 3)")
	elapsed := time.Since(start)
	progress := browser.Eval[string](p, `document.body.dataset.progress`)
	hb := browser.Eval[map[string]float64](p, `({max: window.heartbeat.max, ticks: window.heartbeat.ticks})`)
	t.Logf("50 MB log (%d bytes, %d records): %v drop to result (worker: %s ms), %s progress messages, main thread: %.0f ticks, longest pause %.0f ms",
		fi.Size(), records, elapsed.Round(time.Millisecond), browser.Eval[string](p, `document.body.dataset.elapsedMs`), progress, hb["ticks"], hb["max"])
	if n := p.Count(`#groups a.rule[href="rules.html#transport.server_request"]`); n != 1 {
		t.Errorf("%d linked transport.server_request findings", n)
	}
	if hb["ticks"] < 2 {
		t.Errorf("the page's timers did not run while the log was checked (%v ticks)", hb["ticks"])
	}
	assertNoInjection(t, p)
	p.Screenshot("site-engine-log")
	p.NoErrors()
}

// TestOtherPages loads the landing page, the rule catalogue (at a rule's
// anchor), the board list and a board: each renders under its CSP with no
// console error.
func TestOtherPages(t *testing.T) {
	t.Parallel()
	dir := writeSite(t)
	p := browser.New(t)
	srv := serve(t, dir)
	for _, tc := range []struct{ path, sel, want, shot string }{
		{"/index.html", "main", "mcpward in the browser", "site-index"},
		{"/rules.html#tool.removed", "tr:target", "a tool in old is missing in new", "site-rules"},
		{"/board/index.html", "main", "The latest board is 2026-11-30", "site-board-list"},
		{"/board/2026-11-30.html", "#row-clean", "vendor", "site-board"},
	} {
		p.Load(srv.URL + tc.path)
		p.WaitText(tc.sel, tc.want)
		p.Screenshot(tc.shot)
	}
	if n := p.Count("#injected"); n != 0 {
		t.Error("markup in the board's notes became an element")
	}
	// Issue 25 item 10: the board page keeps the site's navigation.
	if got := browser.Eval[[]string](p, `[...document.querySelectorAll("#nav a")].map((a) => a.textContent + " " + a.getAttribute("href"))`); strings.Join(got, ", ") != "Home ../index.html, Demo ../demo.html, Engine ../engine.html, Board ../board/index.html, Rules ../rules.html" {
		t.Errorf("board page navigation = %q", got)
	}
	p.NoErrors()
}

// inView reports whether the top of the element of id is in the window.
func inView(p *browser.Page, id string) bool {
	return browser.Eval[bool](p, `(() => { const r = document.getElementById(`+strconv.Quote(id)+`).getBoundingClientRect();
		return r.top >= 0 && r.top < window.innerHeight; })()`)
}

// TestDemoPage is snapgauge's /demo: from the index, one click on the
// demo page records clean@v1 and drift-breaking@v2 inside the engine's
// worker and shows their diff, the six findings `mcpward diff` prints
// for the two recorded snapshots, and the gate's verdict. Nothing is
// chosen or dropped (the page has no file input), the engine is fetched
// only on the click, and every request is a GET of the site's own files.
func TestDemoPage(t *testing.T) {
	t.Parallel()
	// The site (and the engine it embeds, built on first use: minutes on a
	// busy machine) is ready before the browser starts, so the build does
	// not eat into the browser session's timeout.
	dir := writeSite(t)
	p := browser.New(t)
	srv := serve(t, dir)
	p.Load(srv.URL + "/index.html")
	p.WaitText("#demo-link", "Demo")
	// The link loads another document: wait for its navigation, not in
	// the old document (which the navigation destroys mid-wait).
	p.ClickNavigate("#demo-link")
	p.WaitFunc("the demo page", `location.pathname === "/demo.html" && document.body.dataset.ready === "1"`)
	if n := p.Count("input[type=file], textarea, .drop"); n != 0 {
		t.Errorf("the demo asks for input: %d inputs", n)
	}
	if n := srv.count("GET /engine.wasm.gz"); n != 0 {
		t.Errorf("the engine was loaded before the click (%d requests)", n)
	}
	p.Click("#run-demo")
	p.WaitText("#verdict", "gate fail-on=risky -> DRIFT (exit 1)")
	want, err := engine.Demo(context.Background(), "test")
	if err != nil {
		t.Fatal(err)
	}
	got := groupLines(p)
	if len(got) != 6 || !slices.Equal(got, reportLines(want)) {
		t.Errorf("the demo shows %d findings:\n%s\nwant the six of mcpward diff:\n%s", len(got), strings.Join(got, "\n"), strings.Join(reportLines(want), "\n"))
	}
	for _, rule := range []string{"tool.removed", "tool.input.required.added"} {
		if n := p.Count(`#groups a.rule[href="rules.html#` + rule + `"]`); n != 1 {
			t.Errorf("%d findings linked to %s", n, rule)
		}
	}
	if got := p.Text("#text"); got != want.Text {
		t.Errorf("text report:\n%s\nwant:\n%s", got, want.Text)
	}
	if !inView(p, "output") {
		t.Error("the result is not in view after the run")
	}
	p.Screenshot("site-demo")
	p.NoErrors()
	for _, r := range srv.requests() {
		path, ok := strings.CutPrefix(r, "GET /")
		if !ok {
			t.Errorf("request %q sent something", r)
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, path)); err != nil && path != "favicon.ico" {
			t.Errorf("request for %q, not a file of the site", r)
		}
	}
	if n := srv.count("GET /engine.wasm.gz"); n != 1 {
		t.Errorf("engine.wasm.gz fetched %d times, want once", n)
	}
}
