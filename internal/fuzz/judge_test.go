package fuzz

import (
	"fmt"
	"slices"
	"testing"
)

func rulesOf(fs []Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Rule)
	}
	return out
}

func TestJudge(t *testing.T) {
	req := func(f Frame) Case { return Case{Name: "t", Note: "the case", Frames: []Frame{f}} }
	ping := Frame{Bytes: []byte(`{"jsonrpc":"2.0","id":7,"method":"ping"}`), Answer: AnswerID, ID: "7"}
	parse := Frame{Bytes: []byte(`{"jsonrpc"`), Answer: AnswerMaybe, WantCodes: []int{CodeParseError}}
	unknown := Frame{Bytes: []byte(`{"jsonrpc":"2.0","id":3,"method":"x"}`), Answer: AnswerID, ID: "3", WantCodes: []int{CodeMethodNotFound}}
	call := Frame{Bytes: []byte(`{"jsonrpc":"2.0","id":4,"method":"tools/call"}`), Answer: AnswerID, ID: "4", WantCodes: []int{CodeInvalidParams}, Invalid: true}
	batch := Frame{Bytes: []byte(`[{"jsonrpc":"2.0","id":5,"method":"ping"}]`), Answer: AnswerBatch, ID: "5"}
	note := Frame{Bytes: []byte(`{"jsonrpc":"2.0","method":"notifications/cancelled"}`), Answer: AnswerNone}
	answered := func(raw string) Reply { return Reply{Sent: true, Answered: true, Raw: []byte(raw)} }
	alive := func(rs ...Reply) Observation { return Observation{Replies: rs, Live: LiveAnswered, Wait: "1s"} }
	sent := Reply{Sent: true}
	legacy, v0326 := legacyStdio, Target{Era: "legacy", Version: "2025-03-26", Transport: "stdio"}
	tests := []struct {
		name string
		c    Case
		t    Target
		o    Observation
		want []string
	}{
		{"answered ping", req(ping), legacy, alive(answered(`{"jsonrpc":"2.0","id":7,"result":{}}`)), nil},
		{"crash", req(parse), legacy, Observation{Replies: []Reply{sent}, Live: LiveEnded, LiveDetail: "exit code 2"}, []string{RuleCrash}},
		{"crash and junk", req(parse), legacy, Observation{Replies: []Reply{sent}, Live: LiveEnded, Stdout: [][]byte{[]byte("panic: x")}}, []string{RuleStdoutNotClean, RuleCrash}},
		{"zombie", req(parse), legacy, Observation{Replies: []Reply{sent}, Live: LiveSilent}, []string{RuleZombie}},
		{"hang", req(ping), legacy, alive(Reply{Sent: true, TimedOut: true}), []string{RuleHang}},
		{"hang hidden by a zombie is the zombie", req(ping), legacy, Observation{Replies: []Reply{{Sent: true, TimedOut: true}}, Live: LiveSilent}, []string{RuleZombie}},
		{"answered late with its own id is slow, not another id", req(ping), legacy, Observation{Replies: []Reply{{Sent: true, TimedOut: true}}, Live: LiveAnswered, Unmatched: [][]byte{[]byte(`{"jsonrpc":"2.0","id":7,"result":{}}`)}}, nil},
		{"answered with another id", req(ping), legacy, Observation{Replies: []Reply{{Sent: true, TimedOut: true}}, Live: LiveAnswered, Unmatched: [][]byte{[]byte(`{"jsonrpc":"2.0","id":"7","result":{}}`)}}, []string{RuleIDMismatch}},
		{"parse error right", req(parse), legacy, Observation{Replies: []Reply{sent}, Live: LiveAnswered, Unmatched: [][]byte{[]byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"p"}}`)}}, nil},
		{"parse error silent", req(parse), legacy, alive(sent), nil},
		{"parse error wrong code", req(parse), legacy, Observation{Replies: []Reply{sent}, Live: LiveAnswered, Unmatched: [][]byte{[]byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"internal"}}`)}}, []string{RuleParseErrorCode}},
		{"method not found right", req(unknown), legacy, alive(answered(`{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"m"}}`)), nil},
		{"method not found wrong", req(unknown), legacy, alive(answered(`{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"m"}}`)), []string{RuleMethodNotFoundCode}},
		{"unknown method given a result", req(unknown), legacy, alive(answered(`{"jsonrpc":"2.0","id":3,"result":{}}`)), []string{RuleMethodNotFoundCode}},
		{"invalid args rejected -32602", req(call), legacy, alive(answered(`{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"bad"}}`)), nil},
		{"invalid args isError", req(call), legacy, alive(answered(`{"jsonrpc":"2.0","id":4,"result":{"content":[],"isError":true}}`)), nil},
		{"invalid args executed", req(call), legacy, alive(answered(`{"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"ok"}]}}`)), []string{RuleInvalidArgsRun}},
		{"invalid args other code", req(call), legacy, alive(answered(`{"jsonrpc":"2.0","id":4,"error":{"code":-32603,"message":"boom"}}`)), []string{RuleInvalidParamsCode}},
		{"batch unanswered at 2025-03-26", req(batch), v0326, alive(sent), []string{RuleBatchUnanswered}},
		{"batch answered at 2025-03-26", req(batch), v0326, Observation{Replies: []Reply{sent}, Live: LiveAnswered, Unmatched: [][]byte{[]byte(`{"jsonrpc":"2.0","id":5,"result":{}}`)}}, nil},
		{"batch ignored at 2025-11-25", req(batch), legacy, alive(sent), nil},
		{"notification silent", req(note), legacy, alive(sent), nil},
		{"notification answered", req(note), legacy, Observation{Replies: []Reply{sent}, Live: LiveAnswered, Unmatched: [][]byte{[]byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"x"}}`)}}, []string{RuleNotificationAnswer}},
		{"meta missing wrong code", Case{Name: "meta/missing", Note: "n", Frames: []Frame{{Bytes: []byte(`{}`), Answer: AnswerID, ID: "9", WantCodes: []int{CodeInvalidParams}}}}, modernStdio,
			alive(answered(`{"jsonrpc":"2.0","id":9,"result":{"tools":[]}}`)), []string{RuleMetaMissing}},
		{"answer with another id echoed", req(ping), legacy, alive(answered(`{"jsonrpc":"2.0","id":8,"result":{}}`)), []string{RuleIDMismatch}},
		{"http notification 202", req(note), modernHTTP, alive(Reply{Sent: true, Answered: true, Status: 202}), nil},
		{"http notification rejected 400", req(note), modernHTTP, alive(Reply{Sent: true, Answered: true, Status: 400, Raw: []byte(`{"jsonrpc":"2.0","error":{"code":-32600,"message":"x"}}`)}), nil},
		{"http notification 200", req(note), modernHTTP, alive(Reply{Sent: true, Answered: true, Status: 200}), []string{RuleNotificationNot202}},
		{"http notification 202 with a body", req(note), legacyHTTP, alive(Reply{Sent: true, Answered: true, Status: 202, Raw: []byte(`{}`)}), []string{RuleNotificationNot202}},
		{"http notification 200 before 2025-03-26", req(note), Target{Era: "legacy", Version: "2024-11-05", Transport: "http"}, alive(Reply{Sent: true, Answered: true, Status: 200}), nil},
		{"http unknown method 404", req(unknown), modernHTTP, alive(Reply{Sent: true, Answered: true, Status: 404, Raw: []byte(`{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"m"}}`)}), nil},
		{"http unknown method 200", req(unknown), modernHTTP, alive(Reply{Sent: true, Answered: true, Status: 200, Raw: []byte(`{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"m"}}`)}), []string{RuleUnknownMethodNot404}},
		{"http unknown method 200 on a legacy server", req(unknown), legacyHTTP, alive(Reply{Sent: true, Answered: true, Status: 200, Raw: []byte(`{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"m"}}`)}), nil},
		{"http meta missing 200", Case{Name: "meta/missing", Note: "n", Frames: []Frame{{Bytes: []byte(`{}`), Answer: AnswerID, ID: "9", WantCodes: []int{CodeInvalidParams}}}}, modernHTTP,
			alive(Reply{Sent: true, Answered: true, Status: 200, Raw: []byte(`{"jsonrpc":"2.0","id":9,"error":{"code":-32602,"message":"m"}}`)}), []string{RuleMetaMissing}},
		{"http meta missing 400", Case{Name: "meta/missing", Note: "n", Frames: []Frame{{Bytes: []byte(`{}`), Answer: AnswerID, ID: "9", WantCodes: []int{CodeInvalidParams}}}}, modernHTTP,
			alive(Reply{Sent: true, Answered: true, Status: 400, Raw: []byte(`{"jsonrpc":"2.0","id":9,"error":{"code":-32602,"message":"m"}}`)}), nil},
		{"http unknown version header 400", Case{Name: "http/version-header-unknown", Note: "n", Frames: []Frame{{Bytes: []byte(`{}`), Answer: AnswerMaybe}}}, legacyHTTP,
			alive(Reply{Sent: true, Answered: true, Status: 400}), nil},
		{"http unknown version header 200", Case{Name: "http/version-header-unknown", Note: "n", Frames: []Frame{{Bytes: []byte(`{}`), Answer: AnswerMaybe}}}, legacyHTTP,
			alive(Reply{Sent: true, Answered: true, Status: 200, Raw: []byte(`{"jsonrpc":"2.0","id":1,"result":{}}`)}), []string{RuleUnsupportedVersion}},
		{"http unknown version header 200 at 2025-03-26", Case{Name: "http/version-header-unknown", Note: "n", Frames: []Frame{{Bytes: []byte(`{}`), Answer: AnswerMaybe}}}, Target{Era: "legacy", Version: "2025-03-26", Transport: "http"},
			alive(Reply{Sent: true, Answered: true, Status: 200}), nil},
		{"escaped string id is the same id", req(Frame{Bytes: []byte(`{}`), Answer: AnswerID, ID: `"a"`}), legacy, alive(answered(`{"jsonrpc":"2.0","id":"\u0061","result":{}}`)), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := rulesOf(Judge(tt.c, tt.t, tt.o))
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("Judge = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestMinimise(t *testing.T) {
	items := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
	calls := 0
	got := Minimise(items, 100, func(s []int) bool { calls++; return slices.Contains(s, 3) && slices.Contains(s, 11) })
	if fmt.Sprint(got) != "[3 11]" {
		t.Errorf("Minimise = %v, want [3 11]", got)
	}
	calls = 0
	got = Minimise(items, 3, func(s []int) bool { calls++; return slices.Contains(s, 3) })
	if calls > 3 || len(got) == 0 || !slices.Contains(got, 3) {
		t.Errorf("budget 3: %d calls, result %v", calls, got)
	}
	if got := Minimise([]int{5}, 10, func([]int) bool { t.Fatal("called for one item"); return false }); fmt.Sprint(got) != "[5]" {
		t.Errorf("one item: %v", got)
	}
}

func TestMinimiseCaseBytes(t *testing.T) {
	c := Case{Name: "x", Frames: []Frame{
		{Bytes: []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`), Answer: AnswerID, ID: "1"},
		{Bytes: []byte(`{"jsonrpc":"2.0","id":2,"method":"crash\u0000now"}`), Answer: AnswerID, ID: "2"},
	}}
	// The "server" crashes on any frame holding a backslash.
	still := func(c Case) bool {
		for _, f := range c.Frames {
			if slices.Contains(f.Bytes, '\\') {
				return true
			}
		}
		return false
	}
	got := MinimiseCase(c, RuleCrash, 200, still)
	if len(got.Frames) != 1 || string(got.Frames[0].Bytes) != `\` || got.Frames[0].Answer != AnswerMaybe {
		t.Errorf("minimised to %d frames: %q (%s)", len(got.Frames), got.Frames[0].Bytes, got.Frames[0].Answer)
	}
	// A wrong code depends on what the frame means: its bytes stay.
	got = MinimiseCase(c, RuleMethodNotFoundCode, 200, still)
	if len(got.Frames) != 1 || string(got.Frames[0].Bytes) != string(c.Frames[1].Bytes) {
		t.Errorf("code finding: frames %d, %q", len(got.Frames), got.Frames[0].Bytes)
	}
	if string(c.Frames[1].Bytes) != `{"jsonrpc":"2.0","id":2,"method":"crash\u0000now"}` {
		t.Error("MinimiseCase changed its input")
	}
}
