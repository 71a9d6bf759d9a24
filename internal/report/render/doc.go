// Package render holds what every report format derives from a
// [result.Result] in the same way, so that text, markdown, GitHub
// annotations, SARIF and JUnit never disagree: the verdict and its label,
// the gate tier, the count line, the order of rule findings, and how
// server-supplied text is made safe to print on one line.
//
//	v := render.VerdictOf(r)       // {Code: 1, Label: "DRIFT"}
//	line := render.SummaryLine(r)  // "6 findings (…); gate fail-on=risky -> DRIFT (exit 1)"
//
// The package is pure: no I/O, no clock.
package render
