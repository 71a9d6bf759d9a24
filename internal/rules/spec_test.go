package rules

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpward/mcpward/internal/diff"
)

// privateDocs are documents the team worked from that are not in the
// repository: nothing a user can see may send them there (issue 13 item 4).
var privateDocs = regexp.MustCompile(`DIGEST|ECOSYSTEM\.md`)

// digestSection is a section number of such a document ("§3.2"), as
// opposed to a JSON-RPC 2.0 section, which is public.
var digestSection = regexp.MustCompile(`(^|[^0-9] )§[0-9]`)

// TestNoPrivateCitations checks every document in docs/, the README and
// every user-visible string of the rule catalogues (what `mcpward rules`,
// the reports and docs/RULES.md print).
func TestNoPrivateCitations(t *testing.T) {
	files, err := filepath.Glob("../../docs/*.md")
	if err != nil || len(files) == 0 {
		t.Fatalf("no docs found: %v", err)
	}
	files = append(files, "../../README.md", "../../boards/README.md")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if privateDocs.MatchString(line) {
				t.Errorf("%s:%d cites a document that is not in the repository: %s", f, i+1, line)
			}
		}
	}
	check := func(where, s string) {
		t.Helper()
		if privateDocs.MatchString(s) {
			t.Errorf("%s cites a document that is not in the repository: %q", where, s)
		}
		if digestSection.MatchString(strings.ReplaceAll(s, "JSON-RPC 2.0 §", "JSON-RPC 2.0 section ")) {
			t.Errorf("%s cites a section number of no public document: %q", where, s)
		}
	}
	for _, r := range All() {
		for _, s := range append([]string{r.Summary, r.Spec, r.Must, r.Note, r.Cite()}, r.Aliases...) {
			check(r.ID, s)
		}
		if r.Section != "" && len(r.SpecRefs()) == 0 {
			t.Errorf("%s: section %q maps to no part of the public spec", r.ID, r.Section)
		}
	}
	for _, c := range Clauses() {
		check("clause "+c.ID, c.ID+" "+c.Text)
	}
	for _, r := range diff.Rules() {
		check(r.ID, r.Summary+" "+r.Rationale)
	}
}

// TestSpecLabelsDocumented checks that docs/spec.md defines every clause
// label a citation can show.
func TestSpecLabelsDocumented(t *testing.T) {
	b, err := os.ReadFile("../../docs/spec.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	seen := map[string]bool{}
	for _, r := range All() {
		labels := strings.Split(r.Spec, ", ")
		if r.Must != "" {
			labels = append(labels, r.Must)
		}
		for _, l := range labels {
			if l == "" || seen[l] {
				continue
			}
			seen[l] = true
			if !strings.Contains(doc, "`"+l+"`") {
				t.Errorf("docs/spec.md does not define %q (cited by %s)", l, r.ID)
			}
		}
	}
}

func TestCite(t *testing.T) {
	tests := []struct {
		r    Rule
		want string
	}{
		{Rule{Spec: "HTTP-GET-405", Section: "§3.2"}, "HTTP-GET-405 (MCP 2026-07-28, Basic › Transports › Streamable HTTP)"},
		{Rule{Spec: "META-REQ-FIELDS, HTTP-META-400", Section: "§1.2, §3.2"}, "META-REQ-FIELDS, HTTP-META-400 (MCP 2026-07-28, Basic › Overview › _meta; Basic › Transports › Streamable HTTP)"},
		{Rule{Spec: "HDR-PROTO-VERSION", Section: "§1.4, §3.2, §3.3"}, "HDR-PROTO-VERSION (MCP 2026-07-28, Basic › Versioning; Basic › Transports › Streamable HTTP; MCP 2025-11-25, Basic › Transports › Streamable HTTP)"},
		{Rule{Section: "§11"}, "MCP 2025-11-25, Basic › Lifecycle"},
		{Rule{Spec: "session log format"}, "session log format"},
	}
	for _, tt := range tests {
		if got := tt.r.Cite(); got != tt.want {
			t.Errorf("Cite(%q, %q) = %q, want %q", tt.r.Spec, tt.r.Section, got, tt.want)
		}
	}
}
