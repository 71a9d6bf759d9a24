package compat

import (
	"context"
	"strings"
	"testing"
)

// runFixture runs every rule group against an embedded fixture.
func runFixture(t *testing.T, name string, http bool) *Report {
	t.Helper()
	rep, err := Run(context.Background(), connectFixture(t, name, http), &Options{Probes: fixtureProbes(t, name)})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// assertionOf returns the assertion with the given id, failing the test
// when there is not exactly one.
func assertionOf(t *testing.T, rep *Report, id string) Assertion {
	t.Helper()
	var out []Assertion
	for _, a := range rep.Assertions {
		if a.ID == id {
			out = append(out, a)
		}
	}
	if len(out) != 1 {
		t.Fatalf("%d assertions %s, want 1: %+v", len(out), id, out)
	}
	return out[0]
}

// The dual-era fixture, like the go-sdk everything-server, sends a version
// header older than 2026-07-28 down its legacy framing (a plain 400). The
// unsupported-version probe must use a version after every known one, or
// it judges the legacy path instead of the modern -32022 (issue 11 item 5).
func TestUnsupportedVersionProbeIsLaterThanKnown(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		rep := runFixture(t, "dual-era", true)
		a := assertionOf(t, rep, "transport.unsupported_version_not_32022")
		if a.Verdict != Pass {
			t.Fatalf("verdict %s (%s), want pass", a.Verdict, a.Detail)
		}
		if a.Evidence == nil || !strings.Contains(string(a.Evidence.Request), unknownVersion) || a.Evidence.RequestHeader["Mcp-Protocol-Version"] != unknownVersion {
			t.Errorf("evidence does not show the %s probe: %+v", unknownVersion, a.Evidence)
		}
	})
}

// A legacy Streamable HTTP server that ended a session with DELETE MUST
// answer that id with 404 (issue 11 item 12). nonconformant-legacy answers
// DELETE 200 and keeps serving; the legacy fixtures and dual-era's legacy
// half forget the session; a modern-only server has no sessions.
func TestSessionAfterDelete(t *testing.T) {
	tests := []struct {
		fixture string
		want    string
	}{
		{"nonconformant-legacy", Fail},
		{"legacy-2025-11-25", Pass},
		{"legacy-2025-06-18", Pass},
		{"dual-era", Pass},
		{"clean@v1", NA},
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			inBubble(t, func(t *testing.T) {
				rep := runFixture(t, tt.fixture, true)
				a := assertionOf(t, rep, ruleSessionAfterDelete)
				if a.Verdict != tt.want {
					t.Fatalf("verdict %s (%s), want %s", a.Verdict, a.Detail, tt.want)
				}
				if tt.want == NA {
					return
				}
				if a.Evidence == nil || a.Evidence.RequestHeader["Mcp-Session-Id"] == "" || !strings.Contains(a.Evidence.Note, "DELETE") {
					t.Errorf("evidence does not show the session id and the DELETE: %+v", a.Evidence)
				}
			})
		})
	}
}

// On stdio a modern server is probed for -32022 (an unsupported version)
// and -32602 (a _meta without clientCapabilities), as on HTTP (issue 11
// item 13); a legacy server is not.
func TestStdioVersionAndPartialMeta(t *testing.T) {
	tests := []struct {
		fixture string
		want    string
	}{
		{"clean@v1", Pass},
		{"dual-era", Pass},
		{"legacy-2025-11-25", NA},
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			inBubble(t, func(t *testing.T) {
				rep := runFixture(t, tt.fixture, false)
				for _, id := range []string{ruleUnsupportedVersion, ruleMetaPartial} {
					a := assertionOf(t, rep, id)
					if a.Verdict != tt.want {
						t.Errorf("%s: verdict %s (%s), want %s", id, a.Verdict, a.Detail, tt.want)
					}
					if tt.want == Pass && (a.Evidence == nil || len(a.Evidence.RequestHeader) > 0) {
						t.Errorf("%s: want stdio evidence without HTTP headers: %+v", id, a.Evidence)
					}
				}
				if tt.want != Pass {
					return
				}
				a := assertionOf(t, rep, ruleMetaPartial)
				if req := string(a.Evidence.Request); !strings.Contains(req, "protocolVersion") || strings.Contains(req, "clientCapabilities") {
					t.Errorf("partial _meta probe sent %s", req)
				}
			})
		})
	}
}
