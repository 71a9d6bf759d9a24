// Package verdict is how mcpward judges evidence, with no I/O, so the CLI
// and the site's in-browser engine (internal/site/engine, built for
// WebAssembly) reach the same Result from the same inputs. [Compare] diffs
// two snapshots, applies a drift [Gate] and gives the Result of
// `mcpward diff` and `mcpward check`:
//
//	g, err := verdict.ParseGate("risky", nil, nil)
//	r := verdict.Compare(&verdict.Comparison{Command: "diff", Old: old, New: cur, Gate: g,
//		Problems: append(verdict.SideProblems("old", old), verdict.SideProblems("new", cur)...)})
//
// Reading the files, reaching servers and rendering stay with the callers
// (internal/contract, the engine).
package verdict
