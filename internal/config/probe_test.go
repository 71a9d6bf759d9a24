package config

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpward/mcpward/internal/snapshot"
)

func TestProbeDecl(t *testing.T) {
	off := false
	p := Probe{ID: "w", Tool: "get_weather", Enabled: &off, Reason: "writes", Arguments: json.RawMessage(`{"q":1}`), Capture: "values"}
	want := snapshot.ProbeDecl{ID: "w", Tool: "get_weather", Arguments: json.RawMessage(`{"q":1}`), Capture: "values"}
	if d := cmp.Diff(want, p.Decl()); d != "" {
		t.Errorf("Decl() mismatch (-want +got):\n%s", d)
	}
}
