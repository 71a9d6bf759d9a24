package render

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcpward/mcpward/internal/plural"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/termsafe"
)

// SectionName is the name of a fleet section's target ("?" when the
// section names none), safe to print on one line.
func SectionName(s *result.Result) string {
	if s.Target == nil || s.Target.Name == "" {
		return "?"
	}
	return termsafe.Line(s.Target.Name)
}

// fleetOrder lists the exit codes worst first, as result.Worst ranks them.
var fleetOrder = []int{result.Internal, result.Usage, result.Incomplete, result.Violation, result.Drift, result.Clean}

// FleetLine is the last line of a fleet report: how many targets, how many
// ended with each verdict (worst first), and the fleet's verdict:
//
//	3 targets: 1 INCOMPLETE, 1 DRIFT, 1 PASS -> INCOMPLETE (exit 2)
func FleetLine(r *result.Result) string {
	count := map[int]int{}
	for _, s := range r.Targets {
		count[s.ExitCode]++
	}
	var parts []string
	seen := map[int]bool{}
	for _, c := range fleetOrder {
		seen[c] = true
		if n := count[c]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, CodeLabel(r.Command, c)))
		}
	}
	for _, c := range slices.Sorted(maps.Keys(count)) {
		if !seen[c] {
			parts = append(parts, fmt.Sprintf("%d exit %d", count[c], c))
		}
	}
	return fmt.Sprintf("%s: %s -> %s", plural.Count(len(r.Targets), "target"), strings.Join(parts, ", "), VerdictOf(r))
}

// CodeLabel is the verdict word of an exit code for command, without the
// detail a Result's findings add ("DRIFT", not "2 MUST violations").
func CodeLabel(command string, code int) string {
	return VerdictOf(&result.Result{Command: command, ExitCode: code}).Label
}
