package result

import (
	"github.com/mcpward/mcpward/internal/diff"
)

// Worst returns the one exit code of several runs judged together (the
// targets of a fleet): an internal error in any of them (5) first, then an
// unusable input (4), then the verdicts by [Decide]'s precedence
// 2 > 3 > 1 > 0. A broken config entry or snapshot is not hidden by the
// verdicts of the other targets: it is what the user must fix first.
func Worst(codes ...int) int {
	var o Outcome
	usage, internal := false, false
	for _, c := range codes {
		switch c {
		case Incomplete:
			o.Incomplete = true
		case Violation:
			o.Violation = true
		case Drift:
			o.Drift = true
		case Usage:
			usage = true
		case Clean:
		default:
			internal = true
		}
	}
	switch {
	case internal:
		return Internal
	case usage:
		return Usage
	}
	return Decide(o)
}

// Combine returns the fleet Result of several targets' runs of one
// command: the sections in the order given (config order, whatever order
// they finished in), counts summed, the evidence complete only when every
// section's is, the gate failed when any section's did, and one exit code
// by [Worst]. A section that stopped on an error carries it in Error.
//
// The fleet's own findings and violations are empty: they live in the
// sections. Its gate's failOn is the sections' when they agree, else the
// lowest (most sensitive) of them; each section's own gate is the one that
// judged it.
func Combine(command, version string, sections []Result) *Result {
	r := &Result{
		SchemaVersion: SchemaVersion,
		Tool:          "mcpward",
		Version:       version,
		Command:       command,
		Findings:      []Finding{},
		Evidence:      Evidence{Complete: true, Status: "ok"},
		Targets:       make([]Result, len(sections)),
	}
	codes := make([]int, len(sections))
	var failOn *diff.Tier
	failOnName := ""
	for i, s := range sections {
		s.Targets = nil
		if s.Findings == nil {
			s.Findings = []Finding{}
		}
		r.Targets[i] = s
		codes[i] = s.ExitCode
		name := "?"
		if s.Target != nil && s.Target.Name != "" {
			name = s.Target.Name
		}
		r.Ignored += s.Ignored
		r.Summary.Breaking += s.Summary.Breaking
		r.Summary.Risky += s.Summary.Risky
		r.Summary.Compatible += s.Summary.Compatible
		r.Summary.Cosmetic += s.Summary.Cosmetic
		r.Summary.Violations += s.Summary.Violations
		r.Summary.RiskyRules += s.Summary.RiskyRules
		r.Gate.Failed = r.Gate.Failed || s.Gate.Failed
		if t, err := diff.ParseTier(s.Gate.FailOn); err == nil && s.Error == "" {
			if failOn == nil || t < *failOn {
				failOn, failOnName = &t, t.String()
			}
		}
		if s.Error != "" {
			r.Evidence.Complete = false
			r.Evidence.Problems = append(r.Evidence.Problems, name+": not judged: "+s.Error)
			continue
		}
		if !s.Evidence.Complete {
			r.Evidence.Complete = false
			if len(s.Evidence.Problems) == 0 {
				r.Evidence.Problems = append(r.Evidence.Problems, name+": the observation did not complete")
			}
			for _, p := range s.Evidence.Problems {
				r.Evidence.Problems = append(r.Evidence.Problems, name+": "+p)
			}
		}
	}
	if failOnName == "" {
		failOnName = diff.Risky.String()
	}
	r.Gate.FailOn = failOnName
	if !r.Evidence.Complete {
		r.Evidence.Status = "partial"
	}
	r.ExitCode = Worst(codes...)
	return r
}

// Failed returns the section of a fleet whose target stopped on an error
// before it had a verdict: its exit code (2 when the server could not be
// reached, 4 for its config entry or snapshot, 5 for a bug), the error's
// one line and its hint, no findings, evidence incomplete.
func Failed(command, version string, t *Target, code int, err, hint string) Result {
	return Result{
		SchemaVersion: SchemaVersion,
		Tool:          "mcpward",
		Version:       version,
		Command:       command,
		Target:        t,
		Findings:      []Finding{},
		Gate:          Gate{FailOn: diff.Risky.String()},
		Evidence:      Evidence{Complete: false},
		ExitCode:      code,
		Error:         err,
		Hint:          hint,
	}
}
