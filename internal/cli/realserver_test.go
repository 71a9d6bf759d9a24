package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/testenv"
)

// A pin is one finding the real-server table expects, written
// "class rule subject profile" (compat) or "tier rule subject" (drift).
// A violation carries the clause it breaks (DIGEST id or section, and the
// revision) and one line on why the finding is true, checked by hand
// against the evidence.
type pin struct {
	finding string
	clause  string
	why     string
}

// counts are the sizes of a surface.
type counts struct{ tools, resources, templates, prompts int }

// A realServer is one row of the table: a real third-party server on one
// transport and everything mcpward is expected to say about it.
type realServer struct {
	name string
	// start launches the server and returns the target flags of inspect
	// and compat (--url U, or -- argv…) and the config target.
	start  func(t *testing.T) (flags []string, target map[string]any)
	probes []string // tools called with {} by compat, record and check
	counts counts
	// compat pins every finding of `compat` over every profile.
	compat     []pin
	compatExit int
	// check pins every finding of `check` against the server's own
	// snapshot (run twice: both runs must agree).
	check     []pin
	checkExit int
}

// Clauses the pins cite (DIGEST ids; the revision each binds from).
const (
	mrtrCapGated  = "MRTR-CAP-GATED (DIGEST §7, 2026-07-28): the server MUST NOT ask, in inputRequests, for what the client did not declare in this request's capabilities"
	b64Sentinel   = "HDR-B64-SENTINEL (DIGEST §3.2, 2026-07-28): servers MUST decode =?base64?…?= before comparing Mcp-Name with the body"
	originCheck   = "HTTP-ORIGIN-VALIDATE (DIGEST §3.2, §3.3; the 403 binds from 2025-11-25): a present, invalid Origin MUST get 403"
	endedSession  = "legacy sessions (DIGEST §3.3 Sessions, 2025-03-26 to 2025-11-25): once the server ended a session it MUST answer requests carrying its id with 404"
	whyOrigin     = "a tools/list with Origin: http://mcpward-evil.example (a foreign site reaching a loopback server) was served 200 with the tool list"
	whyB64        = "Mcp-Name: =?base64?bWNwd2FyZC1uby1zdWNoLXRvb2w=?= decodes to the body's name, yet the server answered 400 -32020 quoting the undecoded value"
	whyCapProfile = "the profile's request declared no such capability (modern-minimal: {}), yet the result is input_required asking for it"
	whyCapRecord  = "record probes with capabilities {}; the stored result is input_required asking for roots, sampling or elicitation"
)

// goSDKCompat pins compat's findings on the go-sdk everything-server; the
// HTTP row adds the transport findings.
var goSDKCompat = []pin{
	{finding: "violation degrade.input_required_without_capability test_input_required_result_elicitation@modern-minimal modern-minimal", clause: mrtrCapGated, why: whyCapProfile + " (elicitation/create)"},
	{finding: "violation degrade.input_required_without_capability test_input_required_result_elicitation@no-elicitation no-elicitation", clause: mrtrCapGated, why: "no-elicitation declared every capability but elicitation; the result asks elicitation/create"},
	{finding: "violation degrade.input_required_without_capability test_input_required_result_list_roots@modern-minimal modern-minimal", clause: mrtrCapGated, why: whyCapProfile + " (roots/list)"},
	{finding: "violation degrade.input_required_without_capability test_input_required_result_list_roots@no-roots no-roots", clause: mrtrCapGated, why: "no-roots declared every capability but roots; the result asks roots/list"},
	{finding: "violation degrade.input_required_without_capability test_input_required_result_sampling@modern-minimal modern-minimal", clause: mrtrCapGated, why: whyCapProfile + " (sampling/createMessage)"},
	{finding: "violation degrade.input_required_without_capability test_input_required_result_sampling@no-sampling no-sampling", clause: mrtrCapGated, why: "no-sampling declared every capability but sampling; the result asks sampling/createMessage"},
	// info: -32021 names capabilities the baseline call did not exercise
	// (a server may need them on other calls; no MUST).
	{finding: "info degrade.over_declared test_missing_capability@modern-minimal modern-minimal"},
	{finding: "info degrade.over_declared test_missing_capability@modern-minimal modern-minimal"},
	{finding: "info degrade.over_declared test_missing_capability@no-sampling no-sampling"},
}

