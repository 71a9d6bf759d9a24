// Package browser drives Debian's headless Chromium from Go tests through
// chromedp: one browser and one tab per test, the console errors and
// uncaught exceptions of the page collected, every request the page made
// recorded, and helpers to load a page, hand it files (a file input, a
// drop, a paste), wait for text and keep a screenshot as a CI artifact.
//
// A test that calls New skips when Chromium is not installed, except in CI
// (CI=true), where a missing browser is a failure (.ci/run installs the
// chromium package).
//
// The helpers never use chromedp.Poll: it builds its predicate with
// new Function, which a page under a strict Content-Security-Policy (no
// 'unsafe-eval') refuses, and the refusal would itself be logged as a
// console error. Everything here is evaluated through Runtime.evaluate,
// which the inspector runs outside the page's CSP.
package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/mcpward/mcpward/internal/testenv"
)

// Flags are the command-line flags of every browser this package starts
// (besides a fresh --user-data-dir): headless, no sandbox (CI runs as
// root), no GPU, and no background connection of the browser's own (the
// network here refuses them and they slow the start).
var Flags = []string{
	"headless", "no-sandbox", "disable-gpu", "disable-quic", "no-first-run",
	"disable-background-networking", "disable-component-update", "disable-sync",
	"disable-dev-shm-usage", "no-default-browser-check", "disable-extensions",
	"hide-scrollbars", "mute-audio",
}

// Options tune New; the zero value is usable.
type Options struct {
	// Timeout bounds the whole browser session (default 3 minutes).
	Timeout time.Duration
	// Wait is how long WaitText and WaitFunc wait by default (default 60s:
	// a busy 2-core machine runs several browsers at once).
	Wait time.Duration
	// Width and Height of the window (default 1280x900).
	Width, Height int
}

// Page is one tab of one headless Chromium, bound to a test.
type Page struct {
	t    testing.TB
	ctx  context.Context
	wait time.Duration

	mu       sync.Mutex
	console  []chromedp.ConsoleMessage
	requests []string
}

// Path returns the path of Chromium, or skips the test (fails it in CI).
func Path(t testing.TB) string {
	t.Helper()
	return testenv.Chromium(t)
}

// New starts a headless Chromium with a fresh profile and opens one tab.
// The browser is stopped when the test ends.
func New(t testing.TB, opts ...Options) *Page {
	t.Helper()
	var o Options
	if len(opts) > 0 {
		o = opts[0]
	}
	if o.Timeout == 0 {
		o.Timeout = 3 * time.Minute
	}
	if o.Wait == 0 {
		o.Wait = 60 * time.Second
	}
	if o.Width == 0 {
		o.Width, o.Height = 1280, 900
	}
	bin := Path(t)
	profile := t.TempDir() // removed after the browser has stopped (cleanups run in reverse)

	alloc := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(bin),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(o.Width, o.Height),
	}
	for _, f := range Flags {
		alloc = append(alloc, chromedp.Flag(f, true))
	}
	base, cancelBase := context.WithTimeout(context.Background(), o.Timeout)
	actx, cancelAlloc := chromedp.NewExecAllocator(base, alloc...)
	ctx, cancelCtx := chromedp.NewContext(actx, chromedp.WithLogf(t.Logf))

	p := &Page{t: t, ctx: ctx, wait: o.Wait}
	var wg sync.WaitGroup
	t.Cleanup(func() {
		cancelCtx()
		cancelAlloc()
		cancelBase()
		wg.Wait()
	})
	// The first action starts the browser; the subscriptions below need it.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start chromium %s: %v", bin, err)
	}
	console := chromedp.Console(ctx)
	requests := chromedp.Events(ctx, network.RequestWillBeSent)
	wg.Go(func() {
		for m, err := range console {
			if err != nil {
				return
			}
			p.mu.Lock()
			p.console = append(p.console, m)
			p.mu.Unlock()
		}
	})
	wg.Go(func() {
		for ev, err := range requests {
			if err != nil {
				return
			}
			p.mu.Lock()
			p.requests = append(p.requests, ev.Request.URL)
			p.mu.Unlock()
		}
	})
	return p
}

// Context is the chromedp context of the tab, for actions this package has
// no helper for: chromedp.Run(p.Context(), …).
func (p *Page) Context() context.Context { return p.ctx }

// Load navigates to url and waits for its load event.
func (p *Page) Load(url string) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, chromedp.Navigate(url)); err != nil {
		p.t.Fatalf("load %s: %v%s", url, err, p.consoleTail())
	}
}

// Eval evaluates a JavaScript expression in the page (awaiting it when it
// is a promise) and decodes its value into T.
func Eval[T any](p *Page, expr string) T {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("evaluate %.200s: %v%s", expr, err, p.consoleTail())
	}
	return v
}

