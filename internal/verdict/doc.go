// Package verdict is how mcpward judges evidence, with no I/O, so the CLI
// and the site's in-browser engine (internal/site/engine, built for
// WebAssembly) reach the same Result from the same inputs.
//
// [Compare] diffs two snapshots, applies a drift [Gate] and gives the
// Result of `mcpward diff` and `mcpward check`:
//
//	g, err := verdict.ParseGate("risky", nil, nil)
//	r := verdict.Compare(&verdict.Comparison{Command: "diff", Old: old, New: cur, Gate: g,
//		Problems: append(verdict.SideProblems("old", old), verdict.SideProblems("new", cur)...)})
//
// A [TrafficGate] selects the findings of the traffic rules by signal,
// rule id, level and class, and a [Collector] keeps a bounded report of
// them and decides the verdict of `mcpward sessions check`:
//
//	g, err := verdict.ParseTrafficGate(verdict.DefaultTrafficFailOn)
//	col := verdict.NewCollector(verdict.MaxResults)
//	// traffic.Options.OnFinding: col.Add(f.RuleFinding, g.Selects(f.RuleFinding, f.Signal))
//	col.Finish(res, verdict.DefaultTrafficFailOn)
//
// Reading the files, reaching servers and rendering stay with the callers
// (internal/contract, the sessions check command, the engine).
package verdict
