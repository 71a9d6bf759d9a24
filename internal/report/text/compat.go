package text

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mcpward/mcpward/internal/plural"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/rules"
	"github.com/mcpward/mcpward/internal/termsafe"
)

// A Table lays out the rows of a grid; iostreams.TablePrinter is the one
// the CLI passes (aligned and fitted to the terminal, or tab-separated).
type Table interface {
	SetIndent(prefix string)
	AddHeader(cols ...string)
	AddRow(cells ...string)
	Render() error
}

// tabTable is the Table used when the caller passes none: one line per
// row, cells separated by tabs, as a piped TablePrinter prints.
type tabTable struct {
	w    io.Writer
	rows [][]string
}

func (t *tabTable) SetIndent(string)    {}
func (t *tabTable) AddHeader(...string) {}
func (t *tabTable) AddRow(cells ...string) {
	row := make([]string, len(cells))
	for i, c := range cells {
		row[i] = strings.NewReplacer("\t", " ", "\r\n", " ", "\n", " ", "\r", " ").Replace(c)
	}
	t.rows = append(t.rows, row)
}
func (t *tabTable) Render() error {
	for _, r := range t.rows {
		if _, err := io.WriteString(t.w, strings.Join(r, "\t")+"\n"); err != nil {
			return err
		}
	}
	return nil
}

// compat is compat's own report, re-printable from its Result: header,
// assertions, findings with their evidence, the tools × profiles grid,
// what was not evaluated, the verdict.
func (p *printer) compat(res *result.Result, opts *Options) {
	w := p.w
	c := res.Compat
	var endpoint, transport string
	if res.Target != nil {
		endpoint, transport = res.Target.Endpoint, res.Target.Transport
	}
	// Everything that came from the server (or from a saved Result that
	// anyone may have edited) goes through termsafe.Line: a name with a
	// newline or an escape sequence cannot forge a report line.
	one := termsafe.Line
	fmt.Fprintf(w, "target %s (%s)", one(endpoint), one(transport))
	if c.Server != "" {
		fmt.Fprintf(w, " — %s", one(c.Server))
	}
	fmt.Fprintf(w, "\nera: %s", one(c.Era))
	if len(c.SupportedVersions) > 0 {
		fmt.Fprintf(w, "; versions: %s", one(strings.Join(c.SupportedVersions, ", ")))
	}
	fmt.Fprintf(w, "\nprofiles: %s\n\ntransport assertions:\n", one(strings.Join(c.Profiles, ", ")))
	width := lineWidth(opts)
	p.assertions(c, width)
	fmt.Fprintf(w, "\nfindings:\n")
	n := 0
	for _, f := range res.Violations {
		if f.RuleID == "compat.era" {
			continue
		}
		n++
		fmt.Fprintf(w, "  %-9s %-44s %s — %s\n", f.Class, one(f.RuleID), one(f.Subject), one(f.Message))
		if f.Evidence != nil && (f.Class != rules.Info || len(f.Evidence.ServerRequests) > 0) {
			// What the server asked the client during the call, and what
			// the profile answered: the reader can tell whose failure
			// followed. Each is one line, cut to the width (whole with
			// --verbose).
			ev := func(label, s string) { fmt.Fprintln(w, cut("            "+label+s, width)) }
			for _, sr := range f.Evidence.ServerRequests {
				ev("server→client: ", compactJSON(sr.Request))
				ev("our reply:     ", compactJSON(sr.Response))
			}
			if len(f.Evidence.Request) > 0 {
				ev("request:  ", compactJSON(f.Evidence.Request))
			}
			// The headers are often the point of the probe (Origin,
			// MCP-Protocol-Version, Mcp-Name): show what was sent.
			if h := headerLine(f.Evidence); h != "" {
				ev("headers:  ", one(h))
			}
			switch {
			case f.Evidence.Status != 0:
				ev("response: ", fmt.Sprintf("HTTP %d %s", f.Evidence.Status, compactJSON(f.Evidence.Response)))
			case len(f.Evidence.Response) > 0:
				ev("response: ", compactJSON(f.Evidence.Response))
			}
		}
	}
	if n == 0 {
		fmt.Fprintf(w, "  none\n")
	}
	if len(c.Verdicts) > 0 {
		p.verdictGrid(c, opts)
	}
	if len(res.NotEvaluated) > 0 {
		fmt.Fprintf(w, "\nnot evaluated:\n")
		for _, n := range res.NotEvaluated {
			fmt.Fprintf(w, "  %s — %s\n", one(n.What), one(n.Why))
		}
	}
	for _, prob := range res.Evidence.Problems {
		fmt.Fprintf(w, "\nINCOMPLETE: %s", one(prob))
	}
	label := map[int]string{result.Clean: "PASS", result.Drift: "RISKY", result.Incomplete: "INCOMPLETE", result.Violation: "VIOLATION"}[res.ExitCode]
	fmt.Fprintf(w, "\n%s, %d risky -> %s (exit %d)", plural.Count(res.Summary.Violations, "violation"), res.Summary.RiskyRules, label, res.ExitCode)
	if n := len(res.NotEvaluated); n > 0 {
		// A pass covers only what was evaluated.
		fmt.Fprintf(w, "; %d not evaluated (listed above)", n)
	}
	fmt.Fprintln(w)
}

