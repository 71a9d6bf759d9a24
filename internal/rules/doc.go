// Package rules is mcpward's one rule catalogue: every conformance
// judgement (transport, x-mcp-header, cache, error codes, stdio, era,
// compat profiles, degradation, traffic) has a stable id, a group, the
// spec's force (MUST/SHOULD/MAY), a class (violation/risky/info), a
// one-line meaning and the spec clause it rests on (cited by the public
// specification's revision and section; docs/spec.md defines the labels).
//
// The same id is reported whether a problem was found by probing a server
// (internal/compat) or by watching live traffic: rules that can be seen in
// either way have group-neutral ids (cache.hints_missing,
// message.result_type_missing), and the ids other tools use for them are
// kept as aliases that [Lookup] resolves.
//
// The package is pure (no I/O) and also holds the built-in compat
// profiles, the parser of custom profiles and the decision helpers the
// engines share, so that probing, traffic checks and the WebAssembly build
// judge alike.
//
//	r, ok := rules.Lookup("transport.get_not_405")
//	fmt.Println(r.Level, r.Class, r.Summary)
//
// docs/RULES.md is generated from [All] by `go generate ./internal/rules`.
package rules

//go:generate go run ./gen -o ../../docs/RULES.md
