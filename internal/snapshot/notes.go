package snapshot

import (
	"regexp"
	"strings"
	"sync"
)

// authHintRe matches stderr lines that say credentials are missing. Unlike
// surfaceprint it also knows HTTP 401 and token/API-key wording, which is
// what most servers print.
var authHintRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:no (?:auth|authentication) (?:token|credentials?)|(?:authenticate|authentication) (?:required|needed|failed)|please (?:authenticate|log ?in)|auth_login|login required|unauthori[sz]ed|401|(?:missing|invalid|expired|no) (?:api[ _-]?key|(?:access |bearer |auth )?token)s?|\w*(?:api[ _-]?key|token) (?:is )?(?:missing|required|not set|not found|expired|invalid)|not authenticated)\b`)
})

// stackTraceRes match the first line of a crash in the common runtimes.
// Unlike surfaceprint, Python tracebacks and "ReferenceError: msg" count.
var stackTraceRes = sync.OnceValue(func() []*regexp.Regexp {
	return []*regexp.Regexp{
		regexp.MustCompile(`Traceback \(most recent call last\)`),
		regexp.MustCompile(`at Object\.<anonymous>`),
		regexp.MustCompile(`(?m)^panic: `),
		regexp.MustCompile(`goroutine \d+ \[running\]`),
		regexp.MustCompile(`\b(?:ReferenceError|TypeError|SyntaxError|RangeError): `),
		regexp.MustCompile(`UnhandledPromiseRejection`),
		regexp.MustCompile(`(?i)unhandled errors? in a TaskGroup`),
		regexp.MustCompile(`(?i)\bfatal error\b`),
		regexp.MustCompile(`Exception in thread "`),
		regexp.MustCompile(`(?m)^\s+at [\w.$<>]+ \(.+:\d+:\d+\)`),
	}
})

// secretish masks long opaque strings in snippets so that a token a server
// echoes on stderr does not end up in a committed snapshot.
var secretish = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[A-Za-z0-9_\-+/=.]{24,}`) })

// stderrNotes distils auth hints and stack traces from a server's stderr.
// Each note carries one excerpt (the matching line and a little context),
// never the whole stream.
func stderrNotes(stderr string) []Note {
	if strings.TrimSpace(stderr) == "" {
		return nil
	}
	var out []Note
	collapsed := strings.Join(strings.Fields(stderr), " ")
	if loc := authHintRe().FindStringIndex(collapsed); loc != nil {
		out = append(out, Note{Kind: "stderr", Rule: "auth_hint", Snippet: excerptAround(collapsed, loc[0], 0)})
	}
	for _, re := range stackTraceRes() {
		if loc := re.FindStringIndex(stderr); loc != nil {
			out = append(out, Note{Kind: "stderr", Rule: "stack_trace", Snippet: excerptAround(stderr, loc[0], 4)})
			break
		}
	}
	return out
}

// excerptAround returns the line holding offset i and up to extra further
// lines, masked and capped.
func excerptAround(s string, i, extra int) string {
	start := strings.LastIndexByte(s[:i], '\n') + 1
	end := start
	for n := 0; n <= extra; n++ {
		j := strings.IndexByte(s[end:], '\n')
		if j < 0 {
			end = len(s)
			break
		}
		end += j + 1
	}
	ex := strings.TrimSpace(s[start:end])
	ex = secretish().ReplaceAllStringFunc(ex, func(m string) string {
		// Paths and dotted names are long too; keep those readable.
		if strings.ContainsAny(m, "/.") && !strings.ContainsAny(m, "+=") {
			return m
		}
		return m[:4] + "…(redacted)"
	})
	return clip(ex, 300)
}
