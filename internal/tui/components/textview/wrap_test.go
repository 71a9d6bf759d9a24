package textview

import (
	"reflect"
	"testing"
)

func TestWrap(t *testing.T) {
	tests := []struct {
		name, in string
		w        int
		want     []string
	}{
		{"fits", "short line", 20, []string{"short line"}},
		{"at a space", "one two three four", 9, []string{"one two", "three", "four"}},
		{"hyphenated word whole", "tokens: mcpward-runs-v2 estimate", 20, []string{"tokens:", "mcpward-runs-v2", "estimate"}},
		{"long word cut", "abcdefghijkl", 5, []string{"abcde", "fghij", "kl"}},
		{"label column hangs", "baseline     none recorded for this server", 30,
			[]string{"baseline     none recorded for", "             this server"}},
		{"wide runes", "世界 世界 世界", 5, []string{"世界", "世界", "世界"}},
		// Issue 27 item 8 (the render goldens): an indented bullet
		// continued at the panel's edge, under nothing.
		{"indented bullet hangs", "  ● logging  (deprecated in 2026-07-28: use stderr)", 30,
			[]string{"  ● logging  (deprecated in", "    2026-07-28: use stderr)"}},
		{"indented line keeps its indentation", "  Use echo to test the server.", 16, []string{"  Use echo to", "  test the", "  server."}},
		// A padded line number is a label column like a two-digit one.
		{"padded label column hangs", ` 8       "text": "one two three"`, 24, []string{` 8       "text": "one`, `         two three"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Wrap(tt.in, tt.in, tt.w); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Wrap(%q, %d) = %q, want %q", tt.in, tt.w, got, tt.want)
			}
		})
	}
}

func TestWrapKeepsStyles(t *testing.T) {
	styled := "\x1b[2mone two three\x1b[0m"
	got := Wrap(styled, "one two three", 8)
	if len(got) != 2 {
		t.Fatalf("rows = %q", got)
	}
	for _, r := range got {
		if r == "" || r[0] != '\x1b' {
			t.Errorf("row %q lost its style", r)
		}
	}
}
