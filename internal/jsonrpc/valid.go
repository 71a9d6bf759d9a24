package jsonrpc

import (
	"bytes"
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
//
// It is one loop over three states (a value starts at i, an object key
// starts at i, a value ended at i) joined by goto, with the common case of
// compact JSON (a key right after '{' or ',', a string ending within its
// first words) inline: dense JSON such as a tools/list is mostly short
// strings and punctuation, where a call per token cost more than the
// token's own test.
func scanValue(b []byte, i int, noLineBreak bool, depth int) int {
	var (
		stack []byte // '{' or '[' per open container
		small [64]byte
		hi    uint64 // the high bits that stop a string scan too
		isKey bool   // the string being scanned is an object key
		words int    // words of the string without a byte to look at
		w, m  uint64
		t     uint // bit offset of a flagged byte in w
	)
	stack = small[:0]
	if noLineBreak {
		hi = msb
	}
value:
	// A value starts at i.
	if i >= len(b) {
		return -1
	}
	switch c := b[i]; c {
	case '"':
		isKey = false
		goto str
	case '{':
		if len(stack) >= depth {
			return -1
		}
		stack = append(stack, c)
		i++
		if i < len(b) && b[i] == '"' {
			goto key
		}
		if i = ws(b, i, noLineBreak); i < 0 || i >= len(b) {
			return -1
		}
		if b[i] == '}' {
			stack = stack[:len(stack)-1]
			i++
			goto after
		}
		goto key
	case '[':
		if len(stack) >= depth {
			return -1
		}
		stack = append(stack, c)
		if i = ws(b, i+1, noLineBreak); i < 0 || i >= len(b) {
			return -1
		}
		if b[i] == ']' {
			stack = stack[:len(stack)-1]
			i++
			goto after
		}
		goto value
	case 't':
		if !hasLit(b, i, "true") {
			return -1
		}
		i += 4
	case 'f':
		if !hasLit(b, i, "false") {
			return -1
		}
		i += 5
	case 'n':
		if !hasLit(b, i, "null") {
			return -1
		}
		i += 4
	default:
		if c != '-' && (c < '0' || c > '9') {
			return -1
		}
		if i = skipNumber(b, i); i < 0 {
			return -1
		}
	}
	goto after

key:
	// An object key starts at i.
	if i >= len(b) || b[i] != '"' {
		return -1
	}
	isKey = true

str:
	// A string starts at i (its quote). Word by word to the first byte to
	// look at: most strings end there.
	i++
	for words = 0; len(b)-i >= 8; {
		w = binary.LittleEndian.Uint64(b[i:])
		if m = stopBytes(w, hi); m != 0 {
			// The flagged byte, and the one after it, from w: the next
			// string's position need not wait for a load.
			t = uint(bits.TrailingZeros64(m)) &^ 7
			if byte(w>>t) != '"' {
				i += int(t >> 3)
				break
			}
			i += int(t>>3) + 1
			if isKey && t < 56 && byte(w>>(t+8)) == ':' {
				if i = ws(b, i+1, noLineBreak); i < 0 {
					return -1
				}
				goto value
			}
			goto strEnd
		}
		i += 8
		if words++; words == inlineWords {
			break
		}
	}
	if i = stringRest(b, i, noLineBreak, words == inlineWords); i < 0 {
		return -1
	}
strEnd:
	if !isKey {
		goto after
	}
	if i < len(b) && b[i] == ':' {
		i++
	} else if i = ws(b, i, noLineBreak); i < 0 || i >= len(b) || b[i] != ':' {
		return -1
	} else {
		i++
	}
	if i = ws(b, i, noLineBreak); i < 0 {
		return -1
	}
	goto value

after:
	// A value ended at i: close containers or go on to the next value.
	if len(stack) == 0 {
		return i
	}
	if i = ws(b, i, noLineBreak); i < 0 || i >= len(b) {
		return -1
	}
	switch b[i] {
	case ',':
		i++
		if stack[len(stack)-1] == '{' {
			if i < len(b) && b[i] == '"' {
				goto key
			}
			if i = ws(b, i, noLineBreak); i < 0 {
				return -1
			}
			goto key
		}
		if i = ws(b, i, noLineBreak); i < 0 {
			return -1
		}
		goto value
	case '}':
		if stack[len(stack)-1] != '{' {
			return -1
		}
	case ']':
		if stack[len(stack)-1] != '[' {
			return -1
		}
	default:
		return -1
	}
	stack = stack[:len(stack)-1]
	i++
	goto after
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
//
// After a line break it skips the next line's indentation eight spaces at
// a time: nearly half of a pretty-printed snapshot file is indentation,
// and byte by byte this loop was an eighth of the time of a big diff. The
// word test stops at the first byte that is not a space, which the byte
// loop then looks at, so the result is the byte loop's.
func skipWS(b []byte, i int, noLineBreak bool) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t':
			i++
		case '\n', '\r':
			if noLineBreak {
				return -1
			}
			i++
			for len(b)-i >= 8 {
				if x := binary.LittleEndian.Uint64(b[i:]) ^ spaces; x != 0 {
					// The bytes before the first non-space (lowest
					// first in little endian) are spaces.
					i += bits.TrailingZeros64(x) >> 3
					break
				}
				i += 8
			}
		default:
			return i
		}
	}
	return i
}

