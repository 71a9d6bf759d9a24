package html

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestEscaper(t *testing.T) {
	tests := []struct {
		name   string
		chunks []string
		want   string
	}{
		{"plain", []string{`{"a":"b"}`}, `{"a":"b"}`},
		{"markup", []string{`{"d":"</script><img src=x onerror=alert(1)>&amp;"}`}, `{"d":"\u003c/script\u003e\u003cimg src=x onerror=alert(1)\u003e\u0026amp;"}`},
		{"line separators", []string{"\"a\u2028b\u2029c\""}, `"a\u2028b\u2029c"`},
		{"separator split", []string{"\"a\xe2", "\x80", "\xa8b\""}, `"a\u2028b"`},
		{"other E2 rune split", []string{"\"\xe2\x82", "\xac\""}, "\"\u20ac\""},
		{"dangling lead at end", []string{"\"x\xe2"}, "\"x\xe2"},
		{"comment opener", []string{`"<!--"`}, `"\u003c!--"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			w := NewWriter(&out, nil)
			for _, c := range tt.chunks {
				if _, err := w.Data().Write([]byte(c)); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			got := dataOf(t, out.String())
			if got != tt.want {
				t.Errorf("data = %q, want %q", got, tt.want)
			}
		})
	}
}

func dataOf(t *testing.T, page string) string {
	t.Helper()
	open := `<script type="application/json" id="` + DataID + `">`
	i := strings.Index(page, open)
	if i < 0 {
		t.Fatal("no data element")
	}
	rest := page[i+len(open):]
	j := strings.Index(rest, "</script>")
	if j < 0 {
		t.Fatal("data element not closed")
	}
	return rest[:j]
}

// TestHostileDataStaysInert checks the bytes of a page whose data holds
// markup: nothing in the data can end the element, and the decoded JSON
// is what went in.
func TestHostileDataStaysInert(t *testing.T) {
	desc := "<script>alert(1)</script><img src=x onerror=alert(2)> \u2028 </SCRIPT ><!-- & -->"
	doc, _ := json.Marshal(map[string]string{"description": desc})
	var out bytes.Buffer
	w := NewWriter(&out, &Options{Title: "<b>log</b>.jsonl"})
	w.Data().Write(doc)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	page := out.String()
	data := dataOf(t, page)
	for _, bad := range []string{"<", ">", "&", "\u2028"} {
		if strings.Contains(data, bad) {
			t.Errorf("data contains %q", bad)
		}
	}
	var back map[string]string
	if err := json.Unmarshal([]byte(data), &back); err != nil {
		t.Fatal(err)
	}
	if back["description"] != desc {
		t.Errorf("round trip = %q, want %q", back["description"], desc)
	}
	if strings.Count(strings.ToLower(page), "<script") != 2 {
		t.Errorf("page has %d script elements, want 2", strings.Count(strings.ToLower(page), "<script"))
	}
	if !strings.Contains(page, "<title>mcpward session report: &lt;b&gt;log&lt;/b&gt;.jsonl</title>") {
		t.Error("title not escaped")
	}
	for _, bad := range []string{"<!--", "<script", "</script"} {
		if strings.Contains(strings.ToLower(script()), bad) {
			t.Errorf("the page script contains %q, which the HTML parser acts on", bad)
		}
	}
	for name, js := range map[string]string{"app.js": appJS, "stream.js": streamJS, "filter.js": filterJS} {
		if strings.Contains(js, "innerHTML") || strings.Contains(js, "insertAdjacentHTML") || strings.Contains(js, "document.write") {
			t.Errorf("%s uses a markup sink", name)
		}
	}
	for _, fetch := range []string{"http://", "https://", "fetch(", "XMLHttpRequest", "src="} {
		if strings.Contains(script(), fetch) || strings.Contains(styleCSS, fetch) {
			t.Errorf("page code mentions %q (no external fetch allowed)", fetch)
		}
	}
}

func TestCSPCoversTheScript(t *testing.T) {
	var out bytes.Buffer
	w := NewWriter(&out, nil)
	w.Data().Write([]byte(`{}`))
	w.Close()
	page := out.String()
	i := strings.LastIndex(page, "<script>")
	j := strings.LastIndex(page, "</script>")
	if i < 0 || j < i {
		t.Fatal("no script")
	}
	if got := page[i+len("<script>") : j]; cspHash(got) != cspHash(script()) || !strings.Contains(CSP(), cspHash(got)) {
		t.Error("the CSP hash does not cover the page's script")
	}
}

// TestFilterJSAgreesWithGo runs the JavaScript filter over the Go
// package's case table (internal/filter/testdata/cases.json) with node.
func TestFilterJSAgreesWithGo(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not installed: the JavaScript filter is not checked against the Go one")
	}
	cases, err := filepath.Abs("../../filter/testdata/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	js := filepath.Join(dir, "filter.js")
	os.WriteFile(js, []byte(filterJS), 0o600)
	runner := filepath.Join(dir, "run.js")
	os.WriteFile(runner, []byte(`const f = require(process.argv[2]);
const cs = JSON.parse(require("fs").readFileSync(process.argv[3], "utf8"));
const names = Object.keys(cs.rows).sort();
console.log(JSON.stringify(cs.cases.map(c => { const q = f.parse(c.q); return names.filter(n => f.match(q, cs.rows[n])); })));
`), 0o600)
	out, err := exec.Command(node, runner, js, cases).Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var got [][]string
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(cases)
	var cs struct {
		Cases []struct {
			Q     string   `json:"q"`
			Match []string `json:"match"`
		} `json:"cases"`
	}
	json.Unmarshal(b, &cs)
	if len(got) != len(cs.Cases) {
		t.Fatalf("node gave %d results for %d cases", len(got), len(cs.Cases))
	}
	for i, c := range cs.Cases {
		want := append([]string{}, c.Match...)
		sortStrings(want)
		if d := cmp.Diff(want, got[i]); d != "" {
			t.Errorf("JS filter %q (-want +got):\n%s", c.Q, d)
		}
	}
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

func FuzzEscaper(f *testing.F) {
	f.Add([]byte("\"a\u2028<b>&\""), 3)
	f.Add([]byte("\xe2\x80"), 1)
	f.Fuzz(func(t *testing.T, b []byte, split int) {
		var out bytes.Buffer
		w := NewWriter(&out, nil)
		if split < 0 || split > len(b) {
			split = len(b) / 2
		}
		w.Data().Write(b[:split])
		w.Data().Write(b[split:])
		w.Close()
		data := dataOf(t, out.String())
		if strings.ContainsAny(data, "<>&") || strings.Contains(data, "\u2028") || strings.Contains(data, "\u2029") {
			t.Fatalf("unescaped byte in %q", data)
		}
	})
}
