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
	// The states of scanValue's loop and their compact-JSON shortcuts.
	`{ }`, `{ "a":1}`, `{"a" :1}`, `{"a": 1 , "b" : [ ] }`, `{"a":{},"b":[{}]}`, `{,}`, `{"a":1,"a"}`,
	`{"a":1 "b":2}`, `[1,,2]`, `{"a":}`, `{"a"::1}`, `[1]]`, `{"a":1]`, `[1}`, `{"a",1}`, `{"a":1,}`,
	`{"a":1, "b":2}`, `{"a":1,"b"}`, `[[],[[]],{}]`, `{"":""}`, `{"a":"b",`, `{"a":"b"`, `{"a"`, `{`,
	`["x",true,false,null,-1.5e3,"y"]`, `[tru]`, `[nulll]`, `{"a":-}`, "{\"a\":\n1}", "[1\r]",
}

func FuzzValidEquivalent(f *testing.F) {
	for _, s := range append(append(append(validSeeds, utf8Seeds()...), longSeeds()...), indentSeeds()...) {
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
		// A key's colon, read from the word that held its quote, or not.
		out = append(out, `{"`+pad+`":1}`, `{"`+pad+`" :1}`, `{"`+pad+`":`, `{"`+pad+`",1}`, `{"`+pad+`":"x","y":{}}`, `{"`+pad+`"`)
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

// validTextRef is what validText must say: valid UTF-8 and no control
// byte.
func validTextRef(s []byte) bool {
	return utf8.Valid(s) && !bytes.ContainsFunc(s, func(r rune) bool { return r < 0x20 })
}

// TestValidTextAllSequences checks the UTF-8 DFA on every sequence of up
// to three bytes drawn from the bytes where the classes change, after
// ASCII prefixes that put it at every offset of a word (where the scan
// switches between the ASCII words and the DFA), and on every 4-byte
// sequence with a lead byte from F0 up.
func TestValidTextAllSequences(t *testing.T) {
	edges := []byte{0x00, 0x1f, 0x20, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf,
		0xe0, 0xe1, 0xec, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xff}
	check := func(s []byte) {
		t.Helper()
		if got, want := validText(s), validTextRef(s); got != want {
			t.Fatalf("validText(%q) = %v, want %v", s, got, want)
		}
	}
	for k := range 41 {
		pad := strings.Repeat("a", k)
		for _, x := range edges {
			check([]byte(pad + string(x)))
			for _, y := range edges {
				check([]byte(pad + string([]byte{x, y}) + "bcdefghij"))
				for _, z := range edges {
					check([]byte(pad + string([]byte{x, y, z})))
				}
			}
		}
	}
	for x := 0xf0; x <= 0xff; x++ {
		for _, y := range edges {
			for _, z := range edges {
				for _, w := range edges {
					check([]byte{'a', byte(x), y, z, w, 'b'})
				}
			}
		}
	}
}

func FuzzValidText(f *testing.F) {
	for _, s := range utf8Seeds() {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := validText(b), validTextRef(b); got != want {
			t.Fatalf("validText(%q) = %v, want %v", b, got, want)
		}
	})
}

// longSeeds are strings longer than a word, where longString takes over:
// escapes, quotes, control bytes and invalid UTF-8 at every offset of its
// blocks, and many escapes before a distant quote.
func longSeeds() []string {
	var out []string
	for k := range 70 {
		pad := strings.Repeat("b", k)
		for _, x := range []string{`\"`, `\\`, `\u00e9`, `\x`, "\x01", "\x1f", "é", "日本", "\xe6\x97", "\xc0\xaf", "\xed\xa0\x80", `\u12`} {
			out = append(out, `{"s":"abcdefghij`+pad+x+`tail"}`, `["abcdefghij`+pad+x)
		}
	}
	// Across the windows longString scans a long string in: a character,
	// an escape or the quote cut by a window's end.
	for k := scanWindow - 48; k < scanWindow+8; k++ {
		pad := strings.Repeat("é", k/2) + strings.Repeat("b", k%2)
		for _, x := range []string{`\"`, `\u00e9`, "日本", "\xe6\x97", "\x01", `"`, "𝄞"} {
			out = append(out, `["`+pad+x+`tail"]`)
		}
	}
	out = append(out, `"abcdefghij`+strings.Repeat(`\n`, 500)+strings.Repeat("x", 300)+`"`,
		`"abcdefghij`+strings.Repeat(`\"`, 500)+`"`, `"abcdefghij`+strings.Repeat(`\"`, 500))
	return out
}

func TestValidEquivalentLongStrings(t *testing.T) {
	for _, s := range longSeeds() {
		if got, want := validJSON([]byte(s), false), json.Valid([]byte(s)); got != want {
			t.Errorf("validJSON(%.60q) = %v, json.Valid = %v", s, got, want)
		}
		if got, want := ValidLine([]byte(s)), validLineRef([]byte(s)); got != want {
			t.Errorf("ValidLine(%.60q) = %v, want %v", s, got, want)
		}
	}
}

func BenchmarkValidText(b *testing.B) {
	for _, tc := range []struct{ name, s string }{
		{"ascii", strings.Repeat("lorem ipsum dolor ", 60000)},
		{"mixed", strings.Repeat("déjà vu 日本語のテキスト ", 30000)},
		{"cjk", strings.Repeat("日本語のテキスト", 40000)},
	} {
		s := []byte(tc.s)
		b.Run(tc.name+"/dfa", func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			for b.Loop() {
				if !validText(s) {
					b.Fatal("invalid")
				}
			}
		})
		b.Run(tc.name+"/utf8.Valid", func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			for b.Loop() {
				utf8.Valid(s)
			}
		})
	}
}
