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
