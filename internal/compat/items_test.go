package compat

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/client"
	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/jsonrpc"
	"github.com/mcpward/mcpward/internal/rules"
	"github.com/mcpward/mcpward/internal/testenv"
)

func profiles(t *testing.T, names ...string) []rules.Profile {
	t.Helper()
	ps, err := rules.ResolveProfiles(names, nil)
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

func notEvaluated(r *Report) []string {
	var out []string
	for _, n := range r.NotEvaluated {
		out = append(out, n.What)
	}
	return out
}

// Issue 11 item 14: only modern profiles against a legacy-only server
// exercise nothing; that is incomplete evidence (exit 2), not a pass, and
// the report says which profiles were not evaluated.
func TestNothingApplicableIsNotAPass(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		s := connectFixture(t, "nonconformant-legacy", false)
		rep, err := Run(context.Background(), s, &Options{Profiles: profiles(t, "modern-full", "modern-minimal"), Probes: fixtureProbes(t, "nonconformant-legacy")})
		if err != nil {
			t.Fatal(err)
		}
		if rep.ExitCode() != 2 {
			t.Errorf("exit %d, want 2 (nothing was exercised); problems %v", rep.ExitCode(), rep.Problems)
		}
		ne := notEvaluated(rep)
		for _, want := range []string{"profile modern-full", "profile modern-minimal"} {
			if !slices.Contains(ne, want) {
				t.Errorf("not evaluated = %v, want it to list %q", ne, want)
			}
		}
		for tool, m := range rep.Verdicts {
			for p, v := range m {
				if v != VerdictUnserved {
					t.Errorf("verdict %s@%s = %s, want %s (nothing was called)", tool, p, v, VerdictUnserved)
				}
			}
		}
	})
}

// Item 14: compat without probes calls no tool, and says so.
func TestNoProbesSaysSo(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		s := connectFixture(t, "clean@v1", false)
		rep, err := Run(context.Background(), s, &Options{Profiles: profiles(t, "modern-full", "modern-minimal")})
		if err != nil {
			t.Fatal(err)
		}
		if rep.ExitCode() != 0 {
			t.Errorf("exit %d, want 0 (the transport rules were evaluated)", rep.ExitCode())
		}
		if ne := notEvaluated(rep); !slices.ContainsFunc(ne, func(s string) bool { return strings.HasPrefix(s, "degradation") }) {
			t.Errorf("not evaluated = %v, want the degradation rules listed (no probes)", ne)
		}
	})
}

// Item 3: a legacy profile answers the server's requests as it declares
// (and only then), and keeps them for the evidence.
func TestClientSideServesWhatProfileDeclares(t *testing.T) {
	legacy, _ := rules.BuiltinProfile("legacy-2025-11-25")
	none, err := rules.ParseProfile("bare", []byte(`{"protocolVersion":"2025-11-25","capabilities":{}}`))
	if err != nil {
		t.Fatal(err)
	}
	req := func(id int64, method string) jsonrpc.Message {
		raw, _ := jsonrpc.EncodeRequest(jsonrpc.IntID(id), method, map[string]any{})
		m := jsonrpc.Decode(raw)
		return m
	}
	tests := []struct {
		p       rules.Profile
		method  string
		want    string // substring of the reply
		methods []string
	}{
		{legacy, "roots/list", `"result":{"roots":[]}`, []string{"roots/list"}},
		{legacy, "sampling/createMessage", `"model":"mcpward-canned"`, []string{"sampling/createMessage"}},
		{legacy, "elicitation/create", `"action":"decline"`, []string{"elicitation/create"}},
		{legacy, "ping", `"result":{}`, []string{"ping"}},
		{none, "roots/list", `"code":-32601`, []string{"roots/list"}},
		{none, "sampling/createMessage", `"code":-32601`, []string{"sampling/createMessage"}},
	}
	for _, tt := range tests {
		c := newClientSide(tt.p)
		got := string(c.answer(req(7, tt.method)))
		if !strings.Contains(got, tt.want) || !strings.Contains(got, `"id":7`) {
			t.Errorf("%s answers %s with %s, want %s", tt.p.Name, tt.method, got, tt.want)
		}
		log := c.take()
		if m := methods(log); !slices.Equal(m, tt.methods) || string(log[0].Response) != got {
			t.Errorf("%s %s: evidence %+v", tt.p.Name, tt.method, log)
		}
		if len(c.take()) != 0 {
			t.Errorf("take does not reset")
		}
	}
}

