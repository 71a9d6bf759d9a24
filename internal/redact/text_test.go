package redact

import (
	"strings"
	"testing"
)

// TestKeyEveryShape plants a --redact-key value in every shape a kept copy
// can have and checks that no part of it survives (issue 12, item 8).
func TestKeyEveryShape(t *testing.T) {
	const secret = "alice-ssn-123"
	leaks := func(b string) bool { return strings.Contains(b, "alice") }
	r := mustNew(t, Config{Keys: []string{"ssn"}})
	frames := []struct{ name, in string }{
		{"stderr key=value", "2026-12-01 INFO loaded record ssn=alice-ssn-123 for user 7\n"},
		{"stderr key: value", "lookup: ssn: alice-ssn-123, status ok"},
		{"stderr quoted", "lookup ssn='alice-ssn-123' ok"},
		{"stderr JSON in a log line", `time=1 msg="got" body={"user":"bob","ssn":"alice-ssn-123"}`},
		{"JSON with trailing bytes", `{"jsonrpc":"2.0","id":1,"params":{"ssn":"alice-ssn-123"}} trailing`},
		{"JSON with trailing JSON", `{"a":1}{"ssn":"alice-ssn-123"}`},
		{"pretty-printed, one line of it", `    "ssn": "alice-ssn-123",`},
		{"pretty-printed, object value on its line", `  "SSN" : {`},
		{"pretty-printed whole, with trailing bytes", "{\n  \"id\": 1,\n  \"ssn\": {\n    \"v\": \"alice-ssn-123\"\n  }\n}\nEOF"},
		{"pretty-printed whole", "{\n  \"id\": 1,\n  \"ssn\": \"alice-ssn-123\"\n}\n"},
		{"form-encoded body", "name=bob&ssn=alice-ssn-123&plan=pro"},
		{"query string in a frame", `GET /lookup?ssn=alice-ssn-123&x=1 HTTP/1.1`},
		{"JSON text inside a JSON string", `{"result":{"content":[{"type":"text","text":"{\n  \"ssn\": \"alice-ssn-123\"\n}"}]}}`},
		{"query inside a JSON string", `{"result":{"url":"https://example.com/cb?ssn=alice-ssn-123&next=1"}}`},
		{"truncated after the value", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":{"ssn":"alice-ssn-123","note":"xxxxxxxx`},
		{"truncated inside the value", `{"jsonrpc":"2.0","id":1,"params":{"arguments":{"ssn":"alice-ss`},
		{"truncated inside an object value", `{"params":{"ssn":{"v":"alice-ssn-123","w":[1,2`},
		{"truncated SSE event", "event: message\ndata: {\"result\":{\"ssn\":\"alice-ssn-1"},
		{"CRLF lines", "a: 1\r\nssn: alice-ssn-123\r\n"},
	}
	for _, tt := range frames {
		t.Run(tt.name, func(t *testing.T) {
			got, changed := r.Frame([]byte(tt.in))
			if !changed || leaks(string(got)) {
				t.Errorf("Frame(%q) = %q, %v; the secret leaks", tt.in, got, changed)
			}
		})
	}
	headers := []struct{ name, value string }{
		{"Location", "https://example.com/callback?code=1&ssn=" + secret},
		{"Path", "/mcp?ssn=" + secret},
		{"Content-Location", "/items?SSN=" + secret + "#frag"},
		{"X-Ssn", secret},
		{"Link", `<https://example.com/next?ssn=` + secret + `>; rel="next"`},
	}
	for _, h := range headers {
		if got, changed := r.Header(h.name, h.value); !changed || leaks(got) {
			t.Errorf("Header(%q, %q) = %q, %v; the secret leaks", h.name, h.value, got, changed)
		}
	}
	if got, changed := r.Text("upstream: GET /x?ssn=" + secret + ": 502"); !changed || leaks(got) {
		t.Errorf("Text() = %q, %v; the secret leaks", got, changed)
	}
}

// TestTextShapes pins the exact output of the text scanner: only the value
// goes, quotes and neighbours stay.
func TestTextShapes(t *testing.T) {
	keys := Config{Keys: []string{"ssn"}}
	secrets := Config{Secrets: true}
	tests := []frameCase{
		{"form", keys, "a=1&ssn=123-45&b=2", "a=1&ssn=[REDACTED]&b=2"},
		{"JSON with trailing bytes keeps its JSON", keys, `{"ssn":"x1"} tail ssn=y`, `{"ssn":"[REDACTED]"} tail ssn=[REDACTED]`},
		{"truncated string hidden to the end", keys, `{"a":{"ssn":"12345`, `{"a":{"ssn":"[REDACTED]`},
		{"truncated object hidden to the end", keys, `{"ssn":{"a":"1","b":`, `{"ssn":[REDACTED]`},
		{"closed object hidden whole", keys, `x {"ssn":{"a":"1"},"b":2} y`, `x {"ssn":[REDACTED],"b":2} y`},
		{"dotted name", keys, "user.ssn=1234 ok", "user.ssn=[REDACTED] ok"},
		{"literals kept", keys, `"ssn": null, broken`, ""},
		{"other names kept", keys, "ssnx=1 xssn=2 ssn==3 a::ssn", ""},
		{"no key rule no text scan", Config{Values: []string{"zzz"}}, "ssn=1", ""},
		{"truncated password", secrets, `{"params":{"password":"hunter2-pa`, `{"params":{"password":"[REDACTED]`},
		{"authorization keeps its scheme", secrets, "sent Authorization: Bearer abc123", "sent Authorization: Bearer [REDACTED]"},
		{"progress token is no secret", secrets, "progress_token=7", ""},
		{"key in a JSON string", keys, `{"text":"ssn: 42-1, name: bob"}`, `{"text":"ssn: [REDACTED], name: bob"}`},
		{"path rule on a truncated frame", Config{Paths: []string{"params.arguments.pin"}},
			`{"jsonrpc":"2.0","method":"tools/call","params":{"arguments":{"pin":"1234","note":"xx`,
			`{"jsonrpc":"2.0","method":"tools/call","params":{"arguments":{"pin":"[REDACTED]","note":"xx`},
		{"path rule in a query string", Config{Paths: []string{"$..pin"}}, "GET /x?pin=1234", "GET /x?pin=[REDACTED]"},
		{"path rule keeps other JSON strings", Config{Paths: []string{"params.pin"}}, `{"params":{"x":"pin=1"}}`, ""},
		{"key in a JSON string, escaped quotes", keys, `{"text":"{\"ssn\":\"42-1\"}"}`, `{"text":"{\"ssn\":\"[REDACTED]\"}"}`},
		// Issue 26 item 6: a command line echoed on stderr.
		{"flag and value on stderr", secrets, "starting server --api-key sk-abcdefgh1234 --port 80", "starting server --api-key [REDACTED] --port 80"},
		{"short flag and value", secrets, "run -token abc123 now", "run -token [REDACTED] now"},
		{"flag followed by a flag keeps it", secrets, "run --api-key --verbose", ""},
		{"not a flag: a word", secrets, "the api-key sk-1 is used", ""},
	}
	runFrameCases(t, tests)
}

// A frameCase is one Frame call: want "" means unchanged.
type frameCase struct {
	name string
	cfg  Config
	in   string
	want string
}

// runFrameCases checks each case's exact output and changed flag.
func runFrameCases(t *testing.T, tests []frameCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := mustNew(t, tt.cfg)
			got, changed := r.Frame([]byte(tt.in))
			want := tt.want
			if want == "" {
				want = tt.in
			}
			if string(got) != want || changed != (tt.want != "") {
				t.Errorf("Frame(%q)\n = %q, %v\nwant %q", tt.in, got, changed, want)
			}
		})
	}
}

// TestURLUserinfo: --redact-secrets hides the password of a URL wherever
// it is kept: a server's argv, a --target URL in a start record, an error
// message (issue 12, item 7).
func TestURLUserinfo(t *testing.T) {
	r := mustNew(t, Config{Secrets: true})
	frames := []struct{ in, want string }{
		{`{"argv":["server","postgres://admin:pw-s3cret@localhost/db"]}`, `{"argv":["server","postgres://admin:[REDACTED]@localhost/db"]}`},
		{`{"target":"http://admin:pw-s3cret@127.0.0.1:8080/mcp","listen":"127.0.0.1:7000"}`, `{"target":"http://admin:[REDACTED]@127.0.0.1:8080/mcp","listen":"127.0.0.1:7000"}`},
		{`{"argv":["server","--db=mysql://root:pw@s3cret@db:3306/x"]}`, `{"argv":["server","--db=mysql://root:[REDACTED]@db:3306/x"]}`},
		{`{"env":"DATABASE_URL=redis://:pw-s3cret@cache"}`, `{"env":"DATABASE_URL=redis://:[REDACTED]@cache"}`},
		{"connecting to amqp://guest:pw-s3cret@mq/vhost\n", "connecting to amqp://guest:[REDACTED]@mq/vhost\n"},
		{`{"u":"https://abcdefghijklmnopqrstuvwxyz012345@git.example.com/r.git"}`, `{"u":"https://[REDACTED]@git.example.com/r.git"}`},
		// Not userinfo: a port, an e-mail address after the URL, a short user.
		{`{"u":"http://127.0.0.1:8080/a?x=1 mail bob@example.com","v":"ssh://git@github.com/o/r"}`, ""},
	}
	for _, tt := range frames {
		got, changed := r.Frame([]byte(tt.in))
		want := tt.want
		if want == "" {
			want = tt.in
		}
		if string(got) != want || changed != (tt.want != "") {
			t.Errorf("Frame(%s) = %s, %v; want %s", tt.in, got, changed, want)
		}
	}
	argv := []string{"psql", "postgres://admin:pw-s3cret@localhost/db"}
	if got, _ := r.Argv(argv); strings.Contains(strings.Join(got, " "), "s3cret") {
		t.Errorf("Argv(%q) = %q; the password leaks", argv, got)
	}
	if got, _ := r.Header("Location", "https://u:pw-s3cret@example.com/"); strings.Contains(got, "s3cret") {
		t.Errorf("Header(Location) = %q; the password leaks", got)
	}
}

// TestSecretSuffixesSeen pins that the fast path of isSecretName lets every
// credential suffix through.
func TestSecretSuffixesSeen(t *testing.T) {
	for _, s := range secretSuffixes {
		if !isSecretName([]byte(s)) || !isSecretName([]byte("my"+s)) {
			t.Errorf("isSecretName(%q) = false", s)
		}
	}
}

// TestLearnedArgumentTruncated: an argument a tool's schema declares
// secret is hidden in a truncated call too, where the call's tool cannot be
// read.
func TestLearnedArgumentTruncated(t *testing.T) {
	r := mustNew(t, Config{Secrets: true})
	r.ObserveTools([]byte(`{"tools":[{"name":"deploy","inputSchema":{"type":"object","properties":{"pin":{"type":"string","format":"password"}}}}]}`))
	in := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"deploy","arguments":{"pin":"4321","x":"yyyy`
	got, _ := r.Frame([]byte(in))
	if strings.Contains(string(got), "4321") {
		t.Errorf("Frame(truncated call) = %s; the learned secret argument leaks", got)
	}
}

// TestIssue26Shapes: the shapes of issue 26 item 6 under --redact-secrets
// (and --redact-key), each with its exact output: only the value goes,
// quotes (escaped or not) and neighbours stay.
func TestIssue26Shapes(t *testing.T) {
	secrets := Config{Secrets: true}
	keys := Config{Keys: []string{"ssn"}}
	tests := []frameCase{
		// (a) JSON text inside a JSON string, escaped once and twice.
		{"escaped once", secrets,
			`{"text":"{\"api_key\":\"k-abc123\"}"}`,
			`{"text":"{\"api_key\":\"[REDACTED]\"}"}`},
		{"escaped once, a key shape", secrets,
			`{"text":"{\"api_key\":\"sk-abcdefghijklmnopqrstuvwx1234\"}"}`,
			`{"text":"{\"api_key\":\"[REDACTED]\"}"}`},
		{"escaped twice", secrets,
			`{"text":"{\"cfg\":\"{\\\"api_key\\\":\\\"k-abc123\\\"}\"}"}`,
			`{"text":"{\"cfg\":\"{\\\"api_key\\\":\\\"[REDACTED]\\\"}\"}"}`},
		{"escaped twice, after text", secrets,
			`{"text":"log: {\"cfg\":\"{\\\"password\\\":\\\"a\\\\\\\\b\\\"}\"}"}`,
			`{"text":"log: {\"cfg\":\"{\\\"password\\\":\\\"[REDACTED]\\\"}\"}"}`},
		{"escaped twice, a whole string frame", secrets,
			`"{\"a\":\"{\\\"password\\\":\\\"hunter2\\\"}\"}"`,
			`"{\"a\":\"{\\\"password\\\":\\\"[REDACTED]\\\"}\"}"`},
		{"escaped twice, key rule", keys,
			`{"text":"{\"cfg\":\"{\\\"ssn\\\":\\\"alice-1\\\"}\"}"}`,
			`{"text":"{\"cfg\":\"{\\\"ssn\\\":\\\"[REDACTED]\\\"}\"}"}`},
		{"escaped JSON in a stderr line", secrets,
			`payload={\"password\":\"hunter2\",\"user\":\"bob\"}`,
			`payload={\"password\":\"[REDACTED]\",\"user\":\"bob\"}`},
		{"escaped JSON in a stderr line, key rule", keys,
			`payload={\"ssn\":\"alice-1\",\"user\":\"bob\"}`,
			`payload={\"ssn\":\"[REDACTED]\",\"user\":\"bob\"}`},
		// (b) a flag and its value on a stderr line.
		{"--api-key VALUE", secrets, "exec server --api-key k-abc123 --port 80\n", "exec server --api-key [REDACTED] --port 80\n"},
		{"--token=VALUE", secrets, "exec server --token=t-abc123 --port 80\n", "exec server --token=[REDACTED] --port 80\n"},
		{"--client-secret VALUE", secrets, "exec --client-secret cs-abc123", "exec --client-secret [REDACTED]"},
		{"--ssn=VALUE, key rule", keys, "exec --ssn=alice-1 -v", "exec --ssn=[REDACTED] -v"},
		// (d) URL query names that carry a credential.
		{"query names", secrets,
			"GET /cb?code=c-1&state=s&sig=g-1&key=k-1&auth=a-1&token=t-1&access_token=at-1&signature=sg-1&secret=sc-1&password=pw-1&X-Amz-Signature=xs-1&page=2",
			"GET /cb?code=[REDACTED]&state=s&sig=[REDACTED]&key=[REDACTED]&auth=[REDACTED]&token=[REDACTED]&access_token=[REDACTED]&signature=[REDACTED]&secret=[REDACTED]&password=[REDACTED]&X-Amz-Signature=[REDACTED]&page=2"},
		{"query names in a JSON string", secrets,
			`{"result":{"url":"https://127.0.0.1/cb?code=c-1&sig=g-1&x=1"}}`,
			`{"result":{"url":"https://127.0.0.1/cb?code=[REDACTED]&sig=[REDACTED]&x=1"}}`},
		{"start record target", secrets,
			`{"target":"https://127.0.0.1:9/mcp?key=k-1&auth=a-1","listen":"127.0.0.1:7000"}`,
			`{"target":"https://127.0.0.1:9/mcp?key=[REDACTED]&auth=[REDACTED]","listen":"127.0.0.1:7000"}`},
		{"not a query: key=value words", secrets, "cache key=users/7 code=200", ""},
		// (e) a value on the line after its name, in one frame.
		{"split over lines in one frame", secrets,
			"config: {\n  \"password\":\n     \"hunter2\",\n  \"x\": 1\n}\n",
			"config: {\n  \"password\":\n     \"[REDACTED]\",\n  \"x\": 1\n}\n"},
		{"split over lines in one frame, key rule", keys,
			"cfg {\n  \"ssn\":\n     \"alice-1\"\n}\n",
			"cfg {\n  \"ssn\":\n     \"[REDACTED]\"\n}\n"},
		{"a name and a colon, then an ordinary line", keys, "ssn:\nnext line\n", ""},
	}
	runFrameCases(t, tests)
	r := mustNew(t, secrets)
	for _, tt := range []struct{ name, value, want string }{
		{"Location", "https://127.0.0.1/cb?code=c-1&state=s", "https://127.0.0.1/cb?code=[REDACTED]&state=s"},
		{"Path", "/mcp?sig=g-1&sv=2024", "/mcp?sig=[REDACTED]&sv=2024"},
	} {
		if got, _ := r.Header(tt.name, tt.value); got != tt.want {
			t.Errorf("Header(%s, %q) = %q, want %q", tt.name, tt.value, got, tt.want)
		}
	}
	if got, _ := r.Text("/oauth/callback?code=c-1&state=s"); got != "/oauth/callback?code=[REDACTED]&state=s" {
		t.Errorf("Text(path) = %q", got)
	}
}

// TestLinesSplitValue: a pretty-printed dump on stderr is kept one record a
// line, so the name and its value are in different frames; Lines hides the
// value on the line after a hidden name (issue 26 item 6).
func TestLinesSplitValue(t *testing.T) {
	for _, tt := range []struct {
		name string
		cfg  Config
		in   []string
		want []string
	}{
		{"password, then its value", Config{Secrets: true},
			[]string{"loaded config {", `  "password":`, `     "hunter2",`, `  "port": 80`, "}"},
			[]string{"loaded config {", `  "password":`, `     "[REDACTED]",`, `  "port": 80`, "}"}},
		{"escaped quotes, CRLF", Config{Secrets: true},
			[]string{`  \"client_secret\" :` + "\r\n", `    \"cs-1\"}` + "\r\n"},
			[]string{`  \"client_secret\" :` + "\r\n", `    \"[REDACTED]\"}` + "\r\n"}},
		{"an object value hidden to its line's end", Config{Keys: []string{"ssn"}},
			[]string{"ssn:", `  {"a": "alice-1"`, `  }`},
			[]string{"ssn:", `  "[REDACTED]"`, `  }`}},
		{"key rule, then an unrelated line", Config{Keys: []string{"ssn"}},
			[]string{`"ssn":`, `next: 1`, `"x"`},
			[]string{`"ssn":`, `next: 1`, `"x"`}},
		{"only the next line", Config{Secrets: true},
			[]string{`"token":`, ``, `"kept"`},
			[]string{`"token":`, ``, `"kept"`}},
		{"a neutral name", Config{Secrets: true},
			[]string{`"user":`, `"bob"`},
			[]string{`"user":`, `"bob"`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l := mustNew(t, tt.cfg).Lines()
			for i, in := range tt.in {
				got, changed := l.Frame([]byte(in))
				if string(got) != tt.want[i] || changed != (in != tt.want[i]) {
					t.Errorf("line %d: Frame(%q) = %q, %v; want %q", i, in, got, changed, tt.want[i])
				}
			}
		})
	}
}

// TestSessionIDPseudonym: under --redact-secrets an Mcp-Session-Id is a
// bearer credential of its session; it is recorded as a keyed pseudonym,
// the same for the same id (sessions stay apart, a resent id still
// matches), never the id itself, and a pseudonym is left as it is.
func TestSessionIDPseudonym(t *testing.T) {
	r := mustNew(t, Config{Secrets: true})
	a1, ch := r.Header("Mcp-Session-Id", "sess-4f1c9a")
	a2, _ := r.Header("mcp-session-id", "sess-4f1c9a")
	b, _ := r.Header("Mcp-Session-Id", "sess-77e0b2")
	if !ch || a1 != a2 || a1 == b || strings.Contains(a1+b, "sess") || !strings.HasPrefix(a1, "[REDACTED:") || len(a1) != len("[REDACTED:12345678]") {
		t.Errorf("pseudonyms %q %q %q (changed %v): want one stable, distinct [REDACTED:xxxxxxxx] per id", a1, a2, b, ch)
	}
	if again, ch := r.Header("Mcp-Session-Id", a1); again != a1 || ch {
		t.Errorf("Header(pseudonym) = %q, %v; want it unchanged", again, ch)
	}
	if other, _ := mustNew(t, Config{Secrets: true}).Header("Mcp-Session-Id", "sess-4f1c9a"); other == a1 {
		t.Errorf("two Redactors gave the same pseudonym %q: the hash is not keyed", other)
	}
	// Without --redact-secrets the id is kept (a key or value rule still
	// applies to it, as to any header).
	if v, ch := mustNew(t, Config{Keys: []string{"ssn"}}).Header("Mcp-Session-Id", "sess-4f1c9a"); v != "sess-4f1c9a" || ch {
		t.Errorf("key rule only: Header(Mcp-Session-Id) = %q, %v; want it kept", v, ch)
	}
	h, _, changed := r.Message(map[string][]string{"Mcp-Session-Id": {"sess-4f1c9a"}}, nil)
	if !changed || h["Mcp-Session-Id"][0] != a1 {
		t.Errorf("Message() header = %v; want the pseudonym %q", h, a1)
	}
}
