// Package baseline keeps trust-on-first-use baselines of a server's tool
// definitions and compares later tools/list results against them, so that
// a tool whose description or schema changes between sessions is noticed
// (a "rug pull").
//
// A baseline is keyed by the server's identity (label, serverInfo name and
// command line or URL), not by label alone: two servers that happen to
// share a derived label do not share a baseline (mcpsnoop keyed by label).
// It is written only by an explicit command (`mcpward sessions baseline
// --accept`, or the first `sessions baseline` for an identity), never as a
// side effect of reading a log.
//
// Drift is judged by the snapshot diff engine itself (internal/diff): both
// tool lists are built into snapshot surfaces and diffed, so a change seen
// in traffic gets the rule id, tier and subject `mcpward diff` gives the
// same change between snapshots (a new required input is
// tool.input.required.added, breaking; a new optional one
// tool.input.optional.added, compatible). One voice across engines.
//
// Compare and FromTools are pure; Read, Write and Remove are the small
// file store (one JSON file per identity under a directory).
package baseline
