package compat

import (
	"context"
	"strings"
	"testing"
)

// runFixture runs every rule group against an embedded fixture.
func runFixture(t *testing.T, name string, http bool) *Report {
	t.Helper()
	rep, err := Run(context.Background(), connect(t, name, http), &Options{Probes: fixtureProbes(t, name)})
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
	rep := runFixture(t, "dual-era", true)
	a := assertionOf(t, rep, "transport.unsupported_version_not_32022")
	if a.Verdict != Pass {
		t.Fatalf("verdict %s (%s), want pass", a.Verdict, a.Detail)
	}
	if a.Evidence == nil || !strings.Contains(string(a.Evidence.Request), unknownVersion) || a.Evidence.RequestHeader["Mcp-Protocol-Version"] != unknownVersion {
		t.Errorf("evidence does not show the %s probe: %+v", unknownVersion, a.Evidence)
	}
}
