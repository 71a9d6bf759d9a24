package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpward/mcpward/internal/baseline"
	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/tui/memsource"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// cleanID is the identity of memsource.Script's session labelled "clean".
var cleanID = baseline.Identity{Label: "clean", Server: "clean", Endpoint: "mcpward fixture serve clean@v1"}

const (
	echoTool = `{"name":"echo","description":"Echo the text back.","inputSchema":{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}}`
	addTool  = `{"name":"add","description":"Add two numbers.","inputSchema":{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}}}}`
)

func raws(defs ...string) []json.RawMessage {
	out := make([]json.RawMessage, len(defs))
	for i, d := range defs {
		out[i] = json.RawMessage(d)
	}
	return out
}

func mustBaseline(t *testing.T, id baseline.Identity, defs ...string) *baseline.Baseline {
	t.Helper()
	b, err := baseline.FromTools(id, raws(defs...))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// frames returns records of session id with seq from seq+1 on. A frame
// starting with ">" is the client's, any other the server's.
func frames(id string, seq uint64, fs ...string) []*session.Record {
	var out []*session.Record
	for _, f := range fs {
		seq++
		dir := session.ServerToClient
		if rest, ok := strings.CutPrefix(f, ">"); ok {
			f, dir = rest, session.ClientToServer
		}
		out = append(out, &session.Record{V: session.Version, Session: id, Label: "clean", Seq: seq,
			Time: t0.Add(time.Duration(seq) * time.Second), Dir: dir, Transport: session.Stdio,
			Frame: []byte(f), RawFrame: []byte(f), HasFrame: true, Size: int64(len(f))})
	}
	return out
}

func TestCheckDrift(t *testing.T) {
	same := mustBaseline(t, cleanID, echoTool, addTool)
	older := mustBaseline(t, cleanID, `{"name":"echo","description":"Echo.","inputSchema":{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}}`)
	corrupt := errors.New("read baseline x.json: invalid character 'x'")
	tests := []struct {
		name        string
		tools       []json.RawMessage
		base        *baseline.Baseline
		err         error
		wantFound   bool
		wantRules   []string
		wantDrifted bool
		wantFailed  bool
	}{
		{name: "no baseline", tools: raws(echoTool, addTool), err: fmt.Errorf("%w for x.json", baseline.ErrNotFound)},
		{name: "identical", tools: raws(addTool, echoTool), base: same, wantFound: true},
		{name: "drift", tools: raws(echoTool, addTool), base: older, wantFound: true,
			wantRules: []string{"risky tool.added tools.add", "risky tool.description.changed tools.echo.description"}, wantDrifted: true},
		{name: "unreadable baseline", tools: raws(echoTool), err: corrupt, wantFound: true, wantFailed: true},
		{name: "listing cannot be compared", tools: raws(`{"name":7}`), base: same, wantFound: true, wantFailed: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var asked []baseline.Identity
			load := func(id baseline.Identity) (*baseline.Baseline, error) {
				asked = append(asked, id)
				return tt.base, tt.err
			}
			d := CheckDrift(DriftCheck{Session: "s", Identity: cleanID, Tools: tt.tools}, load)
			if d := cmp.Diff([]baseline.Identity{cleanID}, asked); d != "" {
				t.Errorf("loaded identities mismatch (-want +got):\n%s", d)
			}
			var rules []string
			for _, f := range d.Findings {
				rules = append(rules, f.Tier.String()+" "+f.RuleID+" "+f.Subject)
			}
			if diff := cmp.Diff(tt.wantRules, rules); diff != "" {
				t.Errorf("findings mismatch (-want +got):\n%s", diff)
			}
			if !d.Checked || d.Found != tt.wantFound || d.Drifted() != tt.wantDrifted || d.Failed() != tt.wantFailed {
				t.Errorf("CheckDrift() = checked %v, found %v, drifted %v, failed %v (err %v); want true, %v, %v, %v",
					d.Checked, d.Found, d.Drifted(), d.Failed(), d.Err, tt.wantFound, tt.wantDrifted, tt.wantFailed)
			}
		})
	}
}

