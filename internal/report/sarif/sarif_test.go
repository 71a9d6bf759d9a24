package sarif

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcpward/mcpward/internal/diff"
	"github.com/mcpward/mcpward/internal/report/reporttest"
	"github.com/mcpward/mcpward/internal/result"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func renderLog(t *testing.T, r *result.Result) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, r); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func schema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "sarif-schema-2.1.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("sarif-schema-2.1.0.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSchema validates every rendered log against the official schema,
// and checks that the golden files are what Write produces.
func TestSchema(t *testing.T) {
	s := schema(t)
	for _, name := range reporttest.Cases {
		t.Run(name, func(t *testing.T) {
			out := renderLog(t, reporttest.Load(t, name))
			inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Validate(inst); err != nil {
				t.Errorf("%s does not validate against SARIF 2.1.0:\n%v", name, err)
			}
			reporttest.Golden(t, *update, filepath.Join("testdata", name+".sarif"), out)
		})
	}
}

// TestSchemaRejects proves the validator is not vacuous.
func TestSchemaRejects(t *testing.T) {
	s := schema(t)
	for _, doc := range []string{
		`{"version":"2.1.0","runs":[{"tool":{"driver":{}}}]}`,
		`{"version":"2.0.0","runs":[]}`,
		`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"message":{"text":"m"},"level":"fatal"}]}]}`,
	} {
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(doc))
		if err != nil {
			t.Fatal(err)
		}
		if s.Validate(inst) == nil {
			t.Errorf("schema accepted %s", doc)
		}
	}
}

func TestDeterministic(t *testing.T) {
	r := reporttest.Load(t, "violations")
	a, b := renderLog(t, r), renderLog(t, r)
	if !bytes.Equal(a, b) {
		t.Error("two renderings of the same Result differ")
	}
}

