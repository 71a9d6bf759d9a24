package verdict

import (
	"fmt"

	"github.com/mcpward/mcpward/internal/calls"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/traffic"
)

// A SessionsCheck is the run of `mcpward sessions check` over session
// logs, whoever reads them: the CLI (with tool baselines and its
// assertions around it) and the browser engine (one log, the default
// gate) both go through it. Per log: [SessionsCheck.Log] is the traffic
// checker to feed, [SessionsCheck.Read] judges what was read; then
// [SessionsCheck.Finish] decides.
type SessionsCheck struct {
	res    *result.Result
	col    *Collector
	gate   TrafficGate
	failOn string
}

// NewSessionsCheck starts a check gated on failOn (--fail-on; mcpsnoop's
// default is DefaultTrafficFailOn) that reports at most max findings
// (--max-results, default MaxResults; the rest are counted).
func NewSessionsCheck(version, failOn string, max int) (*SessionsCheck, error) {
	gate, err := ParseTrafficGate(failOn)
	if err != nil {
		return nil, err
	}
	return &SessionsCheck{res: NewTrafficResult(version), col: NewCollector(max), gate: gate, failOn: failOn}, nil
}

// Gate is the check's gate.
func (c *SessionsCheck) Gate() TrafficGate { return c.gate }

// Result is the Result being filled (final after Finish).
func (c *SessionsCheck) Result() *result.Result { return c.res }

// Collector gathers the findings; the CLI adds its assertions and tool
// drift to it.
func (c *SessionsCheck) Collector() *Collector { return c.col }

// Log returns the traffic checker of one log whose findings point at file
// ("" for standard input): each finding is collected, selected when the
// gate says so. settle, when not nil, sees each call as it settles.
func (c *SessionsCheck) Log(file string, settle func(*calls.Call)) *traffic.Checker {
	return traffic.New(&traffic.Options{File: file,
		OnFinding: func(f traffic.Finding) { c.col.Add(f.RuleFinding, c.gate.Selects(f.RuleFinding, f.Signal)) },
		OnSettle:  settle,
	})
}

// Read judges the log called name once it has been read into chk (and
// chk finished): a log without session records is an unusable input
// (nothing to check is not a pass: a gate pointed at the wrong file must
// fail), its unreadable lines and skipped records are problems, and so is
// each session's missing frames; each, when not nil, then sees the
// session (the CLI's report line and tool drift).
func (c *SessionsCheck) Read(chk *traffic.Checker, name string, problems []session.LineError, skipped int, each func(*calls.Session)) error {
	sessions := chk.Store().Sessions()
	if len(sessions) == 0 {
		return fault.Input(fmt.Errorf("%s: no session records in it (not an mcpward session log?)", name))
	}
	LogProblems(c.res, name, problems, skipped)
	for _, ss := range sessions {
		MissingFrames(c.res, name, ss)
		if each != nil {
			each(ss)
		}
	}
	return nil
}

// Finish completes the Result with the collected findings and the
// verdict (Collector.Finish, under the gate as given).
func (c *SessionsCheck) Finish() *result.Result {
	c.col.Finish(c.res, c.failOn)
	return c.res
}
