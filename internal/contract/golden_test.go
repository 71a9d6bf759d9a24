package contract

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/diff"
	"github.com/mcpward/mcpward/internal/fixture"
	"github.com/mcpward/mcpward/internal/report/text"
	"github.com/mcpward/mcpward/internal/snapshot"
	"github.com/mcpward/mcpward/internal/verdict"
)

var update = flag.Bool("update", false, "rewrite testdata/pairs/*.golden")

var pinned = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// recordFixture observes an embedded fixture in-process under probes and
// returns its complete snapshot.
func recordFixture(t testing.TB, name string, probesOf string) *snapshot.Snapshot {
	t.Helper()
	tg, err := FromSpec(strings.ReplaceAll(name, "@", "_"), &connect.Spec{Fixture: name})
	if err != nil {
		t.Fatal(err)
	}
	if probesOf != "" {
		if tg.Probes, err = FixtureProbes(probesOf); err != nil {
			t.Fatal(err)
		}
	}
	obs, err := Observe(context.Background(), tg, &ObserveOptions{Version: "test", Now: func() time.Time { return pinned }})
	if err != nil {
		t.Fatalf("observe %s: %v", name, err)
	}
	if !obs.Complete() {
		t.Fatalf("observe %s: incomplete: %v", name, obs.Problems)
	}
	return obs.Snapshot
}

// driftPairs are the clean@v1 derivatives with planted differences.
func driftPairs() []string {
	var out []string
	for _, in := range fixture.List() {
		if strings.HasPrefix(in.Name, "drift-") || in.Name == "clean@v2-identical" || in.Name == "clean@v1-shuffled" {
			out = append(out, in.Name)
		}
	}
	return out
}

// TestPlantedDriftGoldens records clean@v1 and every planted-drift fixture
// (under clean@v1's probe spec, as the demo does) and pins the text report
// of the diff in both directions: old→new says what the release means to a
// client of v1; new→old is the rollback.
func TestPlantedDriftGoldens(t *testing.T) {
	base := recordFixture(t, "clean@v1", "")
	pairs := driftPairs()
	if len(pairs) < 10 {
		t.Fatalf("only %d planted-drift fixtures found: %v", len(pairs), pairs)
	}
	for _, name := range pairs {
		other := recordFixture(t, name, "clean@v1")
		for _, dir := range []struct {
			suffix   string
			old, new *snapshot.Snapshot
		}{
			{"forward", base, other},
			{"backward", other, base},
		} {
			t.Run(name+"/"+dir.suffix, func(t *testing.T) {
				r := verdict.Compare(&verdict.Comparison{Command: "diff", Version: "test", Old: dir.old, New: dir.new, Gate: verdict.Gate{FailOn: diff.Risky}})
				var buf bytes.Buffer
				if err := text.Write(&buf, r); err != nil {
					t.Fatal(err)
				}
				golden := filepath.Join("testdata", "pairs", strings.ReplaceAll(name, "@", "_")+"."+dir.suffix+".golden")
				if *update {
					if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run with -update)", err)
				}
				if d := cmp.Diff(string(want), buf.String()); d != "" {
					t.Errorf("diff report mismatch (-want +got):\n%s", d)
				}
			})
		}
	}
}

// TestTwinsHaveTheSameDigest: a build with the same surface, and the same
// data with reversed JSON keys on the wire, digest to clean@v1's digest.
func TestTwinsHaveTheSameDigest(t *testing.T) {
	base := recordFixture(t, "clean@v1", "")
	if base.SurfaceDigest == "" {
		t.Fatal("clean@v1 has no surface digest")
	}
	for _, name := range []string{"clean@v2-identical", "clean@v1-shuffled"} {
		s := recordFixture(t, name, "clean@v1")
		if s.SurfaceDigest != base.SurfaceDigest {
			t.Errorf("%s digest %s, want clean@v1's %s", name, s.SurfaceDigest, base.SurfaceDigest)
		}
		if fs := diff.Diff(base, s); len(fs) != 0 {
			t.Errorf("%s: %d findings, want none: %v", name, len(fs), fs)
		}
	}
}