// assertions prints one line per assertion. Assertions that do not apply
// to this transport share one reason; their ids go on one line instead of
// repeating it.
func (p *printer) assertions(c *result.Compat, width int) {
	one := termsafe.Line
	const na = "n/a"
	byReason := map[string][]string{}
	var reasons []string
	for _, a := range c.Assertions {
		if a.Verdict == na {
			if _, ok := byReason[a.Detail]; !ok {
				reasons = append(reasons, a.Detail)
			}
			byReason[a.Detail] = append(byReason[a.Detail], a.ID)
			continue
		}
		fmt.Fprintf(p.w, "  %-8s %-44s %s\n", one(a.Verdict), one(a.ID), one(a.Detail))
	}
	for _, why := range reasons {
		ids := byReason[why]
		text := fmt.Sprintf("%s — %s: %s", plural.Count(len(ids), "assertion"), one(strings.TrimPrefix(why, "n/a ")), one(strings.Join(ids, ", ")))
		for _, l := range wrapWords(fmt.Sprintf("  %-8s ", na), text, width) {
			fmt.Fprintln(p.w, l)
		}
	}
}

// compatSection is the compat part of another command's report (check
// runs the compat engine too): the transport assertions, the era and
// profiles, and the verdict grid, as compat's own report prints them. The
// rule findings are already listed with the others.
func (p *printer) compatSection(r *result.Result) {
	c := r.Compat
	if c == nil || p.opts == nil || !p.opts.CompatDetail {
		return
	}
	one := termsafe.Line
	if len(c.Assertions) > 0 {
		fmt.Fprintf(p.w, "transport assertions:\n")
		p.assertions(c, lineWidth(p.opts))
	}
	fmt.Fprintf(p.w, "compat: era=%s; profiles=%s\n", one(c.Era), one(strings.Join(c.Profiles, ", ")))
	if len(c.Verdicts) > 0 {
		opts := p.opts
		if opts == nil {
			opts = &Options{}
		}
		p.verdictGrid(c, opts)
		fmt.Fprintln(p.w)
	}
}

// verdictGrid prints the tools × profiles verdicts, one column per
// profile. On a terminal the grid is fitted to its width, turned to one row
// per profile when that fits better (nine profiles side by side are about
// 200 columns), and cut with an ellipsis only if neither fits. Piped it
// stays tools × profiles, tab-separated, with its header as a first row:
// the columns depend on --profiles.
func (p *printer) verdictGrid(c *result.Compat, opts *Options) {
	tools := slices.Sorted(maps.Keys(c.Verdicts))
	grid := [][]string{{"tool"}}
	for _, pr := range c.Profiles {
		grid[0] = append(grid[0], termsafe.Line(pr))
	}
	for _, t := range tools {
		row := []string{termsafe.Line(t)}
		for _, pr := range c.Profiles {
			v := c.Verdicts[t][pr]
			if v == "" {
				v = "—"
			}
			row = append(row, termsafe.Line(v))
		}
		grid = append(grid, row)
	}
	var tp Table
	if opts.NewTable != nil {
		tp = opts.NewTable(p.w, opts.TTY, opts.Width)
	} else {
		tp = &tabTable{w: p.w}
	}
	tp.SetIndent("  ")
	title := "tool × profile"
	if t := transpose(grid); opts.TTY && gridWidth(grid)+2 > opts.Width && gridWidth(t) < gridWidth(grid) {
		t[0][0] = "profile"
		grid, title = t, "profile × tool"
	}
	fmt.Fprintf(p.w, "\nverdicts (%s):\n", title)
	if opts.TTY {
		tp.AddHeader(grid[0]...)
	} else {
		tp.AddRow(grid[0]...)
	}
	for _, row := range grid[1:] {
		tp.AddRow(row...)
	}
	_ = tp.Render()
}

