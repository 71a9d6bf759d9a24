package result

import (
	"context"
	"errors"
	"io/fs"

	"github.com/mcpward/mcpward/internal/diff"
	"github.com/mcpward/mcpward/internal/fault"
)

// Exit codes of the whole binary (PRODUCT.md). They are a contract: every
// command gets its code from [Decide] (a verdict) or [ExitCode] (an error),
// and no other package spells them as numbers.
const (
	Clean      = 0 // nothing at or above the gate
	Drift      = 1 // drift or findings at or above the gate
	Incomplete = 2 // evidence incomplete: not started, not reached, timeout, auth
	Violation  = 3 // the server violates a MUST-level rule
	Usage      = 4 // usage, config, or an unreadable/incomparable/newer input file
	Internal   = 5 // a bug in mcpward
)

// An Outcome is what a run found, as far as its exit code is concerned.
type Outcome struct {
	// Incomplete: the evidence is incomplete (missing evidence is never
	// "no change").
	Incomplete bool
	// Violation: a finding the server's owner must fix (a MUST-level rule)
	// counted against the run.
	Violation bool
	// Drift: drift or another finding at or above the gate counted
	// against the run.
	Drift bool
}

// Decide returns the exit code of an outcome. When several apply the
// precedence is Incomplete > Violation > Drift > Clean (2 > 3 > 1 > 0):
// what the evidence lacks may hold anything, so it outranks every finding.
func Decide(o Outcome) int {
	switch {
	case o.Incomplete:
		return Incomplete
	case o.Violation:
		return Violation
	case o.Drift:
		return Drift
	}
	return Clean
}

// ExitCode is the one mapping of an error to the exit code of PRODUCT.md;
// the root command and every fleet section get theirs here. Precedence
// follows [Decide]: incomplete evidence (a [fault.Incomplete] error, a run
// cancelled or past its deadline) before a violation before an unusable
// input (a [fault.Input] error, which a flag error is too; a missing or
// forbidden file; a refusal of the system). Anything else is a bug in
// mcpward (Internal); nil is Clean.
//
// refused tells the system's refusals (a busy port, a read-only or full
// disk), whose errno values this pure package cannot name: the CLI passes
// syserr.Refused, the browser engine, which has none, nil.
func ExitCode(err error, refused func(error) bool) int {
	switch {
	case err == nil:
		return Clean
	case errors.Is(err, fault.ErrIncomplete):
		return Incomplete
	case errors.Is(err, fault.ErrViolation):
		return Violation
	case errors.Is(err, fault.ErrInput), errors.Is(err, fs.ErrPermission), errors.Is(err, fs.ErrNotExist),
		refused != nil && refused(err):
		return Usage
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		// Interrupted, or out of time: the evidence is incomplete.
		return Incomplete
	}
	return Internal
}

// Summarize counts findings per tier (diff.Summarize over the findings of
// a Result).
func Summarize(fs []Finding) diff.Summary {
	d := make([]diff.Finding, len(fs))
	for i, f := range fs {
		d[i] = f.Finding
	}
	return diff.Summarize(d)
}
