package scan_test

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/mcpward/mcpward/internal/rules"
	"github.com/mcpward/mcpward/internal/scan"
	"github.com/mcpward/mcpward/internal/snapshot"
	"github.com/mcpward/mcpward/internal/testenv/corpustools"
)

// corpusFile, when set, reads the benign corpus from a JSONL file written
// by -scan.dump (one {"package","tool","def"} a line) instead of starting
// every server: a quick loop while tuning. The definitions are
// third-party text and are never committed.
var (
	corpusFile = flag.String("scan.corpus", "", "read the benign corpus from this JSONL `file`")
	corpusDump = flag.String("scan.dump", "", "write the benign corpus to this JSONL `file`")
)

// corpusPrefilterStride: under -race, the prefilter check of the benign
// corpus reads one distinct text in this many.
const corpusPrefilterStride = 8

type benignTool struct {
	Package string          `json:"package"`
	Tool    string          `json:"tool"`
	Def     json.RawMessage `json:"def"`
	obj     snapshot.Object
}

// benignCorpus lists every tool of every corpus package
// (corpustools.AllTools: the ToolsOnly servers too; cached, one entry per
// package).
func benignCorpus(t *testing.T) []benignTool {
	t.Helper()
	if *corpusFile != "" {
		b, err := os.ReadFile(*corpusFile)
		if err != nil {
			t.Fatal(err)
		}
		var out []benignTool
		sc := bufio.NewScanner(strings.NewReader(string(b)))
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			var bt benignTool
			if err := json.Unmarshal(sc.Bytes(), &bt); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(bt.Def, &bt.obj); err != nil {
				t.Fatal(err)
			}
			out = append(out, bt)
		}
		return out
	}
	var out []benignTool
	for _, ct := range corpustools.AllTools(t) {
		obj, err := ct.Object()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, benignTool{Package: ct.Package, Tool: ct.Tool, Def: ct.Def, obj: obj})
	}
	slices.SortFunc(out, func(a, b benignTool) int { return strings.Compare(a.Package+"\x00"+a.Tool, b.Package+"\x00"+b.Tool) })
	if *corpusDump != "" {
		var b strings.Builder
		for _, bt := range out {
			line, _ := json.Marshal(bt)
			b.Write(line)
			b.WriteByte('\n')
		}
		if err := os.WriteFile(*corpusDump, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// knownFalsePositives reads testdata/benign_fp.tsv: package, tool, rule
// and why, tab separated; '#' starts a comment.
func knownFalsePositives(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile("testdata/benign_fp.tsv")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for i, line := range strings.Split(string(b), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) != 4 || cols[3] == "" {
			t.Fatalf("benign_fp.tsv:%d: want package, tool, rule, why", i+1)
		}
		out[cols[0]+"\x00"+cols[1]+"\x00"+cols[2]] = cols[3]
	}
	return out
}

// TestBenignCorpus scans every tool of the real-server corpus, each
// server on its own: a risky finding there is a false positive. The rate
// must stay at or below 0.5 %, and each one is listed with why in
// testdata/benign_fp.tsv (a listed one that no longer happens fails too,
// so the list stays true).
func TestBenignCorpus(t *testing.T) {
	if testing.Short() && *corpusFile == "" {
		t.Skip("starts every corpus server")
	}
	tools := benignCorpus(t)
	known := knownFalsePositives(t)
	byPkg := map[string][]snapshot.Object{}
	var pkgs []string
	for _, bt := range tools {
		if byPkg[bt.Package] == nil {
			pkgs = append(pkgs, bt.Package)
		}
		byPkg[bt.Package] = append(byPkg[bt.Package], bt.obj)
	}
	flagged := map[string]bool{}
	seen := map[string]bool{}
	for _, p := range pkgs {
		for _, f := range scan.Tools("", byPkg[p]) {
			if f.Level != rules.Risky {
				continue
			}
			k := p + "\x00" + f.Tool + "\x00" + f.Rule
			seen[k] = true
			flagged[p+"\x00"+f.Tool] = true
			if _, ok := known[k]; !ok {
				t.Errorf("false positive not in testdata/benign_fp.tsv: %s\t%s\t%s\t(%s: %s)", p, f.Tool, f.Rule, f.Field, f.Evidence)
			}
		}
	}
	for k := range known {
		if !seen[k] {
			t.Errorf("testdata/benign_fp.tsv lists %q, which is no longer flagged: remove it", strings.ReplaceAll(k, "\x00", " "))
		}
	}
	// The prefilter never hides a match on real text either: every
	// distinct text, or under the race detector every
	// corpusPrefilterStride-th of them in sorted order (the same sample
	// on every run).
	var texts []string
	for _, bt := range tools {
		scan.CollectStrings(map[string]any(bt.obj), &texts)
	}
	if raceEnabled {
		slices.Sort(texts)
		texts = slices.Compact(texts)
		var sample []string
		for i := 0; i < len(texts); i += corpusPrefilterStride {
			sample = append(sample, texts[i])
		}
		t.Logf("race detector: the prefilter check runs on %d of the %d distinct texts (the full check runs without -race)", len(sample), len(texts))
		texts = sample
	}
	if n := scan.PrefilterMismatches(texts); n != "" {
		t.Error(n)
	}
	rate := 100 * float64(len(flagged)) / float64(max(len(tools), 1))
	t.Logf("benign corpus: %d tools of %d packages, %d flagged risky (%.2f%%)", len(tools), len(pkgs), len(flagged), rate)
	if rate > 0.5 {
		t.Errorf("false-positive rate %.2f%% is above the 0.5%% target", rate)
	}
	fmt.Fprint(os.Stderr)
}

// BenchmarkScanBenignCorpus scans the real-server corpus read with
// -scan.corpus (skipped without it), each package as one server.
func BenchmarkScanBenignCorpus(b *testing.B) {
	if *corpusFile == "" {
		b.Skip("needs -scan.corpus FILE (written by TestBenignCorpus -scan.dump FILE)")
	}
	t := &testing.T{}
	tools := benignCorpus(t)
	byPkg := map[string][]snapshot.Object{}
	for _, bt := range tools {
		byPkg[bt.Package] = append(byPkg[bt.Package], bt.obj)
	}
	b.ResetTimer()
	for range b.N {
		for p, ts := range byPkg {
			_ = scan.Tools(p, ts)
		}
	}
	b.ReportMetric(float64(len(tools)), "tools")
}