type log2 struct {
	Runs []struct {
		Tool struct {
			Driver struct {
				Rules []struct {
					ID                   string `json:"id"`
					DefaultConfiguration struct {
						Level string `json:"level"`
					} `json:"defaultConfiguration"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		Invocations []struct {
			ExecutionSuccessful bool `json:"executionSuccessful"`
			Notifications       []struct {
				Message struct{ Text string } `json:"message"`
			} `json:"toolExecutionNotifications"`
		} `json:"invocations"`
		Results []struct {
			RuleID    string            `json:"ruleId"`
			RuleIndex int               `json:"ruleIndex"`
			Level     string            `json:"level"`
			FP        map[string]string `json:"partialFingerprints"`
			Locations []struct {
				Physical *struct {
					Artifact struct{ URI string } `json:"artifactLocation"`
				} `json:"physicalLocation"`
				Logical []struct {
					FQN string `json:"fullyQualifiedName"`
				} `json:"logicalLocations"`
			} `json:"locations"`
		} `json:"results"`
	} `json:"runs"`
}

func decode(t *testing.T, b []byte) log2 {
	t.Helper()
	var l log2
	if err := json.Unmarshal(b, &l); err != nil {
		t.Fatal(err)
	}
	if len(l.Runs) != 1 {
		t.Fatalf("got %d runs, want 1", len(l.Runs))
	}
	return l
}

func TestContent(t *testing.T) {
	l := decode(t, renderLog(t, reporttest.Load(t, "seed")))
	run := l.Runs[0]
	var ids, levels []string
	for _, r := range run.Tool.Driver.Rules {
		ids = append(ids, r.ID)
		levels = append(levels, r.DefaultConfiguration.Level)
	}
	wantIDs := []string{"serverInfo.version.changed", "tool.description.changed", "tool.icons.changed", "tool.input.optional.added", "tool.input.required.added", "tool.removed"}
	if d := cmp.Diff(wantIDs, ids); d != "" {
		t.Errorf("rules mismatch (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"note", "warning", "note", "note", "error", "error"}, levels); d != "" {
		t.Errorf("rule levels mismatch (-want +got):\n%s", d)
	}
	var got []string
	for _, r := range run.Results {
		if ids[r.RuleIndex] != r.RuleID {
			t.Errorf("result %s has ruleIndex %d (%s)", r.RuleID, r.RuleIndex, ids[r.RuleIndex])
		}
		loc := r.Locations[0]
		got = append(got, r.Level+" "+r.RuleID+" "+loc.Physical.Artifact.URI+" "+loc.Logical[0].FQN)
	}
	want := []string{
		"error tool.input.required.added .mcpward/demo.snapshot.json tools.get_weather.inputSchema.required.date",
		"error tool.removed .mcpward/demo.snapshot.json tools.archive_note",
		"warning tool.description.changed .mcpward/demo.snapshot.json tools.get_weather.description",
		"note tool.input.optional.added .mcpward/demo.snapshot.json tools.list_notes.inputSchema.properties.cursor",
		"note serverInfo.version.changed .mcpward/demo.snapshot.json discover.serverInfo.version",
		"note tool.icons.changed .mcpward/demo.snapshot.json tools.get_weather.icons",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("results mismatch (-want +got):\n%s", d)
	}
	if !run.Invocations[0].ExecutionSuccessful {
		t.Error("complete evidence gave an unsuccessful invocation")
	}
}

func TestIncompleteInvocation(t *testing.T) {
	inv := decode(t, renderLog(t, reporttest.Load(t, "incomplete"))).Runs[0].Invocations[0]
	if inv.ExecutionSuccessful || len(inv.Notifications) != 2 {
		t.Errorf("incomplete evidence: successful=%v, %d notifications; want false, 2", inv.ExecutionSuccessful, len(inv.Notifications))
	}
}

// TestFingerprintStable checks that rewording a message or changing values
// keeps a finding's fingerprint, and that another subject changes it.
func TestFingerprintStable(t *testing.T) {
	fp := func(r *result.Result) string {
		return decode(t, renderLog(t, r)).Runs[0].Results[0].FP[FingerprintKey]
	}
	base := reporttest.Load(t, "seed")
	reworded := reporttest.Load(t, "seed")
	reworded.Findings[0].Message = "a different wording"
	reworded.Findings[0].Before = "x"
	reworded.Version = "v9.9.9"
	moved := reporttest.Load(t, "seed")
	moved.Findings[0].Subject = "tools.other.inputSchema.required.date"
	if fp(base) != fp(reworded) {
		t.Error("fingerprint changed with the message text")
	}
	if fp(base) == fp(moved) {
		t.Error("fingerprint did not change with the subject")
	}
	if got, want := fp(base), Fingerprint("tool.input.required.added", "tools.get_weather.inputSchema.required.date", ""); got != want {
		t.Errorf("fingerprint = %s, want %s", got, want)
	}
	if Fingerprint("a", "b\x00c", "") == Fingerprint("a\x00b", "c", "") {
		t.Error("fingerprint inputs are ambiguous")
	}
}

func TestURIReference(t *testing.T) {
	tests := []struct{ in, want string }{
		{".mcpward/demo.snapshot.json", ".mcpward/demo.snapshot.json"},
		{`.mcpward\win.json`, ".mcpward/win.json"},
		{"snap,shot:1.json", "snap%2Cshot%3A1.json"},
		{"a b%.json", "a%20b%25.json"},
		{"ü.json", "%C3%BC.json"},
	}
	for _, tt := range tests {
		if got := URIReference(tt.in); got != tt.want {
			t.Errorf("URIReference(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// A fleet is one run per target, in the Result's order, each naming its
// target in a distinct automation id (code scanning's category) and in
// its properties; a target that stopped on an error says why in its
// invocation.
func TestFleetRuns(t *testing.T) {
	var l struct {
		Runs []struct {
			AutomationDetails *struct {
				ID string `json:"id"`
			} `json:"automationDetails"`
			Invocations []struct {
				ExitCode      int `json:"exitCode"`
				Notifications []struct {
					Message struct{ Text string } `json:"message"`
				} `json:"toolExecutionNotifications"`
			} `json:"invocations"`
			Results    []json.RawMessage `json:"results"`
			Properties map[string]any    `json:"properties"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(renderLog(t, reporttest.Load(t, "fleet")), &l); err != nil {
		t.Fatal(err)
	}
	type run struct {
		ID, Target string
		Exit       int
		Results    int
	}
	var got []run
	for _, r := range l.Runs {
		if r.AutomationDetails == nil {
			t.Fatal("a fleet run has no automationDetails")
		}
		got = append(got, run{r.AutomationDetails.ID, r.Properties["target"].(string), r.Invocations[0].ExitCode, len(r.Results)})
	}
	want := []run{
		{"mcpward/check/weather/", "weather", 0, 0},
		{"mcpward/check/drifting/", "drifting", 1, 6},
		{"mcpward/check/hanging/", "hanging", 2, 0},
		{"mcpward/check/api/", "api", 4, 0},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("runs (-want +got):\n%s", d)
	}
	if n := l.Runs[3].Invocations[0].Notifications; len(n) != 1 || !strings.Contains(n[0].Message.Text, "no stored snapshot for api") {
		t.Errorf("the failed target's notifications: %+v", n)
	}
	// A one-target Result keeps its one run without an automation id, so
	// an upload's own category still applies.
	if strings.Contains(string(renderLog(t, reporttest.Load(t, "clean"))), "automationDetails") {
		t.Error("a one-target log has automationDetails")
	}
}

// TestSessionsCheckLevelsFollowGate: in a sessions check, a finding the
// gate selected is an error and one below it a warning or a note, whatever
// its class or tier (mcpsnoop's SARIF followed --fail-on the same way).
func TestSessionsCheckLevelsFollowGate(t *testing.T) {
	b := renderLog(t, sessionsCheck())
	if err := schema(t).Validate(mustJSON(t, b)); err != nil {
		t.Fatalf("schema: %v", err)
	}
	var got []string
	for _, r := range decode(t, b).Runs[0].Results {
		got = append(got, r.Level+" "+r.RuleID)
	}
	want := []string{
		"error tool.removed",
		"warning tool.input.required.added",
		"note tool.icons.changed",
		"warning message.response_unmatched",
		"error message.pending",
		"note message.error_response",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("levels mismatch (-want +got):\n%s", d)
	}
}

func mustJSON(t *testing.T, b []byte) any {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// sessionsCheck is a sessions check Result whose gate (--fail-on
// pending,tool.removed) selects one rule finding and one drift finding
// and leaves a violation, an info finding and a breaking drift below it.
func sessionsCheck() *result.Result {
	return &result.Result{SchemaVersion: result.SchemaVersion, Tool: "mcpward", Command: "sessions-check",
		Gate:     result.Gate{FailOn: "pending,tool.removed", Failed: true},
		Evidence: result.Evidence{Complete: true},
		Findings: []result.Finding{
			{Finding: diff.Finding{RuleID: "tool.removed", Tier: diff.Breaking, Subject: "session S tools.a", Message: "removed"}},
			{Finding: diff.Finding{RuleID: "tool.input.required.added", Tier: diff.Breaking, Subject: "session S tools.b.inputSchema.required.x", Message: "required"}},
			{Finding: diff.Finding{RuleID: "tool.icons.changed", Tier: diff.Cosmetic, Subject: "session S tools.b.icons", Message: "icons"}},
		},
		Violations: []result.RuleFinding{
			{RuleID: "message.pending", Level: "SHOULD", Class: "risky", Subject: "call 1", Message: "pending", Gated: true},
			{RuleID: "message.response_unmatched", Level: "MUST", Class: "violation", Subject: "seq 3", Message: "unmatched"},
			{RuleID: "message.error_response", Level: "MAY", Class: "info", Subject: "seq 4", Message: "error"},
		},
	}
}

// TestNotEvaluatedNote: what a run did not evaluate is a note among the
// invocation's notifications, and the log stays valid.
func TestNotEvaluatedNote(t *testing.T) {
	r := sessionsCheck()
	r.NotEvaluated = []result.NotEvaluated{{What: "tool drift of session S (demo)", Why: "recorded first-seen tool baseline"}}
	b := renderLog(t, r)
	if err := schema(t).Validate(mustJSON(t, b)); err != nil {
		t.Fatalf("schema: %v", err)
	}
	if !strings.Contains(string(b), `"level": "note",
              "message": {
                "text": "not evaluated: tool drift of session S (demo) — recorded first-seen tool baseline"`) {
		t.Errorf("no note for the trusted baseline:\n%s", b)
	}
}
