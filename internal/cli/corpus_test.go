package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/atomicfile"
	"github.com/mcpward/mcpward/internal/testenv"
)

// corpusGolden is what TestCorpus observed on every corpus server (issue
// 23 item 7), keyed by the server's package@version and transport: its
// surface as counts and a digest per tool definition (the definitions
// themselves are read from the installed packages, never committed), the
// exit codes and every finding of compat and sessions check. -update
// rewrites it; the clause and why of each violation and risky finding
// live in the hand-kept corpusWhyFile, which -update never touches.
const corpusGolden = "testdata/corpus.json"

// corpusExpect is one entry of corpusGolden.
type corpusExpect struct {
	Name        string            `json:"name"`
	SDK         string            `json:"sdk"`
	Counts      map[string]int    `json:"counts"`
	Tools       map[string]string `json:"tools"`
	Era         string            `json:"era"`
	Versions    []string          `json:"versions,omitempty"`
	InspectExit int               `json:"inspectExit"`
	RecordExit  int               `json:"recordExit"`
	CompatExit  int               `json:"compatExit"`
	SessionExit int               `json:"sessionExit"`
	// Findings are "compat: class rule subject profile" and "session:
	// class rule subject", sorted; a finding reported twice is listed
	// twice.
	Findings []string `json:"findings"`

	// drift holds the diff of the two records; rows the comparison
	// with the conformance suite (HTTP servers).
	drift []string
	rows  [][]string
}

// corpusKey is how a corpus entry is pinned: package@version (module@version
// and package for Go), transport and the gateway it is served through.
func corpusKey(s testenv.CorpusServer) string {
	k := s.ID + " " + s.Transport
	if s.Via != "" {
		k += " via " + s.Via
	}
	return k
}

// corpusWorkers is how many corpus servers are observed at once: most are
// node processes whose start is CPU-bound, so on 2 cores more only
// stretches every timeout.
const corpusWorkers = 4

// TestCorpus runs, on every server of testenv.Corpus: inspect --save (the
// first record) and record (the second), diff of the two snapshots, compat
// over every built-in profile (no tool is called), a short session through
// mcpward (the stdio shim, or the HTTP reverse proxy) and sessions check on
// its log; on an HTTP server also the official conformance suite
// (conformance_test.go). It compares everything with corpusGolden and
// corpusWhyFile and fails on a new or vanished finding, a changed count or
// digest, an exit 5, a hang, a pinned violation or risky finding without
// its clause and why, and two records that differ where the server has no
// note saying it is itself nondeterministic.
func TestCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the corpus servers")
	}
	began := time.Now()
	want := readPins[corpusExpect](t, corpusGolden)
	why, err := readCorpusWhy()
	if err != nil {
		t.Fatal(err)
	}
	mw := testenv.MCPWard(t)
	suite := conformanceSuite()
	var (
		mu   sync.Mutex
		got  = map[string]corpusExpect{}
		work = make(chan testenv.CorpusServer)
		// everything are the conformance rows of the go-sdk conformance
		// everything-server (not a corpus entry: TestRealServers pins it).
		everything [][]string
		wg         sync.WaitGroup
	)
	var servers []testenv.CorpusServer
	for _, s := range testenv.Corpus() {
		if !s.ToolsOnly { // listed for their tool definitions only
			servers = append(servers, s)
		}
	}
	// HTTP servers first: they run the conformance suite too.
	slices.SortStableFunc(servers, func(a, b testenv.CorpusServer) int {
		return strings.Compare(a.Transport, b.Transport) // "http" < "stdio"
	})
	t.Run("servers", func(t *testing.T) {
		for range corpusWorkers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for s := range work {
					t.Run(s.Name, func(t *testing.T) {
						obs := observeCorpus(t, mw, suite, s)
						mu.Lock()
						got[corpusKey(s)] = obs
						mu.Unlock()
					})
				}
			}()
		}
		for _, s := range servers {
			work <- s
		}
		close(work)
		wg.Wait()
	})
	if suite != nil {
		t.Run("conformance-everything", func(t *testing.T) {
			extra := conformanceEverything(t, suite)
			mu.Lock()
			everything = extra
			mu.Unlock()
		})
	}
	t.Logf("corpus: %d of %d servers observed in %s", len(got), len(servers), time.Since(began).Round(time.Second))
	complete, httpComplete := len(got) == len(servers), true
	for _, s := range servers {
		if _, ok := got[corpusKey(s)]; !ok && s.Transport == testenv.HTTP {
			httpComplete = false
		}
	}
	if *update && !*corpusTableOnly {
		var kept []string
		got, kept = mergeCorpusPins(want, got, servers)
		if len(kept) > 0 {
			t.Logf("-update kept the pins of %d servers not observed this run: %s", len(kept), strings.Join(kept, ", "))
		}
		b, _ := json.MarshalIndent(got, "", "  ")
		if err := atomicfile.Write(corpusGolden, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		want = got
	}
	rows := everything
	for _, key := range slices.Sorted(maps.Keys(got)) {
		if *corpusTableOnly {
			rows = append(rows, got[key].rows...)
			continue
		}
		compareCorpus(t, key, want[key], got[key], why)
		rows = append(rows, got[key].rows...)
	}
	if !complete {
		t.Logf("%d corpus servers were skipped: the pins of the others are checked, the conformance table is not", len(servers)-len(got))
	}
	for key := range want {
		if _, ok := got[key]; !ok && complete {
			t.Errorf("%s: pinned in %s but not in testenv.Corpus", key, corpusGolden)
		}
	}
	if !*corpusTableOnly {
		checkCorpusWhy(t, want, why)
	}
	switch {
	case suite == nil && os.Getenv("CI") == "true":
		t.Errorf("in CI: %s", conformanceMissing)
	case suite == nil:
		t.Logf("the conformance table is not compared: %s", conformanceMissing)
	case httpComplete:
		compareConformanceTable(t, rows)
	}
}

