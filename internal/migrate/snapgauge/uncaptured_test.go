package snapgauge_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpward/mcpward/internal/migrate/snapgauge"
	"github.com/mcpward/mcpward/internal/snapshot"
)

// A converted snapshot names what snapgauge never recorded, and keeps the
// list through migrate --write (Marshal, then mcpward's own reader).
func TestSnapshotUncaptured(t *testing.T) {
	got, err := snapgauge.Snapshot(read(t, "clean-v1.snapshot.json"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"discover.serverInfo.!name|version",
		"tools.*.!_meta|annotations|description|icons|inputSchema|name|outputSchema|title|xmcpHeaders",
		"resources", "resourceTemplates", "prompts", "manifest",
	}
	if d := cmp.Diff(want, got.Observation.Uncaptured); d != "" {
		t.Errorf("uncaptured (-want +got):\n%s", d)
	}
	b, err := snapshot.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	back, err := snapshot.UnmarshalLazy(b)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, back.Observation.Uncaptured); d != "" {
		t.Errorf("after Marshal (-want +got):\n%s", d)
	}
}
