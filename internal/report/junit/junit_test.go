package junit

import (
	"bytes"
	"encoding/xml"
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpward/mcpward/internal/diff"
	"github.com/mcpward/mcpward/internal/report/reporttest"
	"github.com/mcpward/mcpward/internal/result"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// The types below mirror the Ant/Jenkins JUnit schema independently of
// the package's own, so that a renaming on one side is caught.
type xSuites struct {
	XMLName  xml.Name `xml:"testsuites"`
	Tests    int      `xml:"tests,attr"`
	Failures int      `xml:"failures,attr"`
	Errors   int      `xml:"errors,attr"`
	Suites   []xSuite `xml:"testsuite"`
}

type xSuite struct {
	Name     string  `xml:"name,attr"`
	Tests    int     `xml:"tests,attr"`
	Failures int     `xml:"failures,attr"`
	Errors   int     `xml:"errors,attr"`
	Skipped  int     `xml:"skipped,attr"`
	Cases    []xCase `xml:"testcase"`
}

type xCase struct {
	Name      string    `xml:"name,attr"`
	ClassName string    `xml:"classname,attr"`
	Failure   *xProblem `xml:"failure"`
	Error     *xProblem `xml:"error"`
	Skipped   *struct{} `xml:"skipped"`
	SystemOut string    `xml:"system-out"`
}

type xProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

func parse(t *testing.T, b []byte) xSuites {
	t.Helper()
	var doc xSuites
	dec := xml.NewDecoder(bytes.NewReader(b))
	dec.Strict = true
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("not well-formed JUnit XML: %v\n%s", err, b)
	}
	return doc
}

// counts are tests/failures/errors of one suite or the whole document.
type counts struct{ Tests, Failures, Errors int }

func TestParseBack(t *testing.T) {
	tests := []struct {
		name   string
		total  counts
		suites map[string]counts
	}{
		{"seed", counts{7, 3, 0}, map[string]counts{
			"mcpward.diff.findings": {6, 3, 0}, "mcpward.diff.evidence": {1, 0, 0}}},
		{"clean", counts{1, 0, 0}, map[string]counts{
			"mcpward.check.findings": {0, 0, 0}, "mcpward.check.evidence": {1, 0, 0}}},
		{"incomplete", counts{3, 1, 2}, map[string]counts{
			"mcpward.check.findings": {1, 1, 0}, "mcpward.check.evidence": {2, 0, 2}}},
		{"violations", counts{5, 3, 0}, map[string]counts{
			"mcpward.compat.rules": {4, 3, 0}, "mcpward.compat.evidence": {1, 0, 0}}},
		{"hostile", counts{2, 1, 0}, map[string]counts{
			"mcpward.check.findings": {1, 1, 0}, "mcpward.check.evidence": {1, 0, 0}}},
		// A fleet: each target's suites are named by the target; the one
		// with no stored snapshot is one error.
		{"fleet", counts{10, 3, 2}, map[string]counts{
			"mcpward.check.weather.findings": {0, 0, 0}, "mcpward.check.weather.evidence": {1, 0, 0},
			"mcpward.check.drifting.findings": {6, 3, 0}, "mcpward.check.drifting.evidence": {1, 0, 0},
			"mcpward.check.hanging.findings": {0, 0, 0}, "mcpward.check.hanging.evidence": {1, 0, 1},
			"mcpward.check.api": {1, 0, 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Write(&buf, reporttest.Load(t, tt.name)); err != nil {
				t.Fatal(err)
			}
			reporttest.Golden(t, *update, filepath.Join("testdata", tt.name+".xml"), buf.Bytes())
			doc := parse(t, buf.Bytes())
			var sum counts
			got := map[string]counts{}
			for _, s := range doc.Suites {
				// The attributes must agree with the cases they count.
				var c counts
				c.Tests = len(s.Cases)
				for _, tc := range s.Cases {
					if tc.Failure != nil {
						c.Failures++
						if tc.Failure.Type == "" || tc.Failure.Message == "" {
							t.Errorf("failure of %q lacks type or message", tc.Name)
						}
					}
					if tc.Error != nil {
						c.Errors++
					}
				}
				if c != (counts{s.Tests, s.Failures, s.Errors}) || s.Skipped != 0 {
					t.Errorf("suite %s says tests=%d failures=%d errors=%d skipped=%d, cases give %+v", s.Name, s.Tests, s.Failures, s.Errors, s.Skipped, c)
				}
				got[s.Name] = c
				sum.Tests += c.Tests
				sum.Failures += c.Failures
				sum.Errors += c.Errors
			}
			if sum != (counts{doc.Tests, doc.Failures, doc.Errors}) {
				t.Errorf("testsuites says %d/%d/%d, suites add up to %+v", doc.Tests, doc.Failures, doc.Errors, sum)
			}
			if sum != tt.total {
				t.Errorf("totals = %+v, want %+v", sum, tt.total)
			}
			if d := cmp.Diff(tt.suites, got); d != "" {
				t.Errorf("suites mismatch (-want +got):\n%s", d)
			}
		})
	}
}

func TestFailureType(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, reporttest.Load(t, "seed")); err != nil {
		t.Fatal(err)
	}
	doc := parse(t, buf.Bytes())
	var types []string
	for _, c := range doc.Suites[0].Cases {
		if c.Failure != nil {
			types = append(types, c.Failure.Type)
		}
	}
	want := []string{"tool.input.required.added", "tool.removed", "tool.description.changed"}
	if d := cmp.Diff(want, types); d != "" {
		t.Errorf("failure types mismatch (-want +got):\n%s", d)
	}
}

