// Package md renders a [result.Result] as GitHub-flavoured markdown for a
// job summary ($GITHUB_STEP_SUMMARY) or a pull-request comment: a heading
// with the verdict, the counts per tier against the gate, a table of
// findings, a table of rule findings, the evidence problems of an
// incomplete run, and what to do next (accept with `mcpward check
// --update`, or fix the server).
//
// Every server-supplied string (tool names, messages, profile names) is
// escaped: pipes cannot break a table, backticks cannot end a code span,
// and HTML or link syntax renders as text.
package md