var goSDKCheck = []pin{
	{finding: "violation degrade.input_required_without_capability probe.test_input_required_result_elicitation", clause: mrtrCapGated, why: whyCapRecord},
	{finding: "violation degrade.input_required_without_capability probe.test_input_required_result_list_roots", clause: mrtrCapGated, why: whyCapRecord},
	{finding: "violation degrade.input_required_without_capability probe.test_input_required_result_sampling", clause: mrtrCapGated, why: whyCapRecord},
}

// goSDKHTTP are the transport findings of the go-sdk server over HTTP.
var goSDKHTTP = []pin{
	{finding: "violation transport.mcp_name_base64_not_decoded transport", clause: b64Sentinel, why: whyB64},
	{finding: "violation transport.origin_invalid_not_403 transport", clause: originCheck, why: whyOrigin},
	// SSE-XACCEL is a SHOULD: the subscriptions/listen stream has no X-Accel-Buffering: no.
	{finding: "risky transport.sse_no_accel_buffering transport"},
}

// legacyUnserved: a legacy-only server serves no 2026-07-28 profile (info).
var legacyUnserved = []pin{
	{finding: "info compat.profile_unserved profile.legacy-headers-absent legacy-headers-absent"},
	{finding: "info compat.profile_unserved profile.modern-full modern-full"},
	{finding: "info compat.profile_unserved profile.modern-minimal modern-minimal"},
	{finding: "info compat.profile_unserved profile.no-elicitation no-elicitation"},
	{finding: "info compat.profile_unserved profile.no-roots no-roots"},
	{finding: "info compat.profile_unserved profile.no-sampling no-sampling"},
	{finding: "info compat.profile_unserved profile.no-tasks no-tasks"},
	{finding: "info compat.profile_unserved profile.no-ui no-ui"},
	{finding: "info degrade.legacy_outcome echo@legacy-2025-11-25 legacy-2025-11-25"},
}

// everythingHTTP are the findings of server-everything 2026.8.31 over
// Streamable HTTP (legacy, 2025-11-25).
var everythingHTTP = []pin{
	{finding: "violation transport.origin_invalid_not_403 transport", clause: originCheck, why: "the server negotiated 2025-11-25 and served a tools/list with Origin: http://mcpward-evil.example (200)"},
	{finding: "violation transport.session_not_404_after_delete transport", clause: endedSession, why: "DELETE of a fresh session answered 200; a ping with the same Mcp-Session-Id then got 400 -32000 \"No valid session ID provided\", not 404"},
}

func join(lists ...[]pin) []pin { return slices.Concat(lists...) }

