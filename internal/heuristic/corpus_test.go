package heuristic_test

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpward/mcpward/internal/heuristic"
	"github.com/mcpward/mcpward/internal/mcp"
	"github.com/mcpward/mcpward/internal/snapshot"
	"github.com/mcpward/mcpward/internal/testenv"
	"github.com/mcpward/mcpward/internal/testenv/corpustools"
)

// dump, when set, makes TestCorpusLabels write every collected tool (one
// JSON object a line: package, tool, hash, the definition) to the file, for
// hand labelling. The definitions are third-party text and are not
// committed; testdata/labels.tsv holds only our labels.
var dump = flag.String("corpus.dump", "", "write the corpus's tool definitions to this JSONL `file`")

// showTuning logs the disagreements on the tuning servers (never on the
// held-out ones).
var showTuning = flag.Bool("corpus.tuning", false, "log the tuning servers' disagreements")

// showSplit logs one more split's disagreements: a held-out split whose
// misses are being studied, after which it counts as seen.
var showSplit = flag.String("corpus.misses", "", "log the disagreements of this `split` (its name as the report gives it)")

// blind, for tuning, keeps the held-out servers' misses out of the log:
// a failure says how many state-changing tools are labelled read there,
// not which.
var blind = flag.Bool("corpus.blind", false, "while tuning: report only counts of the held-out servers' misses")

// serversFile, when set, replaces the corpus with the servers a JSON file
// lists ([{"pkg": …, "argv": […], "env": […]}]): a way to read the tools
// of candidate servers before they join the lockfile.
var serversFile = flag.String("corpus.servers", "", "read the servers from this JSON `file` instead of the corpus")

// fromFile, when set, reads the tools from a file -corpus.dump wrote
// instead of starting the servers: a quick loop while tuning (the labels
// and the held-out split are the same).
var fromFile = flag.String("corpus.from", "", "read the tools from this JSONL `file` (written by -corpus.dump) instead of starting the servers")

// withToolsOnly adds the corpus's ToolsOnly servers (corpustools.AllTools:
// 1,199 more tools, labelled in testdata/labels.tsv). On by default since
// session 11, when the 8 state-changing tools of theirs that were labelled
// read (6 held out, 2 tuning) no longer were; -corpus.all=false measures
// the first corpus alone.
var withToolsOnly = flag.Bool("corpus.all", true, "add the corpus's ToolsOnly servers (corpustools.AllTools)")

// A corpusTool is one tool of one real server.
type corpusTool struct {
	Package string          `json:"package"`
	Tool    string          `json:"tool"`
	Hash    string          `json:"hash"`
	Def     json.RawMessage `json:"def"`
	obj     snapshot.Object
}

// definitionHash identifies a tool definition: the first 12 hex digits of
// the SHA-256 of its JSON with keys sorted (as encoding/json writes a
// decoded map), so a label goes stale when the definition changes.
func definitionHash(obj snapshot.Object) string {
	b, _ := json.Marshal(obj)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])[:12]
}

// heldOutSeed picks the held-out third of the servers: a server is held out
// when the SHA-256 of the seed and its package@version, read as a number,
// is 0 modulo 3. Chosen and committed with the hand labels, before any
// tuning of the heuristic; a server added later falls on its side of the
// split by the same rule.
const heldOutSeed = "mcpward-issue-24-labels"

func heldOut(pkg string) bool {
	sum := sha256.Sum256([]byte(heldOutSeed + "\x00" + pkg))
	return (uint(sum[0])<<8|uint(sum[1]))%3 == 0
}

// The sets TestCorpusLabels reports.
const (
	splitTuning = "tuning"
	splitSeen   = "held out, seen"
	// splitFresh was measured once, fresh, in session 9 (93.5 %, 6
	// state-changing tools read); session 11 studied its misses, so it
	// is reported as seen since.
	splitFresh = "held out, session 9 (seen since session 11)"
	// splitFresh13 holds the servers added in session 13, all held out:
	// labelled from their definitions alone by reviewers who had not
	// seen the heuristic, committed before it was run on them.
	splitFresh13 = "held out, session 13 (seen since)"
	// splitFresh13b holds sixteen more servers added in session 13 after
	// splitFresh13's misses were fixed, all held out, labelled and
	// committed the same way before the heuristic was run on them;
	// session 14 studied its misses, so it is seen since.
	splitFresh13b = "held out, session 13b (seen since session 14)"
	// splitFresh14 holds thirteen more servers added in session 14, all
	// held out, labelled and committed the same way (by a reviewer who
	// had not seen the heuristic) before the heuristic was run on them.
	splitFresh14 = "held out, session 14"
)

