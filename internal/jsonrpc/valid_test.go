package jsonrpc

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

var validSeeds = []string{
	`{}`, `[]`, `{"a":1}`, `[1,2,3]`, ` {"a" : [true, false, null, -0.5e+10, "x\u00e9\n"]} `,
	`"\ud83d\ude00"`, `0`, `-`, `01`, `1.`, `1e`, `.5`, `+1`, `[1,]`, `{"a":1,}`, `{"a"}`, `{1:2}`,
	`"\x"`, "\"\x01\"", `"abc`, `tru`, `nul`, `[}`, `{]`, `"\u12"`, `"\u12g4"`, "\"\xff\xfe\"",
	`"abcdefgh\"ijklmnop"`, `"abcdefghijklmnop\\"`, "[\n1\r,\t2]", `{"a":{"b":[{"c":"` + strings.Repeat("x", 40) + `"}]}}`,
	strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
	strings.Repeat("[", 10000) + strings.Repeat("]", 10000),
	``, ` `, `1 2`, `{"a":1}}`, `"a"x`,
}

func FuzzValidEquivalent(f *testing.F) {
	for _, s := range append(validSeeds, utf8Seeds()...) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		want := json.Valid(b)
		if got := validJSON(b, false); got != want {
			t.Fatalf("validJSON(%q) = %v, json.Valid = %v", b, got, want)
		}
		if got, want := validJSON(b, true), validLineRef(b); got != want {
			t.Fatalf("ValidLine(%q) = %v, want %v", b, got, want)
		}
	})
}

// wordSeeds put a quote, an escape, a control byte and a multi-byte
// character at every offset of the first words of a string, where the
// scanner jumps to the first flagged byte of a word, and across the
// 32-byte blocks it tests at once.
func wordSeeds() []string {
	var out []string
	for k := range 100 {
		pad := strings.Repeat("a", k)
		out = append(out, `"`+pad+`"`, `"`+pad+`\"x"`, `"`+pad+"\x01\"", `"`+pad+`é\u00e9"`, `["`+pad+`",1]`, `"`+pad)
	}
	return out
}

// validLineRef is what ValidLine must say: json.Valid, no line break,
// valid UTF-8 (json.Valid does not check it inside strings).
func validLineRef(b []byte) bool {
	return json.Valid(b) && bytes.IndexByte(b, '\n') < 0 && bytes.IndexByte(b, '\r') < 0 && utf8.Valid(b)
}

// utf8Seeds put invalid UTF-8 (a stray continuation byte, a truncated
// sequence, an overlong form, a surrogate, a byte that never occurs)
// after every prefix length of a word, next to valid multi-byte text.
func utf8Seeds() []string {
	bad := []string{"\x80", "\xc3", "\xe6\x97", "\xc0\xaf", "\xed\xa0\x80", "\xff", "\xf4\x90\x80\x80"}
	var out []string
	for k := range 40 {
		pad := strings.Repeat("a", k)
		for _, x := range bad {
			out = append(out, `{"s":"`+pad+x+`"}`, `{"`+pad+x+`":1}`, `["`+pad+`日本`+x+`é"]`, `"`+pad+x)
		}
		out = append(out, `{"s":"`+pad+`日本語 déjà"}`, `"`+pad+`€"`)
	}
	return out
}

func TestValidEquivalentSeeds(t *testing.T) {
	for _, s := range append(append(validSeeds, wordSeeds()...), utf8Seeds()...) {
		if got, want := validJSON([]byte(s), false), json.Valid([]byte(s)); got != want {
			t.Errorf("validJSON(%.40q) = %v, json.Valid = %v", s, got, want)
		}
		if got, want := ValidLine([]byte(s)), validLineRef([]byte(s)); got != want {
			t.Errorf("ValidLine(%.40q) = %v, want %v", s, got, want)
		}
	}
}
