package snapshot

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/gowebpki/jcs"
)

// decodeValue decodes one JSON value with numbers kept as json.Number, and
// rejects trailing data.
func decodeValue(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("unexpected data after JSON value")
	}
	return v, nil
}

// decodeObject decodes b as a JSON object.
func decodeObject(b []byte) (Object, error) {
	v, err := decodeValue(b)
	if err != nil {
		return nil, err
	}
	o, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("not a JSON object")
	}
	return o, nil
}

// toTree converts any marshalable Go value into the generic tree form
// (map[string]any, []any, json.Number, string, bool, nil).
func toTree(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return decodeValue(b)
}

// writePretty writes v in the on-disk form: keys sorted by code point at
// every depth, 2-space indent, numbers as written.
func writePretty(buf *bytes.Buffer, v any, depth int) error {
	switch x := v.(type) {
	case nil:
		buf.WriteString("null")
	case bool:
		if x {
			buf.WriteString("true")
		} else {
			buf.WriteString("false")
		}
	case json.Number:
		if !json.Valid([]byte(x)) || x == "" {
			return fmt.Errorf("invalid number %q", string(x))
		}
		buf.WriteString(string(x))
	case string:
		writeString(buf, x)
	case []any:
		if len(x) == 0 {
			buf.WriteString("[]")
			return nil
		}
		buf.WriteString("[\n")
		for i, e := range x {
			indent(buf, depth+1)
			if err := writePretty(buf, e, depth+1); err != nil {
				return err
			}
			if i < len(x)-1 {
				buf.WriteByte(',')
			}
			buf.WriteByte('\n')
		}
		indent(buf, depth)
		buf.WriteByte(']')
	case map[string]any:
		if len(x) == 0 {
			buf.WriteString("{}")
			return nil
		}
		keys := sortedKeys(x)
		buf.WriteString("{\n")
		for i, k := range keys {
			indent(buf, depth+1)
			writeString(buf, k)
			buf.WriteString(": ")
			if err := writePretty(buf, x[k], depth+1); err != nil {
				return err
			}
			if i < len(keys)-1 {
				buf.WriteByte(',')
			}
			buf.WriteByte('\n')
		}
		indent(buf, depth)
		buf.WriteByte('}')
	default:
		return fmt.Errorf("unsupported value of type %T", v)
	}
	return nil
}

// sortedKeys sorts by UTF-16 code units, as JCS does, so the file and the
// digest agree on member order even for keys outside the BMP.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, compareUTF16)
	return keys
}

func compareUTF16(a, b string) int {
	if isASCII(a) && isASCII(b) {
		return strings.Compare(a, b)
	}
	ra, rb := []rune(a), []rune(b)
	for i := 0; i < len(ra) && i < len(rb); i++ {
		ua, ub := utf16Units(ra[i]), utf16Units(rb[i])
		if c := slices.Compare(ua, ub); c != 0 {
			return c
		}
	}
	return len(ra) - len(rb)
}

func utf16Units(r rune) []uint16 {
	if r < 0x10000 {
		return []uint16{uint16(r)}
	}
	r -= 0x10000
	return []uint16{uint16(0xD800 + (r>>10)&0x3FF), uint16(0xDC00 + r&0x3FF)}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func indent(buf *bytes.Buffer, depth int) {
	for range depth {
		buf.WriteString("  ")
	}
}

// writeString escapes only what JSON requires (as JCS does): the quote, the
// backslash and control characters. HTML characters stay readable.
func writeString(buf *bytes.Buffer, s string) {
	const hex = "0123456789abcdef"
	buf.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			buf.WriteString(`\"`)
		case '\\':
			buf.WriteString(`\\`)
		case '\n':
			buf.WriteString(`\n`)
		case '\r':
			buf.WriteString(`\r`)
		case '\t':
			buf.WriteString(`\t`)
		case '\b':
			buf.WriteString(`\b`)
		case '\f':
			buf.WriteString(`\f`)
		default:
			if r < 0x20 {
				buf.WriteString(`\u00`)
				buf.WriteByte(hex[r>>4])
				buf.WriteByte(hex[r&0xF])
			} else {
				buf.WriteRune(r)
			}
		}
	}
	buf.WriteByte('"')
}

// writeCompact writes v with sorted keys and no whitespace; numbers as
// written. It is the input to jcs.Transform.
func writeCompact(buf *bytes.Buffer, v any) error {
	switch x := v.(type) {
	case []any:
		buf.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := writeCompact(buf, e); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	case map[string]any:
		buf.WriteByte('{')
		for i, k := range sortedKeys(x) {
			if i > 0 {
				buf.WriteByte(',')
			}
			writeString(buf, k)
			buf.WriteByte(':')
			if err := writeCompact(buf, x[k]); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
	default:
		return writePretty(buf, v, 0)
	}
	return nil
}

// JCS returns the RFC 8785 canonical bytes of a tree value (see [Object]).
// Values that are not finite IEEE numbers are an error.
func JCS(v any) ([]byte, error) {
	var buf bytes.Buffer
	if err := writeCompact(&buf, v); err != nil {
		return nil, err
	}
	if canonicalAsWritten(v) {
		// writeCompact already sorts keys by UTF-16 units and escapes
		// strings as RFC 8785 does; only numbers may need jcs.Transform,
		// which parses the whole text again (a third of `record`'s
		// digest time on a 5,000-tool surface).
		return buf.Bytes(), nil
	}
	return jcs.Transform(buf.Bytes())
}

// canonicalAsWritten reports whether writeCompact's text of v is already
// its RFC 8785 form: every number an integer written as ES6 writes it
// (no sign on zero, no leading zero, no fraction or exponent, at most 15
// digits so that it is exact in a float64).
func canonicalAsWritten(v any) bool {
	switch x := v.(type) {
	case nil, bool, string:
		return true
	case json.Number:
		return plainInteger(string(x))
	case []any:
		for _, e := range x {
			if !canonicalAsWritten(e) {
				return false
			}
		}
		return true
	case map[string]any:
		for _, e := range x {
			if !canonicalAsWritten(e) {
				return false
			}
		}
		return true
	}
	return false
}

func plainInteger(s string) bool {
	if strings.HasPrefix(s, "-") {
		s = s[1:]
		if s == "0" {
			return false
		}
	}
	if s == "" || len(s) > 15 || (s[0] == '0' && len(s) > 1) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// JCSString is JCS as a string, with "" when v cannot be canonicalised;
// it is the comparison key for values that are compared as sets.
func JCSString(v any) string {
	b, err := JCS(v)
	if err != nil {
		var buf bytes.Buffer
		_ = writeCompact(&buf, v)
		return "!" + buf.String()
	}
	return string(b)
}
