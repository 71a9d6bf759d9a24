package cmdutil

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/suggest"
)

// A FlagError is a misuse of the command line. It is the one error kind the
// CLI layer declares itself: an input error (fault.ErrInput, exit 4) that
// the root follows with a usage hint.
type FlagError struct{ err error }

func (e *FlagError) Error() string   { return e.err.Error() }
func (e *FlagError) Unwrap() []error { return []error{e.err, fault.ErrInput} }

// FlagErrorf returns a FlagError with a formatted message.
func FlagErrorf(format string, args ...any) error {
	return &FlagError{fmt.Errorf(format, args...)}
}

// FlagErrorWrap wraps err as a FlagError.
func FlagErrorWrap(err error) error { return &FlagError{err} }

// A VerdictError carries the exit code of a result that has already been
// printed in full (drift, findings, violations, incomplete evidence). The
// exit mapper uses its code and prints nothing more, unless Reason is set,
// in which case it prints that one line.
type VerdictError struct {
	Code   int
	Reason string
	// TimedOut says the evidence is missing because a request timed out,
	// so that a bare --timeout number gets its hint ([BareTimeoutHint]).
	TimedOut bool
}

func (e *VerdictError) Error() string {
	if e.Reason != "" {
		return e.Reason
	}
	return fmt.Sprintf("exit %d", e.Code)
}

// Verdict returns nil for result.Clean and a *VerdictError otherwise.
func Verdict(code int) error {
	if code == result.Clean {
		return nil
	}
	return &VerdictError{Code: code}
}

// FlagValueError is the root command's flag error func: a bad flag value
// becomes a FlagError whose message says what the flag wants instead of
// the parser's Go error ("strconv.ParseUint: parsing "-1": invalid
// syntax", "time: invalid duration").
//
// An unknown long flag gets the nearest flags of the command as a
// suggestion: "unknown flag --formt (did you mean --format?)".
func FlagValueError(cmd *cobra.Command, err error) error {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "unknown flag: --"); ok && cmd != nil {
		return FlagErrorf("%s", unknownFlag(cmd, name))
	}
	var num *strconv.NumError
	if errors.As(err, &num) {
		want := "a number"
		switch {
		case errors.Is(num.Err, strconv.ErrRange):
			want = "a number in range"
		case num.Func == "ParseUint":
			want = "a whole number, 0 or more"
		case num.Func == "ParseInt":
			want = "a whole number"
		case num.Func == "ParseBool":
			want = "true or false"
		}
		if prefix, ok := strings.CutSuffix(msg, num.Error()); ok {
			return FlagErrorf("%swant %s", prefix, want)
		}
	}
	if i := strings.Index(msg, ": time: invalid duration "); i >= 0 {
		return FlagErrorf("%s: want a duration such as 500ms, 10s or 2m", msg[:i])
	}
	return FlagErrorWrap(err)
}

// unknownFlag names a flag cmd does not have, with the visible flags
// closest to it (a prefix of a flag, or within two edits).
func unknownFlag(cmd *cobra.Command, name string) string {
	name, _, _ = strings.Cut(name, "=")
	var names []string
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			names = append(names, f.Name)
		}
	})
	near := suggest.Ranked(name, names, 3, func(cand string, d int) bool {
		return d <= 2 || (len(name) >= 3 && strings.HasPrefix(cand, name))
	})
	msg := "unknown flag --" + name
	if len(near) > 0 {
		for i := range near {
			near[i] = "--" + near[i]
		}
		msg += fmt.Sprintf(" (did you mean %s?)", strings.Join(near, ", "))
	}
	return msg
}