// readPins reads a corpus test's pins (server key → what is expected); a
// missing file is an empty set under -update, else the test fails.
func readPins[T any](t *testing.T, path string) map[string]T {
	t.Helper()
	pins := map[string]T{}
	b, err := os.ReadFile(path)
	switch {
	case err == nil:
		if err := json.Unmarshal(b, &pins); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	case !*update:
		t.Fatal(err)
	}
	return pins
}

// mergeCorpusPins is what -update writes: every observed entry as
// observed; a server of the corpus not observed this run (skipped, or left
// out by -run) keeps its pins whole, findings included, and is listed in
// kept; an entry whose server left the corpus is dropped.
func mergeCorpusPins(pinned, observed map[string]corpusExpect, servers []testenv.CorpusServer) (merged map[string]corpusExpect, kept []string) {
	merged = maps.Clone(observed)
	if merged == nil {
		merged = map[string]corpusExpect{}
	}
	for _, s := range servers {
		key := corpusKey(s)
		if _, ok := observed[key]; ok {
			continue
		}
		if w, ok := pinned[key]; ok {
			merged[key] = w
			kept = append(kept, key)
		}
	}
	slices.Sort(kept)
	return merged, slices.Compact(kept)
}

// compareCorpus fails on every difference between the pinned and the
// observed entry, and on a pinned finding without its why.
func compareCorpus(t *testing.T, key string, want, got corpusExpect, why corpusWhy) {
	t.Helper()
	if want.Name == "" {
		t.Errorf("%s: not pinned in %s (run with -update)", key, corpusGolden)
		return
	}
	if !maps.Equal(want.Counts, got.Counts) {
		t.Errorf("%s: counts %v, pinned %v", key, got.Counts, want.Counts)
	}
	for tool, d := range got.Tools {
		if want.Tools[tool] != d {
			t.Errorf("%s: tool %s has digest %s, pinned %q", key, tool, d, want.Tools[tool])
		}
	}
	for tool := range want.Tools {
		if _, ok := got.Tools[tool]; !ok {
			t.Errorf("%s: pinned tool %s is gone", key, tool)
		}
	}
	if want.Era != got.Era || !slices.Equal(want.Versions, got.Versions) {
		t.Errorf("%s: era %s %v, pinned %s %v", key, got.Era, got.Versions, want.Era, want.Versions)
	}
	for _, c := range []struct {
		what      string
		got, want int
	}{{"inspect", got.InspectExit, want.InspectExit}, {"record", got.RecordExit, want.RecordExit}, {"compat", got.CompatExit, want.CompatExit}, {"sessions check", got.SessionExit, want.SessionExit}} {
		if c.got != c.want {
			t.Errorf("%s: %s exited %d, pinned %d", key, c.what, c.got, c.want)
		}
		if c.got == 5 {
			t.Errorf("%s: %s exited 5 (an internal error)", key, c.what)
		}
	}
	if len(got.drift) > 0 {
		if note := why.notes[key]; note != "" {
			t.Logf("%s: the two records differ (%s), as its note says: %s", key, strings.Join(got.drift, "; "), note)
		} else {
			t.Errorf("%s: the two records differ and %s has no note saying the server is nondeterministic:\n\t%s", key, corpusWhyFile, strings.Join(got.drift, "\n\t"))
		}
	}
	var pins []pin
	for _, f := range want.Findings {
		pins = append(pins, pin{finding: f})
	}
	comparePins(t, key, pins, got.Findings)
}