// realServers is the table. Every violation is pinned with the clause it
// breaks and why it is true; a finding not listed here fails the test, as
// does a pinned one that disappears.
var realServers = []realServer{
	{
		name: "go-sdk-stdio",
		start: func(t *testing.T) ([]string, map[string]any) {
			bin := testenv.EverythingServer(t)
			return []string{"--", bin}, map[string]any{"command": bin}
		},
		probes: goSDKProbes,
		counts: counts{28, 3, 1, 5},
		// The go-sdk server exits on a malformed line (an observation: no
		// rule binds it, DIGEST §3.1, §1.4).
		compat:     join(goSDKCompat, []pin{{finding: "info stdio.malformed_input transport"}}),
		compatExit: 3,
		check:      goSDKCheck,
		checkExit:  3,
	},
	{
		name: "go-sdk-http",
		start: func(t *testing.T) ([]string, map[string]any) {
			bin := testenv.EverythingServer(t)
			u := fmt.Sprintf("http://127.0.0.1:%d/", startListening(t, nil, bin, "-http"))
			return []string{"--url", u}, map[string]any{"url": u}
		},
		probes: goSDKProbes,
		counts: counts{28, 3, 1, 5},
		compat: join(goSDKCompat, goSDKHTTP, []pin{
			// The legacy-2025-11-25 profile is served the legacy way:
			// observed, not judged by 2026-07-28 rules.
			{finding: "info degrade.legacy_outcome test_input_required_result_elicitation@legacy-2025-11-25 legacy-2025-11-25"},
			{finding: "info degrade.legacy_outcome test_input_required_result_list_roots@legacy-2025-11-25 legacy-2025-11-25"},
			{finding: "info degrade.legacy_outcome test_input_required_result_sampling@legacy-2025-11-25 legacy-2025-11-25"},
			{finding: "info degrade.legacy_outcome test_missing_capability@legacy-2025-11-25 legacy-2025-11-25"},
			// Keep-alives are encouraged only (SSE-KEEPALIVE).
			{finding: "info transport.sse_no_keepalive transport"},
		}),
		compatExit: 3,
		check:      join(goSDKCheck, goSDKHTTP),
		checkExit:  3,
	},
	{
		name: "everything-stdio",
		start: func(t *testing.T) ([]string, map[string]any) {
			argv := testenv.NPMServer(t, "@modelcontextprotocol/server-everything", "dist/index.js", "stdio")
			return append([]string{"--"}, argv...), map[string]any{"command": argv[0], "args": argv[1:]}
		},
		probes: []string{"echo"},
		counts: counts{13, 7, 2, 4},
		compat: legacyUnserved,
	},
	{
		name: "everything-http",
		start: func(t *testing.T) ([]string, map[string]any) {
			argv := testenv.NPMServer(t, "@modelcontextprotocol/server-everything", "dist/index.js", "streamableHttp")
			u := fmt.Sprintf("http://127.0.0.1:%d/mcp", startListening(t, []string{"PORT"}, argv...))
			return []string{"--url", u}, map[string]any{"url": u}
		},
		probes:     []string{"echo"},
		counts:     counts{13, 7, 2, 4},
		compat:     join(legacyUnserved, everythingHTTP),
		compatExit: 3,
		check:      everythingHTTP,
		checkExit:  3,
	},
	{
		name: "everything-2025-01-stdio",
		start: func(t *testing.T) ([]string, map[string]any) {
			argv := testenv.NPMServer(t, "everything-2025-01", "dist/index.js")
			return append([]string{"--"}, argv...), map[string]any{"command": argv[0], "args": argv[1:]}
		},
		probes: []string{"echo"},
		counts: counts{6, 100, 1, 2},
		compat: legacyUnserved,
	},
	{
		name: "filesystem-stdio",
		start: func(t *testing.T) ([]string, map[string]any) {
			argv := testenv.NPMServer(t, "fs-v2", "dist/index.js", t.TempDir())
			return append([]string{"--"}, argv...), map[string]any{"command": argv[0], "args": argv[1:]}
		},
		probes: []string{"list_allowed_directories"},
		counts: counts{14, 0, 0, 0},
	},
}

// goSDKProbes reach the go-sdk server's MRTR tools: each answers
// input_required (or -32021) depending on the declared capabilities.
var goSDKProbes = []string{
	"test_input_required_result_elicitation", "test_input_required_result_list_roots",
	"test_input_required_result_sampling", "test_missing_capability",
}

