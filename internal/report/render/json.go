package render

import (
	"fmt"
	"io"

	"github.com/mcpward/mcpward/internal/jsonx"
)

// JSON writes v as 2-space indented JSON with a trailing newline, without
// HTML escaping (a server's "<b>" stays "<b>", not "\u003cb\u003e"), so that
// the same value always gives the same bytes. Nothing is written if v
// cannot be encoded.
func JSON(w io.Writer, v any) error {
	b, err := jsonx.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encode json: %w", err)
	}
	if _, err := w.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("write json: %w", err)
	}
	return nil
}
