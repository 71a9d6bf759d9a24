package snapgauge_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpward/mcpward/internal/migrate/snapgauge"
	"github.com/mcpward/mcpward/internal/result"
)

// TestResult: testdata/result-check.json is snapgauge's CheckOutput of a
// check (written from its schema), result-diff.json its lean diff output.
func TestResult(t *testing.T) {
	data := read(t, "result-check.json")
	if !snapgauge.IsResult(data) {
		t.Fatal("IsResult(result-check.json) = false")
	}
	r, err := snapgauge.Result(data)
	if err != nil {
		t.Fatal(err)
	}
	if r.Command != "check" || r.ExitCode != 3 || !r.Gate.Failed || r.Gate.FailOn != "risky" || !r.Evidence.Complete {
		t.Errorf("result = %+v", r)
	}
	if r.Summary.Risky != 1 || r.Summary.Cosmetic != 1 || r.Summary.Violations != 1 || r.Summary.RiskyRules != 1 {
		t.Errorf("summary = %+v", r.Summary)
	}
	if len(r.Findings) != 2 || r.Findings[0].RuleID != "tool.title.changed" || r.Findings[0].Before != "Get weather" {
		t.Errorf("findings = %+v", r.Findings)
	}
	wantCompat := &result.Compat{
		Era:      "modern-only",
		Profiles: []string{"modern-full", "modern-minimal"},
		Assertions: []result.Assertion{
			{ID: "transport.get_not_405", Verdict: "n/a", Detail: "n/a (stdio) — requires the Streamable HTTP framing; this transport has no HTTP layer (MCP 2026-07-28 basic/transports §Streamable HTTP)"},
			{ID: "transport.delete_not_405", Verdict: "n/a", Detail: "n/a (stdio) — requires the Streamable HTTP framing; this transport has no HTTP layer (MCP 2026-07-28 basic/transports §Streamable HTTP)"},
			{ID: "transport.discover_not_implemented", Verdict: "pass", Detail: "server/discover succeeded (MCP 2026-07-28 server/discover)"},
			{ID: "transport.cache_hints_missing", Verdict: "fail", Detail: "tools/list page 1 has no ttlMs (MCP 2026-07-28 caching)"},
		},
		Verdicts: map[string]map[string]string{
			"redact_note":    {"modern-minimal": "declined-correctly"},
			"summarize_note": {"modern-minimal": "degraded-silent"},
		},
	}
	if d := cmp.Diff(wantCompat, r.Compat); d != "" {
		t.Errorf("compat (-want +got):\n%s", d)
	}
	if len(r.Violations) != 3 || r.Violations[0].RuleID != "transport.cache_hints_missing" || r.Violations[0].Level != "MUST" {
		t.Errorf("violations = %+v", r.Violations)
	}

	lean, err := snapgauge.Result(read(t, "result-diff.json"))
	if err != nil {
		t.Fatal(err)
	}
	if lean.Command != "diff" || lean.ExitCode != 1 || lean.Compat != nil || lean.Summary.Breaking != 1 {
		t.Errorf("lean diff result = %+v", lean)
	}
}

func TestResultErrors(t *testing.T) {
	lean := string(read(t, "result-diff.json"))
	tests := []struct {
		name, doc, want string
	}{
		{"unknown member", strings.Replace(lean, `"gate"`, `"score": 1, "gate"`, 1), `unknown field "score"`},
		{"unknown tier", strings.Replace(lean, `"tier": "breaking"`, `"tier": "fatal"`, 1), `findings[0].tier: unknown tier "fatal"`},
		{"no gate", strings.Replace(lean, `"gate"`, `"gateway"`, 1), `unknown field "gateway"`},
		{"bad command", strings.Replace(lean, `"findings"`, `"command": "board", "findings"`, 1), `command "board" is not check, diff or compat`},
		{"bad exit code", strings.Replace(lean, `"findings"`, `"exitCode": 9, "findings"`, 1), `exitCode 9 is not 0-5`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := snapgauge.Result([]byte(tt.doc))
			if !errors.Is(err, snapgauge.ErrNotResult) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Result() = %v, want ErrNotResult containing %q", err, tt.want)
			}
		})
	}
	if snapgauge.IsResult([]byte(`{"tool": "mcpward", "schemaVersion": 1, "findings": [], "summary": {}, "gate": {}}`)) {
		t.Error("IsResult(mcpward result) = true")
	}
}
