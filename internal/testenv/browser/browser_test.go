package browser

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// The page the helper is tested on: a strict CSP (no inline script), a file
// input, a drop zone and a paste box, each writing what it received into
// #out; ?throw=1 makes the script throw, ?csp=1 makes it break the CSP.
const page = `<!doctype html>
<html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'">
<title>t</title><script src="app.js" defer></script></head>
<body><input type="file" id="file" multiple><div id="drop">drop here</div><textarea id="paste"></textarea>
<pre id="out"></pre></body></html>`

const script = `
const out = document.getElementById("out");
const show = async (how, files) => {
	for (const f of files) out.textContent += how + ":" + f.name + ":" + (await f.text()).trim() + "\n";
};
document.getElementById("file").addEventListener("change", (e) => show("input", e.target.files));
const drop = document.getElementById("drop");
drop.addEventListener("dragover", (e) => e.preventDefault());
drop.addEventListener("drop", (e) => { e.preventDefault(); show("drop", e.dataTransfer.files); });
document.getElementById("paste").addEventListener("paste", (e) => {
	e.preventDefault();
	out.textContent += "paste:" + e.clipboardData.getData("text/plain") + "\n";
});
const q = new URLSearchParams(location.search);
if (q.has("throw")) setTimeout(() => { throw new Error("boom from the page"); });
if (q.has("csp")) { const s = document.createElement("script"); s.textContent = "1"; document.body.append(s); }
document.body.dataset.ready = "1";
`

func serve(t *testing.T) (*httptest.Server, func() []string) {
	var mu sync.Mutex
	var paths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths = append(paths, r.URL.Path)
		mu.Unlock()
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write([]byte(page))
		case "/app.js":
			w.Header().Set("Content-Type", "text/javascript")
			w.Write([]byte(script))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), paths...)
	}
}

func TestHelpers(t *testing.T) {
	srv, served := serve(t)
	p := New(t)
	p.Load(srv.URL + "/")
	p.WaitFunc("the page script", `document.body.dataset.ready === "1"`)

	dir := t.TempDir()
	a := filepath.Join(dir, "a.json")
	b := filepath.Join(dir, "b <x>.txt")
	os.WriteFile(a, []byte("alpha\n"), 0o644)
	os.WriteFile(b, []byte("beta\n"), 0o644)

	p.SetFiles("#file", a)
	p.WaitText("#out", "input:a.json:alpha")
	p.DropFiles("#drop", a, b)
	p.WaitText("#out", "drop:b <x>.txt:beta")
	p.Paste("#paste", `{"pasted": "<b>x</b>"}`)
	p.WaitText("#out", `paste:{"pasted": "<b>x</b>"}`)
	if got := p.Count("#out b"); got != 0 {
		t.Errorf("markup in the text became %d element(s)", got)
	}
	if got := p.Count("input[type=file]"); got != 1 {
		t.Errorf("DropFiles left its input behind: %d file inputs", got)
	}
	p.NoErrors()
	if shot := p.Screenshot("testenv-browser"); shot == "" {
		t.Error("no screenshot")
	}
	if got := strings.Join(p.Requests(), " "); !strings.Contains(got, srv.URL+"/app.js") {
		t.Errorf("requests = %s, want the script among them", got)
	}
	for _, path := range served() {
		if path != "/" && path != "/app.js" && path != "/favicon.ico" {
			t.Errorf("unexpected request for %s", path)
		}
	}
}

// TestErrorsAreCollected pins that the helper sees what NoErrors must
// report: an uncaught exception, and a Content-Security-Policy violation.
func TestErrorsAreCollected(t *testing.T) {
	srv, _ := serve(t)
	for _, tc := range []struct{ query, want string }{
		{"throw=1", "boom from the page"},
		{"csp=1", "Content Security Policy"},
	} {
		t.Run(tc.query, func(t *testing.T) {
			p := New(t)
			p.Load(srv.URL + "/?" + tc.query)
			p.WaitFunc("the page script", `document.body.dataset.ready === "1"`)
			var found bool
			for range 100 { // the exception is thrown from a timer: sync until it is in
				p.Sync()
				if strings.Contains(strings.Join(p.Errors(), "\n"), tc.want) {
					found = true
					break
				}
			}
			if !found {
				t.Errorf("errors = %q, want one containing %q", p.Errors(), tc.want)
			}
		})
	}
}

// TestWaitTextFails checks that WaitText reports a miss instead of passing.
func TestWaitTextFails(t *testing.T) {
	srv, _ := serve(t)
	ft := &fakeT{TB: t}
	p := New(t, Options{Wait: 200e6})
	p.Load(srv.URL + "/")
	p.t = ft
	func() {
		defer func() { recover() }()
		p.WaitText("#out", "never there")
	}()
	p.t = t
	if !strings.Contains(ft.msg, "not seen") {
		t.Errorf("WaitText on missing text: fatal = %q", ft.msg)
	}
}

// fakeT records Fatalf instead of ending the test.
type fakeT struct {
	testing.TB
	msg string
}

func (f *fakeT) Helper() {}
func (f *fakeT) Fatalf(format string, args ...any) {
	f.msg = strings.TrimSpace(strings.SplitN(fmt.Sprintf(format, args...), "\n", 2)[0])
	panic("fatal")
}
