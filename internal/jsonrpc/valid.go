package jsonrpc

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
)

// maxDepth is encoding/json's nesting limit: deeper values are invalid
// there, so they are invalid here too.
const maxDepth = 10000

// Valid reports whether b is one JSON value with optional surrounding
// whitespace, exactly as json.Valid does (FuzzValidEquivalent checks it),
// but faster: string contents, most of a frame's bytes, are skipped eight
// at a time.
//
// Like json.Valid it does not check UTF-8 inside strings.
func Valid(b []byte) bool { return validJSON(b, false) }

// ValidLine is [Valid], but a "\n" or "\r" anywhere makes it false (the
// value must fit on one log line), and so does invalid UTF-8 inside a
// string (the line must be valid UTF-8, and a reader must get the exact
// bytes back), so that a writer needs one pass over a frame, not four.
func ValidLine(b []byte) bool { return validJSON(b, true) }

// SkipSpace returns the index after the JSON whitespace at b[i:].
func SkipSpace(b []byte, i int) int { return skipWS(b, i, false) }

// SkipValue returns the index after the JSON value that starts at b[i] (no
// leading whitespace), or -1 if there is no valid value there. The value is
// taken to be a member or an element of a top-level container: it may nest
// one level less deep than a top-level value, so that the whole stays
// within encoding/json's limit.
func SkipValue(b []byte, i int) int { return scanValue(b, i, false, maxDepth-1) }

// SkipString returns the index after the JSON string that starts (with its
// quote) at b[i], or -1 if it is not a valid JSON string.
func SkipString(b []byte, i int) int { return skipString(b, i, false) }

// SkipNumber returns the index after the longest valid JSON number at b[i:]
// (i < len(b)), or -1 if none starts there.
func SkipNumber(b []byte, i int) int { return skipNumber(b, i) }

func validJSON(b []byte, noLineBreak bool) bool {
	i := skipWS(b, 0, noLineBreak)
	if i < 0 {
		return false
	}
	if i = scanValue(b, i, noLineBreak, maxDepth); i < 0 {
		return false
	}
	return skipWS(b, i, noLineBreak) == len(b)
}

// scanValue returns the index after the JSON value that starts at i (no
// leading whitespace), or -1 if there is no valid value there. At most
// depth containers may be open at once (json.Valid's limit counts from the
// outermost value, so a member of the top-level object gets maxDepth-1).
func scanValue(b []byte, i int, noLineBreak bool, depth int) int {
	var stack []byte // '{' or '[' per open container
	var small [64]byte
	stack = small[:0]
	for {
		// A value starts at i.
		if i >= len(b) {
			return -1
		}
		switch c := b[i]; {
		case c == '{' || c == '[':
			if len(stack) >= depth {
				return -1
			}
			stack = append(stack, c)
			i = ws(b, i+1, noLineBreak)
			if i < 0 || i >= len(b) {
				return -1
			}
			if c == '{' {
				if b[i] == '}' {
					stack = stack[:len(stack)-1]
					i++
					goto after
				}
				if i = objectKey(b, i, noLineBreak); i < 0 {
					return -1
				}
				continue
			}
			if b[i] == ']' {
				stack = stack[:len(stack)-1]
				i++
				goto after
			}
			continue
		case c == '"':
			if i = skipString(b, i, noLineBreak); i < 0 {
				return -1
			}
		case c == '-' || (c >= '0' && c <= '9'):
			if i = skipNumber(b, i); i < 0 {
				return -1
			}
		case c == 't':
			if !hasLit(b, i, "true") {
				return -1
			}
			i += 4
		case c == 'f':
			if !hasLit(b, i, "false") {
				return -1
			}
			i += 5
		case c == 'n':
			if !hasLit(b, i, "null") {
				return -1
			}
			i += 4
		default:
			return -1
		}
	after:
		// A value ended at i: close containers or go on to the next value.
		for {
			if len(stack) == 0 {
				return i
			}
			i = ws(b, i, noLineBreak)
			if i < 0 {
				return -1
			}
			if i >= len(b) {
				return -1
			}
			top := stack[len(stack)-1]
			switch b[i] {
			case ',':
				i = ws(b, i+1, noLineBreak)
				if i < 0 {
					return -1
				}
				if top == '{' {
					if i = objectKey(b, i, noLineBreak); i < 0 {
						return -1
					}
				}
			case '}':
				if top != '{' {
					return -1
				}
				stack = stack[:len(stack)-1]
				i++
				continue
			case ']':
				if top != '[' {
					return -1
				}
				stack = stack[:len(stack)-1]
				i++
				continue
			default:
				return -1
			}
			break
		}
	}
}

// objectKey reads `"key" :` and whitespace at i; it returns where the
// member's value starts, or -1.
func objectKey(b []byte, i int, noLineBreak bool) int {
	if i >= len(b) || b[i] != '"' {
		return -1
	}
	if i = skipString(b, i, noLineBreak); i < 0 {
		return -1
	}
	if i = ws(b, i, noLineBreak); i < 0 || i >= len(b) || b[i] != ':' {
		return -1
	}
	return ws(b, i+1, noLineBreak)
}

