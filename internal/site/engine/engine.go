// Package engine is what the site's engine page runs in the browser,
// compiled to WebAssembly (cmd/mcpward-wasm) and started in a Web Worker:
// the offline diff of two snapshot files (mcpward's, snapgauge's and
// mcp-surfaceprint's, as `mcpward diff` reads them), the traffic check of
// a session log (as `mcpward sessions check LOG` with its default gate),
// and the rendering of a saved Result document (as `mcpward report`). Each
// gives a [Report]: the Result, the CLI's text report, and the findings
// grouped by tier or class, each line worded exactly as the CLI prints it.
//
// It does no I/O: inputs are bytes, and a session log is written to a
// [LogCheck] chunk by chunk, so a 50 MB log is never held whole.
//
// The diff and the traffic check judge through internal/verdict, as
// `mcpward diff` and `mcpward sessions check` do; only the reading of the
// inputs is the engine's own. TestDiffParity and TestLogParity run the
// engine and the CLI on the same inputs and compare the reports byte for
// byte.
package engine

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/mcpward/mcpward/internal/diff"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/migrate/foreign"
	"github.com/mcpward/mcpward/internal/report"
	"github.com/mcpward/mcpward/internal/report/render"
	"github.com/mcpward/mcpward/internal/report/text"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/rules"
	"github.com/mcpward/mcpward/internal/snapshot"
	"github.com/mcpward/mcpward/internal/verdict"
)

// A Report is what the page shows for one run.
type Report struct {
	Command  string `json:"command"`
	ExitCode int    `json:"exitCode"`
	// Verdict is "DRIFT (exit 1)"; Summary the CLI's closing line.
	Verdict  string   `json:"verdict"`
	Summary  string   `json:"summary"`
	Problems []string `json:"problems"`
	// Groups hold the findings: surface findings by tier (breaking first),
	// then rule findings by class (violation first), empty groups left out.
	Groups []Group `json:"groups"`
	// Text is the CLI's text report of the Result, byte for byte.
	Text string `json:"text"`
	// Result is the Result document, as --json writes it.
	Result string `json:"result"`
}

// A Group is the findings of one tier or class.
type Group struct {
	// Kind is "tier" (a surface finding) or "class" (a rule finding).
	Kind  string `json:"kind"`
	Name  string `json:"name"`
	Lines []Line `json:"lines"`
}

// A Line is one finding as the CLI prints it.
type Line struct {
	RuleID string `json:"ruleId"`
	// Text is the CLI's line for the finding; it contains RuleID once
	// (the page links that part to the rule).
	Text string `json:"text"`
	// Rule is false when the id is in no catalogue (an old Result).
	Rule bool `json:"rule"`
}

// An Error is a failed run: the one-line message the CLI would print after
// "mcpward: ", its exit code, and the hint line, if any.
type Error struct {
	Message  string `json:"message"`
	Hint     string `json:"hint,omitempty"`
	ExitCode int    `json:"exitCode"`
}

func (e *Error) Error() string { return e.Message }

func newError(err error, hint string) *Error {
	code := result.ExitCode(err, nil) // no errnos in the browser
	return &Error{Message: err.Error(), Hint: hint, ExitCode: code}
}

// An Input is one file given to the engine: its name (for messages and the
// Result's paths) and its bytes.
type Input struct {
	Name string
	Data []byte
}

// DiffOptions are diff's choices the page offers.
type DiffOptions struct {
	// FailOn is the gate tier ("" is risky, as in the CLI).
	FailOn string
	// Migrate upgrades an older mcpward snapshot format (--migrate).
	Migrate bool
	// Version is mcpward's version, written into the Result.
	Version string
}

// ReadSnapshot parses one snapshot file as `mcpward diff` does
// (contract.ReadSnapshot without the file system): a snapgauge or
// mcp-surfaceprint snapshot is converted, an mcpward one parsed strictly.
func ReadSnapshot(in Input, migrateOld bool) (*snapshot.Snapshot, error) {
	data := in.Data
	if s, ok, err := foreign.Snapshot(data); ok {
		if err != nil {
			return nil, fault.Input(fmt.Errorf("snapshot %s: %w", in.Name, err))
		}
		return s, nil
	}
	if migrateOld {
		var err error
		if data, err = snapshot.Migrate(data); err != nil {
			return nil, fmt.Errorf("snapshot %s: %w", in.Name, err)
		}
	}
	s, err := snapshot.Unmarshal(data)
	if err != nil {
		return nil, fmt.Errorf("snapshot %s: %w", in.Name, err)
	}
	return s, nil
}

