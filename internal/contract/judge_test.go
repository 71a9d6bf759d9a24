package contract

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/probe"
	"github.com/mcpward/mcpward/internal/snapshot"
	"github.com/mcpward/mcpward/internal/testenv"
)

// Issue 11 item 11: the evidence record and check already hold (a probe
// called with ClientCapabilities {} answered input_required asking for
// sampling) breaks MRTR-CAP-GATED, and is judged without a further request.
func TestJudgeHeldEvidence(t *testing.T) {
	ir := json.RawMessage(`{"resultType":"input_required","inputRequests":{"q":{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":5}}}}`)
	done := json.RawMessage(`{"resultType":"complete","content":[]}`)
	ev := func(era, caps string, results ...json.RawMessage) *snapshot.Evidence {
		e := &snapshot.Evidence{Era: era, ProtocolVersion: "2026-07-28", ClientCapabilities: json.RawMessage(caps)}
		for i, r := range results {
			e.Probes = append(e.Probes, snapshot.ProbeEvidence{ID: string(rune('a' + i)), Tool: "t", Result: r})
		}
		return e
	}
	tests := []struct {
		name string
		ev   *snapshot.Evidence
		want []string
	}{
		{"undeclared", ev("modern", `{}`, done, ir), []string{"probe.b"}},
		{"no capabilities recorded means {}", ev("modern", ``, ir), []string{"probe.a"}},
		{"declared", ev("modern", `{"sampling":{}}`, ir), nil},
		{"legacy: MRTR-CAP-GATED binds 2026-07-28 only", ev("legacy", `{}`, ir), nil},
		{"nil", nil, nil},
	}
	for _, tt := range tests {
		var got []string
		for _, f := range Judge(tt.ev) {
			if f.RuleID != "degrade.input_required_without_capability" || f.Class != "violation" || f.Evidence == nil || len(f.Evidence.Response) == 0 {
				t.Errorf("%s: finding %+v", tt.name, f)
			}
			got = append(got, f.Subject)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: subjects %v, want %v", tt.name, got, tt.want)
		}
	}
}

// The same against the go-sdk everything server, as record observes it.
func TestJudgeGoSDKInputRequired(t *testing.T) {
	if testing.Short() {
		t.Skip("real server")
	}
	bin := testenv.EverythingServer(t)
	tg := &Target{Name: "gosdk", Spec: &connect.Spec{Command: []string{bin}, Timeout: 10 * time.Second}, Probes: []probe.Probe{
		{ID: "sampling", Tool: "test_input_required_result_sampling", Arguments: json.RawMessage(`{}`)},
		{ID: "elicitation", Tool: "test_input_required_result_elicitation", Arguments: json.RawMessage(`{}`)},
		{ID: "roots", Tool: "test_input_required_result_list_roots", Arguments: json.RawMessage(`{}`)},
		{ID: "echo", Tool: "test_simple_text", Arguments: json.RawMessage(`{}`)},
	}}
	obs, err := Observe(context.Background(), tg, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range obs.Findings {
		got = append(got, f.Subject)
	}
	if want := []string{"probe.sampling", "probe.elicitation", "probe.roots"}; !slices.Equal(got, want) {
		t.Errorf("findings %v, want %v", got, want)
	}
}
