package cmdutil

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TimeoutVar defines a timeout flag on fl. It takes a Go duration ("10s",
// "1m30s", "500ms") or, as snapgauge's --timeout did, a bare integer
// number of milliseconds ("10000"), so that scripts written for snapgauge
// keep working. Every command's --timeout is defined here.
func TimeoutVar(fl *pflag.FlagSet, p *time.Duration, name string, value time.Duration, usage string) {
	*p = value
	fl.Var(&timeoutValue{d: p}, name, usage+" (a duration such as 10s, or a number of milliseconds)")
}

// timeoutValue is a timeout flag's value; bare is the number as given when
// it was a bare number of milliseconds, for [BareTimeoutHint].
type timeoutValue struct {
	d    *time.Duration
	bare int64
}

// Set parses a duration, or a bare integer as milliseconds.
func (t *timeoutValue) Set(s string) error {
	v := strings.TrimSpace(s)
	t.bare = 0
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		if n > int64(time.Duration(1<<63-1)/time.Millisecond) {
			return fmt.Errorf("%s milliseconds is too long", v)
		}
		*t.d = time.Duration(n) * time.Millisecond
		t.bare = n
		return nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		// The message of every bad duration flag (FlagValueError); the
		// flag's usage says a number of milliseconds is taken too.
		return errors.New("want a duration such as 500ms, 10s or 2m")
	}
	*t.d = d
	return nil
}

func (t *timeoutValue) String() string { return t.d.String() }

func (t *timeoutValue) Type() string { return "duration" }

// bareSeconds is the largest bare timeout that more likely meant seconds
// than milliseconds (snapgauge's "--timeout 5000" meant what it said).
const bareSeconds = 999

// BareTimeoutHint is the hint of a run that timed out under a timeout flag
// of cmd given as a small bare number: "--timeout 10 means 10 ms here; did
// you mean 10s?". It is "" when no such flag was given.
func BareTimeoutHint(cmd *cobra.Command) string {
	if cmd == nil {
		return ""
	}
	var hint string
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if t, ok := f.Value.(*timeoutValue); ok && hint == "" && t.bare > 0 && t.bare <= bareSeconds {
			hint = fmt.Sprintf("--%s %d means %d ms here; did you mean %ds?", f.Name, t.bare, t.bare, t.bare)
		}
	})
	return hint
}
