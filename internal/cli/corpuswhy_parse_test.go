package cli

import (
	"strings"
	"testing"
)

func TestParseCorpusWhy(t *testing.T) {
	const good = `# comment
clause origin HTTP-ORIGIN-VALIDATE: a present, invalid Origin MUST get 403

== pkg@1.0.0 http via gw@2
note the server stamps the time into a tool description
compat: violation transport.origin_invalid_not_403 transport
	clause origin
	why a foreign Origin was served 200
compat: risky transport.sse_no_accel_buffering transport
	clause SSE-XACCEL (DIGEST §3.2): SHOULD send X-Accel-Buffering: no
	why the SSE response has no X-Accel-Buffering header
`
	w, err := parseCorpusWhy(good)
	if err != nil {
		t.Fatal(err)
	}
	r := w.reasons["pkg@1.0.0 http via gw@2"]["compat: violation transport.origin_invalid_not_403 transport"]
	if r.clause != "HTTP-ORIGIN-VALIDATE: a present, invalid Origin MUST get 403" || r.why != "a foreign Origin was served 200" {
		t.Errorf("named clause not resolved: %+v", r)
	}
	r = w.reasons["pkg@1.0.0 http via gw@2"]["compat: risky transport.sse_no_accel_buffering transport"]
	if !strings.HasPrefix(r.clause, "SSE-XACCEL") || r.line != 9 {
		t.Errorf("literal clause or line: %+v", r)
	}
	if w.notes["pkg@1.0.0 http via gw@2"] != "the server stamps the time into a tool description" {
		t.Errorf("note: %q", w.notes)
	}
	for name, bad := range map[string]string{
		"before a server":     "compat: violation x transport\n",
		"indented, no owner":  "== a\n\twhy nothing\n",
		"finding twice":       "== a\ncompat: risky x t\ncompat: risky x t\n",
		"server twice":        "== a\n== a\n",
		"clause without text": "clause origin\n",
	} {
		if _, err := parseCorpusWhy(bad); err == nil {
			t.Errorf("%s: parsed without an error", name)
		}
	}
	for f, want := range map[string]bool{
		"compat: violation transport.x transport": true,
		"session: risky a b":                      true,
		"compat: info compat.profile_unserved p":  false,
	} {
		if needsWhy(f) != want {
			t.Errorf("needsWhy(%q) = %v", f, !want)
		}
	}
}
