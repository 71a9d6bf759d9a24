package sessexportcmd

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/testenv/browser"
)

func factory(ios *iostreams.IOStreams, home string) *cmdutil.Factory {
	return &cmdutil.Factory{IOStreams: ios, Version: "test",
		Now:       func() time.Time { return time.Date(2026, 8, 2, 0, 0, 0, 0, time.UTC) },
		LookupEnv: func(k string) (string, bool) { return home, k == "MCPWARD_HOME" },
		Getwd:     func() (string, error) { return home, nil },
	}
}

var t0 = time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)

func rec(sess string, seq uint64, dir session.Direction, frame string) []byte {
	return session.AppendRecord(nil, &session.Record{Session: sess, Label: "demo", Seq: seq,
		Time: t0.Add(time.Duration(seq) * 10 * time.Millisecond), Dir: dir,
		Transport: session.Stdio, Frame: []byte(frame), HasFrame: true})
}

// hostileTools is a tools/list result whose description tries to inject
// markup into the HTML report.
const hostileDesc = `<script>alert(1)</script><img src=x onerror=alert(2)>`

func sampleLog() []byte {
	var log []byte
	start := session.AppendRecord(nil, &session.Record{Session: "S1", Label: "demo", Seq: 1, Time: t0, Dir: session.Meta,
		Transport: session.Stdio, Kind: session.KindStart, Info: json.RawMessage(`{"argv":["srv","--token=hunter2"],"cwd":"/"}`)})
	log = append(log, start...)
	log = append(log, rec("S1", 2, session.ClientToServer, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)...)
	log = append(log, rec("S1", 3, session.ServerToClient, `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"evil","description":"`+hostileDesc+`","inputSchema":{"type":"object"}}]}}`)...)
	log = append(log, rec("S1", 4, session.ClientToServer, `{"jsonrpc":"2.0", "id":2, "method":"tools/call","params":{"name":"evil","arguments":{"password":"s3cret", "q":"a<b"}}}`)...)
	log = append(log, rec("S1", 5, session.ServerToClient, `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"`+hostileDesc+`"}]}}`)...)
	log = append(log, rec("S1", 6, session.Stderr, `boot <ok> & ready`)...)
	log = append(log, rec("S1", 7, session.ClientToServer, `{"jsonrpc":"2.0","id":"p","method":"tools/call","params":{"name":"evil"}}`)...)
	log = append(log, rec("S2", 1, session.ClientToServer, `{"jsonrpc":"2.0","id":1,"method":"ping"}`)...)
	torn := rec("S2", 2, session.ServerToClient, `{"jsonrpc":"2.0","id":1,"result":{}}`)
	return append(log, torn[:20]...)
}

