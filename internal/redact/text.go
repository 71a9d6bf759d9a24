package redact

import (
	"bytes"
	"strings"
)

// maxTextKey bounds the length of a quoted member name the text scanner
// reads: each quote starts a look for its closing quote, which must not
// cost more than a few bytes in text full of quotes.
const maxTextKey = 64

// keySpans appends to spans the values that follow a hidden name in free
// text, whatever its shape: a JSON member in a line that is not one JSON
// value (`"ssn": "v"`, pretty-printed output, trailing bytes, a truncated
// frame), a form or query parameter (`ssn=v&…`), a log field (`ssn: v`,
// `ssn='v'`). A name is hidden when the key rule names it or, with names
// set (text outside a JSON string), when it is a credential name
// (--redact-secrets), the last name of a path rule or a secret argument
// learnt from a tool's schema. A value
// whose end is missing (a truncated copy) is hidden to the end of its line
// (a string) or of b (an object or array).
func (r *Redactor) keySpans(b []byte, names bool, spans []span) []span {
	if len(r.keyList) == 0 && !(names && (r.secrets || len(r.pathKeys) > 0)) {
		return spans
	}
	var learned []textKey
	if names && r.secrets {
		r.mu.RLock()
		learned = r.learnedKeys
		r.mu.RUnlock()
	}
	var buf [64]byte
	for i := 0; i < len(b); {
		c := b[i]
		var name []byte
		next := i + 1 // where to go on when this is not a hidden name
		after := 0
		switch {
		case c == '"' || c == '\'':
			j := i + 1
			for j < len(b) && j-i <= maxTextKey && b[j] != c && b[j] != '\n' {
				if b[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(b) || b[j] != c {
				i = next
				continue
			}
			name, after = b[i+1:j], j+1
		case isKeyByte(c) && (i == 0 || !isKeyByte(b[i-1])):
			j := i + 1
			for j < len(b) && isKeyByte(b[j]) {
				j++
			}
			name, after, next = b[i:j], j, j
		default:
			i = next
			continue
		}
		if after < len(b) && b[after] == '\\' {
			// An escaped closing quote: `\"name\":` in JSON text that is
			// itself inside a JSON string (escaped once or more).
			if q := skipBackslashes(b, after); q < len(b) && (b[q] == '"' || b[q] == '\'') {
				after = q + 1
			}
		}
		k := skipBlanks(b, after)
		if sp, ok := r.flagValue(b, name, after, k, names); ok {
			// "--api-key VALUE" in a log line, as a command line is
			// echoed: the next word is the flag's value.
			spans = append(spans, sp)
			i = max(sp.end, next)
			continue
		}
		if k >= len(b) || (b[k] != ':' && b[k] != '=') || (k+1 < len(b) && b[k+1] == b[k]) ||
			!(r.textKeyHit(name, names, buf[:0]) || names && textKeyIn(name, learned)) {
			i = next
			continue
		}
		sp, end := textValue(b, k+1)
		if sp.end > sp.start {
			spans = append(spans, sp)
		}
		i = max(end, next)
	}
	return spans
}

// flagValue is the value of a flag written with a blank before it in
// text ("--api-key sk-…", "-token abc"): name starts with a dash and is a
// secret flag (flagHit), blanks follow it, and the next word does not
// start with a dash. The word ends at a blank, a quote or the line's end.
func (r *Redactor) flagValue(b, name []byte, after, k int, names bool) (span, bool) {
	if !names || len(name) < 2 || name[0] != '-' || k == after || k >= len(b) || b[k] == '-' || b[k] == '\n' || b[k] == '\r' {
		return span{}, false
	}
	if !r.flagHit(bytes.TrimLeft(name, "-")) {
		return span{}, false
	}
	e := k
	for e < len(b) && b[e] != ' ' && b[e] != '\t' && b[e] != '\n' && b[e] != '\r' && b[e] != '"' && b[e] != '\'' {
		e++
	}
	if e == k {
		return span{}, false
	}
	return span{k, e}, true
}

// textKeyHit reports whether a name read in text is hidden.
func (r *Redactor) textKeyHit(name []byte, names bool, buf []byte) bool {
	name = bytes.TrimLeft(name, "-") // --ssn=v: a flag names a key too
	if len(name) == 0 {
		return false
	}
	if textKeyIn(name, r.keyList) || names && textKeyIn(name, r.pathKeys) {
		return true
	}
	return names && r.secrets && isSecretName(normName(buf, name))
}

// textKeyIn reports whether name is one of keys, ignoring ASCII case; the
// last segment of a dotted name counts too ("user.ssn=…").
func textKeyIn(name []byte, keys []textKey) bool {
	for _, k := range keys {
		if len(name) == len(k.lit) && hasPrefixFold(name, k.lit) ||
			len(name) > len(k.lit) && name[len(name)-len(k.lit)-1] == '.' && hasPrefixFold(name[len(name)-len(k.lit):], k.lit) {
			return true
		}
	}
	return false
}

// isKeyByte reports whether c may be part of an unquoted name.
func isKeyByte(c byte) bool { return keyBytes[c] }

var keyBytes = func() (t [256]bool) {
	for c := 0; c < 256; c++ {
		t[c] = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-' || c == '.'
	}
	return t
}()

func skipBackslashes(b []byte, i int) int {
	for i < len(b) && b[i] == '\\' {
		i++
	}
	return i
}

func skipBlanks(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
		i++
	}
	return i
}

// authSchemes are words an authorization value starts with: they stay, so
// "Authorization: Bearer [REDACTED]" says what kind of credential it was.
var authSchemes = []string{"bearer ", "basic ", "digest ", "token ", "bot "}

// textValue returns the span of the value that starts at or after b[i]
// (blanks skipped) and the offset just past it. Quotes and the
// "null", "true" and "false" literals are kept.
func textValue(b []byte, i int) (span, int) {
	i = skipBlanks(b, i)
	if i >= len(b) {
		return span{}, i
	}
	if i > 0 && b[i-1] == ':' || b[i] == '\n' || b[i] == '\r' {
		// A pretty-printer may put the value on the next line
		// (`"password":` then `    "hunter2"`): a quoted or composite
		// value there is this name's.
		j := i
		if j < len(b) && b[j] == '\r' {
			j++
		}
		if j < len(b) && b[j] == '\n' {
			if k := skipBlanks(b, j+1); k < len(b) && (b[k] == '"' || b[k] == '\'' || b[k] == '{' || b[k] == '[') {
				i = k
			}
		}
	}
	if b[i] == '\\' {
		// An escaped quote opens the value (\"v\", \\\"v\\\"): it ends at a
		// quote escaped the same way, or at the end of its line.
		n := skipBackslashes(b, i) - i
		if q := i + n; q < len(b) && b[q] == '"' {
			j := q + 1
			for j < len(b) && b[j] != '\n' {
				if b[j] == '"' && j-n >= q+1 && skipBackslashes(b, j-n) == j && (j-n-1 < 0 || b[j-n-1] != '\\') {
					return span{q + 1, j - n}, j + 1
				}
				j++
			}
			return span{q + 1, j}, j
		}
	}
	switch c := b[i]; c {
	case '"', '\'':
		j := i + 1
		for j < len(b) && b[j] != c && b[j] != '\n' {
			if b[j] == '\\' && j+1 < len(b) && b[j+1] != '\n' {
				j++
			}
			j++
		}
		end := j
		if j < len(b) && b[j] == '\n' && j > i+1 && b[j-1] == '\r' {
			end-- // an unterminated string ends at its line
		}
		return span{i + 1, end}, min(j+1, len(b))
	case '{', '[':
		j := skipComposite(b, i)
		return span{i, j}, j
	}
	for _, s := range authSchemes {
		if hasPrefixFold(b[i:], s) {
			i = skipBlanks(b, i+len(s))
			break
		}
	}
	j := i
	for j < len(b) && !isValueEnd(b[j]) {
		j++
	}
	switch string(b[i:j]) {
	case "null", "true", "false":
		return span{}, j
	}
	return span{i, j}, j
}

// isValueEnd reports whether c ends a bare value (a query parameter, a
// log field, a JSON number).
func isValueEnd(c byte) bool {
	switch c {
	case ' ', '\t', '\r', '\n', ',', ';', '&', '"', '\'', '<', '>', '{', '}', '[', ']':
		return true
	}
	return false
}

// skipComposite returns the offset just past the JSON-like object or array
// that starts at b[i], or len(b) when it is not closed (a truncated copy:
// the rest is part of the value).
func skipComposite(b []byte, i int) int {
	depth := 0
	for j := i; j < len(b); j++ {
		switch b[j] {
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				return j + 1
			}
		case '"':
			for j++; j < len(b) && b[j] != '"'; j++ {
				if b[j] == '\\' {
					j++
				}
			}
		}
	}
	return len(b)
}

