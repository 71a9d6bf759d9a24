package fuzzcmd

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/fuzzrun"
	"github.com/mcpward/mcpward/internal/report"
	"github.com/mcpward/mcpward/internal/report/text"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/rules"
	"github.com/mcpward/mcpward/internal/termsafe"
)

// writePlan prints what the run will send and call: always before a run
// (to stderr), and alone with --dry-run (every case listed).
func writePlan(w io.Writer, p *fuzzrun.Plan, all bool) {
	server := p.Server
	if server == "" {
		server = "the server"
	}
	fmt.Fprintf(w, "fuzz plan: %d cases for %s (%s %s over %s), seed %d\n", len(p.Cases), termsafe.Line(server), p.Target.Era, p.Target.Version, p.Target.Transport, p.Seed)
	fmt.Fprintf(w, "  each case on a fresh %s; a frame waits %s for its answer (median answer %s), a retry that confirms a hang or zombie %s\n",
		map[string]string{"stdio": "process", "http": "connection"}[p.Target.Transport], p.CaseTimeout, p.Median.Round(10*time.Microsecond), p.RetryTimeout)
	var called, not []string
	for _, t := range p.Tools {
		line := termsafe.Line(t.Name) + ": " + t.Why
		if t.Call {
			called = append(called, line)
		} else {
			not = append(not, line)
		}
	}
	switch {
	case len(p.Tools) == 0:
		fmt.Fprintln(w, "  tools/call: the server lists no tool")
	case len(called) == 0:
		fmt.Fprintf(w, "  tools/call: none of %d tools (none is read-only by both facts and closed-world)\n", len(p.Tools))
	default:
		fmt.Fprintf(w, "  tools/call goes to %d of %d tools:\n", len(called), len(p.Tools))
		for _, l := range called {
			fmt.Fprintf(w, "    %s\n", l)
		}
	}
	if len(not) > 0 {
		fmt.Fprintf(w, "  never called (%d):\n", len(not))
		for _, l := range not {
			fmt.Fprintf(w, "    %s\n", l)
		}
	}
	counts := map[string]int{}
	var order []string
	for _, c := range p.Cases {
		g, _, _ := strings.Cut(c.Name, "/")
		if counts[g] == 0 {
			order = append(order, g)
		}
		counts[g]++
	}
	var parts []string
	for _, g := range order {
		parts = append(parts, fmt.Sprintf("%s %d", g, counts[g]))
	}
	fmt.Fprintf(w, "  cases: %s\n", strings.Join(parts, ", "))
	if all {
		for i, c := range p.Cases {
			fmt.Fprintf(w, "  %3d %-40s %s\n", i+1, termsafe.Line(c.Name), termsafe.Line(c.Note))
		}
	}
}

