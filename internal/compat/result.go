package compat

import (
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/rules"
)

// Result is the report as the Result document of `mcpward compat`
// (command "compat", gate risky) about t: the rule findings as
// Violations, what the run observed besides them (server, era, profiles,
// the verdict grid, the assertions) as Compat. `mcpward check` carries
// the same Violations and Compat beside its drift findings. It is the one
// mapping of a report onto a Result.
func (r *Report) Result(t *result.Target, version string) *result.Result {
	res := &result.Result{
		SchemaVersion: result.SchemaVersion, Tool: "mcpward", Version: version, Command: "compat",
		Target:     t,
		Findings:   []result.Finding{},
		Violations: r.Findings(),
		Evidence:   result.Evidence{Complete: len(r.Problems) == 0, Status: "ok", Problems: r.Problems},
		ExitCode:   r.ExitCode(),

		NotEvaluated: r.NotEvaluated,
		Compat: &result.Compat{
			Server: r.Server, Era: r.Era, SupportedVersions: r.SupportedVersions,
			Profiles: r.Profiles, Verdicts: r.Verdicts,
			Assertions: make([]result.Assertion, 0, len(r.Assertions)),
		},
	}
	for _, a := range r.Assertions {
		res.Compat.Assertions = append(res.Compat.Assertions, result.Assertion{ID: a.ID, Verdict: a.Verdict, Detail: a.Detail})
	}
	if len(r.Problems) > 0 {
		res.Evidence.Status = "partial"
	}
	for _, v := range res.Violations {
		switch v.Class {
		case rules.Violation:
			res.Summary.Violations++
		case rules.Risky:
			res.Summary.RiskyRules++
		}
	}
	res.Gate = result.Gate{FailOn: "risky", Failed: res.ExitCode != result.Clean}
	return res
}
