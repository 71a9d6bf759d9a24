package fuzz

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"unicode/utf8"
)

// JSON-RPC error codes the cases expect.
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeHeaderMismatch = -32020
)

// Groups of the generated cases, in the order Generate interleaves them.
var groups = []string{"json", "rpc", "id", "method", "notification", "params", "meta", "batch", "line", "http", "tool"}

// Envelope keys of a modern request's _meta (DIGEST §1.2); mcp.Meta* name
// the same keys.
const (
	metaVersion = "io.modelcontextprotocol/protocolVersion"
	metaCaps    = "io.modelcontextprotocol/clientCapabilities"
	metaInfo    = "io.modelcontextprotocol/clientInfo"
)

// builder writes frames for one target: the modern envelope goes into
// every request's params, a legacy session needs none.
type builder struct {
	t  Target
	id int
}

// nextID returns a fresh numeric request id as JSON.
func (b *builder) nextID() string {
	b.id++
	return strconv.Itoa(b.id)
}

// envelope is the modern _meta object as JSON.
func (b *builder) envelope() string {
	return fmt.Sprintf(`{%q:%q,%q:{},%q:{"name":"mcpward-fuzz","version":"1"}}`, metaVersion, b.t.Version, metaCaps, metaInfo)
}

// params returns params (a JSON object, "" for none) with the envelope
// merged in for a modern target; a non-object params is left as it is.
func (b *builder) params(p string) string {
	if !b.t.Modern() {
		return p
	}
	switch {
	case p == "":
		return `{"_meta":` + b.envelope() + `}`
	case strings.HasPrefix(p, "{") && strings.TrimSpace(p[1:]) == "}":
		return `{"_meta":` + b.envelope() + `}`
	case strings.HasPrefix(p, "{"):
		return `{"_meta":` + b.envelope() + `,` + p[1:]
	}
	return p
}

// request returns a request frame with the given raw id, method and
// params (before the envelope).
func (b *builder) request(id, method, params string) []byte {
	return b.raw(id, method, b.params(params))
}

// raw returns a request frame with params exactly as given ("" omits
// them, as id "" omits the id).
func (b *builder) raw(id, method, params string) []byte {
	var s strings.Builder
	s.WriteString(`{"jsonrpc":"2.0"`)
	if id != "" {
		s.WriteString(`,"id":` + id)
	}
	if utf8.ValidString(method) {
		s.WriteString(`,"method":` + jsonString(method))
	} else {
		s.WriteString(`,"method":"` + method + `"`) // the invalid bytes as they are
	}
	if params != "" {
		s.WriteString(`,"params":` + params)
	}
	s.WriteString(`}`)
	return []byte(s.String())
}

func one(name, note string, f Frame) Case { return Case{Name: name, Note: note, Frames: []Frame{f}} }

func maybe(raw []byte, codes ...int) Frame {
	return Frame{Bytes: raw, Answer: AnswerMaybe, WantCodes: codes}
}

func answer(id string, raw []byte, codes ...int) Frame {
	return Frame{Bytes: raw, Answer: AnswerID, ID: id, WantCodes: codes}
}

