package termsafe

import "testing"

func TestString(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain text, é and 日本\n\tindented", "plain text, é and 日本\n\tindented"},
		{"\x1b]52;c;ZXZpbA==\x07copied", `\x1b]52;c;ZXZpbA==\x07copied`},
		{"\x1b]0;pwned\x07title", `\x1b]0;pwned\x07title`},
		{"\x1b[2Jcleared", `\x1b[2Jcleared`},
		{"safe\rOVERWRITE", `safe\x0dOVERWRITE`},
		{"\x1b[1;31mred\x1b[0m", "\x1b[1;31mred\x1b[0m"},
		{"c1 \u009b2J and \x00\x7f", `c1 \u009b2J and \x00\x7f`},
		{"bad utf8 \xff", "bad utf8 \xff"},
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
