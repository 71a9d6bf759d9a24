package migrate

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestDecodeObject(t *testing.T) {
	m, err := DecodeObject([]byte(`{"n": 1.50, "s": "x"}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := m["n"]; got == nil || got.(interface{ String() string }).String() != "1.50" {
		t.Errorf(`DecodeObject: n = %v, want the number as written, "1.50"`, got)
	}
	for _, tt := range []struct{ in, want string }{
		{`{"a": `, "not valid JSON: unexpected EOF"},
		{`{} {}`, "not valid JSON: unexpected data after the top-level value"},
		{`[1]`, "not a JSON object"},
	} {
		if _, err := DecodeObject([]byte(tt.in)); err == nil || err.Error() != tt.want {
			t.Errorf("DecodeObject(%q) = %v, want %q", tt.in, err, tt.want)
		}
	}
}

func TestClip(t *testing.T) {
	if got := Clip("short"); got != "short" {
		t.Errorf("Clip(short) = %q", got)
	}
	long := strings.Repeat("a", 199) + "é" + strings.Repeat("b", 10)
	got := Clip(long)
	if !utf8.ValidString(got) || !strings.HasSuffix(got, "…") || len(got) > 200+len("…") {
		t.Errorf("Clip(long) = %q: want at most 200 bytes cut at a rune boundary, then …", got)
	}
}

func TestSortedKeys(t *testing.T) {
	got := SortedKeys(map[string]any{"b": 1, "a": 2, "B": 3})
	if strings.Join(got, ",") != "B,a,b" {
		t.Errorf("SortedKeys = %v, want [B a b]", got)
	}
}