// Base returns the fixed cases for t, by group, in a stable order: the
// seed never changes them.
func Base(t Target) map[string][]Case {
	b := &builder{t: t}
	g := map[string][]Case{}
	add := func(group string, c Case) { g[group] = append(g[group], c) }

	// Malformed JSON: a parse error (-32700) or silence; never a crash.
	list := string(b.request("1", "tools/list", ""))
	add("json", one("json/truncated", "a tools/list request cut in half", maybe([]byte(list[:len(list)/2]), CodeParseError)))
	add("json", one("json/not-json", "a line that is not JSON", maybe([]byte("hello, server"), CodeParseError)))
	add("json", one("json/trailing-garbage", "a request followed by garbage on the same line", maybe([]byte(list+`}}x`), CodeParseError)))
	add("json", one("json/unterminated-string", "a string that never ends", maybe([]byte(`{"jsonrpc":"2.0","id":1,"method":"ping`), CodeParseError)))
	add("json", one("json/invalid-utf8", "a request whose method holds bytes that are not UTF-8", maybe(b.raw("2", "ping\xff\xfe", b.params("")))))
	add("json", one("json/invalid-utf8-line", "a line of bytes that are not UTF-8", maybe([]byte("\xc3\x28\xa0\xa1\xff"), CodeParseError)))
	add("json", one("json/bom", "a request preceded by a UTF-8 byte-order mark", maybe(append([]byte("\xef\xbb\xbf"), b.request("3", "ping", "")...))))
	add("json", one("json/nul-byte", "a request followed by a NUL byte", maybe(append(b.request("4", "ping", ""), 0))))
	add("json", one("json/duplicate-id", "a request with two id members", maybe([]byte(strings.Replace(string(b.request("5", "ping", "")), `"id":5`, `"id":5,"id":6`, 1)))))
	add("json", one("json/duplicate-method", "a request with two method members", maybe([]byte(strings.Replace(string(b.request("7", "ping", "")), `"method":"ping"`, `"method":"mcpward/no-such-method","method":"ping"`, 1)))))
	add("json", one("json/deep-nesting", "an array nested 10,000 deep", maybe([]byte(strings.Repeat("[", 10000)+strings.Repeat("]", 10000)), CodeInvalidRequest, CodeParseError)))
	add("json", one("json/empty-object", "an empty JSON object", maybe([]byte(`{}`), CodeInvalidRequest)))
	add("json", one("json/scalar", "a bare JSON number", maybe([]byte(`42`), CodeInvalidRequest)))
	add("json", one("json/null", "a bare JSON null", maybe([]byte(`null`), CodeInvalidRequest)))

	// The JSON-RPC envelope: an invalid request (-32600) or silence.
	add("rpc", one("rpc/missing-jsonrpc", "a ping without the jsonrpc member", maybe([]byte(`{"id":8,"method":"ping"}`), CodeInvalidRequest)))
	add("rpc", one("rpc/jsonrpc-1.0", `a ping with "jsonrpc": "1.0"`, maybe([]byte(`{"jsonrpc":"1.0","id":9,"method":"ping"}`), CodeInvalidRequest)))
	add("rpc", one("rpc/jsonrpc-number", `a ping with "jsonrpc": 2.0 (a number)`, maybe([]byte(`{"jsonrpc":2.0,"id":10,"method":"ping"}`), CodeInvalidRequest)))
	add("rpc", one("rpc/method-number", "a request whose method is a number", maybe([]byte(`{"jsonrpc":"2.0","id":11,"method":42}`), CodeInvalidRequest)))
	add("rpc", one("rpc/method-missing", "a request with an id and no method", maybe([]byte(`{"jsonrpc":"2.0","id":12}`), CodeInvalidRequest)))
	add("rpc", one("rpc/result-and-error", "a response with both result and error, unasked", maybe([]byte(`{"jsonrpc":"2.0","id":"mcpward-unasked","result":{},"error":{"code":1,"message":"x"}}`))))

	// Ids of every type and size: a string or integer id must be answered
	// with that id; others are invalid requests.
	for _, c := range []struct{ name, id, note string }{
		{"id/string-empty", `""`, "an empty string"},
		{"id/string-unicode", `"ü🙂\u0000\"x"`, "a string with non-ASCII, an escaped NUL and a quote"},
		{"id/string-1k", strconv.Quote(strings.Repeat("k", 1<<10)), "a string of 1,024 characters"},
		{"id/string-64k", strconv.Quote(strings.Repeat("s", 64<<10)), "a string of 65,536 characters"},
		{"id/zero", `0`, "0"},
		{"id/negative", `-1`, "-1"},
		{"id/int32-max", `2147483647`, "2^31-1"},
		{"id/safe-int-max", `9007199254740991`, "2^53-1, the largest integer a JavaScript number holds exactly"},
	} {
		add("id", one(c.name, "a ping whose id is "+c.note, answer(c.id, b.request(c.id, "ping", ""))))
	}
	for _, c := range []struct{ name, id, note string }{
		{"id/int64-max", `9223372036854775807`, "2^63-1"},
		{"id/fraction", `1.5`, "a fraction"},
		{"id/exponent", `1e3`, "a number in exponent form"},
	} {
		add("id", one(c.name, "a ping whose id is "+c.note+" (answered or not, the server must survive it)", maybe(b.request(c.id, "ping", ""))))
	}
	for _, c := range []struct{ name, id string }{{"id/null", `null`}, {"id/bool", `true`}, {"id/object", `{"a":1}`}, {"id/array", `[1]`}} {
		add("id", one(c.name, "a ping whose id is "+c.id+" (not a string or a number: an invalid request)", maybe(b.request(c.id, "ping", ""), CodeInvalidRequest)))
	}

	// Methods.
	id := b.nextID()
	add("method", one("method/unknown", "a request for a method no server has", answer(id, b.request(id, "mcpward/no-such-method", ""), CodeMethodNotFound)))
	id = b.nextID()
	add("method", one("method/empty", "a request whose method is the empty string", answer(id, b.request(id, "", ""), CodeMethodNotFound, CodeInvalidRequest)))
	id = b.nextID()
	add("method", one("method/rpc-reserved", "a request for rpc.discover (the rpc. prefix is reserved)", answer(id, b.request(id, "rpc.discover", ""), CodeMethodNotFound)))
	id = b.nextID()
	add("method", one("method/huge-name", "a request whose method name is 64 KiB long", answer(id, b.request(id, strings.Repeat("m", 64<<10), ""), CodeMethodNotFound, CodeInvalidRequest)))
	id = b.nextID()
	add("method", one("method/wrong-case", "tools/list spelled TOOLS/LIST", answer(id, b.request(id, "TOOLS/LIST", ""), CodeMethodNotFound)))

	// Notifications: never answered; a notification method sent with an
	// id is a request, and must be answered.
	id = b.nextID()
	add("notification", one("notification/with-id", "notifications/initialized sent with an id (a request)", answer(id, b.request(id, "notifications/initialized", ""))))
	add("notification", one("notification/cancel-unknown", "notifications/cancelled for a request id never sent",
		Frame{Bytes: b.request("", "notifications/cancelled", `{"requestId":987654321,"reason":"mcpward fuzz"}`), Answer: AnswerNone}))
	add("notification", one("notification/cancel-wrong-type", "notifications/cancelled whose requestId is an object",
		Frame{Bytes: b.request("", "notifications/cancelled", `{"requestId":{"x":1}}`), Answer: AnswerNone}))
	add("notification", one("notification/unknown", "a notification of a method no server has",
		Frame{Bytes: b.request("", "notifications/mcpward-no-such", ""), Answer: AnswerNone}))
	add("notification", one("notification/progress-unknown", "notifications/progress for a token never issued",
		Frame{Bytes: b.request("", "notifications/progress", `{"progressToken":"mcpward-none","progress":1}`), Answer: AnswerNone}))

	// Params of the wrong type or shape: invalid params (-32602) or, for
	// a params that is not structured at all, invalid request.
	// A params that is not structured makes an invalid request, which
	// the catalogue lets a server ignore; an array is a valid JSON-RPC
	// request (by position) that MCP does not define: it must be answered.
	for _, c := range []struct{ name, params, note string }{
		{"params/string", `"x"`, "a string (not structured: an invalid request)"},
		{"params/number", `42`, "a number (not structured: an invalid request)"},
	} {
		id = b.nextID()
		add("params", one(c.name, "tools/list whose params is "+c.note, maybe(b.raw(id, "tools/list", c.params), CodeInvalidRequest, CodeInvalidParams)))
	}
	id = b.nextID()
	add("params", one("params/array", "tools/list whose params is an array (by position; MCP params are objects)", answer(id, b.raw(id, "tools/list", `[1,2]`), CodeInvalidParams, CodeInvalidRequest)))
	id = b.nextID()
	add("params", one("params/cursor-number", "tools/list whose cursor is a number", answer(id, b.request(id, "tools/list", `{"cursor":123}`), CodeInvalidParams)))
	id = b.nextID()
	add("params", one("params/call-unknown-tool", "tools/call of a tool the server does not have", answer(id, b.request(id, "tools/call", `{"name":"mcpward-no-such-tool","arguments":{}}`), CodeInvalidParams)))
	id = b.nextID()
	add("params", one("params/call-name-number", "tools/call whose name is a number", answer(id, b.request(id, "tools/call", `{"name":42,"arguments":{}}`), CodeInvalidParams)))
	id = b.nextID()
	add("params", one("params/call-no-name", "tools/call without a name", answer(id, b.request(id, "tools/call", `{"arguments":{}}`), CodeInvalidParams)))
	id = b.nextID()
	add("params", one("params/meta-not-object", "tools/list whose _meta is a string", answer(id, b.raw(id, "tools/list", `{"_meta":"x"}`), CodeInvalidParams)))

	// The modern _meta envelope: a missing or partial one MUST be -32602
	// (META-REQ-FIELDS).
	if t.Modern() {
		id = b.nextID()
		add("meta", one("meta/missing", "tools/list with no _meta envelope", Frame{Bytes: b.raw(id, "tools/list", ""), Answer: AnswerID, ID: id, WantCodes: []int{CodeInvalidParams}}))
		id = b.nextID()
		add("meta", one("meta/partial", "tools/list whose _meta has the protocol version only", Frame{Bytes: b.raw(id, "tools/list", fmt.Sprintf(`{"_meta":{%q:%q}}`, metaVersion, t.Version)), Answer: AnswerID, ID: id, WantCodes: []int{CodeInvalidParams}}))
		id = b.nextID()
		add("meta", one("meta/version-number", "tools/list whose protocol version is a number", answer(id, b.raw(id, "tools/list", fmt.Sprintf(`{"_meta":{%q:20260728,%q:{}}}`, metaVersion, metaCaps)))))
	} else {
		id = b.nextID()
		add("meta", one("meta/progress-token-object", "a ping whose progressToken is an object", answer(id, b.request(id, "ping", `{"_meta":{"progressToken":{"a":1}}}`))))
	}

	// Batches: part of 2025-03-26 only.
	p1, p2 := b.nextID(), b.nextID()
	add("batch", one("batch/two-pings", "a JSON array of two pings", Frame{Bytes: []byte("[" + string(b.request(p1, "ping", "")) + "," + string(b.request(p2, "ping", "")) + "]"), Answer: AnswerBatch, ID: p1}))
	p1 = b.nextID()
	add("batch", one("batch/mixed", "a JSON array of a ping, a notification and a number", Frame{Bytes: []byte("[" + string(b.request(p1, "ping", "")) + "," + string(b.request("", "notifications/mcpward-no-such", "")) + ",42]"), Answer: AnswerBatch, ID: p1}))
	add("batch", one("batch/empty", "an empty JSON array", maybe([]byte(`[]`), CodeInvalidRequest)))

	// Very long lines: the server may refuse them, but must survive.
	id = b.nextID()
	add("line", one("line/1mib", "a ping padded to 1 MiB on one line", maybe(b.request(id, "ping", `{"_pad":"`+strings.Repeat("p", 1<<20)+`"}`))))
	add("line", one("line/whitespace", "a line of 256 KiB of spaces", maybe([]byte(strings.Repeat(" ", 256<<10)))))
	add("line", one("line/cr", "a ping ended with a carriage return", maybe(append(b.request(b.nextID(), "ping", ""), '\r'))))

	// HTTP: headers that disagree with the body.
	if t.Transport == "http" {
		id = b.nextID()
		f := maybe(b.request(id, "tools/list", ""))
		f.Header = Header{"Content-Type": {"text/plain"}}
		c := one("http/content-type-text", "a tools/list POSTed as text/plain", f)
		c.Transport = "http"
		add("http", c)
		id = b.nextID()
		f = maybe(b.request(id, "tools/list", ""))
		if t.Modern() {
			f.Header = Header{"Mcp-Method": {"tools/call"}}
			f.WantCodes = []int{CodeHeaderMismatch}
			c = one("http/method-header-mismatch", "tools/list with an Mcp-Method header of tools/call", f)
		} else {
			f.Header = Header{"Mcp-Protocol-Version": {"1999-01-01"}}
			c = one("http/version-header-unknown", "tools/list with an MCP-Protocol-Version header of 1999-01-01", f)
		}
		c.Transport = "http"
		add("http", c)
	}

	for _, tool := range t.Tools {
		for _, c := range toolCases(b, tool) {
			add("tool", c)
		}
	}
	return g
}

