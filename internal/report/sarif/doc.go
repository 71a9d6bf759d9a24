// Package sarif renders a [result.Result] as a SARIF 2.1.0 log, the format
// GitHub code scanning and most static-analysis viewers read.
//
// The log has one run. Its tool.driver names mcpward, its version and one
// reportingDescriptor per rule id the Result uses (sorted by id), with the
// rule's default level. Each diff finding and rule finding is one result:
// level error for breaking and violation, warning for risky, note
// otherwise; the message is "subject — message"; the location is the
// snapshot file (physical) and the subject (logical, as the fully qualified
// name); partialFingerprints carries a stable hash of the rule id and the
// subject (and the profile of a rule finding), never of the message text or
// a time, so that code scanning tracks the same finding across runs.
// Evidence problems become tool execution notifications of the run's one
// invocation, which is unsuccessful when the evidence was incomplete.
//
// Output is deterministic and validates against the official 2.1.0 schema
// (see testdata).
package sarif
