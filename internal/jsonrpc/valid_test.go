package jsonrpc

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
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
	for _, s := range validSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		want := json.Valid(b)
		if got := validJSON(b, false); got != want {
			t.Fatalf("validJSON(%q) = %v, json.Valid = %v", b, got, want)
		}
		wantNL := want && bytes.IndexByte(b, '\n') < 0 && bytes.IndexByte(b, '\r') < 0
		if got := validJSON(b, true); got != wantNL {
			t.Fatalf("validJSON(%q, noLineBreak) = %v, want %v", b, got, wantNL)
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

func TestValidEquivalentSeeds(t *testing.T) {
	for _, s := range append(validSeeds, wordSeeds()...) {
		if got, want := validJSON([]byte(s), false), json.Valid([]byte(s)); got != want {
			t.Errorf("validJSON(%.40q) = %v, json.Valid = %v", s, got, want)
		}
	}
}
