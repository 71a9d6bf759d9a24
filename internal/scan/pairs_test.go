package scan

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/mcpward/mcpward/internal/rules"
	"github.com/mcpward/mcpward/internal/snapshot"
)

type pair struct {
	ID    string `json:"id"`
	Class string `json:"class"`
	// Kind is prompt, resource or resourceTemplate when the sides are
	// not tools.
	Kind     string          `json:"kind"`
	Where    string          `json:"where"`
	Source   string          `json:"source"`
	Poisoned json.RawMessage `json:"poisoned"`
	Benign   json.RawMessage `json:"benign"`
	// Context holds the other servers' tools, each a name or a whole
	// tool definition.
	Context map[string][]json.RawMessage `json:"context"`
}

// classRule is the rule a poisoned case of each class must get.
var classRule = map[string]string{
	"instruction":        RuleInstruction,
	"secrecy":            RuleSecrecy,
	"marker":             RuleMarker,
	"sensitive":          RuleSensitive,
	"invisible":          RuleInvisible,
	"hidden_whitespace":  RuleHiddenSpace,
	"homoglyph":          RuleHomoglyph,
	"shadowing":          RuleSteersOther,
	"secret":             RuleSecret,
	"result_instruction": RuleResultInstructs,
	// A rug pull is told apart by what the change brings: a finding the
	// after side has and the before side had not (any rule).
	"rugpull": "",
}

// tuningFiles are the paired cases the rules are tuned on: the first
// corpus (its held-out quarter read once its figure was taken), the
// second and third held-out sets (each read once its figure was taken),
// the prompt and resource pairs, the two probe batches and the fifth
// held-out set (read once its figure was taken), each written before the
// rules were changed for them (testdata/README.md).
var tuningFiles = []string{"testdata/pairs.json", "testdata/heldout.json", "testdata/surface_pairs.json", "testdata/heldout3.json", "testdata/probe_pairs.json", "testdata/probe2_pairs.json", "testdata/heldout5.json"}

func readPairs(t testing.TB) []pair {
	var out []pair
	for _, f := range tuningFiles {
		out = append(out, readPairFile(t, f)...)
	}
	return out
}