// Diff compares two snapshot files, old → new, and gates the findings.
func Diff(old, cur Input, opts DiffOptions) (*Report, error) {
	r, err := DiffResult(old, cur, opts)
	if err != nil {
		return nil, err
	}
	return NewReport(r)
}

// DiffResult is Diff's Result.
func DiffResult(oldIn, curIn Input, opts DiffOptions) (*result.Result, error) {
	failOn, err := verdict.ParseFailOn(opts.FailOn)
	if err != nil {
		return nil, &Error{Message: err.Error(), ExitCode: result.Usage}
	}
	old, err := ReadSnapshot(oldIn, opts.Migrate)
	if err != nil {
		return nil, migrateHint(err)
	}
	cur, err := ReadSnapshot(curIn, opts.Migrate)
	if err != nil {
		return nil, migrateHint(err)
	}
	if err := snapshot.Comparable(old, cur); err != nil {
		return nil, newError(fault.Input(err), "record both sides with the same probes and profiles, then diff again")
	}
	return verdict.Compare(&verdict.Comparison{
		Command:     "diff",
		Version:     opts.Version,
		Old:         old,
		New:         cur,
		OldPath:     oldIn.Name,
		NewPath:     curIn.Name,
		FindingFile: curIn.Name,
		Gate:        verdict.Gate{FailOn: failOn},
		Problems:    append(verdict.SideProblems("old", old), verdict.SideProblems("new", cur)...),
	}), nil
}

func migrateHint(err error) error {
	switch {
	case errors.Is(err, snapshot.ErrNeedsMigration):
		return newError(err, "tick \"upgrade an older snapshot format\" (--migrate) and diff again")
	case errors.Is(err, snapshot.ErrNewerFormat):
		return newError(err, "upgrade mcpward to read this snapshot")
	}
	return newError(err, "")
}

// ReadResult renders a saved Result document (`mcpward report`).
func ReadResult(in Input) (*Report, error) {
	r, err := report.ReadResult(in.Data)
	if err != nil {
		return nil, newError(fmt.Errorf("read result %s: %w", in.Name, err), "")
	}
	return NewReport(r)
}

// NewReport renders r for the page: its text report, its Result document
// and its findings grouped, each line as the text report prints it.
func NewReport(r *result.Result) (*Report, error) {
	var txt, doc bytes.Buffer
	if err := text.Write(&txt, r); err != nil {
		return nil, err
	}
	if err := report.JSON(&doc, r); err != nil {
		return nil, err
	}
	rep := &Report{
		Command:  r.Command,
		ExitCode: r.ExitCode,
		Verdict:  render.VerdictOf(r).String(),
		Summary:  render.SummaryLine(r),
		Problems: render.Problems(r),
		Groups:   []Group{},
		Text:     txt.String(),
		Result:   doc.String(),
	}
	if rep.Problems == nil {
		rep.Problems = []string{}
	}
	add := func(kind, name string, l Line) {
		if n := len(rep.Groups); n > 0 && rep.Groups[n-1].Kind == kind && rep.Groups[n-1].Name == name {
			rep.Groups[n-1].Lines = append(rep.Groups[n-1].Lines, l)
			return
		}
		rep.Groups = append(rep.Groups, Group{Kind: kind, Name: name, Lines: []Line{l}})
	}
	for tier := diff.Breaking; tier >= diff.Cosmetic; tier-- {
		for _, f := range r.Findings {
			if f.Tier != tier {
				continue
			}
			line, err := findingLine(&result.Result{Command: "sessions-check", Findings: []result.Finding{f}})
			if err != nil {
				return nil, err
			}
			_, known := diff.LookupRule(f.RuleID)
			add("tier", tier.String(), Line{RuleID: f.RuleID, Text: line, Rule: known})
		}
	}
	for _, v := range render.RuleFindings(r) {
		line, err := findingLine(&result.Result{Command: "sessions-check", Violations: []result.RuleFinding{v}})
		if err != nil {
			return nil, err
		}
		_, known := rules.Lookup(v.RuleID)
		add("class", v.Class, Line{RuleID: v.RuleID, Text: line, Rule: known})
	}
	return rep, nil
}

// findingLine is the text report's line for the one finding r holds.
func findingLine(r *result.Result) (string, error) {
	var b bytes.Buffer
	if err := text.Write(&b, r); err != nil {
		return "", err
	}
	line, _, _ := strings.Cut(b.String(), "\n")
	return line, nil
}
