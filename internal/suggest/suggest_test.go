package suggest

import (
	"slices"
	"testing"
)

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"abc", "", 3},
		{"", "abc", 3},
		{"tool.removed", "tool.removed", 0},
		{"tool.removd", "tool.removed", 1},
		{"kitten", "sitting", 3},
		{"héllo", "hello", 1}, // runes, not bytes
	} {
		if got := Distance(tc.a, tc.b); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := Distance(tc.b, tc.a); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d (symmetric)", tc.b, tc.a, got, tc.want)
		}
	}
}

func TestClosest(t *testing.T) {
	cands := []string{"tool.removed", "tool.renamed", "prompt.removed", "tool.added"}
	if got, want := Closest("Tool.Removd", cands, 3, 5), []string{"tool.removed"}; !slices.Equal(got, want) {
		t.Errorf("Closest = %q, want %q", got, want)
	}
	// Nearest first, ties alphabetical.
	if got, want := Closest("abcz", []string{"abxy", "abce", "abcd", "zzzz"}, 2, 5), []string{"abcd", "abce", "abxy"}; !slices.Equal(got, want) {
		t.Errorf("Closest = %q, want %q", got, want)
	}
	if got := Closest("tool.removd", cands, 3, 1); !slices.Equal(got, []string{"tool.removed"}) {
		t.Errorf("Closest with n=1 = %q", got)
	}
	if got := Closest("something.else", cands, 3, 5); got != nil {
		t.Errorf("Closest of a far word = %q, want none", got)
	}
}