func readPairFile(t testing.TB, file string) []pair {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Pairs []pair `json:"pairs"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Pairs
}

func decodeTool(t testing.TB, raw json.RawMessage) snapshot.Object {
	t.Helper()
	var o snapshot.Object
	if err := json.Unmarshal(raw, &o); err != nil {
		t.Fatal(err)
	}
	return o
}

// sideFindings scans one side of a pair and returns the findings on the
// scanned tool (or result).
func sideFindings(t testing.TB, p pair, raw json.RawMessage) []Finding {
	t.Helper()
	o := decodeTool(t, raw)
	switch p.Class {
	case "result_instruction":
		s, _ := o["result"].(string)
		return Result(s)
	case "rugpull":
		before, _ := o["before"].(map[string]any)
		after, _ := o["after"].(map[string]any)
		return Change(before, after)
	}
	scanned := Server{Name: "scanned"}
	switch p.Kind {
	case KindPrompt:
		scanned.Prompts = []snapshot.Object{o}
	case KindResource:
		scanned.Resources = []snapshot.Object{o}
	case KindResourceTemplate:
		scanned.ResourceTemplates = []snapshot.Object{o}
	default:
		scanned.Tools = []snapshot.Object{o}
	}
	servers := []Server{scanned}
	ctx := make([]string, 0, len(p.Context))
	for s := range p.Context {
		ctx = append(ctx, s)
	}
	slices.Sort(ctx)
	for _, s := range ctx {
		var tools []snapshot.Object
		for _, raw := range p.Context[s] {
			var name string
			if json.Unmarshal(raw, &name) == nil {
				tools = append(tools, snapshot.Object{"name": name, "description": "", "inputSchema": map[string]any{"type": "object"}})
				continue
			}
			var tool snapshot.Object
			if err := json.Unmarshal(raw, &tool); err != nil {
				t.Fatalf("%s: context of %s: %v", p.ID, s, err)
			}
			tools = append(tools, tool)
		}
		servers = append(servers, Server{Name: s, Tools: tools})
	}
	var out []Finding
	for _, f := range Config(servers) {
		if f.Server == "scanned" {
			out = append(out, f)
		}
	}
	return out
}

func atLeastRisky(f Finding) bool { return f.Level == rules.Risky || f.Level == rules.Violation }

// toldApart: the poisoned side gets a risky finding of its class, the
// benign side none at risky or above.
func toldApart(p pair, poisoned, benign []Finding) bool {
	want := classRule[p.Class]
	hit := slices.ContainsFunc(poisoned, func(f Finding) bool { return atLeastRisky(f) && (want == "" || f.Rule == want) })
	return hit && !slices.ContainsFunc(benign, atLeastRisky)
}

// TestPairs: every tuning pair (tuningFiles) is told apart. The held-out
// measure is TestHeldOut4, on a set the rules were never tuned on.
func TestPairs(t *testing.T) {
	ps := readPairs(t)
	if len(ps) < 80 {
		t.Fatalf("%d pairs, want at least 80", len(ps))
	}
	ids := map[string]bool{}
	ok := 0
	for _, p := range ps {
		if _, known := classRule[p.Class]; !known {
			t.Fatalf("%s: unknown class %q", p.ID, p.Class)
		}
		if ids[p.ID] {
			t.Fatalf("%s: two pairs with one id", p.ID)
		}
		ids[p.ID] = true
		po, be := sideFindings(t, p, p.Poisoned), sideFindings(t, p, p.Benign)
		if toldApart(p, po, be) {
			ok++
			continue
		}
		t.Errorf("tuning pair %s (%s) not told apart:\n  poisoned: %v\n  benign: %v", p.ID, p.Class, po, be)
	}
	t.Logf("tuning pairs told apart: %d of %d", ok, len(ps))
}

// TestHeldOut4 measures the next blind set, testdata/heldout4.json, once
// it is committed (skipped until then): written by someone who never saw
// the rules, it is measured once, counts only (no ids), before anyone
// reads it. heldout3.json, measured once at 29 of 59, is tuning data now
// (tuningFiles).
func TestHeldOut4(t *testing.T) {
	if _, err := os.Stat("testdata/heldout4.json"); err != nil {
		t.Skip("no testdata/heldout4.json yet")
	}
	measureHeldOut(t, "testdata/heldout4.json", 78, 67) // 49 when measured blind
}

// TestHeldOut5 measured the fifth blind set, testdata/heldout5.json (88
// pairs), once: 71 of 88. Its misses were then read and fixed by general
// cause, so it is tuning data now (tuningFiles) and held at 88.
func TestHeldOut5(t *testing.T) {
	measureHeldOut(t, "testdata/heldout5.json", 88, 88) // 71 when measured blind
}

// TestHeldOut6 measures the sixth blind set, testdata/heldout6.json
// (88 pairs, 8 of each class), written by a second engineer who never
// saw the rules, committed before heldout5's misses were studied and
// never read since: 73 of 88 with the rules before that study, 76 after.
func TestHeldOut6(t *testing.T) {
	measureHeldOut(t, "testdata/heldout6.json", 88, 76)
}

// measureHeldOut counts the pairs of a held-out file told apart (never
// naming them), checks that the file has at least minPairs pairs covering
// every class, and fails below floor.
func measureHeldOut(t *testing.T, file string, minPairs, floor int) {
	ps := readPairFile(t, file)
	if len(ps) < minPairs {
		t.Fatalf("%s: %d held-out pairs, want at least %d", file, len(ps), minPairs)
	}
	classes := map[string]bool{}
	ok := 0
	byClass := map[string][2]int{} // told apart, pairs
	for _, p := range ps {
		if _, known := classRule[p.Class]; !known {
			t.Fatalf("%s: unknown class %q", p.ID, p.Class)
		}
		classes[p.Class] = true
		c := byClass[p.Class]
		c[1]++
		if toldApart(p, sideFindings(t, p, p.Poisoned), sideFindings(t, p, p.Benign)) {
			ok++
			c[0]++
		}
		byClass[p.Class] = c
	}
	var per []string
	for _, class := range slices.Sorted(maps.Keys(byClass)) {
		per = append(per, fmt.Sprintf("%s %d/%d", class, byClass[class][0], byClass[class][1]))
	}
	t.Logf("by class: %s", strings.Join(per, ", "))
	if len(classes) != len(classRule) {
		t.Errorf("%s covers %d of %d classes", file, len(classes), len(classRule))
	}
	t.Logf("held-out pairs (%s) told apart: %d of %d (%.1f%%)", file, ok, len(ps), 100*float64(ok)/float64(len(ps)))
	if ok < floor {
		t.Errorf("held-out pairs (%s) told apart: %d of %d, below the pinned %d", file, ok, len(ps), floor)
	}
	if float64(ok) < 0.95*float64(len(ps)) {
		t.Logf("below the issue's 95%% target (%d of %d)", ok, len(ps))
	}
}
