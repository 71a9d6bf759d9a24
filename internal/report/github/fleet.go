package github

import (
	"bufio"

	"github.com/mcpward/mcpward/internal/report/render"
	"github.com/mcpward/mcpward/internal/result"
)

// writeFleetAnnotations annotates a fleet Result: one notice with the
// fleet's verdict, then each target's annotations (titles naming the
// target), in the Result's order; a target that stopped on an error is one
// error annotation.
func writeFleetAnnotations(w *bufio.Writer, r *result.Result) {
	annotate(w, "notice", "mcpward "+r.Command, nil, render.FleetLine(r))
	for i := range r.Targets {
		s := &r.Targets[i]
		name := render.SectionName(s)
		if s.Error == "" {
			writeAnnotations(w, s, name)
			continue
		}
		msg := s.Error
		if s.Hint != "" {
			msg += " (hint: " + s.Hint + ")"
		}
		annotate(w, "error", "mcpward "+s.Command+" "+name+": "+render.VerdictOf(s).String(), nil, msg)
	}
}