func TestHostileRoundTrip(t *testing.T) {
	r := reporttest.Load(t, "hostile")
	var buf bytes.Buffer
	if err := Write(&buf, r); err != nil {
		t.Fatal(err)
	}
	doc := parse(t, buf.Bytes())
	c := doc.Suites[0].Cases[0]
	if want := "tool.added " + strings.ReplaceAll(r.Findings[0].Subject, "\n", `\n`); c.Name != want {
		t.Errorf("name = %q, want %q", c.Name, want)
	}
	if strings.Contains(c.Failure.Message, "\x1b") {
		t.Errorf("escape character reached the XML: %q", c.Failure.Message)
	}
}

// TestSessionsCheckFollowsGate: in a sessions check only what --fail-on
// selected is a <failure>; a finding below the gate passes and is kept in
// <system-out> (a breaking drift is below a gate that names neither drift
// nor its rule id).
func TestSessionsCheckFollowsGate(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, sessionsCheck()); err != nil {
		t.Fatal(err)
	}
	doc := parse(t, buf.Bytes())
	var got []string
	for _, s := range doc.Suites {
		for _, c := range s.Cases {
			switch {
			case c.Failure != nil:
				got = append(got, "failure "+c.Name)
			case c.SystemOut != "":
				got = append(got, "pass+out "+c.Name)
			default:
				got = append(got, "pass "+c.Name)
			}
		}
	}
	want := []string{
		"failure tool.removed session S tools.a",
		"pass+out tool.input.required.added session S tools.b.inputSchema.required.x",
		"pass+out tool.icons.changed session S tools.b.icons",
		"pass+out message.response_unmatched seq 3",
		"failure message.pending call 1",
		"pass+out message.error_response seq 4",
		"pass evidence complete",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("cases mismatch (-want +got):\n%s", d)
	}
	if doc.Failures != 2 {
		t.Errorf("failures = %d, want 2", doc.Failures)
	}
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

// TestNotEvaluatedSkipped: what a run did not evaluate (a first-seen tool
// baseline, trusted but not verified) is a skipped case, counted.
func TestNotEvaluatedSkipped(t *testing.T) {
	r := sessionsCheck()
	r.NotEvaluated = []result.NotEvaluated{{What: "tool drift of session S (demo)", Why: "recorded first-seen tool baseline b.json: 2 tools, trusted, not verified"}}
	var buf bytes.Buffer
	if err := Write(&buf, r); err != nil {
		t.Fatal(err)
	}
	doc := parse(t, buf.Bytes())
	ev := doc.Suites[len(doc.Suites)-1]
	last := ev.Cases[len(ev.Cases)-1]
	if last.Skipped == nil || last.Name != "not evaluated: tool drift of session S (demo)" || ev.Skipped != 1 {
		t.Errorf("evidence suite %+v, want a skipped case for the trusted baseline", ev)
	}
	if !strings.Contains(buf.String(), `<skipped message="recorded first-seen tool baseline b.json: 2 tools, trusted, not verified">`) {
		t.Errorf("no skipped message:\n%s", buf.String())
	}
}