// checkCorpusWhy fails on a pinned violation or risky finding without its
// clause and why in corpusWhyFile, and on a why whose finding is not
// pinned (any more).
func checkCorpusWhy(t *testing.T, pinned map[string]corpusExpect, why corpusWhy) {
	t.Helper()
	findings := map[string][]string{}
	for key, e := range pinned {
		findings[key] = e.Findings
	}
	checkWhy(t, corpusWhyFile, corpusGolden, findings, why)
}

// checkWhy checks a why file against the findings pinned in golden, by
// server key.
func checkWhy(t *testing.T, whyFile, golden string, pinned map[string][]string, why corpusWhy) {
	t.Helper()
	for _, key := range slices.Sorted(maps.Keys(pinned)) {
		findings := pinned[key]
		reasons := why.reasons[key]
		for _, f := range slices.Compact(slices.Clone(findings)) {
			r, ok := reasons[f]
			switch {
			case needsWhy(f) && !ok:
				t.Errorf("%s: %q has no clause and why in %s", key, f, whyFile)
			case needsWhy(f) && (r.clause == "" || r.why == ""):
				t.Errorf("%s:%d: %q needs both its clause and its why", whyFile, r.line, f)
			}
		}
		for f, r := range reasons {
			if !slices.Contains(findings, f) {
				t.Errorf("%s:%d: %s: %q is not pinned (remove its why)", whyFile, r.line, key, f)
			}
		}
	}
	for key := range why.reasons {
		if _, ok := pinned[key]; !ok {
			t.Errorf("%s: %s has why lines but is not pinned in %s", whyFile, key, golden)
		}
	}
	for key := range why.notes {
		if _, ok := pinned[key]; !ok {
			t.Errorf("%s: %s has a note but is not pinned in %s", whyFile, key, golden)
		}
	}
}

