package compat

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/mcpward/mcpward/internal/client"
	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/mcp"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/rules"
	"github.com/mcpward/mcpward/internal/snapshot"
)

// A Probe is one declared tools/call replayed under every profile: the one
// probe type, snapshot.ProbeDecl. Its Capture is not used here.
type Probe = snapshot.ProbeDecl

// Options configure Run. Nil means defaults.
type Options struct {
	// Profiles to run; nil means every built-in.
	Profiles []rules.Profile
	// Probes are the tools/call probes (none: no D-group verdicts).
	Probes []Probe
	// ReadOnly never sends tools/call (the board): probes, the Mcp-Name
	// assertions and the live X rules are skipped with that reason.
	ReadOnly bool
	// Now is the clock (default time.Now).
	Now func() time.Time
	// Progress receives one-line progress messages.
	Progress func(string)
}

// Assertion verdicts.
const (
	Pass    = "pass"
	Fail    = "fail"
	Warn    = "warn"
	NA      = "n/a"
	Skipped = "skipped"
)

// An Assertion is one checked rule and its outcome.
type Assertion struct {
	ID      string `json:"id"`
	Level   string `json:"level"`
	Verdict string `json:"verdict"`
	// Detail is what was observed, or why the rule was not checked.
	Detail   string           `json:"detail"`
	Cite     string           `json:"cite"`
	Evidence *result.Exchange `json:"evidence,omitempty"`
}

// A Report is the outcome of Run.
type Report struct {
	// Era is modern-only, dual, legacy or unknown.
	Era string `json:"era"`
	// Transport is http, sse or stdio.
	Transport         string   `json:"transport"`
	Server            string   `json:"server,omitempty"`
	SupportedVersions []string `json:"supportedVersions,omitempty"`
	Profiles          []string `json:"profiles"`
	Tools             []string `json:"tools,omitempty"`
	// Verdicts maps tool → profile → verdict.
	Verdicts   map[string]map[string]string `json:"verdicts"`
	Assertions []Assertion                  `json:"assertions"`
	// Problems lists what could not be observed (incomplete evidence).
	Problems []string `json:"problems,omitempty"`
	// NotEvaluated lists what the run did not evaluate and why: profiles
	// the server cannot be used under, the D rules without probes, rules
	// that do not bind the server's era. Nothing evaluated is not a pass.
	NotEvaluated []result.NotEvaluated `json:"notEvaluated,omitempty"`

	findings []result.RuleFinding
}

// Findings returns the rule findings, sorted by class (violation first),
// rule id, subject and profile. Each failed or warned assertion is one
// finding; MUST failures are therefore counted once.
func (r *Report) Findings() []result.RuleFinding {
	out := slices.Clone(r.findings)
	slices.SortStableFunc(out, func(a, b result.RuleFinding) int {
		return cmp.Or(cmp.Compare(rules.ClassRank(a.Class), rules.ClassRank(b.Class)),
			strings.Compare(a.RuleID, b.RuleID), strings.Compare(a.Subject, b.Subject), strings.Compare(a.Profile, b.Profile))
	})
	return out
}

// ExitCode is the `compat` exit code of the report, from result.Decide:
// incomplete evidence, else any violation, else any risky finding (which
// compat gates on as drift), else clean.
func (r *Report) ExitCode() int {
	o := result.Outcome{Incomplete: len(r.Problems) > 0}
	for _, f := range r.findings {
		switch f.Class {
		case rules.Violation:
			o.Violation = true
		case rules.Risky:
			o.Drift = true
		}
	}
	return result.Decide(o)
}

// MustViolations counts distinct MUST-level rules with a violation (each
// rule once, however many subjects it has).
func (r *Report) MustViolations() int {
	set := map[string]bool{}
	for _, f := range r.findings {
		if f.Class == rules.Violation && f.Level == rules.MUST {
			set[f.RuleID] = true
		}
	}
	return len(set)
}

// engine holds one run's state.
type engine struct {
	s    *connect.Session
	opts Options
	rep  *Report
	kind string // http, sse, stdio

	modern     bool // the server serves 2026-07-28
	discover   *mcp.DiscoverResult
	serverName string
	tools      []toolInfo
	codes      map[int64]*result.Exchange // error codes seen → first evidence
}

type toolInfo struct {
	Name        string          `json:"name"`
	InputSchema json.RawMessage `json:"inputSchema"`
	raw         json.RawMessage
}

