package surfaceprint_test

import (
	"slices"
	"testing"

	"github.com/mcpward/mcpward/internal/migrate/surfaceprint"
)

// A converted snapshot or legacy report names what mcp-surfaceprint never
// recorded: what a legacy report lacks besides (input schemas, resource
// metadata, prompt argument details) too.
func TestUncaptured(t *testing.T) {
	for _, tc := range []struct {
		file string
		want []string
		has  []string
	}{
		{"snapshots/toy-open.snapshot.json", surfaceprint.Uncaptured,
			[]string{"tools.*.!description|inputSchema|name|xmcpHeaders", "tools.@nextPages", "discover.capabilities.*.*", "discover.instructions", "prompts.*.!arguments|description|name"}},
		{"legacy/toy-open.report.json", surfaceprint.UncapturedLegacy,
			[]string{"tools.*.!description|name", "resources.*.!uri", "prompts.*.arguments.*.!name"}},
	} {
		got := convert(t, read(t, tc.file)).Observation.Uncaptured
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: uncaptured %q, want %q", tc.file, got, tc.want)
		}
		for _, p := range tc.has {
			if !slices.Contains(got, p) {
				t.Errorf("%s: uncaptured lacks %q", tc.file, p)
			}
		}
	}
}
