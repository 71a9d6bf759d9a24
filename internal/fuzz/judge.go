package fuzz

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Rule ids the judge reports (internal/rules catalogues them).
const (
	RuleCrash              = "fuzz.crash"
	RuleHang               = "fuzz.hang"
	RuleZombie             = "fuzz.zombie"
	RuleIDMismatch         = "fuzz.id_mismatch"
	RuleBatchUnanswered    = "fuzz.batch_unanswered"
	RuleParseErrorCode     = "fuzz.parse_error_code"
	RuleInvalidRequestCode = "fuzz.invalid_request_code"
	RuleMethodNotFoundCode = "fuzz.method_not_found_code"
	RuleInvalidParamsCode  = "fuzz.invalid_params_code"
	RuleInvalidArgsRun     = "fuzz.invalid_args_executed"
	RuleStdoutNotClean     = "stdio.stdout_not_clean"
	RuleMetaMissing        = "transport.meta_missing_not_32602"
	RuleMetaPartial        = "transport.meta_partial_not_32602"
	RuleNotificationAnswer = "stdio.notification_answered"
	// HTTP statuses with a MUST of the Streamable HTTP transport.
	RuleNotificationNot202  = "transport.notification_not_202"
	RuleUnknownMethodNot404 = "transport.unknown_method_not_404_32601"
	RuleUnsupportedVersion  = "transport.unsupported_version_not_32022"
)

// RuleIDs are every rule the judge can report.
var RuleIDs = []string{RuleCrash, RuleHang, RuleZombie, RuleIDMismatch, RuleBatchUnanswered, RuleParseErrorCode,
	RuleInvalidRequestCode, RuleMethodNotFoundCode, RuleInvalidParamsCode, RuleInvalidArgsRun, RuleStdoutNotClean,
	RuleMetaMissing, RuleMetaPartial, RuleNotificationAnswer, RuleNotificationNot202, RuleUnknownMethodNot404, RuleUnsupportedVersion}

// Liveness is what became of the well-formed request sent after a case's
// frames.
type Liveness string

const (
	LiveUnchecked Liveness = ""
	LiveAnswered  Liveness = "answered"
	// LiveSilent: no answer in time although the process runs or the
	// endpoint accepts connections.
	LiveSilent Liveness = "silent"
	// LiveEnded: the process exited, or the endpoint refused the request.
	LiveEnded Liveness = "ended"
)

// A Reply is what came back for one frame.
type Reply struct {
	// Sent is true once the frame was written whole.
	Sent bool
	// Answered: a message with the frame's id came back (stdio), or the
	// HTTP response was read (HTTP).
	Answered bool
	// TimedOut: an AnswerID frame got no answer in time.
	TimedOut bool
	// Raw is the answer: the message (stdio) or the response body (HTTP;
	// SSE events' data joined by newlines).
	Raw []byte
	// Status is the HTTP status (0 on stdio).
	Status int
}

// An Observation is what the runner saw of one case.
type Observation struct {
	// Replies has one entry per frame sent, in order.
	Replies []Reply
	// Unmatched are answers no frame's id matched, in arrival order: a
	// null or absent id (a parse error), or an id the server changed.
	Unmatched [][]byte
	// Stdout are lines the server wrote to stdout that are not JSON.
	Stdout [][]byte
	// Live is what became of the well-formed request sent afterwards;
	// LiveDetail says how it ended ("exit status 2", "no answer in 2s").
	Live       Liveness
	LiveDetail string
	// Wait is how long a frame waited for its answer ("300ms").
	Wait string
}

// A Finding is one rule the case broke.
type Finding struct {
	Rule string
	// Frame is the index of the frame it is about (-1: the case).
	Frame   int
	Message string
	// Response is the answer that shows it, if any.
	Response []byte
}

