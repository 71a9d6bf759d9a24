package compat

import (
	"context"
	"testing"
)

// A dual-era server's legacy sessions are bound by their revision's
// HDR-PROTO-VERSION: an unsupported MCP-Protocol-Version on a 2025-11-25
// session answered 500 is a violation even when the modern request got its
// correct 400 -32022 (issue 23, item 6).
func TestDualEraLegacyUnsupportedVersion500(t *testing.T) {
	script := []byte(`[{"header": {"MCP-Protocol-Version": "2099-01-01"}, "lacks": ["_meta"], "status": 500,
		"body": {"jsonrpc": "2.0", "id": "$ID", "error": {"code": -32603, "message": "unsupported protocol version"}}}]`)
	for _, tc := range []struct {
		script []byte
		want   string
	}{
		{script, "fail"},
		{[]byte(`[]`), "pass"},
	} {
		s := connectScripted(t, "dual-era", tc.script)
		rep, err := Run(context.Background(), s, &Options{Profiles: profiles(t, "modern-full"), ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		var got string
		for _, a := range rep.Assertions {
			if a.ID == ruleUnsupportedVersion {
				got = a.Verdict
				t.Logf("%s: %s", a.Verdict, a.Detail)
			}
		}
		if rep.Era != "dual" || got != tc.want {
			t.Errorf("era %s, %s %q, want dual, %q", rep.Era, ruleUnsupportedVersion, got, tc.want)
		}
	}
}

// The same for Origin: from 2025-11-25 a legacy session answers a foreign
// Origin with 403, whatever the server's modern requests do (item 6).
func TestDualEraLegacyOriginServed(t *testing.T) {
	script := []byte(`[{"header": {"Origin": "http://mcpward-evil.example", "Mcp-Session-Id": "*"}, "lacks": ["_meta"], "status": 200,
		"body": {"jsonrpc": "2.0", "id": "$ID", "result": {"tools": []}}}]`)
	for _, tc := range []struct {
		script []byte
		want   string
	}{
		{script, "fail"},
		{[]byte(`[]`), "pass"},
	} {
		s := connectScripted(t, "dual-era", tc.script)
		rep, err := Run(context.Background(), s, &Options{Profiles: profiles(t, "modern-full"), ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		var got string
		for _, a := range rep.Assertions {
			if a.ID == "transport.origin_invalid_not_403" {
				got = a.Verdict
				t.Logf("%s: %s", a.Verdict, a.Detail)
			}
		}
		if rep.Era != "dual" || got != tc.want {
			t.Errorf("era %s, origin rule %q, want dual, %q", rep.Era, got, tc.want)
		}
	}
}