// goSDK connects to the go-sdk everything-server over stdio. The cases
// that use it (and the npm ones) are run by TestRealServers.
func goSDK(t *testing.T) *connect.Session {
	t.Helper()
	if testing.Short() {
		t.Skip("real server")
	}
	bin := testenv.EverythingServer(t)
	s, err := connect.Connect(context.Background(), &connect.Spec{Command: []string{bin}}, connect.Env{}, &client.Options{RequestTimeout: 10 * time.Second})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func noViolations(t *testing.T, rep *Report) {
	t.Helper()
	for _, f := range rep.Findings() {
		if f.Class == rules.Violation {
			t.Errorf("violation %s %s: %s", f.RuleID, f.Subject, f.Message)
		}
	}
}

// Item 3 against the go-sdk everything server: the legacy profile declares
// roots in initialize and now serves roots/list, so the tool completes;
// before, mcpward answered -32601 and blamed the server (wrong_error).
func goSDKLegacyProfileServesRoots(t *testing.T) {
	s := goSDK(t)
	rep, err := Run(context.Background(), s, &Options{
		Profiles: profiles(t, "modern-full", "legacy-2025-11-25"),
		Probes:   []Probe{{ID: "roots", Tool: "test_input_required_result_list_roots", Arguments: json.RawMessage(`{}`)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	noViolations(t, rep)
	if v := rep.Verdicts["test_input_required_result_list_roots"]["legacy-2025-11-25"]; v != rules.VerdictOK {
		t.Errorf("legacy verdict %s, want ok", v)
	}
}

// Item 1 against the go-sdk everything server: -32021 whose
// requiredCapabilities lists roots (declared) beside sampling (missing) is
// what the schema asks.
func goSDKMissingCapabilityListsDeclared(t *testing.T) {
	s := goSDK(t)
	rep, err := Run(context.Background(), s, &Options{
		Profiles: profiles(t, "modern-full", "no-sampling"),
		Probes:   []Probe{{ID: "missing", Tool: "test_missing_capability", Arguments: json.RawMessage(`{}`)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	noViolations(t, rep)
	if v := rep.Verdicts["test_missing_capability"]["no-sampling"]; v != rules.VerdictDeclinedCorrectly {
		t.Errorf("no-sampling verdict %s, want declined-correctly", v)
	}
}

// A legacy profile's answer is never judged by a 2026-07-28 rule, even when
// the server is dual-era and the legacy profile is the baseline: a legacy
// result has no resultType (it was reported as message.result_type_missing).
func TestLegacyBaselineNotJudgedByModernRules(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		s := connectFixture(t, "dual-era", false)
		rep, err := Run(context.Background(), s, &Options{Profiles: profiles(t, "legacy-2025-11-25"), Probes: fixtureProbes(t, "dual-era")})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Verdicts) == 0 {
			t.Fatal("no probe ran")
		}
		for _, f := range rep.Findings() {
			if c, ok := rules.MustLookup(f.RuleID).Clause(); ok && c.ModernOnly() && f.Subject != "discover" {
				t.Errorf("legacy baseline judged by %s (%s): %s", f.RuleID, f.Subject, f.Message)
			}
		}
		noViolations(t, rep)
	})
}

// A legacy server may list a tool only to a client that declared the
// capability it needs (server-everything: get-roots-list needs roots). The
// legacy profile declares roots, so the probe runs under it, and the
// profile serves roots/list, so the tool works; before, the probe was
// refused as "not listed" (the session under test declares nothing).
func npmEverythingLegacyProfileServesRoots(t *testing.T) {
	if testing.Short() {
		t.Skip("real server")
	}
	argv := testenv.NPMServer(t, "@modelcontextprotocol/server-everything", "dist/index.js")
	s, err := connect.Connect(context.Background(), &connect.Spec{Command: append(argv, "stdio")}, connect.Env{}, &client.Options{RequestTimeout: 10 * time.Second})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	rep, err := Run(context.Background(), s, &Options{
		Profiles: profiles(t, "legacy-2025-11-25"),
		Probes:   []Probe{{ID: "roots", Tool: "get-roots-list", Arguments: json.RawMessage(`{}`)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Problems) > 0 {
		t.Errorf("problems: %v", rep.Problems)
	}
	noViolations(t, rep)
	if v := rep.Verdicts["get-roots-list"]["legacy-2025-11-25"]; v != rules.VerdictOK {
		t.Errorf("legacy verdict %q, want ok; findings %+v", v, rep.Findings())
	}
}