// TestRealServers runs, per real server and transport, inspect, compat
// over every built-in profile with the probes, and record; then check
// twice against the recorded snapshot (both runs must agree); then one
// check of a snapshot edited as if the server had changed, which must
// report the drift. Every finding is compared with the pins. The servers
// run side by side, and so do the independent commands of one server:
// most of the time is spent waiting for servers that linger after stdin
// closes.
func TestRealServers(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real servers")
	}
	// All rows at once, whatever -parallel says: the servers mostly wait.
	var wg sync.WaitGroup
	defer wg.Wait()
	// t.Run may be called from several goroutines; each must have returned
	// before this test does.
	spawn := func(name string, f func(t *testing.T)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t.Run(name, f)
		}()
	}
	spawn("everything-2025-01-then-2026-08", versionsAcrossReleases)
	spawn("go-sdk-stdio-burst", burstThroughShim)
	for _, rs := range realServers {
		spawn(rs.name, func(t *testing.T) {
			began := time.Now()
			flags, tgt := rs.start(t)
			common := []string{"--timeout", "60s"}

			dir := t.TempDir()
			var probes []any
			for _, p := range rs.probes {
				probes = append(probes, map[string]any{"id": p, "tool": p, "arguments": map[string]any{}})
			}
			tgt["probes"] = probes
			tgt["timeoutMs"] = 60000
			cfgPath := filepath.Join(dir, "mcpward.json")
			cfg, _ := json.MarshalIndent(map[string]any{"targets": map[string]any{"srv": tgt}}, "", "  ")
			if err := os.WriteFile(cfgPath, cfg, 0o644); err != nil {
				t.Fatal(err)
			}
			at := []string{"--config", cfgPath, "--dir", filepath.Join(dir, ".mcpward")}
			compatArgs := append([]string{"compat", "--json"}, common...)
			for _, p := range rs.probes {
				compatArgs = append(compatArgs, "--probe", p)
			}

			// Phase 1: inspect, compat and record are independent.
			run := runArgs
			if !strings.HasPrefix(rs.name, "go-sdk") {
				run = runNode
			}
			r := runAll(t, run,
				append(append([]string{"inspect", "--json"}, common...), flags...),
				append(compatArgs, flags...),
				append([]string{"record", "srv"}, at...))
			if r[0].code != 0 {
				t.Fatalf("inspect exited %d:\n%s", r[0].code, r[0].out)
			}
			if got := surfaceCounts(t, r[0].out); got != rs.counts {
				t.Errorf("inspect counts = %+v, want %+v", got, rs.counts)
			}
			comparePins(t, "compat", rs.compat, resultFindings(t, r[1].out))
			if r[1].code != rs.compatExit {
				t.Errorf("compat exited %d, want %d", r[1].code, rs.compatExit)
			}
			if r[2].code != 0 {
				t.Fatalf("record exited %d:\n%s", r[2].code, r[2].out)
			}

			// Phase 2: check twice against the server's own snapshot.
			check := append([]string{"check", "srv", "--json"}, at...)
			r = runAll(t, run, check, check)
			first := resultFindings(t, r[0].out)
			comparePins(t, "check", rs.check, first)
			if r[0].code != rs.checkExit {
				t.Errorf("check exited %d, want %d", r[0].code, rs.checkExit)
			}
			if second := resultFindings(t, r[1].out); !slices.Equal(second, first) || r[1].code != r[0].code {
				t.Errorf("the two checks disagree:\nfirst  (exit %d) %q\nsecond (exit %d) %q", r[0].code, first, r[1].code, second)
			}

			// Phase 3: drift. One edited snapshot carries every edit; the
			// check must name each.
			path := filepath.Join(dir, ".mcpward", "srv.snapshot.json")
			stored, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var snap map[string]any
			if err := json.Unmarshal(stored, &snap); err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, e := range edits {
				if e.edit(t, snap) {
					want = append(want, e.rule)
				}
			}
			b, _ := json.MarshalIndent(snap, "", "  ")
			if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
				t.Fatal(err)
			}
			code, out := run(t, append([]string{"check", "srv", "--json", "--no-compat"}, at...)...)
			got := resultFindings(t, out)
			for _, rule := range want {
				if code != 1 || !slices.ContainsFunc(got, func(f string) bool { return strings.Contains(f, " "+rule+" ") }) {
					t.Errorf("drift check exited %d without %s:\n%s", code, rule, out)
				}
			}
			t.Logf("%s: %s", rs.name, time.Since(began).Round(100*time.Millisecond))
		})
	}
}

