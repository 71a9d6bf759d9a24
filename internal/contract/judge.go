package contract

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpward/mcpward/internal/mcp"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/rules"
	"github.com/mcpward/mcpward/internal/snapshot"
)

// Judge applies the rules that the observation's own evidence decides,
// with no further request. Today that is MRTR-CAP-GATED: record and check
// call each probe declaring the target's ClientCapabilities ({} unless the
// config says otherwise), so a modern server that answers input_required
// asking for roots, sampling or elicitation the call did not declare
// breaks the clause on the very call that was recorded
// (degrade.input_required_without_capability). The verdicts rest on the
// same judge function the compat engine and the traffic checker use.
func Judge(ev *snapshot.Evidence) []result.RuleFinding {
	if ev == nil || ev.Era != string(mcp.EraModern) {
		// MRTR-CAP-GATED binds 2026-07-28 only.
		return nil
	}
	caps := ev.ClientCapabilities
	if len(caps) == 0 {
		caps = json.RawMessage(`{}`)
	}
	r := rules.MustLookup("degrade.input_required_without_capability")
	var out []result.RuleFinding
	for _, p := range ev.Probes {
		gaps := rules.InputGaps(caps, p.Result)
		if len(gaps) == 0 {
			continue
		}
		var needs []string
		for _, g := range gaps {
			needs = append(needs, fmt.Sprintf("%s (%s, needs %s)", g.Key, g.Method, g.Need))
		}
		args := p.Arguments
		if len(args) == 0 {
			args = json.RawMessage(`{}`)
		}
		req, _ := json.Marshal(map[string]any{"method": mcp.MethodToolsCall, "params": map[string]any{
			"name": p.Tool, "arguments": args,
			"_meta": map[string]any{mcp.MetaProtocolVersion: ev.ProtocolVersion, mcp.MetaClientCapabilities: caps},
		}})
		out = append(out, result.RuleFinding{
			RuleID: r.ID, Level: r.Level, Class: r.Class, Spec: r.Cite(),
			Subject: "probe." + p.ID,
			Message: fmt.Sprintf("tools/call %s answered input_required asking for %s, which the call did not declare (clientCapabilities %s)", p.Tool, strings.Join(needs, "; "), compact(caps)),
			Evidence: &result.Exchange{Request: req, Response: p.Result,
				Note: "the probe's call as recorded (request rebuilt from the probe spec; response is the result the server returned)"},
		})
	}
	return out
}

func compact(b json.RawMessage) string {
	var v any
	if json.Unmarshal(b, &v) != nil {
		return string(b)
	}
	out, _ := json.Marshal(v)
	return string(out)
}