func writeLog(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "run.jsonl")
	if err := os.WriteFile(p, sampleLog(), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func run(t *testing.T, home string, args ...string) (string, string, error) {
	t.Helper()
	ios, _, out, errOut := iostreams.Test()
	cmd := NewCmdExport(factory(ios, home), nil)
	cmd.SetArgs(args)
	cmd.SetOut(errOut)
	cmd.SetErr(errOut)
	_, err := cmd.ExecuteC()
	return out.String(), errOut.String(), err
}

func TestFlags(t *testing.T) {
	tests := []struct {
		args    []string
		want    ExportOptions
		wantErr bool
	}{
		{args: []string{"x.jsonl"}, want: ExportOptions{Log: "x.jsonl", Format: "json", Output: "-"}},
		{args: []string{"-T", "HTML", "-o", "r.html", "--session", "01J"}, want: ExportOptions{Format: "html", Output: "r.html", SessionID: "01J"}},
		{args: []string{"--redact-secrets", "--redact-key", "a,b", "--check", "-T", "har"}, want: ExportOptions{Format: "har", Output: "-", Check: true}},
		{args: []string{"-T", "pdf"}, wantErr: true},
		{args: []string{"--redact-value", "("}, wantErr: true},
		{args: []string{"a", "b"}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			ios, _, _, _ := iostreams.Test()
			var got *ExportOptions
			cmd := NewCmdExport(factory(ios, t.TempDir()), func(o *ExportOptions) error { got = o; return nil })
			cmd.SetArgs(tt.args)
			cmd.SetOut(&bytes.Buffer{})
			cmd.SetErr(&bytes.Buffer{})
			_, err := cmd.ExecuteC()
			if tt.wantErr {
				if err == nil {
					t.Fatal("no error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got.IO, got.Factory, got.Version = nil, nil, ""
			tt.want.Redact = got.Redact
			if d := cmp.Diff(tt.want, *got); d != "" {
				t.Errorf("opts (-want +got):\n%s", d)
			}
		})
	}
}

type exportDoc struct {
	Format   string            `json:"format"`
	Entries  []json.RawMessage `json:"entries"`
	Sessions []struct {
		ID      string `json:"id"`
		Summary struct {
			Tools []struct {
				Name  string `json:"name"`
				Calls int    `json:"calls"`
			} `json:"tools"`
		} `json:"summary"`
	} `json:"sessions"`
	Findings []struct {
		RuleID string `json:"ruleId"`
	} `json:"findings"`
	Problems []string `json:"problems"`
}

func TestJSONFramesVerbatimAllSessions(t *testing.T) {
	dir := t.TempDir()
	path := writeLog(t, dir)
	out, errOut, err := run(t, dir, path, "--check")
	if err != nil {
		t.Fatal(err)
	}
	var doc exportDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	// The request with spaces after commas is spliced in as recorded.
	if !strings.Contains(out, `{"jsonrpc":"2.0", "id":2, "method":"tools/call"`) {
		t.Error("frame was re-encoded")
	}
	if !strings.Contains(out, hostileDesc) || !strings.Contains(out, `boot <ok> & ready`) {
		t.Error("JSON export HTML-escaped captured text")
	}
	if len(doc.Sessions) != 2 {
		t.Errorf("sessions = %d, want 2 (every session of the file)", len(doc.Sessions))
	}
	// calls: tools/list, tools/call, pending tools/call, ping (S2, pending: torn answer)
	var calls, frames int
	for _, e := range doc.Entries {
		var h struct{ Type string }
		json.Unmarshal(e, &h)
		switch h.Type {
		case "call":
			calls++
		case "frame":
			frames++
		}
	}
	if calls != 4 || frames != 2 {
		t.Errorf("calls %d frames %d, want 4 and 2 (meta, stderr)", calls, frames)
	}
	if len(doc.Problems) != 1 || !strings.Contains(doc.Problems[0], "torn last line") || !strings.Contains(errOut, "torn") {
		t.Errorf("problems %q, stderr %q: want the torn line", doc.Problems, errOut)
	}
	found := false
	for _, f := range doc.Findings {
		found = found || f.RuleID == "message.request_unanswered"
	}
	if !found {
		t.Errorf("--check findings %v lack message.request_unanswered", doc.Findings)
	}
}

func TestSessionFilterAndRedaction(t *testing.T) {
	dir := t.TempDir()
	path := writeLog(t, dir)
	out, _, err := run(t, dir, path, "--session", "S1", "--redact-key", "password", "--redact-secrets")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, "s3cret") || strings.Contains(out, "hunter2") {
		t.Errorf("secret survived redaction:\n%s", out)
	}
	if !strings.Contains(out, `"redacted":true`) || !strings.Contains(out, `"redaction":true`) {
		t.Error("redacted frames are not flagged")
	}
	if strings.Contains(out, `"S2"`) {
		t.Error("--session S1 exported S2")
	}
	if orig, _ := os.ReadFile(path); !bytes.Equal(orig, sampleLog()) {
		t.Error("the log was changed")
	}
	_, _, err = run(t, dir, path, "--session", "S9")
	if !errors.Is(err, fault.ErrInput) {
		t.Errorf("unknown session: err %v, want an input error", err)
	}
}

func TestOutputRefusesItsInput(t *testing.T) {
	dir := t.TempDir()
	path := writeLog(t, dir)
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink(path, link); err != nil {
		t.Fatal(err)
	}
	hard := filepath.Join(dir, "hard.json")
	if err := os.Link(path, hard); err != nil {
		t.Fatal(err)
	}
	for _, o := range []string{path, link, hard} {
		_, _, err := run(t, dir, path, "-o", o)
		if !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), "session log being read") {
			t.Errorf("-o %s: err %v, want refusal", o, err)
		}
		_, _, err = run(t, dir, link, "-o", o)
		if err == nil {
			t.Errorf("input via symlink, -o %s: no refusal", o)
		}
	}
	if orig, _ := os.ReadFile(path); !bytes.Equal(orig, sampleLog()) {
		t.Error("the log was changed")
	}
}