// Judge returns what c broke on a server speaking t, as seen in o. Only a
// MUST of the revision spoken makes a violation; the rules' classes are in
// the catalogue.
func Judge(c Case, t Target, o Observation) []Finding {
	var out []Finding
	last := len(o.Replies) - 1
	for _, line := range o.Stdout {
		out = append(out, Finding{Rule: RuleStdoutNotClean, Frame: max(last, 0), Message: fmt.Sprintf("the server wrote a line that is not JSON to stdout: %s", clip(line, 120)), Response: line})
		break
	}
	switch o.Live {
	case LiveEnded:
		out = append(out, Finding{Rule: RuleCrash, Frame: max(last, 0),
			Message: fmt.Sprintf("after %s the server ended (%s): the well-formed request sent next got no answer", frameWords(c, last), o.LiveDetail)})
		return out
	case LiveSilent:
		out = append(out, Finding{Rule: RuleZombie, Frame: max(last, 0),
			Message: fmt.Sprintf("after %s the server still runs but answers nothing: the well-formed request sent next got no answer (%s)", frameWords(c, last), o.LiveDetail)})
	}
	onlyNotifications := len(c.Frames) > 0
	for i, f := range c.Frames {
		if f.Answer != AnswerNone {
			onlyNotifications = false
		}
		if i >= len(o.Replies) {
			break
		}
		r := o.Replies[i]
		if r.TimedOut && f.Answer == AnswerID && o.Live == LiveAnswered {
			if answeredLate(o.Unmatched, f.ID) {
				// The answer came with the request's own id after the
				// case's wait (the client no longer matched it): slow,
				// which no MUST forbids, and the wait is mcpward's.
				continue
			}
			if other := otherAnswers(o.Unmatched, c.Frames); len(other) > 0 {
				out = append(out, Finding{Rule: RuleIDMismatch, Frame: i, Response: other[0],
					Message: fmt.Sprintf("the request with id %s was answered with another id: %s", clip([]byte(f.ID), 60), clip(other[0], 160))})
				continue
			}
			out = append(out, Finding{Rule: RuleHang, Frame: i, Message: fmt.Sprintf("the request %s got no answer within %s, although a request sent after it was answered", clip(f.Bytes, 100), o.Wait)})
			continue
		}
		if fd, ok := judgeStatus(c, t, i, f, r); ok {
			out = append(out, fd)
		}
		answers := [][]byte{}
		if r.Answered && len(r.Raw) > 0 {
			answers = append(answers, r.Raw)
		} else if f.Answer != AnswerID && countNot(c.Frames, AnswerID) == 1 {
			answers = o.Unmatched
		}
		switch f.Answer {
		case AnswerBatch:
			if t.Version == "2025-03-26" && !batchAnswered(f, r, o) {
				out = append(out, Finding{Rule: RuleBatchUnanswered, Frame: i, Message: "a 2025-03-26 server did not answer a batch (that revision requires receiving batches)"})
			}
			continue
		case AnswerNone:
			continue
		}
		for _, a := range answers {
			if fd, ok := judgeAnswer(c, i, f, a); ok {
				out = append(out, fd)
				break
			}
		}
	}
	if onlyNotifications && t.Transport != "http" && len(o.Unmatched) > 0 {
		out = append(out, Finding{Rule: RuleNotificationAnswer, Frame: 0, Response: o.Unmatched[0],
			Message: fmt.Sprintf("the server answered a notification: %s", clip(o.Unmatched[0], 160))})
	}
	return out
}