// keyFreq ranks ASCII letters by how common they are in English text and
// JSON: the prefilter searches for the rarest byte of a key.
const keyFreq = "etaoinsrhldcumfpgwybvkxjqz"

// anyKeyIn reports whether one of the key rule's names occurs in b,
// ignoring ASCII case: the prefilter that keeps the text scan of JSON
// strings off frames that cannot need it.
func (r *Redactor) anyKeyIn(b []byte) bool {
	for _, k := range r.keyList {
		if containsFold(b, k) {
			return true
		}
	}
	return false
}

// A textKey is a key rule's name prepared for the text scanner.
type textKey struct {
	lit string // lowercased
	at  int    // index of its rarest byte
}

func newTextKey(lit string) textKey {
	at, rank := 0, -1
	for i := 0; i < len(lit); i++ {
		r := strings.IndexByte(keyFreq, lit[i])
		if r < 0 {
			r = len(keyFreq) // digits and punctuation are rarer still
		}
		if r > rank {
			at, rank = i, r
		}
	}
	return textKey{lit, at}
}

// containsFold reports whether b contains k.lit, ignoring ASCII case. It
// looks for the rarest byte of the key with IndexByte and checks the whole
// key around each occurrence.
func containsFold(b []byte, tk textKey) bool {
	k, at := tk.lit, tk.at
	if len(k) == 0 {
		return false
	}
	c := k[at]
	up := c
	if 'a' <= c && c <= 'z' {
		up = c - ('a' - 'A')
	}
	for _, x := range []byte{c, up} {
		for i := at; i < len(b); {
			j := bytes.IndexByte(b[i:], x)
			if j < 0 {
				break
			}
			p := i + j - at
			if p+len(k) <= len(b) && hasPrefixFold(b[p:], k) {
				return true
			}
			i += j + 1
		}
		if up == c {
			break
		}
	}
	return false
}
