package result

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpward/mcpward/internal/diff"
)

func TestWorst(t *testing.T) {
	for _, tt := range []struct {
		codes []int
		want  int
	}{
		{nil, Clean},
		{[]int{Clean, Clean}, Clean},
		{[]int{Clean, Drift}, Drift},
		{[]int{Drift, Violation}, Violation},
		{[]int{Violation, Incomplete, Drift}, Incomplete},
		{[]int{Incomplete, Usage, Violation}, Usage},
		{[]int{Usage, Internal, Clean}, Internal},
		{[]int{Clean, 7}, Internal}, // an unknown code is a bug, not a pass
	} {
		if got := Worst(tt.codes...); got != tt.want {
			t.Errorf("Worst(%v) = %d, want %d", tt.codes, got, tt.want)
		}
	}
}

func section(name string, code int, failOn string, complete bool, problems ...string) Result {
	return Result{
		SchemaVersion: SchemaVersion, Tool: "mcpward", Version: "dev", Command: "check",
		Target:   &Target{Name: name, Transport: "fixture"},
		Summary:  Summary{Summary: diff.Summary{Breaking: code}},
		Gate:     Gate{FailOn: failOn, Failed: code == Drift},
		Evidence: Evidence{Complete: complete, Problems: problems},
		ExitCode: code,
	}
}

func TestCombine(t *testing.T) {
	secs := []Result{
		section("b", Drift, "breaking", true),
		section("a", Clean, "risky", true),
		section("c", Incomplete, "risky", false, "tools/list timed out"),
		Failed("check", "dev", &Target{Name: "d"}, Usage, "no stored snapshot", "run 'mcpward record d' first"),
	}
	secs[3].Gate.FailOn = "cosmetic" // an errored section's gate judged nothing
	r := Combine("check", "dev", secs)

	if r.ExitCode != Usage {
		t.Errorf("exit %d, want %d (a broken entry outranks the verdicts)", r.ExitCode, Usage)
	}
	var names []string
	for _, s := range r.Targets {
		names = append(names, s.Target.Name)
		if s.Findings == nil {
			t.Errorf("section %s: findings is nil, want [] in JSON", s.Target.Name)
		}
	}
	if d := cmp.Diff([]string{"b", "a", "c", "d"}, names); d != "" {
		t.Errorf("sections not in the given order (-want +got):\n%s", d)
	}
	if r.Summary.Breaking != Drift+Clean+Incomplete { // the errored section counts nothing
		t.Errorf("summary not summed: %+v", r.Summary)
	}
	want := Evidence{Complete: false, Status: "partial", Problems: []string{
		"c: tools/list timed out",
		"d: not judged: no stored snapshot",
	}}
	if d := cmp.Diff(want, r.Evidence); d != "" {
		t.Errorf("evidence (-want +got):\n%s", d)
	}
	if d := cmp.Diff(Gate{FailOn: "risky", Failed: true}, r.Gate); d != "" {
		t.Errorf("gate %+v, want the lowest judging gate (risky) and failed", r.Gate)
	}
	if len(r.Findings) != 0 || r.Findings == nil || r.Target != nil {
		t.Errorf("the fleet itself holds no findings and names no target: %+v", r)
	}

	// Without the broken entry the verdicts decide: 2 > 3 > 1 > 0.
	if got := Combine("check", "dev", secs[:3]).ExitCode; got != Incomplete {
		t.Errorf("exit %d, want %d", got, Incomplete)
	}
	clean := Combine("compat", "dev", []Result{section("a", Clean, "risky", true)})
	if clean.ExitCode != Clean || !clean.Evidence.Complete || clean.Evidence.Status != "ok" || clean.Gate.Failed {
		t.Errorf("one clean section: %+v", clean)
	}
}

// A section never nests a fleet of its own.
func TestCombineFlattens(t *testing.T) {
	inner := Combine("check", "dev", []Result{section("a", Clean, "risky", true)})
	inner.Target = &Target{Name: "x"}
	r := Combine("check", "dev", []Result{*inner})
	if r.Targets[0].Targets != nil {
		t.Error("section keeps its own targets")
	}
}
