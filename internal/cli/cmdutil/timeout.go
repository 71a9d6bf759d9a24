package cmdutil

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"
)

// TimeoutVar defines a timeout flag on fl. It takes a Go duration ("10s",
// "1m30s", "500ms") or, as snapgauge's --timeout did, a bare integer
// number of milliseconds ("10000"), so that scripts written for snapgauge
// keep working. Every command's --timeout is defined here.
func TimeoutVar(fl *pflag.FlagSet, p *time.Duration, name string, value time.Duration, usage string) {
	*p = value
	fl.Var((*timeoutValue)(p), name, usage+" (a duration such as 10s, or a number of milliseconds)")
}

type timeoutValue time.Duration

// Set parses a duration, or a bare integer as milliseconds.
func (t *timeoutValue) Set(s string) error {
	v := strings.TrimSpace(s)
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		if n > int64(time.Duration(1<<63-1)/time.Millisecond) {
			return fmt.Errorf("%s milliseconds is too long", v)
		}
		*t = timeoutValue(time.Duration(n) * time.Millisecond)
		return nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		// The message of every bad duration flag (FlagValueError); the
		// flag's usage says a number of milliseconds is taken too.
		return errors.New("want a duration such as 500ms, 10s or 2m")
	}
	*t = timeoutValue(d)
	return nil
}

func (t *timeoutValue) String() string { return time.Duration(*t).String() }

func (t *timeoutValue) Type() string { return "duration" }
