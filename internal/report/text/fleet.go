package text

import (
	"github.com/mcpward/mcpward/internal/report/render"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/termsafe"
)

// fleet renders a fleet Result (check --all, compat over several targets):
// each section under a "==> name <==" heading, in the order the Result
// holds them (config order), then one line with the fleet's verdict.
func (p *printer) fleet(r *result.Result, opts *Options) {
	for i := range r.Targets {
		s := &r.Targets[i]
		if i > 0 {
			p.line("")
		}
		p.line("==> " + render.SectionName(s) + " <==")
		switch {
		case s.Error != "":
			p.line("error: " + termsafe.Line(s.Error))
			if s.Hint != "" {
				p.line("hint: " + termsafe.Line(s.Hint))
			}
			p.line(p.paint(render.VerdictOf(s).String(), 0, verdictColor(s.ExitCode)))
		case s.Command == "compat" && s.Compat != nil:
			p.compat(s, opts)
		default:
			p.result(s)
		}
	}
	p.line("")
	p.line(render.FleetLine(r))
}