// spaces is eight ' ' bytes as one word.
const spaces = 0x2020202020202020

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

// inlineWords is how many words of a string scanValue looks at itself
// before handing it to longString: a tools/list's descriptions (30 to 60
// bytes) end within them, where the three calls of longString cost more
// than the words.
const inlineWords = 8

// stopBytes is special(w) | w&hi, cheaper when hi is set (ValidLine): a
// byte >= 0x80 is flagged then anyway, so the tests for '"' and '\\' need
// not exclude the bytes whose high bit the subtraction left set, and the
// lowest flagged byte is still a true one (a borrow only starts at a
// flagged byte).
func stopBytes(w, hi uint64) uint64 {
	if hi == 0 {
		return special(w)
	}
	q := w ^ (lsb * '"')
	bs := w ^ (lsb * '\\')
	return ((q - lsb) | (bs - lsb) | (w - lsb*0x20) | w) & msb
}

// skipString returns the index after the string that starts (with its
// quote) at i, or -1 if it is not a valid JSON string, or if checkUTF8 and
// it holds invalid UTF-8. Outside strings valid JSON is ASCII, so this is
// the only place a UTF-8 check is needed: it costs nothing on ASCII text
// (the scan stops at bytes >= 0x80 as at quotes), and on other text it
// replaces a second pass over the frame.
func skipString(b []byte, i int, checkUTF8 bool) int {
	return stringRest(b, i+1, checkUTF8, false)
}

// stringRest is skipString from i on, inside the string; long says the
// string did not end within its first words, so it goes to longString at
// once. Short strings, the bulk of a tools/list, are done here, word by
// word, and so is a string with an escape in its first words; a string
// that goes on goes to longString, and so does non-ASCII text.
func stringRest(b []byte, i int, checkUTF8, long bool) int {
	if long {
		return longString(b, i, checkUTF8)
	}
	var hi uint64 // the high bits that stop the scan too
	if checkUTF8 {
		hi = msb
	}
	clean := 0 // words without a byte to look at
	for {
		// Straight to the next byte to look at.
		for len(b)-i >= 8 {
			w := binary.LittleEndian.Uint64(b[i:])
			if m := special(w) | w&hi; m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
			if clean++; clean == 4 {
				return longString(b, i, checkUTF8)
			}
		}
		if i >= len(b) {
			return -1
		}
		switch c := b[i]; {
		case c == '"':
			return i + 1
		case c == '\\':
			n := escapeLen(b, i)
			if n < 0 {
				return -1
			}
			i += n
		case c < 0x20:
			return -1
		case c >= utf8.RuneSelf && checkUTF8:
			return longString(b, i, checkUTF8)
		default:
			i++
		}
	}
}

// escapeLen returns the length of the escape sequence at b[i] ('\\'), or
// -1 if it is not a valid one.
func escapeLen(b []byte, i int) int {
	if i+1 >= len(b) {
		return -1
	}
	switch b[i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2
	case 'u':
		if len(b)-i < 6 || !isHex(b[i+2]) || !isHex(b[i+3]) || !isHex(b[i+4]) || !isHex(b[i+5]) {
			return -1
		}
		return 6
	}
	return -1
}

// longString is skipString from i on, inside a string that did not end
// within its first words. It finds the next quote and the next escape
// with the vectorised bytes.IndexByte, and checks the text between (a run
// without either) in one go: no control byte, and, if checkUTF8, valid
// UTF-8 (a character never holds a quote or a backslash, so cutting the
// text there is safe). It looks a window at a time, cut where a character
// starts, so that the three passes over a long string's text read it from
// cache: over the whole of an 8 MB string they read it from memory three
// times. The quote found (or its absence from the window) is remembered
// until the scan passes it, so each byte is searched once.
func longString(b []byte, i int, checkUTF8 bool) int {
	q, qEnd := -1, i // the quote at or after i (-1: none before qEnd), and where the search stopped
	for {
		if i >= qEnd {
			lim := len(b)
			if lim-i > scanWindow {
				lim = i + scanWindow
				for k := 0; k < 3 && b[lim]&0xc0 == 0x80; k++ {
					lim--
				}
			}
			if k := bytes.IndexByte(b[i:lim], '"'); k >= 0 {
				q, qEnd = i+k, i+k+1
			} else {
				q, qEnd = -1, lim
			}
		}
		end := qEnd
		if q >= 0 {
			end = q
		}
		esc := false
		if k := bytes.IndexByte(b[i:end], '\\'); k >= 0 {
			end, esc = i+k, true
		}
		if checkUTF8 {
			if !validText(b[i:end]) {
				return -1
			}
		} else if hasControl(b[i:end]) {
			return -1
		}
		switch {
		case esc:
			n := escapeLen(b, end)
			if n < 0 {
				return -1
			}
			i = end + n
		case q >= 0:
			return q + 1
		case end == len(b):
			return -1
		default:
			i = end
		}
	}
}