// js quotes a Go value as a JavaScript literal.
func js(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// WaitFunc waits until the JavaScript expression cond is truthy, checking
// after every DOM change (and once at the start), for at most the page's
// wait time; what says what was awaited in the failure message.
func (p *Page) WaitFunc(what, cond string) {
	p.t.Helper()
	if !p.wait1(cond) {
		p.t.Fatalf("wait for %s: not seen within %s%s", what, p.wait, p.consoleTail())
	}
}

// wait1 waits for cond as WaitFunc does and says whether it was seen.
func (p *Page) wait1(cond string) bool {
	p.t.Helper()
	expr := `new Promise((resolve) => {
	const check = () => { try { return !!(` + cond + `); } catch (e) { return false; } };
	if (check()) { resolve(true); return; }
	const obs = new MutationObserver(() => { if (check()) { obs.disconnect(); clearTimeout(timer); resolve(true); } });
	obs.observe(document, {childList: true, subtree: true, characterData: true, attributes: true});
	const timer = setTimeout(() => { obs.disconnect(); resolve(check()); }, ` + fmt.Sprint(p.wait.Milliseconds()) + `);
})`
	ok, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("wait for %s: %v%s", cond, err, p.consoleTail())
	}
	return ok
}

// WaitText waits until the text of the first element matching the CSS
// selector contains want; on failure the message shows the text it had.
func (p *Page) WaitText(selector, want string) {
	p.t.Helper()
	cond := `(document.querySelector(` + js(selector) + `)?.textContent ?? "").includes(` + js(want) + `)`
	if !p.wait1(cond) {
		text := p.Text(selector)
		if len(text) > 2000 {
			text = text[:2000] + "…"
		}
		p.t.Fatalf("wait for %q in %s: not seen within %s; its text: %q%s", want, selector, p.wait, text, p.consoleTail())
	}
}

// Text returns the textContent of the first element matching the CSS
// selector ("" when there is none).
func (p *Page) Text(selector string) string {
	p.t.Helper()
	return Eval[string](p, `document.querySelector(`+js(selector)+`)?.textContent ?? ""`)
}

// HTML returns the innerHTML of the first element matching the selector.
func (p *Page) HTML(selector string) string {
	p.t.Helper()
	return Eval[string](p, `document.querySelector(`+js(selector)+`)?.innerHTML ?? ""`)
}

// Count returns how many elements match the CSS selector.
func (p *Page) Count(selector string) int {
	p.t.Helper()
	return Eval[int](p, `document.querySelectorAll(`+js(selector)+`).length`)
}

// Click clicks the first element matching the CSS selector.
func (p *Page) Click(selector string) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.CSS(selector), chromedp.NodeVisible)); err != nil {
		p.t.Fatalf("click %s: %v%s", selector, err, p.consoleTail())
	}
}

// ClickNavigate clicks the first element matching the CSS selector, a
// link or button that loads another document, and waits until that
// document has loaded. A Click followed by a wait races the navigation:
// the wait is evaluated in the old document, and when the new one commits
// while the wait is pending, Chromium drops its context and the wait fails
// with "Inspected target navigated or closed". Here the wait listens for
// the navigation's own events, which span both documents.
func (p *Page) ClickNavigate(selector string) {
	p.t.Helper()
	resp, err := chromedp.RunResponse(p.ctx, chromedp.Click(chromedp.CSS(selector), chromedp.NodeVisible))
	if err != nil {
		p.t.Fatalf("click %s and load the page it leads to: %v%s", selector, err, p.consoleTail())
	}
	if resp != nil && resp.Status >= 400 {
		p.t.Fatalf("click %s: %s answered %d", selector, resp.URL, resp.Status)
	}
}

// SetFiles chooses files on an <input type=file>, as a person would in the
// file dialog: the input's change event fires with real File objects.
func (p *Page) SetFiles(selector string, paths ...string) {
	p.t.Helper()
	abs := absAll(p.t, paths)
	if err := chromedp.Do(p.ctx, chromedp.SetUploadFiles(chromedp.CSS(selector), abs, chromedp.NodeReady)); err != nil {
		p.t.Fatalf("set files on %s: %v%s", selector, err, p.consoleTail())
	}
}

// DropFiles drops files from disk on the first element matching the
// selector: dragenter, dragover and drop events whose DataTransfer holds
// the files as real File objects (read from disk by the browser, so large
// files cost no round trip through the protocol).
func (p *Page) DropFiles(selector string, paths ...string) {
	p.t.Helper()
	abs := absAll(p.t, paths)
	// The files reach the page through a hidden file input of its own:
	// the protocol can only set files on an input.
	id := fmt.Sprintf("mcpward-test-drop-%d", time.Now().UnixNano())
	Eval[bool](p, `(() => { const i = document.createElement("input"); i.type = "file"; i.multiple = true;
	i.id = `+js(id)+`; i.hidden = true; document.body.append(i); return true; })()`)
	p.SetFiles("#"+id, abs...)
	ok := Eval[bool](p, `(() => {
	const input = document.getElementById(`+js(id)+`);
	const target = document.querySelector(`+js(selector)+`);
	if (!target) return false;
	const dt = new DataTransfer();
	for (const f of input.files) dt.items.add(f);
	input.remove();
	for (const type of ["dragenter", "dragover", "drop"]) {
		target.dispatchEvent(new DragEvent(type, {dataTransfer: dt, bubbles: true, cancelable: true}));
	}
	return true;
})()`)
	if !ok {
		p.t.Fatalf("drop files: no element matches %s", selector)
	}
}