// TestCheckDriftPredates: a session that started before the session whose
// tools the baseline holds is not compared with it (issue 22 item 6): the
// live UI marked it drifted and offered to accept the older log.
func TestCheckDriftPredates(t *testing.T) {
	newer := mustBaseline(t, cleanID, echoTool, addTool)
	newer.SetSource("B", t0.Add(time.Hour))
	load := func(baseline.Identity) (*baseline.Baseline, error) { return newer, nil }
	d := CheckDrift(DriftCheck{Session: "A", Start: t0, Identity: cleanID, Tools: raws(echoTool)}, load)
	if d.Drifted() || d.Failed() || !strings.Contains(d.Predates, "session A started 2026-03-01T12:00:00Z, before session B") {
		t.Errorf("older session: drifted %v, failed %v, predates %q", d.Drifted(), d.Failed(), d.Predates)
	}
	d = CheckDrift(DriftCheck{Session: "C", Start: t0.Add(2 * time.Hour), Identity: cleanID, Tools: raws(echoTool)}, load)
	if !d.Drifted() || d.Predates != "" {
		t.Errorf("newer session: drifted %v, predates %q; want drift", d.Drifted(), d.Predates)
	}
	trust := func(*baseline.Baseline) (*baseline.Baseline, bool, error) { return newer, false, nil }
	if d := TrustDrift(DriftCheck{Session: "A", Start: t0, Identity: cleanID, Tools: raws(echoTool)}, trust); d.Drifted() || d.Predates == "" {
		t.Errorf("TrustDrift of an older session: drifted %v, predates %q", d.Drifted(), d.Predates)
	}
}

// TestCheckDriftFiles goes through baseline.Read, as `mcpward ui` does:
// a corrupt file and a newer format are errors, a missing one is not, and
// nothing is written.
func TestCheckDriftFiles(t *testing.T) {
	tests := []struct {
		name       string
		content    string // "" writes no file
		wantFailed bool
	}{
		{"missing", "", false},
		{"corrupt", "{not json", true},
		{"newer format", `{"version":99,"identity":{"label":"clean","server":"clean","endpoint":"mcpward fixture serve clean@v1"},"tools":[]}`, true},
		{"another server", `{"version":1,"identity":{"label":"other","server":"clean","endpoint":"x"},"tools":[]}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if tt.content != "" {
				if err := os.WriteFile(baseline.Path(dir, cleanID), []byte(tt.content), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			load := func(id baseline.Identity) (*baseline.Baseline, error) { return baseline.Read(dir, id) }
			d := CheckDrift(DriftCheck{Identity: cleanID, Tools: raws(echoTool)}, load)
			if d.Failed() != tt.wantFailed || d.Drifted() {
				t.Errorf("CheckDrift() failed = %v (err %v), drifted = %v; want failed %v, not drifted", d.Failed(), d.Err, d.Drifted(), tt.wantFailed)
			}
			ents, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			if want := min(len(tt.content), 1); len(ents) != want {
				t.Errorf("%d files in the baseline dir after the check, want %d", len(ents), want)
			}
		})
	}
}

// TestDriftChecks: one check per complete tools/list (not per page), with
// the session's identity and tools; a result for a superseded listing is
// dropped.
func TestDriftChecks(t *testing.T) {
	s := New(Options{})
	script := memsource.Script("c1", "clean", t0)
	s.Ingest(script)
	checks := s.DriftChecks()
	if len(checks) != 1 {
		t.Fatalf("DriftChecks() after the script = %d checks, want 1", len(checks))
	}
	c := checks[0]
	if c.Session != "c1" || c.Identity != cleanID || len(c.Tools) != 2 || c.Gen != 1 {
		t.Errorf("check = %s %+v, %d tools, gen %d; want c1 %+v, 2 tools, gen 1", c.Session, c.Identity, len(c.Tools), c.Gen, cleanID)
	}
	if again := s.DriftChecks(); len(again) != 0 {
		t.Errorf("DriftChecks() again = %d checks, want 0 (nothing new listed)", len(again))
	}

	// A paginated re-listing: the first page (with nextCursor) is no
	// complete listing; the last page is.
	seq := uint64(len(script))
	first := frames("c1", seq,
		`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`,
		`>{"jsonrpc":"2.0","id":10,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":10,"result":{"tools":[`+echoTool+`],"nextCursor":"p2"}}`)
	s.Ingest(first)
	if got := s.DriftChecks(); len(got) != 0 {
		t.Errorf("DriftChecks() after a first page = %d checks, want 0", len(got))
	}
	s.Ingest(frames("c1", seq+3,
		`>{"jsonrpc":"2.0","id":11,"method":"tools/list","params":{"cursor":"p2"}}`,
		`{"jsonrpc":"2.0","id":11,"result":{"tools":[`+addTool+`]}}`))
	checks = s.DriftChecks()
	if len(checks) != 1 || checks[0].Gen != 2 || len(checks[0].Tools) != 2 {
		t.Fatalf("DriftChecks() after the last page = %+v, want one check of gen 2 with 2 tools", checks)
	}

	s.SetDrift("c1", 1, Drift{Checked: true, Err: errors.New("stale")})
	if d := s.Session("c1").Drift; d.Checked {
		t.Errorf("a result for listing 1 was kept after listing 2: %+v", d)
	}
	s.SetDrift("c1", 2, Drift{Checked: true, Found: true})
	if d := s.Session("c1").Drift; !d.Found {
		t.Errorf("the result for the latest listing was dropped: %+v", d)
	}
}
