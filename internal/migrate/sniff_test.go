package migrate

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSniffSurfaceprint: mcp-surfaceprint's snapshots (any version: the
// converter refuses an unknown one by name) and legacy reports are told
// apart from mcpward's own snapshots.
func TestSniffSurfaceprint(t *testing.T) {
	dir := filepath.Join("surfaceprint", "testdata")
	for path, want := range map[string]Kind{
		"snapshots/toy-open.snapshot.json":            SurfaceprintSnapshot,
		"snapshots/tests-minimal-empty.snapshot.json": SurfaceprintSnapshot,
		"snapshots/tests-version-999.snapshot.json":   SurfaceprintSnapshot,
		"legacy/toy-open.report.json":                 SurfaceprintLegacy,
		"legacy/capabilities.report.json":             SurfaceprintLegacy,
	} {
		b, err := os.ReadFile(filepath.Join(dir, path))
		if err != nil {
			t.Fatal(err)
		}
		if got := SniffSnapshot(b); got != want {
			t.Errorf("%s: %q, want %q", path, got, want)
		}
	}
	for _, in := range []string{
		`{"formatVersion": 1, "surface": {"tools": []}, "observation": {}}`,
		`{"server": {}, "tools": [], "formatVersion": 1}`,
		`[]`,
		`not json`,
	} {
		if got := SniffSnapshot([]byte(in)); got != "" {
			t.Errorf("%s: %q, want not foreign", in, got)
		}
	}
}
