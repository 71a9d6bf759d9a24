// Package baseline keeps trust-on-first-use baselines of a server's tool
// definitions and compares later tools/list results against them, so that
// a tool whose description or schema changes between sessions is noticed
// (a "rug pull").
//
// A baseline is keyed by the server's identity (label, serverInfo name and
// command line or URL), not by label alone: two servers that happen to
// share a derived label do not share a baseline (mcpsnoop keyed by label).
// A baseline converted from mcpsnoop's ([FromMcpsnoop]) has the label
// only, and [Read] falls back to it for any session with that label.
//
// Trust on first use ([TrustOnFirstUse]): the live UI over the hub, and
// `sessions check` of the state directory's own logs, record the first
// complete tools/list of an identity that has no baseline (unless
// --no-tofu or no-tofu in .mcpward.toml). Reading a log someone handed
// over (`sessions check FILE`, `mcpward ui FILE`) never writes one unless
// asked (`sessions check --tofu`, `sessions baseline`).
//
// Drift is judged by the snapshot diff engine itself (internal/diff): both
// tool lists are built into snapshot surfaces and diffed, so a change seen
// in traffic gets the rule id, tier and subject `mcpward diff` gives the
// same change between snapshots (a new required input is
// tool.input.required.added, breaking; a new optional one
// tool.input.optional.added, compatible). One voice across engines.
//
// Compare, FromTools and FromMcpsnoop are pure; Read, Write, Remove and
// TrustOnFirstUse are the small file store (one JSON file per identity
// under a directory).
package baseline