// versionsAcrossReleases records server-everything 2025.1.14 and checks
// 2026.8.31 against it (issue 11 item 6): the old snapshot learned its
// versions by one initialize per revision, so 2024-11-05, which the new
// release still negotiates, is not reported dropped, and the versions the
// new release added are.
func versionsAcrossReleases(t *testing.T) {
	old := testenv.NPMServer(t, "everything-2025-01", "dist/index.js")
	cur := testenv.NPMServer(t, "@modelcontextprotocol/server-everything", "dist/index.js", "stdio")
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "mcpward.json")
	write := func(argv []string) {
		tgt := map[string]any{"command": argv[0], "args": argv[1:], "probes": []any{}, "timeoutMs": 60000}
		cfg, _ := json.Marshal(map[string]any{"targets": map[string]any{"srv": tgt}})
		if err := os.WriteFile(cfgPath, cfg, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	at := []string{"--config", cfgPath, "--dir", filepath.Join(dir, ".mcpward")}
	write(old)
	if code, out := runNode(t, append([]string{"record", "srv"}, at...)...); code != 0 {
		t.Fatalf("record exited %d:\n%s", code, out)
	}
	write(cur)
	_, out := runNode(t, append([]string{"check", "srv", "--json", "--no-compat"}, at...)...)
	var versions []string
	for _, f := range resultFindings(t, out) {
		if strings.Contains(f, " version.") {
			versions = append(versions, f)
		}
	}
	want := []string{
		"compatible version.added discover.supportedVersions.2025-03-26",
		"compatible version.added discover.supportedVersions.2025-06-18",
		"compatible version.added discover.supportedVersions.2025-11-25",
	}
	if !slices.Equal(versions, want) {
		t.Errorf("version findings = %q, want %q", versions, want)
	}
}

// burstThroughShim sends a 1,000-call burst through the real shim
// (`mcpward --trace-file LOG -- <go-sdk everything-server>`) without
// waiting for answers, and requires every response to be logged after its
// request (issue 22 item 2: before the fix, 4 to 79 per run were not).
func burstThroughShim(t *testing.T) {
	const calls = 1000
	bin := testenv.EverythingServer(t)
	logPath := filepath.Join(t.TempDir(), "burst.jsonl")
	// The test binary is mcpward under that name in $PATH (TestMain).
	cmd := exec.Command("mcpward", "--trace-file", logPath, "--", bin)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Initialize, then the burst, one line per write as a client sends
	// them: the server answers the first while the shim relays the next.
	sc := bufio.NewScanner(out)
	sc.Buffer(nil, 1<<20)
	if _, err := io.WriteString(in, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"burst","version":"1"}}}`+"\n"); err != nil {
		t.Fatal(err)
	}
	if !sc.Scan() {
		t.Fatalf("no answer to initialize through the shim:\n%s", stderr.String())
	}
	go func() {
		_, _ = io.WriteString(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
		for i := 1; i <= calls; i++ {
			if _, err := fmt.Fprintf(in, `{"jsonrpc":"2.0","id":%d,"method":"ping"}`+"\n", i); err != nil {
				return
			}
		}
	}()
	answers := 1
	for answers <= calls && sc.Scan() {
		if bytes.Contains(sc.Bytes(), []byte(`"id":`)) {
			answers++
		}
	}
	in.Close()
	_, _ = io.Copy(io.Discard, out)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("shim: %v\n%s", err, stderr.String())
	}
	if answers != calls+1 {
		t.Fatalf("%d answers through the shim, want %d", answers, calls+1)
	}
	f, err := os.Open(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	requests := map[string]uint64{}
	var inverted []string
	pairs := 0
	rd := session.NewReader(f)
	for {
		rec, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if rec.Dir == session.Meta || json.Unmarshal(rec.Frame, &m) != nil || len(m.ID) == 0 {
			continue
		}
		if m.Method != "" {
			requests[string(rec.Dir)+string(m.ID)] = rec.Seq
			continue
		}
		pairs++
		from := session.ClientToServer
		if rec.Dir == session.ClientToServer {
			from = session.ServerToClient
		}
		if q, ok := requests[string(from)+string(m.ID)]; !ok {
			inverted = append(inverted, fmt.Sprintf("id %s: response seq %d before its request", m.ID, rec.Seq))
		} else if q > rec.Seq {
			inverted = append(inverted, fmt.Sprintf("id %s: response seq %d < request seq %d", m.ID, rec.Seq, q))
		}
	}
	t.Logf("%d calls through the shim, %d responses logged before their request", pairs, len(inverted))
	if pairs != calls+1 || len(inverted) > 0 {
		t.Errorf("%d responses logged, want %d; %d logged before their request: %s", pairs, calls+1, len(inverted), strings.Join(inverted[:min(5, len(inverted))], "; "))
	}
	// The log says it keeps the order of the wire, so the correlator
	// would call an inversion mcpward's own defect (issue 22 item 3):
	// there must be none, and no call unmatched or unanswered.
	_, check := runArgs(t, "sessions", "check", "--json", logPath)
	for _, rule := range []string{"capture.order_inverted", "message.response_unmatched", "message.request_unanswered"} {
		if strings.Contains(check, `"`+rule+`"`) {
			t.Errorf("sessions check of the burst reports %s:\n%s", rule, check)
		}
	}
}

type runResult struct {
	code int
	out  string
}

// realSlots bounds the mcpward commands the table runs at once: each may
// start several node processes, and a node server starved of CPU on a
// loaded machine answers server/discover late enough to pass for a legacy
// server (the timeouts are raised too).
var realSlots = make(chan struct{}, 3)

// runNode is runArgs within realSlots, for the rows whose servers are
// node processes (the go-sdk server starts in milliseconds).
func runNode(t *testing.T, args ...string) (int, string) {
	t.Helper()
	realSlots <- struct{}{}
	defer func() { <-realSlots }()
	return runArgs(t, args...)
}

// runAll runs the mcpward command lines side by side with run.
func runAll(t *testing.T, run func(*testing.T, ...string) (int, string), cmds ...[]string) []runResult {
	t.Helper()
	out := make([]runResult, len(cmds))
	var wg sync.WaitGroup
	for i, args := range cmds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i].code, out[i].out = run(t, args...)
		}()
	}
	wg.Wait()
	return out
}

// edits change a stored snapshot as if the live server had changed; each
// names the drift rule the check must report (an edit that finds nothing
// to change returns false).
var edits = []struct {
	edit func(t *testing.T, snap map[string]any) bool
	rule string
}{
	{addGhostTool, "tool.removed"},
	{changeDescription, "tool.description.changed"},
	{dropRequired, "tool.input.required.added"},
}

// comparePins fails on every finding not pinned and every pin not found
// (counted: a finding reported twice needs two pins), and checks that each
// pinned violation names its clause and why.
func comparePins(t *testing.T, what string, pins []pin, got []string) {
	t.Helper()
	left := map[string]int{}
	for _, p := range pins {
		left[p.finding]++
		if strings.HasPrefix(p.finding, "violation ") && (p.clause == "" || p.why == "") {
			t.Errorf("%s pin %q: a violation needs its clause and why", what, p.finding)
		}
	}
	var extra, missing []string
	for _, g := range got {
		if left[g] > 0 {
			left[g]--
			continue
		}
		extra = append(extra, g)
	}
	for f, n := range left {
		for range n {
			missing = append(missing, f)
		}
	}
	slices.Sort(missing)
	if len(extra) > 0 || len(missing) > 0 {
		t.Errorf("%s findings differ from the pins\nnew (not pinned):\n\t%s\ngone (pinned, not found):\n\t%s",
			what, strings.Join(extra, "\n\t"), strings.Join(missing, "\n\t"))
	}
}

// resultFindings reads a Result JSON: drift findings as "tier rule
// subject", rule findings as "class rule subject profile", sorted.
func resultFindings(t *testing.T, out string) []string {
	t.Helper()
	var res struct {
		Findings []struct {
			RuleID  string `json:"ruleId"`
			Tier    string `json:"tier"`
			Subject string `json:"subject"`
		} `json:"findings"`
		Violations []struct {
			RuleID  string `json:"ruleId"`
			Class   string `json:"class"`
			Subject string `json:"subject"`
			Profile string `json:"profile"`
		} `json:"violations"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("not a Result: %v\n%s", err, out)
	}
	var got []string
	for _, f := range res.Findings {
		got = append(got, strings.Join([]string{f.Tier, f.RuleID, f.Subject}, " "))
	}
	for _, v := range res.Violations {
		if v.RuleID == "compat.era" {
			continue // the era line, not a finding
		}
		got = append(got, strings.TrimSpace(strings.Join([]string{v.Class, v.RuleID, v.Subject, v.Profile}, " ")))
	}
	slices.Sort(got)
	return got
}

