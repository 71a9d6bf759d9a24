package probe_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/client"
	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/probe"
	"github.com/mcpward/mcpward/internal/snapshot"
)

// A legacy server's InitializeResult names one version; the snapshot must
// hold every version it accepts, learned by one initialize per known
// revision, and say so (issue 11 item 6).
func TestLegacyVersionsLearned(t *testing.T) {
	tests := []struct {
		fixture string
		http    bool
		skip    bool
		want    []string
		source  string
	}{
		{"legacy-2025-06-18", false, false, []string{"2024-11-05", "2025-03-26", "2025-06-18"}, snapshot.VersionsInitializeProbe},
		{"legacy-2025-11-25", true, false, []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}, snapshot.VersionsInitializeProbe},
		{"nonconformant-legacy", false, false, []string{"2025-11-25"}, snapshot.VersionsInitializeProbe},
		{"legacy-2025-06-18", false, true, []string{"2025-06-18"}, snapshot.VersionsNegotiated},
		{"clean@v1", false, false, []string{"2026-07-28"}, snapshot.VersionsDiscover},
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			ctx := context.Background()
			sess, err := connect.Connect(ctx, &connect.Spec{Fixture: tt.fixture, FixtureHTTP: tt.http}, connect.Env{}, &client.Options{RequestTimeout: 5 * time.Second, DiscoverTimeout: time.Second})
			if err != nil {
				t.Fatal(err)
			}
			defer sess.Close()
			ev, err := probe.Observe(ctx, sess, &probe.Options{Repeats: 1, SkipVersionProbe: tt.skip})
			if err != nil {
				t.Fatal(err)
			}
			snap, err := snapshot.Build(ev, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := snap.Surface.Discover.SupportedVersions; !slices.Equal(got, tt.want) {
				t.Errorf("supportedVersions = %v, want %v", got, tt.want)
			}
			if got := snap.Observation.SupportedVersionsSource; got != tt.source {
				t.Errorf("supportedVersionsSource = %q, want %q", got, tt.source)
			}
		})
	}
}