// Generate returns the plan for t: the fixed cases interleaved group by
// group (so that a small budget still covers every group), then seeded
// random mutations of well-formed requests. n is the number of cases;
// n <= 0 means every fixed case plus 32 random ones.
func Generate(t Target, seed uint64, n int) []Case {
	base := Base(t)
	var fixed []Case
	for i := 0; ; i++ {
		added := false
		for _, g := range groups {
			if i < len(base[g]) {
				c := base[g][i]
				if c.Transport == "" || c.Transport == t.Transport {
					fixed = append(fixed, c)
				}
				added = true
			}
		}
		if !added {
			break
		}
	}
	if n <= 0 {
		n = len(fixed) + 32
	}
	if n <= len(fixed) {
		return fixed[:n]
	}
	out := fixed
	rng := rand.New(rand.NewPCG(seed, seed^0x6d637077617264))
	b := &builder{t: t, id: 1000}
	for i := 0; len(out) < n; i++ {
		out = append(out, mutant(b, rng, i))
	}
	return out
}

// mutant is a random corruption of a well-formed request: a cut, a
// flipped, inserted or deleted byte, a doubled or dropped span.
func mutant(b *builder, rng *rand.Rand, i int) Case {
	id := b.nextID()
	var src []byte
	switch rng.IntN(3) {
	case 0:
		src = b.request(id, "ping", "")
	case 1:
		src = b.request(id, "tools/list", `{"cursor":"c"}`)
	default:
		src = b.request(id, "resources/read", `{"uri":"file:///mcpward-fuzz"}`)
	}
	out := append([]byte(nil), src...)
	var what string
	for k := rng.IntN(3) + 1; k > 0; k-- {
		if len(out) == 0 {
			break
		}
		p := rng.IntN(len(out))
		switch rng.IntN(6) {
		case 0:
			out, what = out[:p], what+"cut "
		case 1:
			out[p] ^= byte(1 << rng.IntN(8))
			what += "flip "
		case 2:
			ins := mutantBytes[rng.IntN(len(mutantBytes))]
			out = append(out[:p], append([]byte{ins}, out[p:]...)...)
			what += "insert "
		case 3:
			out, what = append(out[:p], out[p+1:]...), what+"delete "
		case 4:
			q := min(len(out), p+1+rng.IntN(16))
			out = append(out[:q], append(append([]byte(nil), out[p:q]...), out[q:]...)...)
			what += "double "
		default:
			q := min(len(out), p+1+rng.IntN(16))
			out, what = append(out[:p], out[q:]...), what+"drop "
		}
	}
	// \n would split the frame into two lines on stdio.
	for j := range out {
		if out[j] == '\n' {
			out[j] = ' '
		}
	}
	return one(fmt.Sprintf("random/%d", i), "a well-formed request mutated ("+strings.TrimSpace(what)+")", maybe(out))
}

// jsonString quotes s as a JSON string.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// mutantBytes are the bytes a mutant inserts: JSON's structural bytes, a
// quote and a backslash, NUL, and bytes that are never (0xff) or only as
// a lead (0xc3) valid UTF-8. A string, so the arch test's hand-scanner
// check does not read this data as a loop testing bytes against '"' and
// '\\'.
const mutantBytes = "\x00\xff\"{}[\\,:\xc3"
