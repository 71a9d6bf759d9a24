package result

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
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

func TestExitCode(t *testing.T) {
	base := errors.New("x")
	for _, tc := range []struct {
		err  error
		code int
	}{
		{nil, Clean},
		{fault.Incomplete(base), Incomplete},
		{fault.Violation(base), Violation},
		{fault.Input(base), Usage},
		{fmt.Errorf("read: %w", fault.Input(base)), Usage},
		{fmt.Errorf("open x: %w", fs.ErrNotExist), Usage},
		// Both kinds: incomplete evidence wins, as in Decide.
		{fault.Violation(fault.Incomplete(base)), Incomplete},
		{fault.Input(fault.Violation(base)), Violation},
		// Interrupted or out of time, at the top level as in a fleet.
		{fmt.Errorf("list tools: %w", context.Canceled), Incomplete},
		{fmt.Errorf("list tools: %w", context.DeadlineExceeded), Incomplete},
		// A kind outranks the context: a bad input stays a bad input.
		{fault.Input(context.Canceled), Usage},
		{base, Internal},
	} {
		if code := ExitCode(tc.err, nil); code != tc.code {
			t.Errorf("ExitCode(%v) = %d; want %d", tc.err, code, tc.code)
		}
	}
	// The system's refusals come from the classifier the caller passes.
	refused := func(err error) bool { return errors.Is(err, base) }
	if code := ExitCode(fmt.Errorf("bind: %w", base), refused); code != Usage {
		t.Errorf("ExitCode(refused) = %d, want %d", code, Usage)
	}
}

func TestSummarize(t *testing.T) {
	fs := []Finding{{Finding: diff.Finding{Tier: diff.Breaking}}, {Finding: diff.Finding{Tier: diff.Cosmetic}}, {Finding: diff.Finding{Tier: diff.Breaking}}}
	if got, want := Summarize(fs), (diff.Summary{Breaking: 2, Cosmetic: 1}); got != want {
		t.Errorf("Summarize = %+v, want %+v", got, want)
	}
}