// freshServers14 are the servers of splitFresh14.
var freshServers14 = map[string]bool{
	"@browsermcp/mcp@0.1.3":                      true,
	"@cocal/google-calendar-mcp@2.6.3":           true,
	"@elastic/mcp-server-elasticsearch@0.3.1":    true,
	"@gongrzhe/server-gmail-autoauth-mcp@1.1.11": true,
	"@makeplane/plane-mcp-server@0.1.5":          true,
	"@sentry/mcp-server@0.39.0":                  true,
	"@supabase/mcp-server-supabase@0.13.0":       true,
	"@translated/lara-mcp@1.0.6":                 true,
	"@vapi-ai/mcp-server@0.0.11":                 true,
	"figma-developer-mcp@0.13.2":                 true,
	"linear-mcp-server@0.1.0":                    true,
	"mcp-server-kubernetes@4.1.7":                true,
	"obsidian-mcp-server@3.2.9":                  true,
}

// freshServers13b are the servers of splitFresh13b.
var freshServers13b = map[string]bool{
	"@aashari/mcp-server-atlassian-bitbucket@3.1.0":       true,
	"@aashari/mcp-server-atlassian-jira@3.3.0":            true,
	"@apify/actors-mcp-server@0.16.0":                     true,
	"@auth0/auth0-mcp-server@0.1.0-beta.19":               true,
	"@browserbasehq/mcp-server-browserbase@2.4.3":         true,
	"@digitalocean/mcp@1.0.70":                            true,
	"@jpisnice/shadcn-ui-mcp-server@2.0.0":                true,
	"@kazuph/mcp-taskmanager@1.1.1":                       true,
	"@magicuidesign/mcp@2.0.0":                            true,
	"@modelcontextprotocol/server-aws-kb-retrieval@0.6.2": true,
	"@modelcontextprotocol/server-everart@0.6.2":          true,
	"@modelcontextprotocol/server-gdrive@2025.1.14":       true,
	"@modelcontextprotocol/server-postgres@0.6.2":         true,
	"@netlify/mcp@1.15.1":                                 true,
	"@openbnb/mcp-server-airbnb@0.3.0":                    true,
	"@shopify/dev-mcp@1.16.0":                             true,
}

// knownUnsafe are the state-changing tools of a held-out split that the
// heuristic labels read, each with why it cannot tell. Issue 24 asks for
// none; each one listed here keeps the issue open.
var knownUnsafe = map[string]string{
	// Session 14, measured blind; the heuristic was not changed after.
	"@sentry/mcp-server@0.39.0 analyze_issue_with_seer (hand write, heuristic read)": "its words lead with 'analyze'; that a call starts a new analysis on the account when none exists shows only in a numbered list far below ('2. Starts new AI analysis if needed'), and readOnlyHint: false is what several SDKs write by default",
	// Session 13b, measured blind; session 14 studied its misses and these
	// two remain.
	"@modelcontextprotocol/server-everart@0.6.2 generate_image (hand write, heuristic read)": "'generate' is as often a computation; the server sets no annotation that would settle it, and the words do not say the images are kept on the account",
	"@shopify/dev-mcp@1.16.0 feedback (hand write, heuristic read)":                          "its name is a noun and its words describe a report without a sending verb in the main clause",
	"mongodb-mcp-server@3.0.4 export (hand write, heuristic read)":                           "the server claims readOnlyHint: true and its words only say \"Export a query or aggregation results in the specified EJSON format\"; that the export is stored shows only in exportTitle (\"to uniquely identify the export\")",
}

// freshServers13 are the servers of splitFresh13.
var freshServers13 = map[string]bool{
	"@agentdeskai/browser-tools-mcp@2.0.2":              true,
	"@executeautomation/playwright-mcp-server@1.0.12":   true,
	"@kimtaeyoon83/mcp-server-youtube-transcript@0.1.1": true,
	"@line/line-bot-mcp-server@0.5.0":                   true,
	"@modelcontextprotocol/server-gitlab@2025.4.25":     true,
	"@modelcontextprotocol/server-puppeteer@2025.5.12":  true,
	"@pinecone-database/mcp@0.3.0":                      true,
	"@upstash/context7-mcp@4.1.1":                       true,
	"@wonderwhy-er/desktop-commander@0.2.52":            true,
	"exa-mcp-server@3.4.1":                              true,
	"mongodb-mcp-server@3.0.4":                          true,
	"tavily-mcp@0.2.22":                                 true,
}

