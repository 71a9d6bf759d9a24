package compat

import (
	"context"
	"testing"
)

// legacySessionCase runs compat over dual-era with and without a script
// that misbehaves on legacy sessions only, and checks the verdict of rule
// id: fail with the script, pass without it.
func legacySessionCase(t *testing.T, id string, script []byte) {
	t.Helper()
	for _, tc := range []struct {
		script []byte
		want   string
	}{
		{script, Fail},
		{[]byte(`[]`), Pass},
	} {
		inBubble(t, func(t *testing.T) {
			s := connectScripted(t, "dual-era", tc.script)
			rep, err := Run(context.Background(), s, &Options{Profiles: profiles(t, "modern-full"), ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			var got string
			for _, a := range rep.Assertions {
				if a.ID == id {
					got = a.Verdict
					t.Logf("%s: %s", a.Verdict, a.Detail)
				}
			}
			if rep.Era != "dual" || got != tc.want {
				t.Errorf("era %s, %s %q, want dual, %q", rep.Era, id, got, tc.want)
			}
		})
	}
}

// A dual-era server's legacy sessions are bound by their revision's
// HDR-PROTO-VERSION: an unsupported MCP-Protocol-Version on a 2025-11-25
// session answered 500 is a violation even when the modern request got its
// correct 400 -32022 (issue 23, item 6).
func TestDualEraLegacyUnsupportedVersion500(t *testing.T) {
	legacySessionCase(t, ruleUnsupportedVersion, []byte(`[{"header": {"MCP-Protocol-Version": "2099-01-01"}, "lacks": ["_meta"], "status": 500,
		"body": {"jsonrpc": "2.0", "id": "$ID", "error": {"code": -32603, "message": "unsupported protocol version"}}}]`))
}

// The same for Origin: from 2025-11-25 a legacy session answers a foreign
// Origin with 403, whatever the server's modern requests do (item 6).
func TestDualEraLegacyOriginServed(t *testing.T) {
	legacySessionCase(t, "transport.origin_invalid_not_403", []byte(`[{"header": {"Origin": "http://mcpward-evil.example"}, "lacks": ["_meta"], "status": 200,
		"body": {"jsonrpc": "2.0", "id": "$ID", "result": {"tools": []}}}]`))
}
