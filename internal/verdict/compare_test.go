package verdict

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpward/mcpward/internal/diff"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/snapshot"
)

func TestParseGate(t *testing.T) {
	g, err := ParseGate("", []string{"breaking, risky", "breaking"}, []string{"tool.removed,transport.origin_invalid_not_403", " transport.origin_invalid_not_403 ", ""})
	if err != nil {
		t.Fatal(err)
	}
	want := Gate{FailOn: diff.Risky, Only: []diff.Tier{diff.Breaking, diff.Risky}, Ignore: []string{"tool.removed", "transport.origin_invalid_not_403"}}
	if d := cmp.Diff(want, g); d != "" {
		t.Errorf("ParseGate mismatch (-want +got):\n%s", d)
	}
	if _, err := ParseGate("", nil, []string{"tool.removd"}); err == nil || !strings.Contains(err.Error(), "did you mean tool.removed?") {
		t.Errorf("an unknown --ignore id: err = %v, want a suggestion", err)
	}
	if _, err := ParseGate("x", nil, nil); err == nil {
		t.Error("bad --fail-on accepted")
	}
}

// TestCompareIncomplete: a side that was not read to its end makes the
// evidence incomplete, which outranks "no change".
func TestCompareIncomplete(t *testing.T) {
	complete := &snapshot.Snapshot{SurfaceDigest: "sha256:x"}
	complete.Observation.Status = snapshot.StatusOK
	partial := &snapshot.Snapshot{SurfaceDigest: "sha256:x"}
	partial.Observation.Status = snapshot.StatusPartial
	partial.Observation.Coverage.Tools = snapshot.SectionCoverage{Attempted: true}
	problems := append(SideProblems("old", complete), SideProblems("new", partial)...)
	if d := cmp.Diff([]string{"new: tools/list: not read to its end"}, problems); d != "" {
		t.Errorf("SideProblems mismatch (-want +got):\n%s", d)
	}
	for _, tt := range []struct {
		name     string
		problems []string
		want     int
	}{
		{"complete", nil, result.Clean},
		{"incomplete", problems, result.Incomplete},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := Compare(&Comparison{Command: "diff", Old: complete, New: complete, Gate: Gate{FailOn: diff.Risky}, Problems: tt.problems})
			if r.ExitCode != tt.want || r.Evidence.Complete != (tt.problems == nil) {
				t.Errorf("Compare() exit %d complete %v, want exit %d", r.ExitCode, r.Evidence.Complete, tt.want)
			}
		})
	}
}