// freshServers are the servers added to the corpus after the first one
// (session 7, issue 23), each true when held out. The rule, stated before
// their tools were read: sorted by ID, every third from the first is held
// out (IDs 0, 3, 6, …), the others tune. The held-out ones were labelled
// from their definitions alone, in a commit of their own, before any
// change to the heuristic was made for them.
var freshServers = map[string]bool{
	"github.com/ThinkInAIXYZ/go-mcp@v0.2.20 examples/current_time_server": true,  // 0
	"github.com/ThinkInAIXYZ/go-mcp@v0.2.20 examples/everything":          false, // 1
	// The ToolsOnly servers of session 9 (issues 24 and 28), sorted by ID
	// from index 2, by the same rule.
	"@brave/brave-search-mcp-server@2.1.4":           false, // 2
	"@circleci/mcp-server-circleci@0.20.0":           true,  // 3
	"@hubspot/mcp-server@0.4.0":                      false, // 4
	"@larksuiteoapi/lark-mcp@0.5.1":                  false, // 5
	"@launchdarkly/mcp-server@0.6.2":                 true,  // 6
	"@masonator/coolify-mcp@3.5.0":                   false, // 7
	"@modelcontextprotocol/server-google-maps@0.6.2": false, // 8
	"@modelcontextprotocol/server-slack@2025.4.25":   true,  // 9
	"@postman/postman-mcp-server@2.13.0":             false, // 10
	"@shortcut/mcp@0.25.0":                           false, // 11
	"@softeria/ms-365-mcp-server@0.155.0":            true,  // 12
	"@winor30/mcp-server-datadog@1.8.0":              false, // 13
	"airtable-mcp-server@1.14.0":                     false, // 14
	"argocd-mcp@0.9.0":                               true,  // 15
	"hostinger-api-mcp@1.63.2":                       false, // 16
}

// splitOf says which set a server's tools count in: a fresh server by
// freshServers, one of the first corpus by heldOut (reported as seen:
// session 6 studied its misses while tuning).
func splitOf(pkg string) string {
	held, fresh := freshServers[pkg]
	switch {
	case freshServers13[pkg]:
		return splitFresh13
	case freshServers13b[pkg]:
		return splitFresh13b
	case freshServers14[pkg]:
		return splitFresh14
	case fresh && held:
		return splitFresh
	case fresh:
		return splitTuning
	case heldOut(pkg):
		return splitSeen
	}
	return splitTuning
}

// collect lists the tools of every corpus server (corpustools.Tools, which
// caches them) and of the extra servers below, in package, tool order.
func collect(t *testing.T) []corpusTool {
	t.Helper()
	if *fromFile != "" {
		return readDump(t, *fromFile)
	}
	var listed []corpustools.Tool
	switch {
	case *serversFile != "":
	case *withToolsOnly:
		listed = corpustools.AllTools(t)
	default:
		listed = corpustools.Tools(t)
	}
	more, _ := corpustools.List(t, corpusServers(t))
	var out []corpusTool
	for _, ct := range append(listed, more...) {
		obj, err := ct.Object()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, corpusTool{Package: ct.Package, Tool: ct.Tool, Hash: definitionHash(obj), Def: ct.Def, obj: obj})
	}
	slices.SortFunc(out, func(a, b corpusTool) int {
		return strings.Compare(a.Package+"\x00"+a.Tool, b.Package+"\x00"+b.Tool)
	})
	return out
}

// readDump reads the tools a -corpus.dump file holds.
func readDump(t *testing.T, file string) []corpusTool {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out []corpusTool
	for i, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var ct corpusTool
		if err := json.Unmarshal([]byte(line), &ct); err != nil {
			t.Fatalf("%s:%d: %v", file, i+1, err)
		}
		d := json.NewDecoder(strings.NewReader(string(ct.Def)))
		d.UseNumber()
		if err := d.Decode(&ct.obj); err != nil {
			t.Fatalf("%s:%d: %v", file, i+1, err)
		}
		out = append(out, ct)
	}
	return out
}

// A handLabel is one line of testdata/labels.tsv.
type handLabel struct {
	label heuristic.Risk
	hash  string
	line  int
}

