package contract

import (
	"github.com/mcpward/mcpward/internal/export"
	"github.com/mcpward/mcpward/internal/export/text"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/snapshot"
	"github.com/mcpward/mcpward/internal/verdict"
)

// The gate, the comparison and the evidence problems are pure and live in
// internal/verdict, which the site's in-browser engine shares; these names
// keep contract's callers (check, diff, demo, serve) as they were.

// A Gate is [verdict.Gate].
type Gate = verdict.Gate

// A Comparison is [verdict.Comparison].
type Comparison = verdict.Comparison

// ParseGate is [verdict.ParseGate].
func ParseGate(failOn string, only, ignore []string) (Gate, error) {
	return verdict.ParseGate(failOn, only, ignore)
}

// CheckRuleIDs is [verdict.CheckRuleIDs].
func CheckRuleIDs(ids []string) error { return verdict.CheckRuleIDs(ids) }

// Compare is [verdict.Compare].
func Compare(c *Comparison) *result.Result { return verdict.Compare(c) }

// SideProblems is [verdict.SideProblems].
func SideProblems(side string, s *snapshot.Snapshot) []string {
	return verdict.SideProblems(side, s)
}

// Problems is [verdict.Problems].
func Problems(s *snapshot.Snapshot, ev *snapshot.Evidence) []string {
	return verdict.Problems(s, ev)
}

// Render writes r in format to the streams' stdout. Text is coloured only
// when stdout is a terminal with colour enabled.
func Render(ios *iostreams.IOStreams, format string, r *result.Result) error {
	if format == "text" && ios.ColorEnabled() {
		return text.WriteOptions(ios.Out, r, &text.Options{Color: true})
	}
	w, ok := export.Lookup(format)
	if !ok {
		return export.UnknownFormat(format, export.FormatNames("check"))
	}
	return w(ios.Out, r)
}
