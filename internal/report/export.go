package report

import (
	"io"

	"github.com/mcpward/mcpward/internal/report/render"
	"github.com/mcpward/mcpward/internal/result"
)

// A WriteFunc renders a Result in one format.
type WriteFunc = func(io.Writer, *result.Result) error

// JSON writes r as the Result document itself: 2-space indented, keys in
// struct order, a trailing newline, and "findings" always an array. Raw
// JSON inside the Result (an Exchange's request and response) is
// re-indented by encoding/json: its whitespace changes, its tokens do not.
func JSON(w io.Writer, r *result.Result) error {
	if r.Findings == nil {
		c := *r
		c.Findings = []result.Finding{}
		r = &c
	}
	return WriteJSON(w, r)
}

// WriteJSON writes any value the way every mcpward `--json` output is
// written: 2-space indent, a trailing newline, no HTML escaping, so that the
// same value always gives the same bytes.
func WriteJSON(w io.Writer, v any) error { return render.JSON(w, v) }
