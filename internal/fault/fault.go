// Package fault classifies errors by what they mean to the user, not by
// where they arose: evidence that could not be gathered, an input file or
// config that cannot be used, a protocol violation. Packages anywhere in the
// tree mark their errors with these kinds and attach a remedy with [Hint];
// result.ExitCode turns a kind into the exit code of PRODUCT.md (the
// constants of internal/result, which fault cannot import: result depends
// on it). The package is pure and depends on nothing but errors and
// io/fs, so the core may use it.
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

// A Hint is an error with one remediation line, which the CLI prints
// after the error as "hint: …" and a fleet report keeps beside the
// target's error. It is the one way any package, core or CLI, attaches a
// remedy: [WithHint] sets it, [HintOf] finds it.
type Hint struct {
	Err error
	// Line is the remedy, without the "hint: " prefix.
	Line string
}

func (h *Hint) Error() string { return h.Err.Error() }
func (h *Hint) Unwrap() error { return h.Err }

// WithHint attaches the remedy line to err, keeping its message and kind.
// A nil err stays nil; an empty line returns err as it is.
func WithHint(err error, line string) error {
	if err == nil || line == "" {
		return err
	}
	return &Hint{Err: err, Line: line}
}

// HintOf returns the outermost hint attached to err, or "".
func HintOf(err error) string {
	var h *Hint
	if errors.As(err, &h) {
		return h.Line
	}
	return ""
}

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
