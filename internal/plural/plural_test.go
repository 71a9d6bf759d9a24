package plural

import "testing"

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		n    int
		noun string
		want string
	}{
		{0, "finding", "0 findings"},
		{1, "finding", "1 finding"},
		{2, "finding", "2 findings"},
		{1, "assertion", "1 assertion"},
		{3, "assertion", "3 assertions"},
		{1, "error", "1 error"},
		{2, "match", "2 matches"},
		{2, "entry", "2 entries"},
		{2, "day", "2 days"},
		{2, "MUST violation", "2 MUST violations"},
		{-1, "byte", "-1 bytes"},
	} {
		if got := Count(tc.n, tc.noun); got != tc.want {
			t.Errorf("Count(%d, %q) = %q, want %q", tc.n, tc.noun, got, tc.want)
		}
	}
}

func TestOf(t *testing.T) {
	if got := Of(1, "person", "people"); got != "person" {
		t.Errorf("Of(1) = %q", got)
	}
	if got := Of(0, "person", "people"); got != "people" {
		t.Errorf("Of(0) = %q", got)
	}
}
