// Package diff compares two snapshots and classifies every difference into
// one of four tiers (breaking, risky, compatible, cosmetic), direction-aware
// (old → new): a finding says what the change means to a client that holds
// the old contract.
//
//	findings := diff.Diff(old, new)
//	kept, failed := diff.Gate(findings, diff.Risky, nil, nil)
//
// The rule catalogue is data ([Rules]): every rule of snapgauge's taxonomy
// with the same id, tier and subject, plus rules for what it did not
// compare (resources, prompts, output schemas, behaviour, manifest
// operations, x-mcp-header removal, capability internals, other cacheable
// lists), and catch-all rules so that no difference in the surface goes
// unreported: if two surface digests differ, Diff returns at least one
// finding.
//
// Diff does not decide whether two snapshots may be compared; call
// snapshot.Comparable first, and treat an incomplete side as missing
// evidence, never as "no change".
package diff