func TestAtomicOutput(t *testing.T) {
	dir := t.TempDir()
	path := writeLog(t, dir)
	out := filepath.Join(dir, "out", "r.txt")
	os.Mkdir(filepath.Dir(out), 0o700)
	if err := os.WriteFile(out, []byte("old"), 0o640); err != nil {
		t.Fatal(err)
	}
	// A failing export (unknown session) leaves the old file alone and
	// no temporary file behind.
	if _, _, err := run(t, dir, path, "-T", "text", "-o", out, "--session", "nope"); err == nil {
		t.Fatal("no error")
	}
	if b, _ := os.ReadFile(out); string(b) != "old" {
		t.Errorf("old file = %q after a failed export", b)
	}
	if ents, _ := os.ReadDir(filepath.Dir(out)); len(ents) != 1 {
		t.Errorf("leftovers: %v", ents)
	}
	if _, _, err := run(t, dir, path, "-T", "text", "-o", out); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(out)
	if !strings.Contains(string(b), "tools/call evil id 2") {
		t.Errorf("transcript:\n%s", b)
	}
	if st, _ := os.Stat(out); st.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want the old file's 0640", st.Mode().Perm())
	}
	// Through a symlink, the link stays and its target is replaced.
	link := filepath.Join(dir, "report-link.txt")
	os.Symlink(out, link)
	if _, _, err := run(t, dir, path, "-T", "json", "-o", link); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the symlink was replaced by a file")
	}
	if b, _ := os.ReadFile(out); !json.Valid(b) {
		t.Error("symlink target is not the JSON export")
	}
}

func TestHAROutputValidates(t *testing.T) {
	dir := t.TempDir()
	path := writeLog(t, dir)
	out, _, err := run(t, dir, path, "-T", "har")
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	files, _ := filepath.Glob("../../../sessionexport/har/testdata/har-schema/*.json")
	if len(files) == 0 {
		t.Fatal("no HAR schema")
	}
	for _, f := range files {
		b, _ := os.ReadFile(f)
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		c.AddResource("https://har.test/"+filepath.Base(f), doc)
	}
	s, err := c.Compile("https://har.test/har.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(doc); err != nil {
		t.Errorf("HAR export does not validate: %v", err)
	}
	var h struct {
		Log struct {
			Entries []struct {
				Request struct {
					URL      string `json:"url"`
					PostData struct {
						Text string `json:"text"`
					} `json:"postData"`
				} `json:"request"`
				Response struct {
					Status int `json:"status"`
				} `json:"response"`
			} `json:"entries"`
		} `json:"log"`
	}
	json.Unmarshal([]byte(out), &h)
	if len(h.Log.Entries) != 4 || h.Log.Entries[0].Request.URL != "mcp+stdio://demo/" {
		t.Errorf("entries: %+v", h.Log.Entries)
	}
}

func TestHTMLEscapesHostileStrings(t *testing.T) {
	dir := t.TempDir()
	path := writeLog(t, dir)
	out, _, err := run(t, dir, path, "-T", "html")
	if err != nil {
		t.Fatal(err)
	}
	lower := strings.ToLower(out)
	if strings.Count(lower, "<script") != 2 || strings.Contains(out, "<img") || strings.Contains(out, "boot <ok>") {
		t.Error("server-supplied markup reached the HTML")
	}
	if !strings.Contains(out, `\u003cscript\u003ealert(1)\u003c/script\u003e`) {
		t.Error("description not found escaped in the data element")
	}
}

// TestHTMLInChromium loads the report in headless Chromium (CI installs
// Debian's chromium) and checks the rendered DOM: the hostile description
// is text, no element was injected, and the page's own script ran.
func TestHTMLInChromium(t *testing.T) {
	bin := "/usr/bin/chromium"
	if _, err := os.Stat(bin); err != nil {
		t.Skip("no /usr/bin/chromium: the HTML report is not checked in a browser (install Debian's chromium)")
	}
	dir := t.TempDir()
	path := writeLog(t, dir)
	report := filepath.Join(dir, "report.html")
	if _, _, err := run(t, dir, path, "-T", "html", "-o", report, "--check"); err != nil {
		t.Fatal(err)
	}
	chrome := func(fragment string, extra ...string) []byte {
		args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
			"--disable-component-update", "--disable-sync", "--no-first-run", "--user-data-dir=" + filepath.Join(dir, "profile")}, extra...)
		args = append(args, "file://"+report+fragment)
		out, err := exec.Command(bin, args...).Output()
		if err != nil {
			t.Fatalf("chromium %v: %v", extra, err)
		}
		return out
	}
	dom := string(chrome("#filter="+url.QueryEscape("tool:evil kind:response")+"&open=1", "--dump-dom"))
	if !strings.Contains(dom, `data-ready="1"`) {
		t.Fatalf("the report's script did not run:\n%.2000s", dom)
	}
	body := dom
	if i := strings.Index(dom, `<script type="application/json"`); i >= 0 {
		body = dom[:i]
	}
	if strings.Contains(body, "<img") || strings.Contains(body, "<script>alert") || strings.Count(strings.ToLower(dom), "<script") != 2 {
		t.Error("an element was injected into the DOM")
	}
	for _, want := range []string{"evil", "message.request_unanswered", "1 of 1 matching frames (8 in all)",
		`&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;`} {
		if !strings.Contains(body, want) {
			t.Errorf("rendered DOM lacks %q", want)
		}
	}
	if dom := string(chrome("#filter=kind:stderr", "--dump-dom")); !strings.Contains(dom, "boot &lt;ok&gt; &amp; ready") {
		t.Error("the stderr line is not shown as text")
	}
	if art := os.Getenv("MCPWARD_ARTIFACTS"); art != "" {
		shot := filepath.Join(art, "sessions-export-report.png")
		chrome("", "--window-size=1280,1000", "--screenshot="+shot)
		t.Logf("screenshot: %s", shot)
	}
}