// scanWindow is how much of a long string longString looks at at once.
const scanWindow = 16 << 10

// ctl returns a mask with the high bit set in the bytes of w below 0x20
// (the lowest one always true, see special), and in those >= 0x80 if hi.
func ctl(w, hi uint64) uint64 { return ((w-lsb*0x20)&^w | w&hi) & msb }

// hasControl reports whether s holds a control byte (< 0x20).
func hasControl(s []byte) bool {
	i := 0
	for ; len(s)-i >= 32; i += 32 {
		w := s[i : i+32 : i+32]
		if ctl(binary.LittleEndian.Uint64(w), 0)|ctl(binary.LittleEndian.Uint64(w[8:]), 0)|
			ctl(binary.LittleEndian.Uint64(w[16:]), 0)|ctl(binary.LittleEndian.Uint64(w[24:]), 0) != 0 {
			return true
		}
	}
	for ; i < len(s); i++ {
		if s[i] < 0x20 {
			return true
		}
	}
	return false
}

// validText reports whether s is valid UTF-8 without a control byte, as
// the text of a string between escapes must be. ASCII goes 32, then 8
// bytes at a time; other text through a shift-based DFA (utf8DFA), one
// table load and one shift per byte with no branch, where utf8.Valid
// decodes and branches per character (5-10x slower on mixed text).
func validText(s []byte) bool {
	st := uint64(uAccept)
	i := 0
	for len(s)-i >= 8 {
		if st&63 == uAccept {
			for ; len(s)-i >= 32; i += 32 {
				w := s[i : i+32 : i+32]
				if ctl(binary.LittleEndian.Uint64(w), msb)|ctl(binary.LittleEndian.Uint64(w[8:]), msb)|
					ctl(binary.LittleEndian.Uint64(w[16:]), msb)|ctl(binary.LittleEndian.Uint64(w[24:]), msb) != 0 {
					break
				}
			}
			if len(s)-i < 8 {
				break
			}
			if ctl(binary.LittleEndian.Uint64(s[i:]), msb) == 0 {
				i += 8
				continue
			}
		}
		w := s[i : i+8 : i+8]
		st = utf8DFA[w[0]] >> (st & 63)
		st = utf8DFA[w[1]] >> (st & 63)
		st = utf8DFA[w[2]] >> (st & 63)
		st = utf8DFA[w[3]] >> (st & 63)
		st = utf8DFA[w[4]] >> (st & 63)
		st = utf8DFA[w[5]] >> (st & 63)
		st = utf8DFA[w[6]] >> (st & 63)
		st = utf8DFA[w[7]] >> (st & 63)
		i += 8
	}
	for ; i < len(s); i++ {
		st = utf8DFA[s[i]] >> (st & 63)
	}
	return st&63 == uAccept
}

// The states of utf8DFA, each the shift that selects its 6-bit column of
// a row: uError (0) is absorbing, uAccept is between characters, the rest
// wait for continuation bytes (uCont1..3: that many of 80..BF; the others
// for the restricted second byte after E0, ED, F0 and F4 that rules out
// overlong forms, surrogates and code points above U+10FFFF).
const (
	uError  = 0
	uAccept = 6
	uCont1  = 12
	uCont2  = 18
	uCont3  = 24
	uE0     = 30 // A0..BF
	uED     = 36 // 80..9F
	uF0     = 42 // 90..BF
	uF4     = 48 // 80..8F
)

// utf8DFA[c] >> (state & 63) & 63 is the state after byte c.
var utf8DFA = func() (t [256]uint64) {
	set := func(from, to uint64, lo, hi int) {
		for c := lo; c <= hi; c++ {
			t[c] |= to << from
		}
	}
	set(uAccept, uAccept, 0x20, 0x7f) // control bytes are errors here
	set(uAccept, uCont1, 0xc2, 0xdf)
	set(uAccept, uE0, 0xe0, 0xe0)
	set(uAccept, uCont2, 0xe1, 0xec)
	set(uAccept, uED, 0xed, 0xed)
	set(uAccept, uCont2, 0xee, 0xef)
	set(uAccept, uF0, 0xf0, 0xf0)
	set(uAccept, uCont3, 0xf1, 0xf3)
	set(uAccept, uF4, 0xf4, 0xf4)
	set(uCont1, uAccept, 0x80, 0xbf)
	set(uCont2, uCont1, 0x80, 0xbf)
	set(uCont3, uCont2, 0x80, 0xbf)
	set(uE0, uCont1, 0xa0, 0xbf)
	set(uED, uCont1, 0x80, 0x9f)
	set(uF0, uCont2, 0x90, 0xbf)
	set(uF4, uCont2, 0x80, 0x8f)
	return t
}()

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