func surfaceCounts(t *testing.T, out string) counts {
	t.Helper()
	var snap struct {
		Surface struct {
			Tools, Resources, ResourceTemplates, Prompts []json.RawMessage
		} `json:"surface"`
	}
	if err := json.Unmarshal([]byte(out), &snap); err != nil {
		t.Fatalf("inspect --json: %v\n%s", err, out)
	}
	s := snap.Surface
	return counts{len(s.Tools), len(s.Resources), len(s.ResourceTemplates), len(s.Prompts)}
}

// runArgs runs mcpward in-process and returns its exit code and stdout
// (stderr appended when the exit code is above 1, unless stdout is JSON).
func runArgs(t *testing.T, args ...string) (int, string) {
	t.Helper()
	ios, _, stdout, stderr := iostreams.Test()
	f := &cmdutil.Factory{
		IOStreams:  ios,
		Version:    "test",
		Now:        time.Now,
		LookupEnv:  os.LookupEnv,
		Environ:    os.Environ,
		Executable: os.Executable,
		Getwd:      os.Getwd,
		Context:    context.Background(),
	}
	code := Run(f, args)
	if code > 1 && !slices.Contains(args, "--json") {
		return code, stdout.String() + "\n[stderr]\n" + stderr.String()
	}
	return code, stdout.String()
}