// headerLine renders the HTTP method and the request headers mcpward set
// on a probe, sorted by name ("POST; Mcp-Method: tools/list; Origin: …"),
// or "" for an exchange without HTTP details.
func headerLine(ex *result.Exchange) string {
	if ex.Method == "" && len(ex.RequestHeader) == 0 {
		return ""
	}
	parts := []string{cmp.Or(ex.Method, "POST")}
	for _, k := range slices.Sorted(maps.Keys(ex.RequestHeader)) {
		parts = append(parts, k+": "+ex.RequestHeader[k])
	}
	return strings.Join(parts, "; ")
}

// defaultWidth is the width of a report that is not for a terminal (piped,
// a file, `report` of a saved Result): a line of evidence is cut there
// rather than at a terminal's width nobody has.
const defaultWidth = 100

// lineWidth is the width compat's evidence lines are cut at and its n/a
// list wrapped at: the terminal's, defaultWidth when the report is not for
// one, 0 (nothing cut) with Verbose.
func lineWidth(opts *Options) int {
	switch {
	case opts == nil:
		return defaultWidth
	case opts.Verbose:
		return 0
	case opts.TTY && opts.Width > 0:
		return opts.Width
	}
	return defaultWidth
}

// compactJSON shows a raw JSON message on one line. The JSON writer
// indents the evidence of a saved Result; compacting it (only whitespace
// between tokens goes) prints the same line from a saved Result as from
// the run.
func compactJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) == nil {
		return termsafe.Line(b.String())
	}
	return termsafe.Line(string(raw))
}

// cut shortens line to width runes, the last one an ellipsis; width 0
// keeps it whole. However narrow the terminal, 40 runes are kept: a line
// cut to its label says nothing.
func cut(line string, width int) string {
	if width <= 0 {
		return line
	}
	width = max(width, 40)
	if utf8.RuneCountInString(line) <= width {
		return line
	}
	r := []rune(line)
	return string(r[:width-1]) + "…"
}

// wrapWords breaks text at spaces into lines of at most width runes, the
// first starting with lead, the others with a run of spaces as wide; width
// 0 keeps it on one line. A word longer than a line stays whole on its
// own line.
func wrapWords(lead, text string, width int) []string {
	if width <= 0 {
		return []string{lead + text}
	}
	indent := strings.Repeat(" ", utf8.RuneCountInString(lead))
	var out []string
	cur, n, fresh := lead, utf8.RuneCountInString(lead), true
	for _, w := range strings.Fields(text) {
		wn := utf8.RuneCountInString(w)
		if !fresh && n+1+wn > width {
			out = append(out, cur)
			cur, n, fresh = indent, len(indent), true
		}
		if !fresh {
			cur += " "
			n++
		}
		cur += w
		n += wn
		fresh = false
	}
	return append(out, cur)
}

// transpose turns a grid's rows into its columns.
func transpose(grid [][]string) [][]string {
	out := make([][]string, len(grid[0]))
	for c := range out {
		out[c] = make([]string, len(grid))
		for r := range grid {
			out[c][r] = grid[r][c]
		}
	}
	return out
}

// gridWidth is the width of a grid's aligned rendering, two spaces between
// columns.
func gridWidth(grid [][]string) int {
	widths := make([]int, len(grid[0]))
	for _, row := range grid {
		for c, cell := range row {
			widths[c] = max(widths[c], utf8.RuneCountInString(cell))
		}
	}
	total := 2 * (len(widths) - 1)
	for _, w := range widths {
		total += w
	}
	return total
}