// Paste pastes text into the first element matching the selector: it is
// focused and receives a paste event whose clipboardData holds the text
// (as text/plain), as a person's Ctrl+V would deliver it.
func (p *Page) Paste(selector, text string) {
	p.t.Helper()
	ok := Eval[bool](p, `(() => {
	const target = document.querySelector(`+js(selector)+`);
	if (!target) return false;
	target.focus();
	const dt = new DataTransfer();
	dt.setData("text/plain", `+js(text)+`);
	target.dispatchEvent(new ClipboardEvent("paste", {clipboardData: dt, bubbles: true, cancelable: true}));
	return true;
})()`)
	if !ok {
		p.t.Fatalf("paste: no element matches %s", selector)
	}
}

// Screenshot writes a PNG of the whole page to the artifact folder
// ($MCPWARD_ARTIFACTS when set, else a temporary folder) as name.png and
// returns its path.
func (p *Page) Screenshot(name string) string {
	p.t.Helper()
	buf, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.t.Errorf("screenshot %s: %v", name, err)
		return ""
	}
	path := filepath.Join(testenv.ArtifactDir(p.t), name+".png")
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		p.t.Errorf("screenshot %s: %v", name, err)
		return ""
	}
	p.t.Logf("screenshot: %s", path)
	return path
}

// Console returns every console message, uncaught exception and browser
// log entry seen so far.
func (p *Page) Console() []chromedp.ConsoleMessage {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]chromedp.ConsoleMessage(nil), p.console...)
}

// Errors returns the console errors and uncaught exceptions seen so far
// (a Content-Security-Policy violation is one: the browser logs it as an
// error). The browser's own request for /favicon.ico, which a page did not
// ask for, is not counted when it fails.
func (p *Page) Errors() []string {
	var errs []string
	for _, m := range p.Console() {
		if m.Source == "network" && strings.HasSuffix(m.URL, "/favicon.ico") {
			continue
		}
		if m.Type == chromedp.ConsoleError || m.IsException() {
			errs = append(errs, describe(m))
		}
	}
	return errs
}

// NoErrors fails the test if the page logged a console error or threw an
// uncaught exception. The console is read first through a round trip to
// the page, so messages logged before the call have arrived.
func (p *Page) NoErrors() {
	p.t.Helper()
	p.Sync()
	if errs := p.Errors(); len(errs) > 0 {
		p.t.Errorf("the page logged %d console error(s):\n%s", len(errs), strings.Join(errs, "\n"))
	}
}

// Sync makes sure every event the page sent before the call has been
// collected: it logs a marker and waits until the marker arrives.
func (p *Page) Sync() {
	p.t.Helper()
	marker := fmt.Sprintf("mcpward-browser-sync-%d", time.Now().UnixNano())
	Eval[bool](p, `(console.debug(`+js(marker)+`), true)`)
	deadline := time.After(p.wait)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		for _, m := range p.Console() {
			if m.Text == marker {
				return
			}
		}
		select {
		case <-deadline:
			p.t.Fatalf("console marker not seen within %s", p.wait)
		case <-p.ctx.Done():
			p.t.Fatalf("browser gone: %v", p.ctx.Err())
		case <-tick.C:
		}
	}
}

// Requests returns the URL of every request the page's frame made so far
// (navigations, scripts, fetches; a worker's own fetches are not seen here,
// count them where they are served).
func (p *Page) Requests() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.requests...)
}

func describe(m chromedp.ConsoleMessage) string {
	where := ""
	if m.URL != "" {
		where = fmt.Sprintf(" (%s:%d)", m.URL, m.Line+1)
	}
	return fmt.Sprintf("  %s: %s%s", m.Type, m.Text, where)
}

// consoleTail is the console so far, for a failure message.
func (p *Page) consoleTail() string {
	msgs := p.Console()
	if len(msgs) == 0 {
		return ""
	}
	if len(msgs) > 20 {
		msgs = msgs[len(msgs)-20:]
	}
	var b strings.Builder
	b.WriteString("\nconsole:")
	for _, m := range msgs {
		b.WriteString("\n" + describe(m))
	}
	return b.String()
}

func absAll(t testing.TB, paths []string) []string {
	t.Helper()
	out := make([]string, len(paths))
	for i, p := range paths {
		a, err := filepath.Abs(p)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(a); err != nil {
			t.Fatalf("file for the browser: %v", err)
		}
		out[i] = a
	}
	return out
}
