package diff

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpward/mcpward/internal/snapshot"
)

// The lists the converters write (internal/migrate/snapgauge and
// surfaceprint), copied: diff does not import the converters.
var (
	snapgaugeUncaptured    = []string{"discover.serverInfo.!name|version", "tools.*.!_meta|annotations|description|icons|inputSchema|name|outputSchema|title|xmcpHeaders", "resources", "resourceTemplates", "prompts", "manifest"}
	surfaceprintUncaptured = []string{"discover.serverInfo.!name", "discover.instructions", "discover.ttlMs", "discover.cacheScope",
		"discover.capabilities.!prompts|resources|tools", "discover.capabilities.*.*", "tools.*.!description|inputSchema|name|xmcpHeaders", "tools.@nextPages",
		"resources.*.!annotations|description|mimeType|name|title|uri", "resources.@nextPages",
		"resourceTemplates.*.!annotations|description|mimeType|name|title|uriTemplate", "resourceTemplates.@nextPages",
		"prompts.*.!arguments|description|name", "prompts.*.arguments.*.!description|name|required|schema", "prompts.@nextPages"}
)

// Every rule case, with either side marked as converted from snapgauge or
// mcp-surfaceprint: a finding is either reported exactly as without the
// list, or left out and then named as first observed; nothing is added.
func TestRuleCasesWithUncaptured(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	dropped := 0
	for _, file := range files {
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		a := parseArchive(raw)
		for _, list := range [][]string{snapgaugeUncaptured, surfaceprintUncaptured} {
			for _, side := range []string{"old", "new"} {
				old, new := loadSide(t, a.get("old.json")), loadSide(t, a.get("new.json"))
				want := Diff(old, new)
				if side == "old" {
					old.Observation.Uncaptured = list
				} else {
					new.Observation.Uncaptured = list
				}
				r := DiffReport(old, new)
				i := 0
				for _, f := range want {
					if i < len(r.Findings) && cmp.Equal(f, r.Findings[i]) {
						i++
						continue
					}
					dropped++
					if len(r.FirstObserved) == 0 {
						t.Errorf("%s (%s side uncaptured): %s %s left out, and nothing named as first observed", file, side, f.RuleID, f.Subject)
					}
				}
				if i != len(r.Findings) {
					t.Errorf("%s (%s side uncaptured): findings not a subsequence of the plain diff's:\n%s\nwant within:\n%s", file, side, findingLines(r.Findings), findingLines(want))
				}
			}
		}
	}
	if dropped == 0 {
		t.Error("no rule case had anything left out: the lists matched nothing")
	}
}

func surface(t *testing.T, js string) *snapshot.Snapshot {
	t.Helper()
	return loadSide(t, []byte(js))
}