// judgeStatus checks the HTTP status of the answer to frame f where the
// Streamable HTTP transport of the revision spoken has a MUST on it, and
// nowhere else (the status of other JSON-RPC errors is unspecified):
// a notification accepted gets 202 with no body, one rejected an error
// status (HTTP-NOTIF-202, since 2025-03-26); on 2026-07-28 an unknown
// method gets 404 (HTTP-METHOD-404) and a request missing _meta keys 400
// (HTTP-META-400), each judged only when the body carries the code the
// clause pairs with the status (a wrong code is its own finding); from
// 2025-06-18 a legacy request with an unsupported MCP-Protocol-Version
// gets 400 (HDR-PROTO-VERSION).
func judgeStatus(c Case, t Target, i int, f Frame, r Reply) (Finding, bool) {
	if t.Transport != "http" || !r.Answered || r.Status == 0 {
		return Finding{}, false
	}
	body := bytes.TrimSpace(r.Raw)
	switch {
	case f.Answer == AnswerNone && t.Version >= "2025-03-26":
		if (r.Status == 202 && len(body) == 0) || r.Status >= 400 {
			return Finding{}, false
		}
		what := fmt.Sprintf("HTTP %d", r.Status)
		if len(body) > 0 {
			what += " with a body: " + clip(body, 120)
		}
		return Finding{Rule: RuleNotificationNot202, Frame: i, Response: body,
			Message: fmt.Sprintf("%s was answered %s; an accepted notification gets 202 with no body, a rejected one an error status", c.Note, what)}, true
	case c.Name == "http/version-header-unknown" && !t.Modern() && t.Version >= "2025-06-18":
		if r.Status == 400 {
			return Finding{}, false
		}
		return Finding{Rule: RuleUnsupportedVersion, Frame: i, Response: body,
			Message: fmt.Sprintf("%s was answered HTTP %d; from 2025-06-18 a request with an unsupported MCP-Protocol-Version gets 400", c.Note, r.Status)}, true
	case !t.Modern():
		return Finding{}, false
	}
	m, ok := decodeAnswer(body)
	if !ok || m.Error == nil {
		return Finding{}, false
	}
	switch {
	case slices.Equal(f.WantCodes, []int{CodeMethodNotFound}) && m.Error.Code == CodeMethodNotFound && r.Status != 404:
		return Finding{Rule: RuleUnknownMethodNot404, Frame: i, Response: body,
			Message: fmt.Sprintf("%s was answered -32601 with HTTP %d, not 404", c.Note, r.Status)}, true
	case (c.Name == "meta/missing" || c.Name == "meta/partial") && m.Error.Code == CodeInvalidParams && r.Status != 400:
		return Finding{Rule: codeRule(c, f), Frame: i, Response: body,
			Message: fmt.Sprintf("%s was answered -32602 with HTTP %d, not 400", c.Note, r.Status)}, true
	}
	return Finding{}, false
}

// judgeAnswer checks one answer to frame f against its expected codes.
func judgeAnswer(c Case, i int, f Frame, raw []byte) (Finding, bool) {
	m, ok := decodeAnswer(raw)
	if !ok {
		return Finding{}, false
	}
	if f.Answer == AnswerID && m.ID != nil && !sameID(m.ID, []byte(f.ID)) {
		return Finding{Rule: RuleIDMismatch, Frame: i, Response: raw,
			Message: fmt.Sprintf("the request with id %s was answered with id %s", clip([]byte(f.ID), 60), clip(m.ID, 60))}, true
	}
	if len(f.WantCodes) == 0 {
		return Finding{}, false
	}
	rule := codeRule(c, f)
	switch {
	case m.Error != nil:
		if slices.Contains(f.WantCodes, m.Error.Code) {
			return Finding{}, false
		}
		return Finding{Rule: rule, Frame: i, Response: raw,
			Message: fmt.Sprintf("%s was answered with error %d (%s), not %s", c.Note, m.Error.Code, clip([]byte(m.Error.Message), 80), codeWords(f.WantCodes))}, true
	case m.Result != nil && f.Invalid:
		var res struct {
			IsError bool `json:"isError"`
		}
		if json.Unmarshal(m.Result, &res) == nil && res.IsError {
			return Finding{}, false
		}
		return Finding{Rule: RuleInvalidArgsRun, Frame: i, Response: raw,
			Message: fmt.Sprintf("the tool ran with invalid arguments (%s) and answered a result without isError: %s", c.Note, clip(m.Result, 120))}, true
	case m.Result != nil:
		return Finding{Rule: rule, Frame: i, Response: raw,
			Message: fmt.Sprintf("%s was answered with a result, not error %s", c.Note, codeWords(f.WantCodes))}, true
	}
	return Finding{}, false
}