// readLabels reads testdata/labels.tsv: package@version, tool, definition
// hash, label (read, write or destructive), and an optional note, tab
// separated; '#' starts a comment line.
func readLabels(t *testing.T) map[string]handLabel {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "labels.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]handLabel{}
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) < 4 {
			t.Fatalf("labels.tsv:%d: want package, tool, hash, label", n)
		}
		l := heuristic.Risk(cols[3])
		if l != heuristic.Read && l != heuristic.Write && l != heuristic.Destructive {
			t.Fatalf("labels.tsv:%d: label %q is not read, write or destructive", n, cols[3])
		}
		k := cols[0] + "\x00" + cols[1]
		if _, dup := out[k]; dup {
			t.Fatalf("labels.tsv:%d: %s %s labelled twice", n, cols[0], cols[1])
		}
		out[k] = handLabel{label: l, hash: cols[2], line: n}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// scores are a label set's agreement with the hand labels.
type scores struct {
	n, agree int
	// confusion[hand][heuristic] counts tools.
	confusion map[heuristic.Risk]map[heuristic.Risk]int
	// unsafe lists tools the hand labels write or destructive that the
	// heuristic labels read.
	unsafe []string
	// bySource counts tools and agreements by the fact that decided the
	// label (heuristic, annotations, default).
	bySource map[string][2]int
}

func (s *scores) add(hand heuristic.Risk, l heuristic.Label, who string) {
	got := l.Risk
	if s.bySource == nil {
		s.bySource = map[string][2]int{}
	}
	c := s.bySource[l.Source]
	c[0]++
	if hand == got {
		c[1]++
	}
	s.bySource[l.Source] = c
	if s.confusion == nil {
		s.confusion = map[heuristic.Risk]map[heuristic.Risk]int{}
	}
	if s.confusion[hand] == nil {
		s.confusion[hand] = map[heuristic.Risk]int{}
	}
	s.confusion[hand][got]++
	s.n++
	if hand == got {
		s.agree++
	}
	if got == heuristic.Read && hand != heuristic.Read {
		s.unsafe = append(s.unsafe, who)
	}
}

// precisionRecall of one label: precision = agreed / labelled so by the
// heuristic, recall = agreed / labelled so by hand.
func (s *scores) precisionRecall(l heuristic.Risk) (p, r float64, byHeuristic, byHand int) {
	for _, row := range s.confusion {
		byHeuristic += row[l]
	}
	for _, c := range s.confusion[l] {
		byHand += c
	}
	agreed := s.confusion[l][l]
	if byHeuristic > 0 {
		p = float64(agreed) / float64(byHeuristic)
	}
	if byHand > 0 {
		r = float64(agreed) / float64(byHand)
	}
	return p, r, byHeuristic, byHand
}

func (s *scores) report() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d tools, agreement %.1f%%\n", s.n, 100*float64(s.agree)/float64(max(s.n, 1)))
	for _, l := range []heuristic.Risk{heuristic.Read, heuristic.Write, heuristic.Destructive} {
		p, r, h, hand := s.precisionRecall(l)
		fmt.Fprintf(&b, "  %-11s precision %5.1f%% (of %d)  recall %5.1f%% (of %d)\n", l, 100*p, h, 100*r, hand)
	}
	for _, src := range []string{heuristic.SourceHeuristic, heuristic.SourceAnnotations, heuristic.SourceDefault} {
		if c := s.bySource[src]; c[0] > 0 {
			fmt.Fprintf(&b, "  from %-11s %d tools, %d agree\n", src, c[0], c[1])
		}
	}
	return b.String()
}