func TestUncaptured(t *testing.T) {
	const titled = `{"tools":[{"name":"t","title":"Hello","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}}]}`
	const bare = `{"tools":[{"name":"t","inputSchema":{"type":"object"}}]}`
	for _, tc := range []struct {
		name       string
		old, new   string
		uncaptured []string // the old side's
		findings   string
		first      []string
	}{
		{
			name: "a field the old side never captured", old: bare, new: titled,
			uncaptured: []string{"tools.*.title", "tools.*.annotations"},
			first:      []string{"tools.*.annotations (1)", "tools.*.title (1)"},
		},
		{
			name: "by exclusion", old: bare, new: titled,
			uncaptured: []string{"tools.*.!name|inputSchema"},
			first:      []string{"tools.*.annotations (1)", "tools.*.title (1)"},
		},
		{
			name: "a field the exclusion names was captured", old: bare, new: titled,
			uncaptured: []string{"tools.*.!name|inputSchema|title"},
			findings:   "risky tool.title.changed tools.t.title\n",
			first:      []string{"tools.*.annotations (1)"},
		},
		{
			name: "a value the old side holds is compared", old: titled,
			new:        `{"tools":[{"name":"t","title":"Hi","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}}]}`,
			uncaptured: []string{"tools.*.title"},
			findings:   "risky tool.title.changed tools.t.title\n",
		},
		{
			name: "a field the new side lost is not the old side's gap", old: titled, new: bare,
			uncaptured: []string{"tools.*.title", "tools.*.annotations"},
			findings:   "breaking annotation.readOnlyHint.revoked tools.t.annotations.readOnlyHint\nrisky tool.title.changed tools.t.title\n",
		},
		{
			name: "entries after the first page", old: bare,
			new:        `{"tools":[{"name":"t","inputSchema":{"type":"object"}},{"name":"u","inputSchema":{"type":"object"}}],"toolsList":{"pages":2,"order":["t","u"],"orderStable":true}}`,
			uncaptured: []string{"tools.@nextPages"},
			first:      []string{"tools.@nextPages (1)"},
		},
		{
			name: "one page holds them all", old: bare,
			new:        `{"tools":[{"name":"t","inputSchema":{"type":"object"}},{"name":"u","inputSchema":{"type":"object"}}],"toolsList":{"pages":1,"order":["t","u"],"orderStable":true}}`,
			uncaptured: []string{"tools.@nextPages"},
			findings:   "risky tool.added tools.u\n",
		},
		{
			name: "a wildcard is not the pages", old: bare,
			new:        `{"tools":[{"name":"t","inputSchema":{"type":"object"}},{"name":"u","inputSchema":{"type":"object"}}],"toolsList":{"pages":2,"order":["t","u"],"orderStable":true}}`,
			uncaptured: []string{"tools.*", "tools.!t"},
			findings:   "risky tool.added tools.u\n",
		},
		{
			name:       "a removal is evidence whatever the old side missed",
			old:        `{"tools":[{"name":"t","inputSchema":{"type":"object"}},{"name":"u","inputSchema":{"type":"object"}}]}`,
			new:        `{"tools":[{"name":"t","inputSchema":{"type":"object"}}],"toolsList":{"pages":2,"order":["t"],"orderStable":true}}`,
			uncaptured: []string{"tools.@nextPages"},
			findings:   "breaking tool.removed tools.u\n",
		},
		{
			name: "a section never captured", old: bare,
			new:        `{"tools":[{"name":"t","inputSchema":{"type":"object"}}],"resources":[{"uri":"a://x.txt"},{"uri":"a://y"}],"prompts":[{"name":"p"}],"manifest":{"uri":"a://mcp/manifest","tools":[{"tool":"t"}]}}`,
			uncaptured: []string{"resources", "prompts", "manifest"},
			first:      []string{"manifest (1)", "prompts (1)", "resources (2)"},
		},
		{
			name:       "a section the old side holds is compared",
			old:        `{"tools":[],"resources":[{"uri":"a://x.txt"}]}`,
			new:        `{"tools":[],"resources":[{"uri":"a://x.txt"},{"uri":"a://y"}]}`,
			uncaptured: []string{"resources"},
			findings:   "compatible resource.added resources.a://y\n",
		},
		{
			name:       "entity fields, ids with dots",
			old:        `{"tools":[],"resources":[{"uri":"a://x.txt","name":"x"}],"prompts":[{"name":"p.q","arguments":[{"name":"a"}]}]}`,
			new:        `{"tools":[],"resources":[{"uri":"a://x.txt","name":"x","size":3}],"prompts":[{"name":"p.q","title":"P","arguments":[{"name":"a","title":"A","required":true}]}]}`,
			uncaptured: []string{"resources.*.!uri|name", "prompts.*.!name|arguments", "prompts.*.arguments.*.!name|required"},
			findings:   "breaking prompt.argument.required.added prompts.p.q.arguments.a.required\n",
			first:      []string{"prompts.*.arguments.*.title (1)", "prompts.*.title (1)", "resources.*.size (1)"},
		},
		{
			name:       "discover",
			old:        `{"tools":[],"discover":{"supportedVersions":["2025-11-25"],"capabilities":{"tools":{}},"serverInfo":{"name":"s"}}}`,
			new:        `{"tools":[],"discover":{"supportedVersions":["2025-11-25"],"capabilities":{"tools":{"listChanged":true},"logging":{},"prompts":{}},"serverInfo":{"name":"s2","version":"1"},"instructions":"Hi","cacheScope":"public"}}`,
			uncaptured: []string{"discover.serverInfo.!name", "discover.instructions", "discover.cacheScope", "discover.capabilities.!prompts|tools", "discover.capabilities.*.*"},
			findings:   "risky serverInfo.name.changed discover.serverInfo.name\ncompatible capability.added discover.capabilities.prompts\n",
			first:      []string{"discover.cacheScope", "discover.capabilities.logging", "discover.capabilities.tools.listChanged", "discover.instructions", "discover.serverInfo.version"},
		},
		{
			name: "a pattern the diff does not know matches nothing", old: bare, new: titled,
			uncaptured: []string{"", "tools.*.title.", "tools.**"},
			findings:   "risky annotation.readOnlyHint.relaxed tools.t.annotations.readOnlyHint\nrisky tool.title.changed tools.t.title\n",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			old, new := surface(t, tc.old), surface(t, tc.new)
			old.Observation.Uncaptured = tc.uncaptured
			r := DiffReport(old, new)
			if d := cmp.Diff(tc.findings, findingLines(r.Findings)); d != "" {
				t.Errorf("findings (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.first, r.FirstObserved); d != "" {
				t.Errorf("first observed (-want +got):\n%s", d)
			}
			if d := cmp.Diff(r.Findings, Diff(old, new)); d != "" {
				t.Errorf("Diff and DiffReport disagree:\n%s", d)
			}
			// The sides swapped, the list now on the new side: the
			// mirror image is left out too.
			if d := cmp.Diff(tc.first, DiffReport(new, old).FirstObserved); d != "" {
				t.Errorf("swapped, first observed (-want +got):\n%s", d)
			}
			// The sides themselves are not changed.
			if got := surface(t, tc.new); !cmp.Equal(got.Surface.Tools, new.Surface.Tools) || !cmp.Equal(got.Surface.Discover, new.Surface.Discover) {
				t.Error("the diff changed a side")
			}
		})
	}
}