// TestCorpusUpdateKeepsUnobserved pins the -update path for a run that
// did not observe every server (one skipped, or -run left it out): its
// pinned entry, findings included, is written back whole and named in the
// log; an observed entry is written as observed, even when a finding
// vanished; an entry whose server left the corpus is dropped.
func TestCorpusUpdateKeepsUnobserved(t *testing.T) {
	servers := []testenv.CorpusServer{
		{Name: "a-stdio", ID: "a@1", Transport: testenv.Stdio},
		{Name: "a-http-mcp-proxy", ID: "a@1", Transport: testenv.HTTP, Via: "mcp-proxy@6.7.19"},
		{Name: "b-stdio", ID: "b@2", Transport: testenv.Stdio},
	}
	pinned := map[string]corpusExpect{
		"a@1 stdio":                     {Name: "a-stdio", Findings: []string{"compat: violation stdio.stdout_not_clean transport"}},
		"a@1 http via mcp-proxy@6.7.19": {Name: "a-http-mcp-proxy", Findings: []string{"compat: violation transport.origin_invalid_not_403 transport"}},
		"b@2 stdio":                     {Name: "b-stdio", Findings: []string{"compat: risky x y"}},
		"gone@0 stdio":                  {Name: "gone-stdio"},
	}
	observed := map[string]corpusExpect{
		"b@2 stdio": {Name: "b-stdio", Findings: []string{}},
	}
	merged, kept := mergeCorpusPins(pinned, observed, servers)
	if want := []string{"a@1 http via mcp-proxy@6.7.19", "a@1 stdio"}; !slices.Equal(kept, want) {
		t.Errorf("kept %q, want %q", kept, want)
	}
	if got := slices.Sorted(maps.Keys(merged)); !slices.Equal(got, []string{"a@1 http via mcp-proxy@6.7.19", "a@1 stdio", "b@2 stdio"}) {
		t.Errorf("merged keys %q: want the three corpus entries, not the one that left", got)
	}
	if f := merged["a@1 stdio"].Findings; !slices.Equal(f, pinned["a@1 stdio"].Findings) {
		t.Errorf("the unobserved entry's findings are %q, want its pins %q", f, pinned["a@1 stdio"].Findings)
	}
	if f := merged["b@2 stdio"].Findings; len(f) != 0 {
		t.Errorf("the observed entry keeps a finding it no longer shows: %q", f)
	}
	if merged, kept := mergeCorpusPins(pinned, map[string]corpusExpect{}, nil); len(merged) != 0 || len(kept) != 0 {
		t.Errorf("an empty corpus keeps %v (%q), want nothing", merged, kept)
	}
}

// TestCorpusWhy checks corpusWhyFile against corpusGolden without starting
// anything: every pinned violation and risky finding has its clause and
// why, and every why its pinned finding.
func TestCorpusWhy(t *testing.T) {
	pinned := map[string]corpusExpect{}
	b, err := os.ReadFile(corpusGolden)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &pinned); err != nil {
		t.Fatalf("%s: %v", corpusGolden, err)
	}
	why, err := readCorpusWhy()
	if err != nil {
		t.Fatal(err)
	}
	checkCorpusWhy(t, pinned, why)
}