// buildResult is the run as the usual Result (command "fuzz").
func buildResult(opts *Options, s *connect.Spec, p *fuzzrun.Plan, rep *fuzzrun.Report, saved []string) *result.Result {
	target := result.TargetOf(s.Info())
	target.Transport = p.Target.Transport
	res := &result.Result{
		SchemaVersion: result.SchemaVersion, Tool: "mcpward", Version: opts.Version, Command: "fuzz",
		Target:   target,
		Findings: []result.Finding{},
		Evidence: result.Evidence{Complete: len(rep.Problems) == 0, Status: "ok", Problems: rep.Problems},
		Gate:     result.Gate{FailOn: opts.FailOn},
		Fuzz: &result.Fuzz{
			Server: p.Server, Era: p.Target.Era, Version: p.Target.Version, Transport: p.Target.Transport, Seed: p.Seed,
			Cases: len(p.Cases), Ran: rep.Ran,
			MedianMs:      float64(p.Median.Microseconds()) / 1000,
			CaseTimeoutMs: p.CaseTimeout.Milliseconds(), RetryTimeoutMs: p.RetryTimeout.Milliseconds(),
			Tools: []result.FuzzTool{}, Findings: []result.FuzzFinding{},
		},
	}
	if !res.Evidence.Complete {
		res.Evidence.Status = "partial"
	}
	if rep.NotRun > 0 {
		res.NotEvaluated = append(res.NotEvaluated, result.NotEvaluated{What: fmt.Sprintf("%d cases", rep.NotRun), Why: rep.Stopped})
	}
	for _, t := range p.Tools {
		res.Fuzz.Tools = append(res.Fuzz.Tools, result.FuzzTool{Name: t.Name, Called: t.Call, Allowed: t.Allowed, Why: t.Why})
	}
	failed, violation := false, false
	for i, f := range rep.Found {
		rule := rules.MustLookup(f.Rule)
		msg := f.Message
		if f.Same > 0 {
			msg += fmt.Sprintf(" (and %d more cases)", f.Same)
		}
		rf := result.RuleFinding{RuleID: f.Rule, Level: rule.Level, Class: rule.Class, Subject: f.Original.Name, Message: msg, Spec: rule.Cite(),
			Evidence: &result.Exchange{Note: "frames: fuzz.findings[" + fmt.Sprint(i) + "]"}}
		if len(f.Case.Frames) == 1 && jsonOK(f.Case.Frames[0].Bytes) {
			rf.Evidence.Request = f.Case.Frames[0].Bytes
		}
		if jsonOK(f.Response) {
			rf.Evidence.Response = f.Response
		}
		counts := false
		switch rule.Class {
		case rules.Violation:
			res.Summary.Violations++
			counts, violation = true, true
		case rules.Risky:
			res.Summary.RiskyRules++
			counts = opts.FailOn != "violation"
		default:
			counts = opts.FailOn == "info"
		}
		failed = failed || counts
		rf.Gated = counts
		res.Violations = append(res.Violations, rf)
		ff := result.FuzzFinding{RuleID: f.Rule, Case: f.Original.Name, Note: f.Original.Note, Minimised: f.Minimised, Same: f.Same,
			ElapsedMs: f.Elapsed.Milliseconds(), Frames: []result.FuzzFrame{}}
		if i < len(saved) {
			ff.Saved = saved[i]
		}
		for _, fr := range f.Case.Frames {
			ff.Frames = append(ff.Frames, frameOf(fr.Bytes))
		}
		res.Fuzz.Findings = append(res.Fuzz.Findings, ff)
	}
	res.Gate.Failed = failed
	res.ExitCode = result.Decide(result.Outcome{Incomplete: !res.Evidence.Complete, Violation: violation, Drift: failed && !violation})
	return res
}

// maxFrameText is how much of a frame the Result shows.
const maxFrameText = 2 << 10

func frameOf(b []byte) result.FuzzFrame {
	f := result.FuzzFrame{Bytes: len(b)}
	show := b
	if len(show) > maxFrameText {
		show = show[:maxFrameText]
	}
	f.Text = strings.ToValidUTF8(string(show), "\ufffd")
	if len(b) > maxFrameText {
		f.Text += "…"
	}
	if !utf8.Valid(b) && len(b) <= 64<<10 {
		f.Base64 = base64.StdEncoding.EncodeToString(b)
	}
	return f
}

func jsonOK(b []byte) bool {
	return len(b) > 0 && len(b) <= 64<<10 && utf8.Valid(b) && json.Valid(b)
}

// render writes the Result in the chosen format; the text report adds
// each finding's frames.
func render(opts *Options, res *result.Result, rep *fuzzrun.Report) error {
	if opts.Format != "text" {
		w, _ := report.Lookup(opts.Format)
		return w(opts.IO.Out, res)
	}
	if err := text.WriteOptions(opts.IO.Out, res, &text.Options{TTY: opts.IO.IsStdoutTTY(), Width: opts.IO.TerminalWidth(), Verbose: opts.Verbose}); err != nil {
		return err
	}
	w := opts.IO.Out
	fmt.Fprintf(w, "fuzz: %d of %d cases ran (%s %s over %s, seed %d)\n", rep.Ran, len(rep.Plan.Cases), res.Fuzz.Era, res.Fuzz.Version, res.Fuzz.Transport, res.Fuzz.Seed)
	for _, f := range res.Fuzz.Findings {
		how := "frames"
		if f.Minimised {
			how = "frames, minimised"
		}
		fmt.Fprintf(w, "\n%s  %s (%s; found after %.1fs):\n", f.RuleID, termsafe.Line(f.Case), how, float64(f.ElapsedMs)/1000)
		for _, fr := range f.Frames {
			t := fr.Text
			if !opts.Verbose && utf8.RuneCountInString(t) > 160 {
				t = string([]rune(t)[:160]) + "…"
			}
			fmt.Fprintf(w, "  > %s", termsafe.Line(t))
			if fr.Bytes > 160 || fr.Base64 != "" {
				fmt.Fprintf(w, "  (%d bytes)", fr.Bytes)
			}
			fmt.Fprintln(w)
		}
		if f.Saved != "" {
			fmt.Fprintf(w, "  saved: %s (mcpward fuzz --replay %s …)\n", f.Saved, f.Saved)
		}
	}
	return nil
}
