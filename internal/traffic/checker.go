package traffic

import (
	"fmt"
	"strconv"

	"github.com/mcpward/mcpward/internal/calls"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/rules"
	"github.com/mcpward/mcpward/internal/session"
)

// A Signal is one of the ten counts `sessions check --fail-on` gates on
// (mcpsnoop's signals, kept so that its users find them).
type Signal string

// The signals.
const (
	SignalError      Signal = "error"
	SignalInvalid    Signal = "invalid"
	SignalWarn       Signal = "warn"
	SignalMismatch   Signal = "mismatch"
	SignalPending    Signal = "pending"
	SignalLateResult Signal = "late-result"
	SignalDrift      Signal = "drift"
	SignalDeprecated Signal = "deprecated"
	SignalIncomplete Signal = "incomplete"
	SignalSchema     Signal = "schema"
)

// Signals lists the signals in report order.
func Signals() []Signal {
	return []Signal{SignalError, SignalInvalid, SignalWarn, SignalMismatch, SignalPending,
		SignalLateResult, SignalDrift, SignalDeprecated, SignalIncomplete, SignalSchema}
}

// SignalOf returns the signal a traffic rule feeds. Rules not listed feed
// warn.
func SignalOf(ruleID string) Signal {
	if s, ok := ruleSignals[ruleID]; ok {
		return s
	}
	return SignalWarn
}

var ruleSignals = map[string]Signal{
	"message.invalid_frame":                     SignalInvalid,
	"stdio.stdout_not_clean":                    SignalInvalid,
	"message.batch_not_allowed":                 SignalInvalid,
	"message.error_response":                    SignalError,
	"transport.http_error":                      SignalError,
	"message.request_unanswered":                SignalPending,
	"message.late_result":                       SignalLateResult,
	"message.frames_missing":                    SignalIncomplete,
	"transport.header_missing":                  SignalMismatch,
	"transport.header_method_mismatch":          SignalMismatch,
	"transport.header_name_mismatch":            SignalMismatch,
	"transport.header_version_mismatch":         SignalMismatch,
	"transport.header_mismatch_reported":        SignalMismatch,
	"xhdr.param_header_missing":                 SignalMismatch,
	"xhdr.param_header_mismatch":                SignalMismatch,
	"xhdr.param_header_invalid":                 SignalMismatch,
	"era.deprecated_method":                     SignalDeprecated,
	"era.deprecated_capability":                 SignalDeprecated,
	"message.schema_dialect":                    SignalSchema,
	"message.schema_external_ref":               SignalSchema,
	"message.schema_ref":                        SignalSchema,
	"message.schema_composition":                SignalSchema,
	"message.schema_untyped_property":           SignalSchema,
	"degrade.input_required_without_capability": SignalWarn,
}

// RuleIDs returns every rule id the traffic checker can report, sorted.
func RuleIDs() []string {
	var out []string
	for _, r := range rules.All() {
		if r.Traffic && implemented(r.ID) {
			out = append(out, r.ID)
		}
	}
	out = append(out, "degrade.input_required_without_capability")
	return out
}

// notImplemented are catalogue rules marked Traffic that this checker does
// not judge yet (they need evidence a log does not hold).
var notImplemented = map[string]bool{
	"stdio.notification_answered":        true, // a response to a notification has no id to tell it by
	"transport.discover_not_implemented": true, // needs the server's claimed era, not a request's
}

func implemented(id string) bool { return !notImplemented[id] }

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
	// run (see redactionSensitive).
	redactedFrame bool
}

type sessState struct {
	listenSeen    bool
	truncatedReqs bool
	seenOnce      map[string]bool // dedup keys (rule+tool, rule+cap, exchange)
	counts        map[Signal]int
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
				fmt.Sprintf("%d frames are missing from the log (seq gaps %d; lost records declare %d)", n, ss.Missing, ss.Lost), nil)
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
// redactionSensitive are the rules that compare values the redactor may
// hide (a header with its body parameter, a requestState with its echo).
// On a record flagged redacted they are not judged.
var redactionSensitive = map[string]bool{
	"transport.header_name_mismatch": true,
	"xhdr.param_header_mismatch":     true,
	"xhdr.param_header_invalid":      true,
	"xhdr.param_header_missing":      true,
	"message.mrtr_state_not_echoed":  true,
}

func (c *Checker) report(sessionID, ruleID string, seq uint64, line int, msg string, ev *result.Exchange) {
	c.reportSubject(sessionID, ruleID, seq, line, "", msg, ev)
}

func (c *Checker) reportSubject(sessionID, ruleID string, seq uint64, line int, subject, msg string, ev *result.Exchange) {
	if c.redactedFrame && redactionSensitive[ruleID] {
		// The log hides values here: "[REDACTED]" in a header or a body is
		// not the value the peer sent, so comparing them proves nothing.
		return
	}
	r := rules.MustLookup(ruleID)
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
		Signal: SignalOf(r.ID), Session: sessionID, Seq: seq,
	}
	if c.opts.File != "" || line > 0 {
		f.Location = &result.Location{File: c.opts.File, Line: line}
	}
	c.state(sessionID).counts[f.Signal]++
	if c.opts.OnFinding != nil {
		c.opts.OnFinding(f)
	}
}
