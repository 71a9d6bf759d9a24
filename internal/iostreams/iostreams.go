// Package iostreams holds the standard streams a command writes to and
// decides, in one place, whether output is for a person (a terminal: colour,
// alignment, truncation) or for a program (plain, tab-separated, untruncated).
package iostreams

import (
	"bytes"
	"io"
	"os"
	"strconv"

	"golang.org/x/term"
)

// IOStreams are the streams of one command invocation. Commands never touch
// os.Stdout or os.Stderr directly.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer

	stdoutTTY bool
	stderrTTY bool
	stdinTTY  bool
	colorOff  bool
	width     int
}

// System returns streams bound to the process's standard streams.
func System() *IOStreams {
	s := &IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr}
	s.stdoutTTY = isTerminal(os.Stdout)
	s.stderrTTY = isTerminal(os.Stderr)
	s.stdinTTY = isTerminal(os.Stdin)
	_, noColor := os.LookupEnv("NO_COLOR")
	s.colorOff = noColor || os.Getenv("TERM") == "dumb"
	s.width = 80
	if w, _, err := term.GetSize(int(os.Stdout.Fd())); err == nil && w > 20 {
		s.width = w
	} else if c, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && c > 20 {
		s.width = c
	}
	s.forceTTY(os.LookupEnv(ForceTTYEnv))
	return s
}

// ForceTTYEnv names the variable that makes stdout count as a terminal
// even when it is redirected (gh's GH_FORCE_TTY): any value forces it, and
// a number above 20 also sets the width, so a script test can show the aligned,
// fitted rendering at 80 or 200 columns.
const ForceTTYEnv = "MCPWARD_FORCE_TTY"

func (s *IOStreams) forceTTY(v string, ok bool) {
	if !ok || v == "" {
		return
	}
	s.stdoutTTY = true
	if w, err := strconv.Atoi(v); err == nil && w > 20 {
		s.width = w
	}
}

// Test returns streams backed by buffers, plus those buffers (stdin, stdout,
// stderr). All TTY switches start off.
func Test() (*IOStreams, *bytes.Buffer, *bytes.Buffer, *bytes.Buffer) {
	in, out, errOut := &bytes.Buffer{}, &bytes.Buffer{}, &bytes.Buffer{}
	return &IOStreams{In: in, Out: out, ErrOut: errOut, colorOff: true, width: 100}, in, out, errOut
}

// IsStdoutTTY reports whether stdout is a terminal.
func (s *IOStreams) IsStdoutTTY() bool { return s.stdoutTTY }

// IsStderrTTY reports whether stderr is a terminal.
func (s *IOStreams) IsStderrTTY() bool { return s.stderrTTY }

// IsStdinTTY reports whether stdin is a terminal.
func (s *IOStreams) IsStdinTTY() bool { return s.stdinTTY }

// SetStdoutTTY switches the stdout TTY mode (for tests).
func (s *IOStreams) SetStdoutTTY(v bool) { s.stdoutTTY = v }

// SetStderrTTY switches the stderr TTY mode (for tests).
func (s *IOStreams) SetStderrTTY(v bool) { s.stderrTTY = v }

// SetStdinTTY switches the stdin TTY mode (for tests).
func (s *IOStreams) SetStdinTTY(v bool) { s.stdinTTY = v }

// ColorEnabled reports whether stdout may carry ANSI colour.
func (s *IOStreams) ColorEnabled() bool { return s.stdoutTTY && !s.colorOff }

// SetColorEnabled forces colour on or off (for tests).
func (s *IOStreams) SetColorEnabled(v bool) { s.colorOff = !v }

// TerminalWidth is the width to wrap human output at.
func (s *IOStreams) TerminalWidth() int { return s.width }

// SetTerminalWidth sets the wrap width (for tests).
func (s *IOStreams) SetTerminalWidth(w int) { s.width = w }

// isTerminal asks the terminal driver (an ioctl), not the file mode: a
// character device such as /dev/null is not a terminal, and treating it as
// one made mcpsnoop prompt on a closed stdin.
func isTerminal(f *os.File) bool {
	return term.IsTerminal(int(f.Fd()))
}
