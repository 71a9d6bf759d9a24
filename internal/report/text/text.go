package text

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/mcpward/mcpward/internal/diff"
	"github.com/mcpward/mcpward/internal/report/render"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/termsafe"
)

// Options change how the text report looks, never what it says.
type Options struct {
	// Color wraps tiers, classes and the verdict in ANSI colours. Column
	// padding is computed on the plain text, so coloured and plain reports
	// align the same.
	Color bool
	// TTY and Width describe the terminal the report is for: compat's
	// verdict grid is aligned and fitted to it on a terminal,
	// tab-separated otherwise.
	TTY   bool
	Width int
	// Verbose prints compat's evidence (each request and response)
	// whole; otherwise each is one line cut to the terminal's width, or
	// to 100 columns when the report is not for a terminal.
	Verbose bool
	// NewTable makes the Table compat's verdict grid is laid out with (the
	// CLI passes iostreams.NewTablePrinter); nil prints tab-separated rows.
	NewTable func(w io.Writer, tty bool, width int) Table
	// CompatDetail prints, for a check (or any command but compat, whose
	// own report always has them), compat's transport assertions, era
	// and verdict grid when the Result carries them. The GitHub format's
	// log group sets it; the terminal report of a check stays the short
	// answer (and `report -f text` of its Result prints the same).
	CompatDetail bool
}

// Write renders r as plain text (no colour).
func Write(w io.Writer, r *result.Result) error { return WriteOptions(w, r, nil) }

// WriteOptions renders r as text; nil opts means plain.
func WriteOptions(w io.Writer, r *result.Result, opts *Options) error {
	if opts == nil {
		opts = &Options{}
	}
	p := &printer{w: bufio.NewWriter(w), color: opts.Color, opts: opts}
	switch {
	case len(r.Targets) > 0:
		p.fleet(r, opts)
	case r.Command == "compat" && r.Compat != nil:
		p.compat(r, opts)
	default:
		p.result(r)
	}
	if err := p.w.Flush(); err != nil {
		return fmt.Errorf("write text report: %w", err)
	}
	return nil
}

// Column widths of a finding line: "breaking   " is the tier padded to
// 10 plus a space (len("compatible") is 10), the rule id padded to 34 plus a
// space. They reproduce snapgauge's verified layout byte for byte.
const (
	tierWidth = 10
	ruleWidth = 34
)

const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiDim    = "\x1b[2m"
	ansiRed    = "\x1b[31m"
	ansiGreen  = "\x1b[32m"
	ansiYellow = "\x1b[33m"
	ansiCyan   = "\x1b[36m"
)

type printer struct {
	w     *bufio.Writer
	color bool
	// opts lays out compat's verdict grid (nil: plain).
	opts *Options
}

func (p *printer) line(s string) {
	p.w.WriteString(s)
	p.w.WriteByte('\n')
}

// paint pads s to width on the plain text, then colours it.
func (p *printer) paint(s string, width int, code string) string {
	pad := ""
	if n := width - len([]rune(s)); n > 0 {
		pad = strings.Repeat(" ", n)
	}
	if p.color && code != "" {
		return code + s + ansiReset + pad
	}
	return s + pad
}

func tierColor(t diff.Tier) string {
	switch t {
	case diff.Breaking:
		return ansiRed
	case diff.Risky:
		return ansiYellow
	case diff.Compatible:
		return ansiGreen
	}
	return ansiDim
}

func classColor(c string) string {
	switch c {
	case "violation":
		return ansiRed
	case "risky":
		return ansiYellow
	}
	return ansiCyan
}

func verdictColor(code int) string {
	switch code {
	case result.Clean:
		return ansiGreen
	case result.Drift:
		return ansiYellow
	}
	return ansiRed
}

func (p *printer) result(r *result.Result) {
	if t := r.Target; t != nil && t.Name != "" {
		if t.Transport != "" {
			p.line(fmt.Sprintf("target %s (%s)", termsafe.Line(t.Name), termsafe.Line(t.Transport)))
		} else {
			p.line("target " + termsafe.Line(t.Name))
		}
	}
	// A diff of surfaces says "no changes"; a traffic check has no surface
	// diff, only rule findings, so it says nothing here.
	if len(r.Findings) == 0 && !render.NoSurfaceDiff(r) {
		if r.Evidence.Complete {
			p.line("no changes")
		} else {
			p.line("no changes in what could be observed (evidence incomplete)")
		}
	}
	for _, f := range r.Findings {
		p.line(p.paint(f.Tier.String(), tierWidth, tierColor(f.Tier)) + " " +
			p.paint(termsafe.Line(f.RuleID), ruleWidth, "") + " " +
			termsafe.Line(f.Subject) + " — " + termsafe.Line(f.Message))
	}
	for _, v := range render.RuleFindings(r) {
		s := p.paint(termsafe.Line(v.Class), tierWidth, classColor(v.Class)) + " " +
			p.paint(termsafe.Line(v.RuleID), ruleWidth, "") + " " +
			termsafe.Line(v.Subject) + " — " + termsafe.Line(v.Message)
		var tags []string
		if v.Level != "" {
			tags = append(tags, termsafe.Line(v.Level))
		}
		if v.Profile != "" {
			tags = append(tags, "profile "+termsafe.Line(v.Profile))
		}
		if v.Gated {
			// sessions check's gate picks by signal and rule id, not by
			// class: say which findings it selected.
			tags = append(tags, "gated")
		}
		if len(tags) > 0 {
			s += " [" + strings.Join(tags, ", ") + "]"
		}
		p.line(s)
	}
	p.compatSection(r)
	summary := render.SummaryLine(r)
	if p.color {
		v := render.VerdictOf(r).String()
		summary = strings.TrimSuffix(summary, v) + ansiBold + verdictColor(r.ExitCode) + v + ansiReset
	}
	p.line(summary)
	for _, prob := range render.Problems(r) {
		p.line("INCOMPLETE: " + termsafe.Line(prob))
	}
	// A pass covers only what was evaluated.
	for _, n := range r.NotEvaluated {
		p.line("not evaluated: " + termsafe.Line(n.What) + " — " + termsafe.Line(n.Why))
	}
	if a := render.Accepted(r); a != "" {
		p.line(a)
	}
}
