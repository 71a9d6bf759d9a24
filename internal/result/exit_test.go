package result

import (
	"errors"
	"fmt"
	"testing"

	"github.com/mcpward/mcpward/internal/diff"
	"github.com/mcpward/mcpward/internal/fault"
)

// The codes are PRODUCT.md's table; a renumbering breaks every script
// that gates on mcpward.
func TestExitCodes(t *testing.T) {
	got := []int{Clean, Drift, Incomplete, Violation, Usage, Internal}
	for i, c := range got {
		if c != i {
			t.Errorf("code %d = %d", i, c)
		}
	}
}

func TestDecidePrecedence(t *testing.T) {
	// Every combination: 2 > 3 > 1 > 0.
	for i := range 8 {
		o := Outcome{Incomplete: i&4 != 0, Violation: i&2 != 0, Drift: i&1 != 0}
		want := Clean
		switch {
		case o.Incomplete:
			want = 2
		case o.Violation:
			want = 3
		case o.Drift:
			want = 1
		}
		if got := Decide(o); got != want {
			t.Errorf("Decide(%+v) = %d, want %d", o, got, want)
		}
	}
}

func TestCodeOf(t *testing.T) {
	base := errors.New("x")
	for _, tc := range []struct {
		err  error
		code int
		ok   bool
	}{
		{fault.Incomplete(base), Incomplete, true},
		{fault.Violation(base), Violation, true},
		{fault.Input(base), Usage, true},
		{fmt.Errorf("read: %w", fault.Input(base)), Usage, true},
		// Both kinds: incomplete evidence wins, as in Decide.
		{fault.Violation(fault.Incomplete(base)), Incomplete, true},
		{fault.Input(fault.Violation(base)), Violation, true},
		{base, Internal, false},
	} {
		code, ok := CodeOf(tc.err)
		if code != tc.code || ok != tc.ok {
			t.Errorf("CodeOf(%v) = %d, %v; want %d, %v", tc.err, code, ok, tc.code, tc.ok)
		}
	}
}

func TestSummarize(t *testing.T) {
	fs := []Finding{{Finding: diff.Finding{Tier: diff.Breaking}}, {Finding: diff.Finding{Tier: diff.Cosmetic}}, {Finding: diff.Finding{Tier: diff.Breaking}}}
	if got, want := Summarize(fs), (diff.Summary{Breaking: 2, Cosmetic: 1}); got != want {
		t.Errorf("Summarize = %+v, want %+v", got, want)
	}
}