// observeCorpus runs every command on one corpus server.
func observeCorpus(t *testing.T, mw string, suite []string, s testenv.CorpusServer) corpusExpect {
	began := time.Now()
	tg := s.Start(t)
	var flags []string
	if tg.URL != "" {
		flags = []string{"--url", tg.URL}
	} else {
		for _, e := range tg.Env {
			flags = append(flags, "--env", e)
		}
		flags = append(append(flags, "--"), tg.Argv...)
	}
	dir := t.TempDir()
	common := []string{"--timeout", "90s"} // generous: a loaded machine starts node slowly
	cmd := func(args ...string) []string { return append(append(args, common...), flags...) }
	// inspect --save writes the snapshot record would: it is the first of
	// the two records (one server start fewer).
	a, b := filepath.Join(dir, "a.snapshot.json"), filepath.Join(dir, "b.snapshot.json")
	var steps []string
	step := func(what string, from time.Time) {
		steps = append(steps, fmt.Sprintf("%s %.1fs", what, time.Since(from).Seconds()))
	}
	t0 := time.Now()
	inspectCode, inspectOut := runBounded(t, mw, cmd("inspect", "--json", "--save", a)...)
	step("inspect", t0)
	t0 = time.Now()
	recordCode, recordOut := runBounded(t, mw, cmd("record", "b", "--dir", dir)...)
	step("record", t0)
	t0 = time.Now()
	compatCode, compatOut := runBounded(t, mw, cmd("compat", "--json")...)
	step("compat", t0)
	t0 = time.Now()
	sessionCode, sessionOut := corpusSession(t, mw, tg)
	step("session", t0)
	obs := corpusExpect{Name: s.Name, SDK: s.SDK, InspectExit: inspectCode, RecordExit: recordCode,
		CompatExit: compatCode, SessionExit: sessionCode, Tools: map[string]string{}, Findings: []string{}}
	var snap struct {
		EntityDigests map[string]string `json:"entityDigests"`
	}
	if err := json.Unmarshal([]byte(inspectOut), &snap); err != nil {
		t.Fatalf("inspect exited %d: %v\n%.2000s", inspectCode, err, inspectOut)
	}
	c := surfaceCounts(t, inspectOut)
	obs.Counts = map[string]int{"tools": c.tools, "resources": c.resources, "templates": c.templates, "prompts": c.prompts}
	for k, d := range snap.EntityDigests {
		if tool, ok := strings.CutPrefix(k, "tools/"); ok {
			obs.Tools[tool] = d
		}
	}
	if recordCode != 0 {
		t.Logf("record exited %d:\n%.2000s", recordCode, recordOut)
	}
	if _, err := os.Stat(b); err == nil && inspectCode == 0 {
		code, out := runBounded(t, mw, "diff", "--json", "--fail-on", "cosmetic", a, b)
		if code != 0 {
			obs.drift = resultFindings(t, out)
		}
	}
	var cr compatResult
	if json.Valid([]byte(compatOut)) {
		_ = json.Unmarshal([]byte(compatOut), &cr)
		obs.Era, obs.Versions = cr.Compat.Era, cr.Compat.SupportedVersions
	}
	for _, a := range cr.Compat.Assertions {
		if a.Verdict == "fail" || a.Verdict == "warn" {
			t.Logf("compat %s %s: %s", a.Verdict, a.ID, a.Detail) // the evidence a why line rests on
		}
	}
	for _, f := range corpusFindings(t, "compat", compatCode, compatOut) {
		obs.Findings = append(obs.Findings, "compat: "+f)
	}
	for _, f := range corpusFindings(t, "sessions check", sessionCode, sessionOut) {
		obs.Findings = append(obs.Findings, "session: "+sessionID.ReplaceAllString(f, "session SESSION"))
	}
	slices.Sort(obs.Findings)
	if tg.URL != "" && suite != nil {
		t0 = time.Now()
		obs.rows = conformanceRows(s.Name, conformanceRun(t, suite, tg.URL, cr.Compat.SupportedVersions), cr)
		step("conformance", t0)
	}
	t.Logf("%s: %s (%s)", s.Name, time.Since(began).Round(100*time.Millisecond), strings.Join(steps, ", "))
	return obs
}

// sessionID is the ULID of a session log in a finding's subject: a new one
// every run, so it is pinned as SESSION.
var sessionID = regexp.MustCompile(`session [0-9A-HJKMNP-TV-Z]{26}`)

// compatResult is the part of compat's JSON the corpus reads besides its
// findings: the era, the versions and every assertion.
type compatResult struct {
	Compat struct {
		Era               string   `json:"era"`
		SupportedVersions []string `json:"supportedVersions"`
		Assertions        []struct {
			ID, Verdict, Detail string
		} `json:"assertions"`
	} `json:"compat"`
}

// corpusBound is how long one mcpward command may run on a corpus server
// before it counts as a hang: every request has a 30-second timeout, and
// compat sends a few hundred of them at most.
const corpusBound = 8 * time.Minute

// runBounded runs the built mcpward (a subprocess, so that a hang can be
// ended: one still running after corpusBound is killed and fails the
// test) and returns its exit code and stdout, stderr appended when stdout
// is not JSON.
func runBounded(t *testing.T, mw string, args ...string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), corpusBound)
	defer cancel()
	cmd := exec.CommandContext(ctx, mw, args...)
	cmd.Env = append(os.Environ(), "MCPWARD_HOME="+t.TempDir(), "NO_COLOR=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() == context.DeadlineExceeded {
		t.Fatalf("mcpward %s: still running after %s (a hang)", strings.Join(args[:min(3, len(args))], " "), corpusBound)
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if !json.Valid(stdout.Bytes()) {
		return code, stdout.String() + "\n[stderr]\n" + stderr.String()
	}
	return code, stdout.String()
}

// corpusFindings reads a Result; a command that printed none (it could not
// start the server, say) is logged and has no findings: its exit code is
// pinned.
func corpusFindings(t *testing.T, what string, code int, out string) []string {
	t.Helper()
	if !json.Valid([]byte(out)) {
		t.Logf("%s exited %d without a result:\n%.1500s", what, code, out)
		return nil
	}
	return resultFindings(t, out)
}

