package jsonrpc

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// skipWSRef is skipWS byte by byte, as it was before it skipped
// indentation a word at a time.
func skipWSRef(b []byte, i int, noLineBreak bool) int {
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

// indentSeeds are line breaks followed by runs of spaces of every length
// around the word size, ended by each kind of byte (a value, a tab, another
// line break, a byte just above or below ' ', the end of input), at every
// offset of a word.
func indentSeeds() []string {
	var out []string
	for n := range 27 {
		run := strings.Repeat(" ", n)
		for _, end := range []string{"", "1", "\t1", "\n  1", "\r\n1", "!", "\x1f", "\xa0", "\u00a0", " \t \n"} {
			for _, nl := range []string{"\n", "\r\n", "\r"} {
				out = append(out, "["+nl+run+end, "["+nl+run+end+"]", "{"+nl+run+`"a": 1`+nl+"}"+nl+run+end)
			}
		}
	}
	return out
}

func TestSkipWS(t *testing.T) {
	for _, s := range append(indentSeeds(), validSeeds...) {
		b := []byte(s)
		for i := 0; i <= len(b); i++ {
			for _, nlb := range []bool{false, true} {
				if got, want := skipWS(b, i, nlb), skipWSRef(b, i, nlb); got != want {
					t.Fatalf("skipWS(%q, %d, %v) = %d, want %d", b, i, nlb, got, want)
				}
			}
		}
	}
}

func FuzzSkipSpace(f *testing.F) {
	for _, s := range indentSeeds() {
		f.Add([]byte(s), 1)
	}
	f.Fuzz(func(t *testing.T, b []byte, i int) {
		if i < 0 || i > len(b) {
			return
		}
		for _, nlb := range []bool{false, true} {
			if got, want := skipWS(b, i, nlb), skipWSRef(b, i, nlb); got != want {
				t.Fatalf("skipWS(%q, %d, %v) = %d, want %d", b, i, nlb, got, want)
			}
		}
		if got, want := Valid(b), json.Valid(b); got != want {
			t.Fatalf("Valid(%q) = %v, json.Valid = %v", b, got, want)
		}
	})
}

// BenchmarkValidIndented is Valid of the 5,000-tool tools/list result
// pretty-printed with a two-space indent, as snapshot files are: mostly
// line breaks and indentation.
func BenchmarkValidIndented(b *testing.B) {
	var frame []byte
	for _, bf := range validBenchFrames() {
		if bf.name == "toolsList" {
			frame = bf.frame
		}
	}
	var ind bytes.Buffer
	if err := json.Indent(&ind, frame, "", "  "); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(ind.Len()))
	for b.Loop() {
		if !Valid(ind.Bytes()) {
			b.Fatal("invalid")
		}
	}
}