func writeFile(path string, b []byte) error { return os.WriteFile(path, b, 0o600) }

// `export - -o FILE < FILE` reads the log from standard input and must not
// replace it with the export; a log piped in (no file) exports as usual.
func TestStdinInput(t *testing.T) {
	dir := t.TempDir()
	path := writeLog(t, dir)
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	ios, _, _, _ := iostreams.Test()
	ios.In = fh
	cmd := NewCmdExport(factory(ios, dir), nil)
	cmd.SetArgs([]string{"-", "-o", path})
	cmd.SetOut(&bytes.Buffer{})
	cmd.SetErr(&bytes.Buffer{})
	if _, err := cmd.ExecuteC(); !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), "session log being read") {
		t.Errorf("-o the file stdin reads: err %v, want refusal", err)
	}
	if orig, _ := os.ReadFile(path); !bytes.Equal(orig, sampleLog()) {
		t.Error("the log was changed")
	}

	ios, in, out, _ := iostreams.Test()
	in.Write(sampleLog())
	cmd = NewCmdExport(factory(ios, dir), nil)
	cmd.SetArgs([]string{"-", "-T", "text"})
	cmd.SetOut(&bytes.Buffer{})
	cmd.SetErr(&bytes.Buffer{})
	if _, err := cmd.ExecuteC(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "== session S2 (demo, stdio) ==") {
		t.Errorf("export of stdin:\n%s", out)
	}
}

// TestHTMLFindingsSection drives the HTML report in Chromium: with
// --check the Findings section lists the traffic findings, each coloured
// by its class (message.request_unanswered is info: grey, not the red of
// a violation); without --check the rules did not run and there is no
// Findings heading at all (it was an empty one).
func TestHTMLFindingsSection(t *testing.T) {
	p := browser.New(t)
	dir := t.TempDir()
	path := writeLog(t, dir)
	for _, tc := range []struct {
		name  string
		check bool
	}{{"checked", true}, {"unchecked", false}} {
		report := filepath.Join(dir, tc.name+".html")
		args := []string{path, "-T", "html", "-o", report}
		if tc.check {
			args = append(args, "--check")
		}
		if _, _, err := run(t, dir, args...); err != nil {
			t.Fatal(err)
		}
		p.Load("file://" + report)
		p.WaitFunc("the report's script", `document.body.dataset.ready === "1"`)
		headings := browser.Eval[[]string](p, `[...document.querySelectorAll("h2")].filter((h) => h.offsetParent !== null).map((h) => h.textContent)`)
		if shown := slices.Contains(headings, "Findings"); shown != tc.check {
			t.Errorf("%s: headings %q: Findings shown = %v, want %v", tc.name, headings, shown, tc.check)
		}
		if !tc.check {
			// The log's torn last record is still reported, as a problem.
			if !slices.Contains(headings, "Problems") || p.Text("#findings") == "" {
				t.Errorf("unchecked: headings %q, problems %q", headings, p.Text("#findings"))
			}
			continue
		}
		got := browser.Eval[[]string](p, `[...document.querySelectorAll("#findings .finding")].map((f) =>
			f.dataset.class + " " + f.querySelector(".rule").textContent + " " + getComputedStyle(f.querySelector(".rule")).color)`)
		if len(got) == 0 {
			t.Fatal("checked: no findings shown")
		}
		for _, g := range got {
			f := strings.Fields(g)
			red := strings.HasPrefix(strings.Join(f[2:], " "), "rgb(204, 0, 0)")
			if f[0] == "" || (f[0] == "violation") != red {
				t.Errorf("finding %q: coloured red = %v for class %q", g, red, f[0])
			}
		}
		if !strings.Contains(strings.Join(got, "\n"), "info message.request_unanswered rgb(110, 110, 115)") {
			t.Errorf("the info finding is not grey: %q", got)
		}
		p.Screenshot("sessions-export-findings")
	}
	p.NoErrors()
}
