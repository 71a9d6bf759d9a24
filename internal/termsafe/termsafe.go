// Package termsafe makes text that a server controls safe to write to a
// terminal. A tool description, a stderr line or a frame can carry escape
// sequences: OSC 52 writes the user's clipboard, OSC 0 sets the window
// title, CSI 2J clears the screen, a bare carriage return overwrites the
// line before it. The one sanitiser: every control byte but newline and tab
// is shown as a visible \xNN (C1 controls, U+0080–U+009F, as \u00NN), and
// only the colour sequences mcpward itself writes (CSI … m with digits and
// semicolons) pass.
package termsafe

import (
	"fmt"
	"io"
	"unicode/utf8"
)

// Append appends b, made safe, to dst.
func Append(dst, b []byte) []byte {
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c == '\n' || c == '\t':
			dst = append(dst, c)
			i++
		case c == 0x1b:
			if n := sgrLen(b[i:]); n > 0 {
				dst = append(dst, b[i:i+n]...)
				i += n
				continue
			}
			dst = append(dst, `\x1b`...)
			i++
		case c < 0x20 || c == 0x7f:
			dst = fmt.Appendf(dst, `\x%02x`, c)
			i++
		case c < utf8.RuneSelf:
			dst = append(dst, c)
			i++
		default:
			r, n := utf8.DecodeRune(b[i:])
			if r >= 0x80 && r <= 0x9f {
				dst = fmt.Appendf(dst, `\u%04x`, r)
			} else {
				dst = append(dst, b[i:i+n]...)
			}
			i += n
		}
	}
	return dst
}

// String returns s made safe.
func String(s string) string { return string(Append(nil, []byte(s))) }

// sgrLen is the length of the Select Graphic Rendition sequence b starts
// with (ESC [ digits and semicolons m), or 0.
func sgrLen(b []byte) int {
	if len(b) < 3 || b[1] != '[' {
		return 0
	}
	for i := 2; i < len(b) && i < 32; i++ {
		switch c := b[i]; {
		case c == 'm':
			return i + 1
		case c >= '0' && c <= '9', c == ';':
		default:
			return 0
		}
	}
	return 0
}

// Writer sanitises everything written through it (each Write on its own:
// mcpward's colour sequences are written whole).
type Writer struct {
	W   io.Writer
	buf []byte
}

// NewWriter returns a Writer to w.
func NewWriter(w io.Writer) *Writer { return &Writer{W: w} }

// Write writes p made safe, and reports len(p) on success.
func (w *Writer) Write(p []byte) (int, error) {
	w.buf = Append(w.buf[:0], p)
	if _, err := w.W.Write(w.buf); err != nil {
		return 0, err
	}
	return len(p), nil
}
