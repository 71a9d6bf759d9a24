// Package github renders a [result.Result] as GitHub Actions workflow
// commands: one annotation per diff finding (::error for breaking,
// ::warning for risky, ::notice otherwise), one per rule finding (::error
// for a violation, ::warning for risky, ::notice for info), one ::error per
// evidence problem, and the full text report in a collapsed log group.
//
//	::error file=.mcpward/demo.snapshot.json,title=breaking%3A tool.removed::tools.archive_note — tool "archive_note" was removed
//
// An annotation points at the finding's snapshot file (Location.File) when
// the Result names one, with the line when known; the subject stays a JSON
// path in the message and is never turned into a fabricated source
// position.
//
// Server-supplied text is escaped by GitHub's workflow-command rules (% CR
// LF in messages, also : and , in properties), and the text report runs
// between ::stop-commands:: markers whose token is a hash of that report, so
// no tool name or message can issue a workflow command of its own.
package github