func tools(t *testing.T, snap map[string]any) []any {
	t.Helper()
	surface, _ := snap["surface"].(map[string]any)
	list, _ := surface["tools"].([]any)
	if len(list) == 0 {
		t.Fatal("snapshot has no tools")
	}
	return list
}

func addGhostTool(t *testing.T, snap map[string]any) bool {
	surface := snap["surface"].(map[string]any)
	surface["tools"] = append(tools(t, snap), map[string]any{
		"name":        "zz_mcpward_ghost",
		"description": "A tool the live server does not have.",
		"inputSchema": map[string]any{"type": "object"},
	})
	return true
}

func changeDescription(t *testing.T, snap map[string]any) bool {
	tool := tools(t, snap)[0].(map[string]any)
	tool["description"] = "An older wording of this tool's description."
	return true
}

// dropRequired removes one required input from the stored snapshot, so the
// live server appears to have added it (false: no tool has one).
func dropRequired(t *testing.T, snap map[string]any) bool {
	for _, x := range tools(t, snap) {
		tool := x.(map[string]any)
		schema, _ := tool["inputSchema"].(map[string]any)
		if req, _ := schema["required"].([]any); len(req) > 0 {
			schema["required"] = req[1:]
			return true
		}
	}
	return false
}

// startListening starts a server that listens on a free loopback port,
// passed either as an environment variable (envPort) or as the argument
// after argv, and waits for the port to accept connections.
func startListening(t *testing.T, envPort []string, argv ...string) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = os.Environ()
	if len(envPort) > 0 {
		cmd.Env = append(cmd.Env, envPort[0]+"="+strconv.Itoa(port))
	} else {
		cmd.Args = append(cmd.Args, fmt.Sprintf("127.0.0.1:%d", port))
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), 200*time.Millisecond); err == nil {
			c.Close()
			return port
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("%s did not listen within 30s: %s", argv[0], stderr.String())
	return 0
}
