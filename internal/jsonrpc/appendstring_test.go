package jsonrpc

import (
	"encoding/json"
	"testing"
	"unicode/utf8"
)

func TestAppendString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", `"plain"`},
		{`q"b\`, `"q\"b\\"`},
		{"a\nb\rc\td", `"a\nb\rc\td"`},
		{"\x00\x1f", `"\u0000\u001f"`},
		{"<a&b>", `"<a&b>"`},
		{"日本\u2028", "\"日本\u2028\""},
		{"bad\xffbyte", `"bad\ufffdbyte"`},
	}
	for _, tt := range tests {
		if got := string(AppendString(nil, tt.in)); got != tt.want {
			t.Errorf("AppendString(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "x", "\"\\", "\x00", "\xff", "é", "\u2028"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b := AppendString(nil, s)
		var back string
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("AppendString(%q) = %s: not a JSON string: %v", s, b, err)
		}
		if utf8.ValidString(s) && back != s {
			t.Fatalf("round trip of %q gave %q", s, back)
		}
	})
}
