// Package termsafe makes text that a server controls safe to write to a
// terminal, or to any output read as lines. A tool description, a stderr
// line or a frame can carry escape sequences: OSC 52 writes the user's
// clipboard, OSC 0 sets the window title, CSI 2J clears the screen, a bare
// carriage return overwrites the line before it, a bidi override reorders
// what a reader sees. It is the one sanitiser of such text: every surface
// (inspect, diff, compat, report, sessions check and export, the live view)
// uses it.
//
// Control characters are shown as visible escapes: C0, DEL and C1 as \xNN,
// the Unicode line and paragraph separators and the bidi overrides and
// isolates as \u{NNNN}; invalid UTF-8 becomes U+FFFD.
//
//   - [Line] is for a server's string in one line (a name, a message, a
//     table cell): newline, carriage return and tab become \n, \r and \t,
//     and no escape sequence passes, colour included: only the colour
//     mcpward adds around the result reaches the terminal.
//   - [String], [Append] and [Writer] are for whole blocks of output that
//     mix mcpward's own colour with server text: newline and tab stay,
//     a bare carriage return is \x0d, and only Select Graphic Rendition
//     sequences (CSI digits and semicolons m, colour) pass.
package termsafe

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// isControl reports C0, DEL, C1, the Unicode line and paragraph separators
// and the bidi overrides and isolates.
func isControl(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0:
		return true
	case r == 0x2028, r == 0x2029:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// appendEscaped appends the visible form of the control character r.
func appendEscaped(dst []byte, r rune) []byte {
	if r < 0x100 {
		return fmt.Appendf(dst, `\x%02x`, r)
	}
	return fmt.Appendf(dst, `\u{%04x}`, r)
}

// Line returns s made safe to print as part of one line. Text that needs
// nothing is returned as is.
func Line(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || isControl(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b []byte
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		s = s[size:]
		switch {
		case r == '\n':
			b = append(b, `\n`...)
		case r == '\r':
			b = append(b, `\r`...)
		case r == '\t':
			b = append(b, `\t`...)
		case isControl(r):
			b = appendEscaped(b, r)
		default:
			b = utf8.AppendRune(b, r) // U+FFFD for invalid UTF-8
		}
	}
	return string(b)
}

// Append appends b, made safe as a block, to dst.
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
			dst = appendEscaped(dst, 0x1b)
			i++
		case c < utf8.RuneSelf:
			if isControl(rune(c)) {
				dst = appendEscaped(dst, rune(c))
			} else {
				dst = append(dst, c)
			}
			i++
		default:
			r, n := utf8.DecodeRune(b[i:])
			switch {
			case r == utf8.RuneError && n == 1:
				dst = utf8.AppendRune(dst, r)
			case isControl(r):
				dst = appendEscaped(dst, r)
			default:
				dst = append(dst, b[i:i+n]...)
			}
			i += n
		}
	}
	return dst
}

// String returns s made safe as a block.
func String(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return r == utf8.RuneError || r != '\n' && r != '\t' && isControl(r) }) {
		return s
	}
	return string(Append(nil, []byte(s)))
}

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

// Writer sanitises everything written through it as a block (each Write
// on its own: mcpward's colour sequences are written whole).
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
