package engine

import (
	"fmt"
	"io"
	"slices"

	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/rules"
	"github.com/mcpward/mcpward/internal/sessionlog"
	"github.com/mcpward/mcpward/internal/traffic"
)

// DefaultFailOn is the gate of `mcpward sessions check` without --fail-on:
// violation and risky findings feeding these signals fail the check; info
// findings never do.
const DefaultFailOn = "error,invalid,warn"

// MaxResults is how many findings a report keeps (--max-results' default);
// the rest are counted.
const MaxResults = 1000

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

// checkLog is the body of `sessions check` for one log and the default
// gate, without tool baselines (the browser has no state directory).
func checkLog(r io.Reader, name, version string) (*result.Result, error) {
	res := &result.Result{SchemaVersion: result.SchemaVersion, Tool: "mcpward", Version: version,
		Command: "sessions-check", Findings: []result.Finding{}, Evidence: result.Evidence{Complete: true}}
	col := &collector{max: MaxResults}
	chk := traffic.New(&traffic.Options{File: name,
		OnFinding: func(f traffic.Finding) { col.add(f.RuleFinding, defaultGate(f)) },
	})
	problems, skipped, err := sessionlog.ReadFrom(r, name, chk.Add)
	if err != nil {
		return nil, err
	}
	chk.Finish()
	if len(chk.Store().Sessions()) == 0 {
		return nil, fault.Input(fmt.Errorf("%s: no session records in it (not an mcpward session log?)", name))
	}
	for _, p := range problems {
		res.Evidence.Complete = false
		res.Evidence.Problems = append(res.Evidence.Problems, fmt.Sprintf("%s: %v", name, &p))
	}
	if skipped > len(problems) {
		res.Evidence.Problems = append(res.Evidence.Problems, fmt.Sprintf("%s: %d more lines skipped", name, skipped-len(problems)))
	}
	for _, ss := range chk.Store().Sessions() {
		if n := ss.MissingFrames(); n > 0 {
			res.Evidence.Complete = false
			res.Evidence.Problems = append(res.Evidence.Problems,
				fmt.Sprintf("%s: session %s: %d frames missing from the log (seq gaps %d; lost records declare %d)", name, ss.ID, n, ss.Missing, ss.Lost))
		}
	}
	res.Violations = col.result()
	o := result.Outcome{Incomplete: !res.Evidence.Complete}
	for _, v := range col.selected {
		if v.Class == rules.Violation && v.Level == rules.MUST {
			o.Violation = true
		} else {
			o.Drift = true
		}
	}
	res.ExitCode = result.Decide(o)
	res.Gate = result.Gate{FailOn: DefaultFailOn, Failed: res.ExitCode != result.Clean}
	res.Summary.Violations = len(res.Violations)
	res.Summary.Summary = result.Summarize(res.Findings)
	return res, nil
}

// defaultGate is --fail-on's default: the error, invalid and warn signals,
// without info findings.
func defaultGate(f traffic.Finding) bool {
	if f.Class == rules.Info {
		return false
	}
	switch f.Signal {
	case traffic.SignalError, traffic.SignalInvalid, traffic.SignalWarn:
		return true
	}
	return false
}

// A collector keeps at most max findings, violations first, then risky,
// then info, and counts the rest (the sessions check command's).
type collector struct {
	max      int
	buckets  [3][]result.RuleFinding
	total    int
	selected []result.RuleFinding
}

func (c *collector) add(rf result.RuleFinding, selected bool) {
	c.total++
	rf.Gated = selected
	if selected && !slices.ContainsFunc(c.selected, func(s result.RuleFinding) bool { return s.Class == rf.Class && s.Level == rf.Level }) {
		c.selected = append(c.selected, result.RuleFinding{Class: rf.Class, Level: rf.Level})
	}
	b := rules.ClassRank(rf.Class)
	if len(c.buckets[b]) < c.max {
		c.buckets[b] = append(c.buckets[b], rf)
	}
}

func (c *collector) result() []result.RuleFinding {
	var out []result.RuleFinding
	for _, b := range c.buckets {
		out = append(out, b...)
	}
	if len(out) > c.max {
		out = out[:c.max]
	}
	if c.total > len(out) {
		out = append(out, result.RuleFinding{RuleID: "mcpward.report_truncated", Level: rules.MAY, Class: rules.Info,
			Subject: "report", Message: fmt.Sprintf("%d of %d findings shown (--max-results %d); the exit code counts them all", len(out), c.total, c.max)})
	}
	if out == nil {
		out = []result.RuleFinding{}
	}
	return out
}
