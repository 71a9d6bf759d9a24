package md

import (
	"bufio"
	"fmt"

	"github.com/mcpward/mcpward/internal/plural"
	"github.com/mcpward/mcpward/internal/report/render"
	"github.com/mcpward/mcpward/internal/result"
)

// writeFleet renders a fleet Result: a heading with the fleet's verdict, a
// table of the targets and their verdicts, then each target's section in
// the Result's order (config order).
func writeFleet(w *bufio.Writer, r *result.Result) {
	fmt.Fprintf(w, "# mcpward %s — %s: %s\n\n", Text(r.Command), plural.Count(len(r.Targets), "target"), render.VerdictOf(r))
	w.WriteString("| target | verdict |\n|---|---|\n")
	for i := range r.Targets {
		s := &r.Targets[i]
		fmt.Fprintf(w, "| %s | %s |\n", Text(render.SectionName(s)), Text(render.VerdictOf(s).String()))
	}
	w.WriteString("\n")
	for i := range r.Targets {
		s := &r.Targets[i]
		if s.Error == "" {
			writeResult(w, s)
			continue
		}
		fmt.Fprintf(w, "## mcpward %s — %s: %s\n\n", Text(s.Command), Text(render.SectionName(s)), render.VerdictOf(s))
		fmt.Fprintf(w, "Not judged: %s\n\n", Text(s.Error))
		if s.Hint != "" {
			fmt.Fprintf(w, "Hint: %s\n\n", Text(s.Hint))
		}
	}
}