// codeRule is the rule for a wrong answer to f: the modern envelope's own
// rules for a missing or partial _meta, else by the first expected code.
func codeRule(c Case, f Frame) string {
	switch c.Name {
	case "meta/missing":
		return RuleMetaMissing
	case "meta/partial":
		return RuleMetaPartial
	}
	switch f.WantCodes[0] {
	case CodeParseError:
		return RuleParseErrorCode
	case CodeInvalidRequest:
		return RuleInvalidRequestCode
	case CodeMethodNotFound:
		return RuleMethodNotFoundCode
	}
	return RuleInvalidParamsCode
}

type answerMsg struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// decodeAnswer reads a JSON-RPC response (the first of an array).
func decodeAnswer(raw []byte) (answerMsg, bool) {
	raw = bytes.TrimSpace(raw)
	var m answerMsg
	if len(raw) > 0 && raw[0] == '[' {
		var arr []json.RawMessage
		if json.Unmarshal(raw, &arr) != nil || len(arr) == 0 {
			return m, false
		}
		raw = arr[0]
	}
	if json.Unmarshal(raw, &m) != nil || (m.Result == nil && m.Error == nil) {
		return m, false
	}
	return m, true
}

// sameID compares two JSON ids by meaning (a string with escapes equals
// the same string written plainly; numbers compare by their text).
func sameID(a, b []byte) bool {
	var x, y any
	da, db := json.NewDecoder(bytes.NewReader(a)), json.NewDecoder(bytes.NewReader(b))
	da.UseNumber()
	db.UseNumber()
	if da.Decode(&x) != nil || db.Decode(&y) != nil {
		return bytes.Equal(a, b)
	}
	return fmt.Sprintf("%T:%v", x, x) == fmt.Sprintf("%T:%v", y, y)
}

func batchAnswered(f Frame, r Reply, o Observation) bool {
	if r.Answered && len(bytes.TrimSpace(r.Raw)) > 0 {
		return true
	}
	for _, u := range o.Unmatched {
		if m, ok := decodeAnswer(u); ok && sameID(m.ID, []byte(f.ID)) {
			return true
		}
	}
	return false
}

func countNot(fs []Frame, a Answer) int {
	n := 0
	for _, f := range fs {
		if f.Answer != a {
			n++
		}
	}
	return n
}

func codeWords(codes []int) string {
	s := make([]string, len(codes))
	for i, c := range codes {
		s[i] = fmt.Sprint(c)
	}
	return strings.Join(s, " or ")
}

func frameWords(c Case, last int) string {
	if len(c.Frames) == 1 || last < 0 {
		return c.Note
	}
	return fmt.Sprintf("frame %d of %s", last+1, c.Note)
}

// clip returns b as one line of at most n runes.
func clip(b []byte, n int) string {
	s := strings.ToValidUTF8(string(b), "\ufffd")
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// answeredLate reports whether one of the unmatched answers carries id:
// the answer to a request the runner had stopped waiting for.
func answeredLate(unmatched [][]byte, id string) bool {
	return slices.ContainsFunc(unmatched, func(raw []byte) bool { return answers(raw, id) })
}

// answers reports whether raw is an answer with id.
func answers(raw []byte, id string) bool {
	m, ok := decodeAnswer(raw)
	return ok && m.ID != nil && sameID(m.ID, []byte(id))
}

// otherAnswers are the unmatched answers whose id is none of the case's
// requests' (late answers to them are not another id).
func otherAnswers(unmatched [][]byte, frames []Frame) [][]byte {
	var out [][]byte
	for _, raw := range unmatched {
		if !slices.ContainsFunc(frames, func(f Frame) bool { return f.Answer == AnswerID && answers(raw, f.ID) }) {
			out = append(out, raw)
		}
	}
	return out
}
