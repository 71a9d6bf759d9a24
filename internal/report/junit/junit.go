package junit

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/mcpward/mcpward/internal/plural"
	"github.com/mcpward/mcpward/internal/report/render"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/termsafe"
)

// TestSuites is the document root.
type TestSuites struct {
	XMLName  xml.Name    `xml:"testsuites"`
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Suites   []TestSuite `xml:"testsuite"`
}

// TestSuite is one group of test cases.
type TestSuite struct {
	Name       string     `xml:"name,attr"`
	Tests      int        `xml:"tests,attr"`
	Failures   int        `xml:"failures,attr"`
	Errors     int        `xml:"errors,attr"`
	Skipped    int        `xml:"skipped,attr"`
	Properties []Property `xml:"properties>property,omitempty"`
	Cases      []TestCase `xml:"testcase"`
}

// Property is one name/value pair of a suite.
type Property struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

// TestCase is one finding, rule finding or evidence check.
type TestCase struct {
	Name      string   `xml:"name,attr"`
	ClassName string   `xml:"classname,attr"`
	Failure   *Problem `xml:"failure,omitempty"`
	Error     *Problem `xml:"error,omitempty"`
	Skipped   *Skipped `xml:"skipped,omitempty"`
	// SystemOut describes a finding below the gate (sessions check): the
	// case passes, and the finding is still there to read.
	SystemOut string `xml:"system-out,omitempty"`
}

// Skipped marks a case that was not evaluated, and says why.
type Skipped struct {
	Message string `xml:"message,attr"`
}

// Problem is the body of a <failure> or an <error>.
type Problem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// Write renders r as JUnit XML.
func Write(w io.Writer, r *result.Result) error {
	doc := Build(r)
	var buf bytes.Buffer
	buf.WriteString(xml.Header)
	enc := xml.NewEncoder(&buf)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("encode junit: %w", err)
	}
	buf.WriteByte('\n')
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("write junit: %w", err)
	}
	return nil
}

// Build returns the JUnit document of r, with every count filled in. A
// fleet Result (check --all) gives each target its own suites, named
// mcpward.<command>.<target>.findings (…rules, …evidence), in the
// Result's order.
func Build(r *result.Result) *TestSuites {
	doc := &TestSuites{Name: "mcpward " + safe(r.Command)}
	if len(r.Targets) == 0 {
		if r.Target != nil && r.Target.Name != "" {
			doc.Name += " " + safe(r.Target.Name)
		}
		doc.Suites = suites(r, "mcpward."+safe(r.Command))
	}
	for i := range r.Targets {
		s := &r.Targets[i]
		name := render.SectionName(s)
		for _, su := range suites(s, "mcpward."+safe(s.Command)+"."+name) {
			su.Properties = append([]Property{{"target", name}}, su.Properties...)
			doc.Suites = append(doc.Suites, su)
		}
	}
	if len(r.Targets) > 0 {
		doc.Name += " (" + plural.Count(len(r.Targets), "target") + ")"
	}

	for i := range doc.Suites {
		s := &doc.Suites[i]
		s.Tests = len(s.Cases)
		for _, c := range s.Cases {
			if c.Failure != nil {
				s.Failures++
			}
			if c.Error != nil {
				s.Errors++
			}
			if c.Skipped != nil {
				s.Skipped++
			}
		}
		doc.Tests += s.Tests
		doc.Failures += s.Failures
		doc.Errors += s.Errors
		doc.Skipped += s.Skipped
	}
	return doc
}