func TestReportNote(t *testing.T) {
	if _, _, ok := (Report{}).Note(); ok {
		t.Error("a report with nothing first observed has a note")
	}
	what, why, ok := Report{FirstObserved: []string{"resources (2)", "tools.*.title (1)"}}.Note()
	if !ok || what != "first observed: resources (2), tools.*.title (1)" || !strings.Contains(why, "mcpward check --update") {
		t.Errorf("Note() = %q, %q, %v", what, why, ok)
	}
}

// Snapshots mcpward records have no list: nothing is ever first observed.
func TestNativeHasNoFirstObserved(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.txtar")
	for _, file := range files {
		raw, _ := os.ReadFile(file)
		a := parseArchive(raw)
		old, new := loadSide(t, a.get("old.json")), loadSide(t, a.get("new.json"))
		if r := DiffReport(old, new); r.FirstObserved != nil {
			t.Errorf("%s: first observed %q", file, r.FirstObserved)
		}
	}
}

func TestMatchSegment(t *testing.T) {
	for _, tc := range []struct {
		seg, key string
		want     bool
	}{
		{"title", "title", true}, {"title", "titles", false},
		{"*", "x.y", true}, {"*", "@nextPages", false},
		{"!a|b", "c", true}, {"!a|b", "a", false}, {"!a|b", "b", false}, {"!a|b", "@nextPages", false},
		{"@nextPages", "@nextPages", true},
	} {
		if got := matchSegment(tc.seg, tc.key); got != tc.want {
			t.Errorf("matchSegment(%q, %q) = %v", tc.seg, tc.key, got)
		}
	}
}
