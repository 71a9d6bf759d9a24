package termsafe

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestLine: one line of server text: newline, CR and tab as \n \r \t, no
// escape sequence at all (colour included), bidi overrides shown.
func TestLine(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain text — ok §5", "plain text — ok §5"},
		{"a\nb\r\tc", `a\nb\r\tc`},
		{"\x1b[31mred", `\x1b[31mred`},
		{"\x1b]52;c;ZXZpbA==\x07 \x1b]0;title\x07 \x1b[2J", `\x1b]52;c;ZXZpbA==\x07 \x1b]0;title\x07 \x1b[2J`},
		{"\x7f\u0085", `\x7f\x85`},
		{"bidi \u202e and \u2028", `bidi \u{202e} and \u{2028}`},
		{"bad \xff utf8", "bad \uFFFD utf8"},
		{"", ""},
	} {
		if got := Line(tc.in); got != tc.want {
			t.Errorf("Line(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func FuzzLine(f *testing.F) {
	f.Add("\x1b]52;c;x\x07\r\n\x1b[2J\u009b\u202e\xff")
	f.Fuzz(func(t *testing.T, s string) {
		out := Line(s)
		if !utf8.ValidString(out) || strings.ContainsFunc(out, isControl) {
			t.Fatalf("Line(%q) = %q: a control character or invalid UTF-8 passed", s, out)
		}
	})
}

func TestString(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain text, é and 日本\n\tindented", "plain text, é and 日本\n\tindented"},
		{"\x1b]52;c;ZXZpbA==\x07copied", `\x1b]52;c;ZXZpbA==\x07copied`},
		{"\x1b]0;pwned\x07title", `\x1b]0;pwned\x07title`},
		{"\x1b[2Jcleared", `\x1b[2Jcleared`},
		{"safe\rOVERWRITE", `safe\x0dOVERWRITE`},
		{"\x1b[1;31mred\x1b[0m", "\x1b[1;31mred\x1b[0m"},
		{"c1 \u009b2J and \x00\x7f", `c1 \x9b2J and \x00\x7f`},
		{"bidi \u202e and \u2028", `bidi \u{202e} and \u{2028}`},
		{"bad utf8 \xff", "bad utf8 \uFFFD"},
		{"\x1b[", `\x1b[`},
	} {
		if got := String(tc.in); got != tc.want {
			t.Errorf("String(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func FuzzString(f *testing.F) {
	f.Add("\x1b]52;c;x\x07\r\x1b[2J\u009b")
	f.Fuzz(func(t *testing.T, s string) {
		out := String(s)
		for i := 0; i < len(out); i++ {
			c := out[i]
			if c == 0x1b {
				if sgrLen([]byte(out[i:])) == 0 {
					t.Fatalf("an escape other than SGR passed: %q", out)
				}
			} else if (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f {
				t.Fatalf("control byte %#x passed: %q", c, out)
			}
		}
	})
}
