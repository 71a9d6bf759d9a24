package engine

import (
	"io"

	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/sessionlog"
	"github.com/mcpward/mcpward/internal/verdict"
)

// A LogCheck runs the traffic rules over one session log written to it in
// chunks of any size (mcpward's format or mcpsnoop's, told from the first
// record), as `mcpward sessions check LOG` does with its default gate.
// Memory is bounded by the longest line and the calls still open, not by
// the size of the log. Write and Close must not be called concurrently.
type LogCheck struct {
	name    string
	version string
	pw      *io.PipeWriter
	done    chan struct{}
	written int64

	// Set by the reader goroutine before done is closed.
	res *result.Result
	err error
}

// NewLogCheck starts a check of the log called name (for messages and the
// Result's locations).
func NewLogCheck(name, version string) *LogCheck {
	pr, pw := io.Pipe()
	c := &LogCheck{name: name, version: version, pw: pw, done: make(chan struct{})}
	go func() {
		defer close(c.done)
		c.res, c.err = checkLog(pr, name, version)
		// Drain what a failed read left, so Write never blocks.
		_, _ = io.Copy(io.Discard, pr)
	}()
	return c
}

// Write feeds the next bytes of the log. It returns when they have been
// read (the rules have run over every record they complete).
func (c *LogCheck) Write(p []byte) (int, error) {
	n, err := c.pw.Write(p)
	c.written += int64(n)
	return n, err
}

// Written is how many bytes were fed so far.
func (c *LogCheck) Written() int64 { return c.written }

// Close ends the log and returns the report.
func (c *LogCheck) Close() (*Report, error) {
	_ = c.pw.Close()
	<-c.done
	if c.err != nil {
		return nil, newError(c.err, "")
	}
	return NewReport(c.res)
}

// Result ends the log and returns the Result itself.
func (c *LogCheck) Result() (*result.Result, error) {
	_ = c.pw.Close()
	<-c.done
	return c.res, c.err
}

// checkLog is `sessions check` (verdict.SessionsCheck) over one log with
// its default gate and --max-results, without tool baselines (the browser
// has no state directory).
func checkLog(r io.Reader, name, version string) (*result.Result, error) {
	c, err := verdict.NewSessionsCheck(version, verdict.DefaultTrafficFailOn, verdict.MaxResults)
	if err != nil {
		return nil, err
	}
	chk := c.Log(name, nil)
	problems, skipped, err := sessionlog.ReadFrom(r, name, chk.Add)
	if err != nil {
		return nil, err
	}
	chk.Finish()
	if err := c.Read(chk, name, problems, skipped, nil); err != nil {
		return nil, err
	}
	return c.Finish(), nil
}