// Run probes the server behind s (already connected) under the profiles
// and runs every rule group. s stays open; Run opens and closes fresh
// sessions of its own. An error means Run itself could not proceed; gaps
// in the evidence are Report.Problems.
func Run(ctx context.Context, s *connect.Session, opts *Options) (*Report, error) {
	e := &engine{s: s, rep: &Report{Verdicts: map[string]map[string]string{}}, codes: map[int64]*result.Exchange{}}
	if opts != nil {
		e.opts = *opts
	}
	if e.opts.Now == nil {
		e.opts.Now = time.Now
	}
	if e.opts.Progress == nil {
		e.opts.Progress = func(string) {}
	}
	if e.opts.Profiles == nil {
		e.opts.Profiles = rules.BuiltinProfiles()
	}
	for _, p := range e.opts.Profiles {
		e.rep.Profiles = append(e.rep.Profiles, p.Name)
	}
	switch s.Conn.Kind() {
	case "http":
		e.kind = "http"
	case "sse":
		e.kind = "sse"
	default:
		e.kind = "stdio"
	}
	e.rep.Transport = e.kind

	e.progress("era")
	e.era(ctx)
	e.progress("surface")
	if err := e.surface(ctx); err != nil {
		return nil, err
	}
	e.progress("x-mcp-header")
	e.xStatic()
	e.progress("profiles")
	e.profiles(ctx)
	e.progress("versions and stability")
	e.versions(ctx)
	e.stability(ctx)
	e.progress("transport")
	switch e.kind {
	case "http":
		e.httpAssertions(ctx)
		e.xLive(ctx)
	default:
		e.stdioAssertions(ctx)
	}
	e.codeFindings()
	return e.rep, nil
}

func (e *engine) progress(step string) { e.opts.Progress("compat: " + step) }

// finding records a rule finding with its evidence.
func (e *engine) finding(id, subject, profile, msg string, ev *result.Exchange) {
	r := rules.MustLookup(id)
	e.rep.findings = append(e.rep.findings, result.RuleFinding{
		RuleID: r.ID, Level: r.Level, Class: r.Class, Subject: subject, Message: msg,
		Profile: profile, Spec: r.Cite(), Evidence: ev,
	})
}

// assert records an assertion; a fail or warn also becomes a finding.
func (e *engine) assert(id, verdict, detail string, ev *result.Exchange) {
	r := rules.MustLookup(id)
	if verdict == Fail && r.Class == rules.Risky {
		verdict = Warn
	}
	e.rep.Assertions = append(e.rep.Assertions, Assertion{ID: r.ID, Level: r.Level, Verdict: verdict, Detail: detail, Cite: r.Cite(), Evidence: ev})
	if verdict == Fail || verdict == Warn {
		e.finding(r.ID, "transport", "", detail, ev)
	}
}

// notEvaluated records something the run did not evaluate, and why.
func (e *engine) notEvaluated(what, why string) {
	e.rep.NotEvaluated = append(e.rep.NotEvaluated, result.NotEvaluated{What: what, Why: why})
}

// problem records missing evidence.
func (e *engine) problem(format string, args ...any) {
	e.rep.Problems = append(e.rep.Problems, fmt.Sprintf(format, args...))
}

// exchange builds evidence from a client response.
func exchange(req []byte, resp *client.Response, note string) *result.Exchange {
	ex := &result.Exchange{Request: compactJSON(req), Note: note}
	if resp == nil {
		return ex
	}
	if resp.Msg != nil {
		ex.Response = compactJSON(resp.Msg.Raw)
	}
	if resp.Reply != nil && resp.Reply.HTTP != nil {
		ex.Method = http.MethodPost
		ex.Status = resp.Reply.HTTP.Status
		if ex.Response == nil && len(resp.Reply.HTTP.Body) > 0 {
			ex.Response = compactJSON(resp.Reply.HTTP.Body)
		}
	}
	return ex
}

// compactJSON keeps valid JSON as is and wraps anything else as a string,
// so that the Result stays valid JSON.
func compactJSON(b []byte) json.RawMessage {
	if len(b) == 0 {
		return nil
	}
	if json.Valid(b) {
		return json.RawMessage(slices.Clone(b))
	}
	s, _ := json.Marshal(string(b))
	return s
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

type exchangeT = result.Exchange