// corpusSession drives a short legacy session (initialize, initialized,
// tools/list, ping) through mcpward: the stdio shim for a stdio server, the
// HTTP reverse proxy for an HTTP one; then runs sessions check on the
// session log and returns its exit code and JSON.
func corpusSession(t *testing.T, mw string, tg testenv.CorpusTarget) (int, string) {
	t.Helper()
	log := filepath.Join(t.TempDir(), "session.jsonl")
	msgs := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"mcpward-corpus","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"ping"}`,
	}
	if tg.URL == "" {
		shimSession(t, mw, tg, log, msgs)
	} else {
		proxySession(t, mw, tg, log, msgs)
	}
	return runBounded(t, mw, "sessions", "check", "--json", log)
}

// shimSession writes msgs to the server through `mcpward proxy -- argv`,
// waiting for the answer to each request, then closes stdin and waits for
// the shim to exit.
func shimSession(t *testing.T, mw string, tg testenv.CorpusTarget, log string, msgs []string) {
	t.Helper()
	cmd := exec.Command(mw, append([]string{"proxy", "--no-feed", "--trace-file", log, "--"}, tg.Argv...)...)
	cmd.Env = append(append(os.Environ(), tg.Env...), "MCPWARD_HOME="+t.TempDir())
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	var stderr lockedBuf
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	await := func(id string) bool {
		timeout := time.After(2 * time.Minute)
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Errorf("session: the shim's stdout ended before the answer to %s; stderr:\n%s", id, stderr.String())
					return false
				}
				if strings.Contains(l, `"id":`+id) && strings.Contains(l, `"jsonrpc"`) {
					return true
				}
			case <-timeout:
				t.Errorf("session: no answer to %s within 2 minutes (a hang)", id)
				return false
			}
		}
	}
	for _, m := range msgs {
		fmt.Fprintln(in, m)
		var req struct {
			ID json.RawMessage `json:"id"`
		}
		_ = json.Unmarshal([]byte(m), &req)
		if req.ID != nil && !await(string(req.ID)) {
			break
		}
	}
	in.Close()
	go func() {
		for range lines {
		}
	}()
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		<-done
		t.Errorf("session: the shim did not exit within 2 minutes of stdin closing")
	}
}

// proxySession posts msgs through `mcpward proxy --target URL`, carrying
// the session id and the negotiated version as a client would.
func proxySession(t *testing.T, mw string, tg testenv.CorpusTarget, log string, msgs []string) {
	t.Helper()
	front := freeAddr(t)
	cmd := exec.Command(mw, "proxy", "--no-feed", "--trace-file", log, "--target", tg.URL, "--listen", front)
	cmd.Env = append(os.Environ(), "MCPWARD_HOME="+t.TempDir())
	var stderr lockedBuf
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			<-done
			t.Errorf("session: the proxy did not exit within 30 seconds of an interrupt")
		}
	}()
	waitListening(t, front)
	rest := strings.TrimPrefix(tg.URL, "http://")
	url := "http://" + front + rest[strings.Index(rest, "/"):]
	client := &http.Client{Timeout: 2 * time.Minute}
	var session, version string
	for _, m := range msgs {
		req, _ := http.NewRequest("POST", url, strings.NewReader(m))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
		}
		if version != "" {
			req.Header.Set("MCP-Protocol-Version", version)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Errorf("session: %v; proxy stderr:\n%s", err, stderr.String())
			break
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if sid := resp.Header.Get("Mcp-Session-Id"); sid != "" {
			session = sid
		}
		version = "2025-06-18"
	}
}

// lockedBuf is a bytes.Buffer safe for a child's output and a reader.
type lockedBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuf) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// freeAddr returns 127.0.0.1:PORT with nothing listening on PORT now.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// waitListening waits until addr accepts connections (three minutes at
// most: a loaded machine starts slowly, and a hang is caught by the bound).
func waitListening(t *testing.T, addr string) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	for time.Now().Before(deadline) {
		if c, err := net.DialTimeout("tcp", addr, 500*time.Millisecond); err == nil {
			c.Close()
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("nothing listens on %s after 3 minutes", addr)
}
