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
// Drift is reported with the ids internal/diff uses for the same change
// (tool.added, tool.removed, tool.description.changed,
// annotation.readOnlyHint.revoked…), so a drift seen in traffic and one
// seen by comparing snapshots read the same. Annotations are compared
// through their spec defaults: an absent readOnlyHint equals false.
//
// Compare and FromTools are pure; Read, Write and Remove are the small
// file store (one JSON file per identity under a directory).
package baseline