// suites are the test suites of one Result (or one fleet section), their
// names and classnames starting with prefix.
func suites(r *result.Result, prefix string) []TestSuite {
	var out []TestSuite
	if r.Error != "" {
		// A fleet target that stopped before its verdict: one error.
		msg := safe(r.Error)
		text := "not judged: " + msg
		if r.Hint != "" {
			text += " (hint: " + safe(r.Hint) + ")"
		}
		return []TestSuite{{Name: prefix, Cases: []TestCase{{
			Name: "run", ClassName: prefix,
			Error: &Problem{Message: msg, Type: render.VerdictOf(r).Label, Text: text},
		}}}}
	}

	if r.Command != "compat" || len(r.Findings) > 0 {
		s := TestSuite{Name: prefix + ".findings", Properties: []Property{
			{"failOn", render.FailOnName(r)},
			{"verdict", render.VerdictOf(r).String()},
		}}
		if r.Ignored > 0 {
			s.Properties = append(s.Properties, Property{"ignored", fmt.Sprint(r.Ignored)})
		}
		for _, f := range r.Findings {
			c := TestCase{Name: safe(f.RuleID) + " " + safe(f.Subject), ClassName: prefix + "." + f.Tier.String()}
			switch {
			case render.FindingFails(r, f):
				gate := "at or above"
				if r.Command == "sessions-check" {
					gate = "selected by"
				}
				c.Failure = &Problem{
					Message: safe(f.Message),
					Type:    safe(f.RuleID),
					Text:    fmt.Sprintf("%s: %s — %s (%s fail-on=%s)", f.Tier, safe(f.Subject), safe(f.Message), gate, render.FailOnName(r)),
				}
			case r.Command == "sessions-check":
				c.SystemOut = fmt.Sprintf("%s: %s — %s (not selected by fail-on=%s)", f.Tier, safe(f.Subject), safe(f.Message), render.FailOnName(r))
			}
			s.Cases = append(s.Cases, c)
		}
		out = append(out, s)
	}

	if len(r.Violations) > 0 {
		s := TestSuite{Name: prefix + ".rules"}
		for _, v := range render.RuleFindings(r) {
			name := safe(v.RuleID) + " " + safe(v.Subject)
			if v.Profile != "" {
				name += " [" + safe(v.Profile) + "]"
			}
			c := TestCase{Name: name, ClassName: prefix + ".rules." + safe(v.Class)}
			if render.RuleFails(r, v) {
				var detail []string
				if v.Level != "" {
					detail = append(detail, v.Level)
				}
				if v.Spec != "" {
					detail = append(detail, safe(v.Spec))
				}
				text := fmt.Sprintf("%s: %s — %s", safe(v.Class), safe(v.Subject), safe(v.Message))
				if len(detail) > 0 {
					text += " (" + strings.Join(detail, "; ") + ")"
				}
				c.Failure = &Problem{Message: safe(v.Message), Type: safe(v.RuleID), Text: text}
			} else if r.Command == "sessions-check" {
				// Below the gate the case passes; the finding is kept.
				c.SystemOut = fmt.Sprintf("%s %s: %s — %s (not selected by fail-on=%s)", safe(v.Class), v.Level, safe(v.Subject), safe(v.Message), render.FailOnName(r))
			}
			s.Cases = append(s.Cases, c)
		}
		out = append(out, s)
	}

	ev := TestSuite{Name: prefix + ".evidence"}
	if r.Evidence.Status != "" {
		ev.Properties = []Property{{"status", safe(r.Evidence.Status)}}
	}
	if problems := render.Problems(r); len(problems) == 0 {
		ev.Cases = append(ev.Cases, TestCase{Name: "evidence complete", ClassName: prefix + ".evidence"})
	} else {
		for i, p := range problems {
			ev.Cases = append(ev.Cases, TestCase{
				Name:      fmt.Sprintf("evidence problem %d", i+1),
				ClassName: prefix + ".evidence",
				Error:     &Problem{Message: safe(p), Type: "incomplete", Text: "missing evidence is never \"no change\": " + safe(p)},
			})
		}
	}
	// A pass covers only what was evaluated (a first-seen tool baseline
	// was trusted, not verified: mcpsnoop's skipped baseline case).
	for _, n := range r.NotEvaluated {
		ev.Cases = append(ev.Cases, TestCase{Name: "not evaluated: " + safe(n.What), ClassName: prefix + ".evidence",
			Skipped: &Skipped{Message: safe(n.Why)}})
	}
	out = append(out, ev)
	return out
}

// safe puts server text on one line; encoding/xml then escapes markup and
// replaces characters XML cannot carry.
func safe(s string) string { return termsafe.Line(s) }