// ws is skipWS for the common case of compact JSON, small enough to be
// inlined where the scan calls it.
func ws(b []byte, i int, noLineBreak bool) int {
	if i < len(b) && b[i] > ' ' {
		return i
	}
	return skipWS(b, i, noLineBreak)
}

// skipWS returns the index after the whitespace at i, or -1 for a line
// break when noLineBreak.
func skipWS(b []byte, i int, noLineBreak bool) int {
	for ; i < len(b); i++ {
		switch b[i] {
		case ' ', '\t':
		case '\n', '\r':
			if noLineBreak {
				return -1
			}
		default:
			return i
		}
	}
	return i
}

func hasLit(b []byte, i int, lit string) bool {
	return len(b)-i >= len(lit) && string(b[i:i+len(lit)]) == lit
}

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// special returns a mask with the high bit set in the bytes of the
// little-endian word w that may be '"', '\\' or a control character
// (< 0x20): the bytes a string scan must stop at. Standard SWAR tests: a
// byte above a flagged one may be flagged falsely (a borrow), but the
// lowest flagged byte is always a true one, so a scan may jump to it.
func special(w uint64) uint64 {
	q := w ^ (lsb * '"')
	bs := w ^ (lsb * '\\')
	return ((q-lsb)&^q | (bs-lsb)&^bs | (w-lsb*0x20)&^w) & msb
}

// skipString returns the index after the string that starts (with its
// quote) at i, or -1 if it is not a valid JSON string, or if checkUTF8 and
// it holds invalid UTF-8. Outside strings valid JSON is ASCII, so this is
// the only place a UTF-8 check is needed: it costs nothing on ASCII text
// (the scan stops at bytes >= 0x80 as at quotes), and on other text it
// replaces a second pass over the frame.
func skipString(b []byte, i int, checkUTF8 bool) int {
	var hi uint64 // the high bits that stop the scan too
	if checkUTF8 {
		hi = msb
	}
	i++
	for {
		// Straight to the next byte to look at. Short strings, the bulk of
		// a tools/list, end within their first word; long ones are tested
		// 32 bytes at a time, then word by word.
		if len(b)-i >= 8 {
			if w := binary.LittleEndian.Uint64(b[i:]); special(w)|w&hi != 0 {
				i += bits.TrailingZeros64(special(w)|w&hi) >> 3
			} else {
				i += 8
				for len(b)-i >= 32 {
					w := b[i : i+32 : i+32]
					w0, w1 := binary.LittleEndian.Uint64(w), binary.LittleEndian.Uint64(w[8:])
					w2, w3 := binary.LittleEndian.Uint64(w[16:]), binary.LittleEndian.Uint64(w[24:])
					if special(w0)|special(w1)|special(w2)|special(w3)|(w0|w1|w2|w3)&hi != 0 {
						break
					}
					i += 32
				}
				for len(b)-i >= 8 {
					if w := binary.LittleEndian.Uint64(b[i:]); special(w)|w&hi != 0 {
						i += bits.TrailingZeros64(special(w)|w&hi) >> 3
						break
					}
					i += 8
				}
			}
		}
		if i >= len(b) {
			return -1
		}
		switch c := b[i]; {
		case c == '"':
			return i + 1
		case c == '\\':
			if i+1 >= len(b) {
				return -1
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if len(b)-i < 6 || !isHex(b[i+2]) || !isHex(b[i+3]) || !isHex(b[i+4]) || !isHex(b[i+5]) {
					return -1
				}
				i += 6
			default:
				return -1
			}
		case c < 0x20:
			return -1
		case c >= utf8.RuneSelf && checkUTF8:
			// Text that is not ASCII: check all of it up to the next
			// quote, escape or control byte at once with utf8.Valid
			// (no character holds one of those, so the cut is safe),
			// while it is in cache, rather than stopping at every
			// character.
			j := nextSpecial(b, i+1)
			if !utf8.Valid(b[i:j]) {
				return -1
			}
			i = j
		default:
			i++
		}
	}
}

// nextSpecial returns the index of the first byte at or after i that
// special flags, or len(b).
func nextSpecial(b []byte, i int) int {
	for ; len(b)-i >= 8; i += 8 {
		if m := special(binary.LittleEndian.Uint64(b[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for ; i < len(b); i++ {
		if c := b[i]; c == '"' || c == '\\' || c < 0x20 {
			return i
		}
	}
	return i
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// skipNumber returns the index after the number at i, or -1.
func skipNumber(b []byte, i int) int {
	if b[i] == '-' {
		i++
	}
	switch {
	case i >= len(b):
		return -1
	case b[i] == '0':
		i++
	case b[i] >= '1' && b[i] <= '9':
		for i++; i < len(b) && isDigit(b[i]); i++ {
		}
	default:
		return -1
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || !isDigit(b[i]) {
			return -1
		}
		for i++; i < len(b) && isDigit(b[i]); i++ {
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || !isDigit(b[i]) {
			return -1
		}
		for i++; i < len(b) && isDigit(b[i]); i++ {
		}
	}
	return i
}
