// Package junit renders a [result.Result] as JUnit XML (the Ant/Jenkins
// dialect every CI system reads): a <testsuites> with up to three
// <testsuite>s.
//
//   - findings: one <testcase> per diff finding; a finding at or above the
//     gate fails (<failure type="ruleId">), one below it passes.
//   - rules: one <testcase> per rule finding; a violation fails, a risky
//     one fails in compat (which gates on it), info passes.
//   - evidence: one passing <testcase> when the observation was complete,
//     else one <error> per evidence problem: missing evidence is an error
//     of the run, not a failed assertion about the server.
//
// The counts attributes (tests, failures, errors, skipped) always agree
// with the test cases. Output has no timestamps or durations, so the same
// Result gives the same bytes.
package junit
