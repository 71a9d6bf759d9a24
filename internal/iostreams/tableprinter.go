package iostreams

import (
	"io"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// A TablePrinter renders rows for a person or for a program, as gh's
// tableprinter does:
//
//   - on a terminal: a header row, columns aligned with two spaces between
//     them, the whole table fitted to the terminal's width; a cell that does
//     not fit is cut and ends in "…";
//   - otherwise (piped, or --format tsv): one line per row, cells separated
//     by tabs, nothing cut, and no header, so that cut, awk and sort see
//     only data.
//
// Tabs and line breaks inside a cell become spaces in both renderings, so a
// value can never break the row structure.
type TablePrinter struct {
	out    io.Writer
	tty    bool
	width  int
	indent string
	header []string
	rows   [][]string
	first  []int
	wrap   []int
}

// minCellWidth is the narrowest a cut column gets: room for two runes and
// the ellipsis. A table with more columns than fit at this width overflows
// the terminal instead of showing only ellipses.
const minCellWidth = 3

// NewTablePrinter returns a printer writing to w: aligned and fitted to
// width when tty is true, tab-separated otherwise.
func NewTablePrinter(w io.Writer, tty bool, width int) *TablePrinter {
	return &TablePrinter{out: w, tty: tty, width: width}
}

// NewTablePrinter returns a table printer on stdout, aligned and fitted to
// the terminal when stdout is one, tab-separated otherwise.
func (s *IOStreams) NewTablePrinter() *TablePrinter {
	return NewTablePrinter(s.Out, s.IsStdoutTTY(), s.TerminalWidth())
}

// IsTTY reports whether the table is rendered for a person.
func (t *TablePrinter) IsTTY() bool { return t.tty }

// SetIndent puts prefix before every line on a terminal (a table nested in
// a report); its width counts against the terminal's. Tab-separated output
// is never indented.
func (t *TablePrinter) SetIndent(prefix string) { t.indent = prefix }

// CutFirst names the columns (0-based) that give way first when the table
// is too wide: free text such as a description, so that ids and names
// stay whole. The other columns are cut only when these cannot be.
func (t *TablePrinter) CutFirst(cols ...int) { t.first = cols }

// WrapColumns names the columns (0-based) whose cells wrap at words onto
// further lines instead of being cut, on a terminal: notes a reader needs
// whole. Name them in CutFirst too, so that they are the ones narrowed.
func (t *TablePrinter) WrapColumns(cols ...int) { t.wrap = cols }

// AddHeader sets the column titles, shown on a terminal only.
func (t *TablePrinter) AddHeader(cols ...string) { t.header = cols }

// AddRow appends one row.
func (t *TablePrinter) AddRow(cells ...string) {
	row := make([]string, len(cells))
	for i, c := range cells {
		row[i] = clean(c)
	}
	t.rows = append(t.rows, row)
}

// Render writes the table.
func (t *TablePrinter) Render() error {
	var b strings.Builder
	if !t.tty {
		for _, r := range t.rows {
			b.WriteString(strings.Join(r, "\t"))
			b.WriteByte('\n')
		}
		_, err := io.WriteString(t.out, b.String())
		return err
	}
	all := t.rows
	if len(t.header) > 0 {
		h := make([]string, len(t.header))
		for i, c := range t.header {
			h[i] = clean(c)
		}
		all = append([][]string{h}, t.rows...)
	}
	n := 0
	for _, r := range all {
		n = max(n, len(r))
	}
	if n == 0 {
		return nil
	}
	natural := make([]int, n)
	for _, r := range all {
		for i, c := range r {
			natural[i] = max(natural[i], ansi.StringWidth(c))
		}
	}
	widths := fitFirst(natural, t.width-ansi.StringWidth(t.indent)-2*(n-1), t.first)
	for _, r := range all {
		b.WriteString(t.indent)
		// Trailing empty cells leave no padding behind.
		last := len(r) - 1
		for last > 0 && r[last] == "" {
			last--
		}
		cells := make([][]string, last+1)
		lines := 1
		for i := 0; i <= last; i++ {
			cells[i] = t.cell(r[i], i, widths[i])
			lines = max(lines, len(cells[i]))
		}
		for l := range lines {
			if l > 0 {
				b.WriteString(t.indent)
			}
			end := last
			for end > 0 && len(cells[end]) <= l {
				end--
			}
			for i := 0; i <= end; i++ {
				c := ""
				if l < len(cells[i]) {
					c = cells[i][l]
				}
				b.WriteString(c)
				if i < end {
					b.WriteString(strings.Repeat(" ", widths[i]-ansi.StringWidth(c)+2))
				}
			}
			b.WriteByte('\n')
		}
	}
	_, err := io.WriteString(t.out, b.String())
	return err
}

// cell is the lines cell c of column i takes at width w: one, cut to w,
// or for a column of WrapColumns as many as its words need.
func (t *TablePrinter) cell(c string, i, w int) []string {
	if ansi.StringWidth(c) <= w {
		return []string{c}
	}
	if slices.Contains(t.wrap, i) {
		lines := strings.Split(ansi.Wrap(c, w, ""), "\n")
		for j, l := range lines {
			lines[j] = strings.TrimRight(l, " ")
		}
		return lines
	}
	c = ansi.Truncate(c, w, "…")
	// "sits…", not "sits …".
	return []string{strings.TrimRight(strings.TrimSuffix(c, "…"), " ") + "…"}
}

// fitFirst cuts only the columns first, when the others fit whole and
// leave them minCutWidth each; else it fits every column.
func fitFirst(natural []int, avail int, first []int) []int {
	var idx []int
	rest := avail
	for i, w := range natural {
		if slices.Contains(first, i) {
			idx = append(idx, i)
		} else {
			rest -= w
		}
	}
	if len(idx) == 0 || rest < len(idx)*minCutWidth {
		return fit(natural, avail)
	}
	widths := slices.Clone(natural)
	waterFill(widths, natural, idx, rest)
	return widths
}

// fit shares avail cells among columns of the given natural widths. Short
// columns (counts, levels, transports: keepWhole cells or fewer) stay whole
// when that leaves the long ones at least minCutWidth each; then the long
// ones share what is left (waterFill), so a description is cut before an
// id is, and an id before a number.
func fit(natural []int, avail int) []int {
	total := 0
	for _, w := range natural {
		total += w
	}
	if total <= avail {
		return slices.Clone(natural)
	}
	short, long := 0, 0
	for _, w := range natural {
		if w <= keepWhole {
			short += w
		} else {
			long++
		}
	}
	if long > 0 && avail-short >= long*minCutWidth {
		widths := slices.Clone(natural)
		var idx []int
		for i, w := range natural {
			if w > keepWhole {
				idx = append(idx, i)
			}
		}
		waterFill(widths, natural, idx, avail-short)
		return widths
	}
	widths := make([]int, len(natural))
	idx := make([]int, len(natural))
	for i := range idx {
		idx[i] = i
	}
	waterFill(widths, natural, idx, avail)
	return widths
}

const (
	keepWhole   = 10
	minCutWidth = 6
)

// waterFill gives the columns idx avail cells: a column narrower than its
// fair share keeps its width, and the wide ones split what is left equally
// (the first ones get the odd cells), never below minCellWidth.
func waterFill(widths, natural, idx []int, avail int) {
	left := idx
	for {
		share := avail / max(len(left), 1)
		var rest []int
		for _, i := range left {
			if natural[i] <= share {
				widths[i] = natural[i]
				avail -= natural[i]
			} else {
				rest = append(rest, i)
			}
		}
		if len(rest) == len(left) || len(rest) == 0 {
			left = rest
			break
		}
		left = rest
	}
	if len(left) == 0 {
		return
	}
	share, odd := avail/len(left), avail%len(left)
	for k, i := range left {
		w := share
		if k < odd {
			w++
		}
		widths[i] = max(w, minCellWidth)
	}
}

// clean keeps a cell on one line and in one column.
func clean(s string) string {
	if !strings.ContainsAny(s, "\t\r\n") {
		return s
	}
	return strings.NewReplacer("\t", " ", "\r\n", " ", "\r", " ", "\n", " ").Replace(s)
}
