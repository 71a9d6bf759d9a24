package traffic

import (
	"fmt"
	"strconv"

	"github.com/mcpward/mcpward/internal/calls"
	"github.com/mcpward/mcpward/internal/plural"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/rules"
	"github.com/mcpward/mcpward/internal/session"
)

// A Signal is one of the ten counts `sessions check --fail-on` gates on
// (mcpsnoop's signals, kept so that its users find them).
type Signal string

// The signals (the names live with the rules: rules.Rule.Signal).
const (
	SignalError      Signal = rules.SignalError
	SignalInvalid    Signal = rules.SignalInvalid
	SignalWarn       Signal = rules.SignalWarn
	SignalMismatch   Signal = rules.SignalMismatch
	SignalPending    Signal = rules.SignalPending
	SignalLateResult Signal = rules.SignalLateResult
	SignalDrift      Signal = rules.SignalDrift
	SignalDeprecated Signal = rules.SignalDeprecated
	SignalIncomplete Signal = rules.SignalIncomplete
	SignalSchema     Signal = rules.SignalSchema
)

// Signals lists the signals in report order.
func Signals() []Signal {
	return []Signal{SignalError, SignalInvalid, SignalWarn, SignalMismatch, SignalPending,
		SignalLateResult, SignalDrift, SignalDeprecated, SignalIncomplete, SignalSchema}
}

// SignalOf returns the signal a traffic rule feeds (rules.Rule.Signal;
// warn when the rule names none).
func SignalOf(ruleID string) Signal {
	return Signal(rules.MustLookup(ruleID).TrafficSignal())
}

// RuleIDs returns every rule id the traffic checker can report: the
// catalogue's traffic rules except those with a rules.Rule.TrafficGap.
func RuleIDs() []string {
	var out []string
	for _, r := range rules.All() {
		if r.TrafficJudged() {
			out = append(out, r.ID)
		}
	}
	return out
}

// A Finding is one rule finding with the signal it feeds and where it
// comes from.
type Finding struct {
	result.RuleFinding
	Signal  Signal `json:"signal"`
	Session string `json:"session"`
	Seq     uint64 `json:"seq,omitempty"`
}

// Options configure a Checker.
type Options struct {
	// File is the log path findings point at (Location.File).
	File string
	// OnFinding receives every finding as it is made. Findings are not
	// kept by the checker, so memory does not grow with them.
	OnFinding func(Finding)
	// OnFrame and OnSettle are passed on to the call store.
	OnFrame  func(*calls.Frame)
	OnSettle func(*calls.Call)
}

// A Checker runs the traffic rules over the records of session logs. It
// is not safe for concurrent use.
type Checker struct {
	opts  Options
	store *calls.Store
	sess  map[string]*sessState
	// redactedFrame is set while the rules of a record flagged redacted
	// run (see rules.Rule.Redactable).
	redactedFrame bool
}

type sessState struct {
	listenSeen    bool
	truncatedReqs bool
	seenOnce      map[string]bool // dedup keys (rule+tool, rule+cap, exchange)
	counts        map[Signal]int
	// cache follows the fresh cacheable results (cache.stale_refetch).
	cache CacheTracker
}

// New returns a Checker.
func New(opts *Options) *Checker {
	c := &Checker{sess: map[string]*sessState{}}
	if opts != nil {
		c.opts = *opts
	}
	c.store = calls.New(&calls.Options{OnFrame: c.frame, OnSettle: c.opts.OnSettle})
	return c
}

// Store returns the call store the checker feeds.
func (c *Checker) Store() *calls.Store { return c.store }

// Add checks one record (line is its 1-based line in the log).
func (c *Checker) Add(rec *session.Record, line int) { c.store.Add(rec, line) }

// Counts returns the signal counts of a session so far.
func (c *Checker) Counts(sessionID string) map[Signal]int {
	out := map[Signal]int{}
	if st, ok := c.sess[sessionID]; ok {
		for k, v := range st.counts {
			out[k] = v
		}
	}
	return out
}

// Finish reports what only the end of the log shows: calls still pending
// and missing frames. Call it once, after the last Add.
func (c *Checker) Finish() {
	c.store.Flush()
	for _, call := range c.store.Open() {
		if call.State == calls.Streaming || call.Parked() {
			// A listen is not waiting, and an input_required result
			// answered its request (MRTR): neither is unanswered.
			continue
		}
		what := call.Method
		if call.Name != "" {
			what += " " + strconv.Quote(call.Name)
		}
		extra := ""
		if call.TaskID != "" {
			extra = fmt.Sprintf(" (task %s last %q)", call.TaskID, call.TaskStatus)
		}
		c.report(call.Session, "message.request_unanswered", call.ReqSeq, call.ReqLine,
			fmt.Sprintf("%s id %s was never answered%s", what, call.ID, extra), nil)
	}
	for _, ss := range c.store.Sessions() {
		if n := ss.MissingFrames(); n > 0 {
			c.report(ss.ID, "message.frames_missing", 0, ss.FirstLine,
				fmt.Sprintf("%s %s missing from the log (seq gaps %d; lost records declare %d)", plural.Count(n, "frame"), plural.Of(n, "is", "are"), ss.Missing, ss.Lost), nil)
		}
	}
}

func (c *Checker) state(id string) *sessState {
	st, ok := c.sess[id]
	if !ok {
		st = &sessState{seenOnce: map[string]bool{}, counts: map[Signal]int{}}
		c.sess[id] = st
	}
	return st
}

// once reports whether key is new for the session.
func (c *Checker) once(sessionID, key string) bool {
	st := c.state(sessionID)
	if st.seenOnce[key] {
		return false
	}
	st.seenOnce[key] = true
	return true
}

// report emits one finding. The subject names the session and the frame's
// seq (or a tool), never the line, so fingerprints survive edits above.
func (c *Checker) report(sessionID, ruleID string, seq uint64, line int, msg string, ev *result.Exchange) {
	c.reportSubject(sessionID, ruleID, seq, line, "", msg, ev)
}

func (c *Checker) reportSubject(sessionID, ruleID string, seq uint64, line int, subject, msg string, ev *result.Exchange) {
	r := rules.MustLookup(ruleID)
	if c.redactedFrame && r.Redactable {
		// The log hides values here: "[REDACTED]" in a header or a body is
		// not the value the peer sent, so comparing them proves nothing.
		return
	}
	if subject == "" {
		subject = "session " + sessionID
		if seq > 0 {
			subject += " seq " + strconv.FormatUint(seq, 10)
		}
	} else {
		subject = "session " + sessionID + " " + subject
	}
	f := Finding{
		RuleFinding: result.RuleFinding{RuleID: r.ID, Level: r.Level, Class: r.Class,
			Subject: subject, Message: msg, Spec: r.Cite(), Evidence: ev},
		Signal: Signal(r.TrafficSignal()), Session: sessionID, Seq: seq,
	}
	if c.opts.File != "" || line > 0 {
		f.Location = &result.Location{File: c.opts.File, Line: line}
	}
	c.state(sessionID).counts[f.Signal]++
	if c.opts.OnFinding != nil {
		c.opts.OnFinding(f)
	}
}
