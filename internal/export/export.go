package export

import (
	"io"

	"github.com/mcpward/mcpward/internal/export/github"
	"github.com/mcpward/mcpward/internal/export/junit"
	"github.com/mcpward/mcpward/internal/export/md"
	"github.com/mcpward/mcpward/internal/export/render"
	"github.com/mcpward/mcpward/internal/export/sarif"
	"github.com/mcpward/mcpward/internal/export/text"
	"github.com/mcpward/mcpward/internal/result"
)

// A WriteFunc renders a Result in one format.
type WriteFunc = func(io.Writer, *result.Result) error

// formats is the registry, in the order help text lists it.
var formats = []struct {
	name  string
	write WriteFunc
}{
	{"text", text.Write},
	{"json", JSON},
	{"md", md.Write},
	{"github", github.Write},
	{"sarif", sarif.Write},
	{"junit", junit.Write},
}

// Formats returns the format names, text first.
func Formats() []string {
	names := make([]string, len(formats))
	for i, f := range formats {
		names[i] = f.name
	}
	return names
}

// Lookup returns the writer of the named format.
func Lookup(name string) (WriteFunc, bool) {
	for _, f := range formats {
		if f.name == name {
			return f.write, true
		}
	}
	return nil, false
}

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