// TestCorpusLabels runs the real-server corpus, labels every tool as
// mcpward shows it and compares with the hand labels. On the held-out
// servers (never looked at while tuning) it pins: no tool labelled write or
// destructive by hand is labelled read, and the read recall and agreement
// floors below. Every collected tool must have a hand
// label whose hash matches its definition (a changed definition needs a new
// reading). The hand labels follow docs/labels.md: a tool is labelled by
// the most dangerous thing one call can do, so a tool with a delete mode
// is destructive.
func TestCorpusLabels(t *testing.T) {
	if testing.Short() {
		t.Skip("starts every corpus server")
	}
	tools := collect(t)
	if *dump != "" {
		var b strings.Builder
		for _, ct := range tools {
			line, _ := json.Marshal(ct)
			b.Write(line)
			b.WriteByte('\n')
		}
		if err := os.WriteFile(*dump, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	labels := readLabels(t)
	// Three sets: the tuning servers, the first corpus's held-out third
	// (seen: its misses were studied while tuning) and the fresh held-out
	// third of the servers added later (freshServers).
	sets := map[string]*scores{splitTuning: {}, splitSeen: {}, splitFresh: {}, splitFresh13: {}, splitFresh13b: {}, splitFresh14: {}}
	servers := map[string][]string{}
	for _, ct := range tools {
		k := ct.Package + "\x00" + ct.Tool
		hl, ok := labels[k]
		switch {
		case !ok:
			t.Errorf("%s %s (hash %s) has no hand label in testdata/labels.tsv", ct.Package, ct.Tool, ct.Hash)
			continue
		case hl.hash != ct.Hash:
			t.Errorf("labels.tsv:%d: %s %s is labelled for definition %s, the server now has %s: read it again", hl.line, ct.Package, ct.Tool, hl.hash, ct.Hash)
			continue
		}
		l := label(ct.obj)
		got := l.Risk
		who := fmt.Sprintf("%s %s (hand %s, heuristic %s)", ct.Package, ct.Tool, hl.label, got)
		split := splitOf(ct.Package)
		sets[split].add(hl.label, l, who)
		if got != hl.label && (split == splitTuning && *showTuning || split == *showSplit) {
			t.Logf("%s miss: %s", split, who)
		}
		if !slices.Contains(servers[split], ct.Package) {
			servers[split] = append(servers[split], ct.Package)
		}
	}
	for _, split := range []string{splitFresh14, splitFresh13b, splitFresh13, splitFresh, splitSeen, splitTuning} {
		t.Logf("%s (%d servers: %s):\n%s", split, len(servers[split]), strings.Join(servers[split], ", "), sets[split].report())
	}
	for _, split := range []string{splitFresh14, splitFresh13b, splitFresh13, splitFresh, splitSeen} {
		held := sets[split]
		if held.n == 0 && split == splitFresh && len(freshServers) == 0 {
			continue // no server has joined the corpus since the first one
		}
		if held.n == 0 && (split == splitFresh13 || split == splitFresh13b || split == splitFresh14) && !*withToolsOnly {
			continue // its servers are all ToolsOnly
		}
		if held.n == 0 {
			t.Fatalf("%s: no tool was labelled", split)
		}
		switch {
		case *blind && len(held.unsafe) > 0:
			t.Errorf("%s: %d state-changing tools are labelled read", split, len(held.unsafe))
		case !*blind:
			for _, u := range held.unsafe {
				if why, ok := knownUnsafe[u]; ok {
					t.Logf("%s: labelled read, known: %s: %s", split, u, why)
					continue
				}
				t.Errorf("%s: a state-changing tool is labelled read: %s", split, u)
			}
		}
	}
	// No state-changing tool labelled read on the tuning servers either.
	for _, u := range sets[splitTuning].unsafe {
		t.Errorf("tuning: a state-changing tool is labelled read: %s", u)
	}
	// Issue 24 asks for read recall >= 90 % and agreement >= 95 % on the
	// held-out servers. The floors pin what is measured, so that a change
	// can only raise them.
	//
	// Seen (the first corpus's held-out third, 126 tools): read recall
	// 93.8 %, agreement 93.7 % (session 6: 89.7 %; 92.1 % of the gain is
	// the multi-mode relabel of docs/labels.md, not the heuristic; the
	// first reviewer's reading: 78.4 % and 77.8 %; the word rules before
	// it: 45.4 % and 39.7 %).
	//
	// Fresh, with -corpus.all (the five held-out ToolsOnly servers and
	// go-mcp's current_time_server, 402 tools, measured once after their
	// labels were committed, the heuristic unchanged): read recall 97.5 %,
	// agreement 93.5 %. Session 11, after its misses were studied (two
	// open readings settled, [heuristic.ClassifyDefinition]): read
	// precision 100 %, recall 97.5 %, agreement 95.0 %; tuning 96.2 %.
	type floor struct {
		split             string
		recall, agreement float64
	}
	//
	// Session 13 (twelve servers new to the corpus, 149 tools, labelled
	// blind and committed first), measured once before any change for
	// them: read recall 83.3 %, agreement 83.2 %, 6 state-changing tools
	// labelled read. After its misses were studied (the general causes of
	// TestSession13Readings), it is seen: read precision 98.6 %, recall
	// 95.8 %, agreement 94.0 % (140 of 149), one state-changing tool
	// labelled read (knownUnsafe).
	//
	// Session 13b (sixteen more servers, 130 tools, labelled blind and
	// committed first), measured once with the heuristic after the
	// session-13 fixes, and not tuned on since: read precision 95.5 %,
	// recall 88.9 %, agreement 88.5 % (115 of 130), 3 state-changing
	// tools labelled read (knownUnsafe). Session 14 studied its misses
	// (the general causes of TestSession13bReadings): read precision
	// 97.3 %, recall 100 %, agreement 98.5 % (128 of 130), 2 state-changing
	// tools labelled read.
	//
	// Session 14 (thirteen more servers, 212 tools, labelled blind and
	// committed first), measured once with the heuristic after split
	// 13b's misses were studied, and not tuned on since: read precision
	// 98.9 %, recall 95.8 %, agreement 92.9 % (197 of 212), 1
	// state-changing tool labelled read (knownUnsafe).
	floors := []floor{{splitSeen, 0.93, 0.93}}
	if *withToolsOnly {
		floors = append(floors, floor{splitFresh, 0.97, 0.95}, floor{splitTuning, 0.98, 0.96}, floor{splitFresh13, 0.95, 0.93}, floor{splitFresh13b, 0.99, 0.98}, floor{splitFresh14, 0.95, 0.92})
	}
	for _, f := range floors {
		held := sets[f.split]
		if _, r, _, _ := held.precisionRecall(heuristic.Read); r < f.recall {
			t.Errorf("%s: read recall %.1f%%, want at least %.0f%% (issue 24's target: 90%%)", f.split, 100*r, 100*f.recall)
		}
		if a := float64(held.agree) / float64(held.n); a < f.agreement {
			t.Errorf("%s: agreement %.1f%%, want at least %.0f%% (issue 24's target: 95%%)", f.split, 100*a, 100*f.agreement)
		}
	}
}

// label is the label mcpward shows for one tool (inspect's column and
// its risk.* note): Risk is what is compared with the hand label.
func label(tool snapshot.Object) heuristic.Label {
	return heuristic.ClassifyDefinition(snapshot.Str(tool, "name"), snapshot.Str(tool, "description"), annotationsOf(tool), tool["inputSchema"])
}

// annotationsOf reads a tool's annotations, nil when absent.
func annotationsOf(tool snapshot.Object) *mcp.ToolAnnotations {
	raw, ok := tool["annotations"]
	if !ok {
		return nil
	}
	b, _ := json.Marshal(raw)
	var a mcp.ToolAnnotations
	if json.Unmarshal(b, &a) != nil {
		return nil
	}
	return &a
}

// corpusServers lists the servers labelled besides testenv.Corpus (the
// npm servers under internal/testenv/npm and the go-sdk conformance
// everything-server), or the servers of -corpus.servers instead of all.
func corpusServers(t *testing.T) []corpustools.Server {
	t.Helper()
	if *serversFile != "" {
		b, err := os.ReadFile(*serversFile)
		if err != nil {
			t.Fatal(err)
		}
		var list []struct {
			Pkg  string   `json:"pkg"`
			Argv []string `json:"argv"`
			Env  []string `json:"env"`
		}
		if err := json.Unmarshal(b, &list); err != nil {
			t.Fatal(err)
		}
		out := make([]corpustools.Server, len(list))
		for i, s := range list {
			out[i] = corpustools.Server{Package: s.Pkg, Argv: s.Argv, Env: s.Env}
		}
		return out
	}
	dir := t.TempDir()
	return []corpustools.Server{
		{Package: "@modelcontextprotocol/server-everything@2026.8.31", Argv: testenv.NPMServer(t, "@modelcontextprotocol/server-everything", "dist/index.js", "stdio")},
		{Package: "@modelcontextprotocol/server-everything@2025.1.14", Argv: testenv.NPMServer(t, "everything-2025-01", "dist/index.js")},
		{Package: "@modelcontextprotocol/server-filesystem@2.0.1", Argv: testenv.NPMServer(t, "fs-v2", "dist/index.js", dir)},
		{Package: "github.com/modelcontextprotocol/go-sdk/conformance/everything-server@v1.8.0", Argv: []string{testenv.EverythingServer(t)}},
	}
}
