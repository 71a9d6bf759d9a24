// Package fault classifies errors by what they mean to the user, not by
// where they arose: evidence that could not be gathered, an input file or
// config that cannot be used, a protocol violation. Packages anywhere in the
// tree mark their errors with these kinds; result.CodeOf turns a kind into
// the exit code of PRODUCT.md (the constants of internal/result, which
// fault cannot import: result depends on it). The package is
// pure and depends on nothing but errors and io/fs, so the core may use it.
package fault

import (
	"errors"
	"io/fs"
)

// Sentinel kinds. Test with errors.Is.
var (
	// ErrIncomplete: the server could not be started, reached or fully
	// enumerated; a timeout; authentication required. Exit 2
	// (result.Incomplete).
	ErrIncomplete = errors.New("evidence incomplete")

	// ErrInput: an unreadable, corrupt, incomparable or newer-format input
	// file, or a bad config. Exit 4 (result.Usage).
	ErrInput = errors.New("unusable input")

	// ErrViolation: the server violates a MUST-level protocol rule. Exit 3
	// (result.Violation).
	ErrViolation = errors.New("protocol violation")
)

type marked struct {
	err  error
	kind error
}

func (m *marked) Error() string   { return m.err.Error() }
func (m *marked) Unwrap() []error { return []error{m.err, m.kind} }
func mark(kind, err error) error {
	if err == nil {
		return nil
	}
	return &marked{err: err, kind: kind}
}

// Incomplete marks err as incomplete evidence, keeping its message.
func Incomplete(err error) error { return mark(ErrIncomplete, err) }

// Input marks err as an unusable input file or config, keeping its message.
func Input(err error) error { return mark(ErrInput, err) }

// Violation marks err as a protocol violation, keeping its message.
func Violation(err error) error { return mark(ErrViolation, err) }

// WithoutPath returns the cause of a file error (*fs.PathError) without
// the operation and path it repeats, for a message that already names the
// file: "read snapshot d: is a directory", not "read snapshot d: read d:
// is a directory". Other errors come back unchanged.
func WithoutPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
