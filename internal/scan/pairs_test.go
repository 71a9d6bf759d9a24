package scan

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"math"
	"os"
	"slices"
	"sort"
	"testing"

	"github.com/mcpward/mcpward/internal/rules"
	"github.com/mcpward/mcpward/internal/snapshot"
)

// showTuning logs the tuning pairs that are not told apart (never the
// held-out ones, which are reported as counts only).
var showTuning = flag.Bool("pairs.tuning", false, "log the tuning pairs that are not told apart")

// heldOutSeed picks the held-out quarter of each class (testdata/README.md).
const heldOutSeed = "mcpward-issue-28-scan"

type pair struct {
	ID       string              `json:"id"`
	Class    string              `json:"class"`
	Where    string              `json:"where"`
	Source   string              `json:"source"`
	Poisoned json.RawMessage     `json:"poisoned"`
	Benign   json.RawMessage     `json:"benign"`
	Context  map[string][]string `json:"context"`
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
	"shadowing":          RuleMentionsOther,
	"secret":             RuleSecret,
	"result_instruction": RuleResultInstructs,
	// A rug pull is told apart by what the change brings: a finding the
	// after side has and the before side had not (any rule).
	"rugpull": "",
}

func readPairs(t testing.TB) []pair { return readPairFile(t, "testdata/pairs.json") }

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

// heldOutIDs returns, per class, the round(n/4) ids with the smallest
// SHA-256 of seed NUL id.
func heldOutIDs(ps []pair) map[string]bool {
	byClass := map[string][]string{}
	for _, p := range ps {
		byClass[p.Class] = append(byClass[p.Class], p.ID)
	}
	out := map[string]bool{}
	for _, ids := range byClass {
		hash := func(id string) string {
			s := sha256.Sum256([]byte(heldOutSeed + "\x00" + id))
			return hex.EncodeToString(s[:])
		}
		sort.Slice(ids, func(i, j int) bool { return hash(ids[i]) < hash(ids[j]) })
		for _, id := range ids[:int(math.Round(float64(len(ids))/4))] {
			out[id] = true
		}
	}
	return out
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
	servers := []Server{{Name: "scanned", Tools: []snapshot.Object{o}}}
	ctx := make([]string, 0, len(p.Context))
	for s := range p.Context {
		ctx = append(ctx, s)
	}
	slices.Sort(ctx)
	for _, s := range ctx {
		var tools []snapshot.Object
		for _, n := range p.Context[s] {
			tools = append(tools, snapshot.Object{"name": n, "description": "", "inputSchema": map[string]any{"type": "object"}})
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

// heldOutFloor is the held-out figure measured when the rules were frozen.
const heldOutFloor = 21

// TestPairs measures the paired corpus: the held-out pairs told apart
// (target ≥ 95 %) and, apart, the tuning figure.
func TestPairs(t *testing.T) {
	ps := readPairs(t)
	if len(ps) < 80 {
		t.Fatalf("%d pairs, want at least 80", len(ps))
	}
	held := heldOutIDs(ps)
	var nHeld, okHeld, nTune, okTune int
	for _, p := range ps {
		if _, ok := classRule[p.Class]; !ok {
			t.Fatalf("%s: unknown class %q", p.ID, p.Class)
		}
		po, be := sideFindings(t, p, p.Poisoned), sideFindings(t, p, p.Benign)
		ok := toldApart(p, po, be)
		if held[p.ID] {
			nHeld++
			if ok {
				okHeld++
			}
			continue
		}
		nTune++
		if ok {
			okTune++
		} else if *showTuning {
			t.Logf("tuning pair %s (%s) not told apart:\n  poisoned: %v\n  benign: %v", p.ID, p.Class, po, be)
		}
	}
	t.Logf("held-out pairs told apart: %d of %d (%.1f%%); tuning pairs: %d of %d (%.1f%%)",
		okHeld, nHeld, 100*float64(okHeld)/float64(nHeld), okTune, nTune, 100*float64(okTune)/float64(nTune))
	if nHeld != 23 {
		t.Errorf("%d held-out pairs, want 23 (testdata/README.md)", nHeld)
	}
	// The target is 95 %; the rules were frozen at 21 of 23
	// (91.3 %), measured once the tuning pairs were all told apart, and
	// that figure is pinned so that it cannot fall (docs/scan.md).
	if okHeld < heldOutFloor {
		t.Errorf("held-out pairs told apart: %d of %d, below the pinned %d", okHeld, nHeld, heldOutFloor)
	}
	if float64(okHeld) < 0.95*float64(nHeld) {
		t.Logf("below the issue's 95%% target (%d of %d)", okHeld, nHeld)
	}
	if okTune != nTune {
		t.Errorf("tuning pairs told apart: %d of %d, want all", okTune, nTune)
	}
}

// heldOutFloor2 is the figure of the second held-out set
// (testdata/heldout.json) measured when it was written, before any
// further tuning.
const heldOutFloor2 = 27

// TestHeldOut measures the second held-out set (testdata/heldout.json,
// written after the first quarter had been seen; no rule is tuned on it):
// the pairs told apart, against the 95 % target.
func TestHeldOut(t *testing.T) { measureHeldOut(t, "testdata/heldout.json", 24, heldOutFloor2) }

// heldOutFloor3 is the figure of the third held-out set
// (testdata/heldout3.json) measured at the commit that wired it.
const heldOutFloor3 = 29

// TestHeldOut3 measures the third held-out set (testdata/heldout3.json,
// written blind to the rules while they were being tuned; no rule is
// tuned on it), reported as counts only.
func TestHeldOut3(t *testing.T) { measureHeldOut(t, "testdata/heldout3.json", 48, heldOutFloor3) }

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
	for _, p := range ps {
		if _, known := classRule[p.Class]; !known {
			t.Fatalf("%s: unknown class %q", p.ID, p.Class)
		}
		classes[p.Class] = true
		if toldApart(p, sideFindings(t, p, p.Poisoned), sideFindings(t, p, p.Benign)) {
			ok++
		}
	}
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
