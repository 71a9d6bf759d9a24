// Package text renders a [result.Result] as the plain human report that
// check, diff and compat print and `mcpward report --format text` re-prints:
// one line per diff finding (tier padded to 10, rule id padded to 34, then
// "subject — message"), one line per rule finding, the summary line with
// the gate verdict, and the evidence problems of an incomplete run.
//
//	breaking   tool.removed                       tools.archive_note — tool "archive_note" was removed — …
//	6 findings (2 breaking, 1 risky, 1 compatible, 2 cosmetic); gate fail-on=risky -> DRIFT (exit 1)
//
// A compat Result carries its assertions and verdict grid (Result.Compat):
// it renders as compat's own report, the same from `compat` and from
// `report`, the grid laid out by the [Options].NewTable the CLI passes.
//
// The renderer is pure and deterministic. It prints no colour unless
// [Options].Color is set; whether to colour is the CLI's decision
// (iostreams), never the renderer's. Server-supplied text is escaped onto
// one line so that no tool name can forge a report line or a terminal
// escape sequence.
package text
