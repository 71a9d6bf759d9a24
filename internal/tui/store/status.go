package store

import "github.com/mcpward/mcpward/internal/calls"

// Status is a row's STATUS column: ok, err, warn, pending, streaming,
// superseded, cancel, late, bad, input_required, state!, a task status, or
// unanswered (an open call of a session that ended, see Row.Unanswered).
func Status(r *Row) string {
	switch r.Kind {
	case calls.KindInvalid:
		return "bad"
	case calls.KindStderr, calls.KindMeta:
		return ""
	case calls.KindTransport:
		if r.HTTPStatus >= 400 {
			return "err"
		}
		return ""
	}
	if r.Notes&(calls.NoteStateChanged|calls.NoteStateMissing|calls.NoteStateInvented) != 0 {
		return "state!"
	}
	if r.Kind == calls.KindResponse {
		switch {
		case r.Notes&calls.NoteLate != 0:
			return "late"
		case r.IsErr || r.HTTPStatus >= 400:
			return "err"
		case r.Notes&calls.NoteParked != 0:
			return "input_required"
		case r.Notes&(calls.NoteUnmatched|calls.NoteDuplicate) != 0:
			return "warn"
		}
		return "ok"
	}
	if Warning(r) != "" {
		return "warn"
	}
	if r.Kind != calls.KindRequest || r.Call == nil {
		return ""
	}
	c := r.Call
	if r.Unanswered() {
		return "unanswered"
	}
	if c.TaskStatus != "" && c.State.Open() {
		return c.TaskStatus
	}
	switch c.State {
	case calls.Pending:
		return "pending"
	case calls.Streaming:
		return "streaming"
	case calls.Completed:
		return "ok"
	case calls.Failed:
		return "err"
	case calls.Superseded:
		return "superseded"
	case calls.Cancelled:
		return "cancel"
	case calls.LateResult:
		return "late"
	}
	return ""
}

// Warning is the row's warning text, or "".
func Warning(r *Row) string {
	n := r.Notes
	switch {
	case r.Truncated:
		return "truncated"
	case n&calls.NoteUnmatched != 0:
		return "no matching request"
	case n&calls.NoteDuplicate != 0:
		return "duplicate response"
	case n&calls.NoteIDReused != 0:
		return "id reused while in flight"
	case n&calls.NoteProgressLate != 0:
		return "progress after settle"
	case n&calls.NoteProgressNotIncreasing != 0:
		return "progress not increasing"
	case n&calls.NoteStateChanged != 0:
		return "requestState changed"
	case n&calls.NoteStateMissing != 0:
		return "requestState missing"
	case n&calls.NoteStateInvented != 0:
		return "requestState invented"
	}
	return ""
}
