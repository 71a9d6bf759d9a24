package fault

import (
	"errors"
	"fmt"
	"io/fs"
	"testing"
)

func TestWithoutPath(t *testing.T) {
	pe := &fs.PathError{Op: "read", Path: "d", Err: errors.New("is a directory")}
	if got := WithoutPath(pe).Error(); got != "is a directory" {
		t.Errorf("WithoutPath(PathError) = %q", got)
	}
	if got := WithoutPath(fmt.Errorf("open: %w", pe)).Error(); got != "is a directory" {
		t.Errorf("WithoutPath(wrapped PathError) = %q", got)
	}
	other := errors.New("other")
	if WithoutPath(other) != other {
		t.Errorf("WithoutPath changed an error that is no PathError")
	}
	// The cause keeps its identity for errors.Is.
	if !errors.Is(WithoutPath(&fs.PathError{Op: "open", Path: "x", Err: fs.ErrNotExist}), fs.ErrNotExist) {
		t.Errorf("the cause lost its identity")
	}
}

func TestHint(t *testing.T) {
	base := Input(errors.New("bad config"))
	err := fmt.Errorf("load: %w", WithHint(base, "run init"))
	if got := HintOf(err); got != "run init" {
		t.Errorf("HintOf = %q, want the attached line", got)
	}
	if !errors.Is(err, ErrInput) || err.Error() != "load: bad config" {
		t.Errorf("the hint changed the error: %v", err)
	}
	// The outermost hint wins: a caller that knows more says more.
	if got := HintOf(WithHint(WithHint(base, "inner"), "outer")); got != "outer" {
		t.Errorf("HintOf(nested) = %q, want outer", got)
	}
	if WithHint(nil, "x") != nil || WithHint(base, "") != base || HintOf(base) != "" {
		t.Error("WithHint(nil) or WithHint(err, \"\") wrapped, or HintOf found a hint that is not there")
	}
}
