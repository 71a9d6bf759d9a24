package rules

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestPrinciple enforces docs/design.md "Verdicts rest on MUST clauses": a
// rule may be of class violation (exit 3) only when it cites a MUST / MUST
// NOT clause the catalogue holds, with the revision it binds from; a rule
// without one is risky (a SHOULD) or info.
func TestPrinciple(t *testing.T) {
	used := map[string]bool{}
	for _, r := range All() {
		c, hasClause := r.Clause()
		switch {
		case r.Must != "" && !hasClause:
			t.Errorf("%s: cites clause %q, which the catalogue does not hold", r.ID, r.Must)
		case r.Class == Violation && r.Must == "":
			t.Errorf("%s: class violation without a MUST clause (Must): make it risky (SHOULD) or info, or cite the clause", r.ID)
		case r.Must != "" && r.Class != Violation:
			t.Errorf("%s: cites MUST clause %s but is %s: a broken MUST is a violation", r.ID, r.Must, r.Class)
		case r.Level == MUST && r.Class != Violation:
			t.Errorf("%s: level MUST but class %s", r.ID, r.Class)
		}
		if hasClause {
			used[c.ID] = true
		}
	}
	for _, c := range Clauses() {
		if !strings.Contains(c.Text, "MUST") {
			t.Errorf("clause %s: text has no MUST / MUST NOT: %q", c.ID, c.Text)
		}
		if !slices.Contains(Revisions, c.Since) {
			t.Errorf("clause %s: since %q is not a revision (%v)", c.ID, c.Since, Revisions)
		}
		if !used[c.ID] {
			t.Errorf("clause %s: no rule cites it", c.ID)
		}
	}
}

// TestClauseIDsInDigest checks every DIGEST-shaped clause id against the
// protocol digest, when it is at hand (it lives outside the repository:
// set MCPWARD_DIGEST, or keep the shared folder beside the checkout).
func TestClauseIDsInDigest(t *testing.T) {
	path := os.Getenv("MCPWARD_DIGEST")
	if path == "" {
		path = "../../../shared/spec/DIGEST.md"
	}
	digest, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("protocol digest not found (%v); set MCPWARD_DIGEST to check clause ids against it", err)
	}
	for _, c := range Clauses() {
		if IsDigestID(c.ID) && !strings.Contains(string(digest), c.ID) {
			t.Errorf("clause %s does not appear in %s", c.ID, path)
		}
	}
}

// A legacy profile is never judged by a rule whose clause binds 2026-07-28
// only, whatever the call produced.
func TestLegacyProfileNeverJudgedByModernRule(t *testing.T) {
	legacy, _ := BuiltinProfile("legacy-2025-11-25")
	base := BaselineCall{Essence: "input_required:x", Exercised: []string{"roots", "sampling"}}
	outcomes := map[string]Outcome{
		"method not found":   {Error: &OutcomeError{Code: -32601, Message: `method not found: "tools/call"`}},
		"-32021":             {Error: &OutcomeError{Code: -32021, Data: json.RawMessage(`{"requiredCapabilities":{"roots":{}}}`)}},
		"isError":            {Result: json.RawMessage(`{"content":[],"isError":true}`)},
		"input_required":     {Result: json.RawMessage(`{"resultType":"input_required","inputRequests":{"a":{"method":"elicitation/create","params":{"mode":"url"}}}}`)},
		"task leak":          {Result: json.RawMessage(`{"resultType":"task","taskId":"t"}`)},
		"plain result":       {Result: json.RawMessage(`{"content":[]}`)},
		"no answer":          {Failure: "timeout"},
		"roots served, ping": {Result: json.RawMessage(`{"content":[]}`), ServerRequests: []string{"roots/list", "ping"}},
	}
	for name, o := range outcomes {
		j := JudgeDegradation(legacy, base, o, JudgeOptions{ServerExtensions: []string{"io.modelcontextprotocol/tasks"}})
		for _, f := range j.Findings {
			r := MustLookup(f.RuleID)
			if c, ok := r.Clause(); ok && c.ModernOnly() {
				t.Errorf("%s: legacy profile judged by %s (clause %s binds %s only)", name, r.ID, c.ID, c.Since)
			}
		}
		if j.Verdict == VerdictViolation {
			t.Errorf("%s: legacy profile that served what it declared got a violation: %+v", name, j)
		}
	}
}

// A rule cites a clause of the transport it is checked on: a stdio
// clause never backs an HTTP finding, nor an HTTP clause a stdio one
// (issue 23 item 4: a 202 with a body was reported under the client's
// stdin clause).
func TestClauseTransportMatchesRule(t *testing.T) {
	for _, r := range All() {
		c, ok := r.Clause()
		if !ok || c.Transport() == OnAny {
			continue
		}
		if r.On != c.Transport() {
			t.Errorf("%s (checked on %s) cites %s, a clause of %s only", r.ID, r.On, c.ID, c.Transport())
		}
	}
}
