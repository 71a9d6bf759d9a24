package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// JSON writes v as 2-space indented JSON with a trailing newline, without
// HTML escaping (a server's "<b>" stays "<b>", not "\u003cb\u003e"), so that
// the same value always gives the same bytes. Nothing is written if v
// cannot be encoded.
func JSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("encode json: %w", err)
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("write json: %w", err)
	}
	return nil
}
