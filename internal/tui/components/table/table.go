// Package table renders a fixed-size table of styled cells: column widths
// from a spec, a flexible last column, wide-rune aware truncation (ansi
// widths, so CJK and emoji never push a row past the screen), and a
// selected row kept in view.
package table

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpward/mcpward/internal/termsafe"
	"github.com/mcpward/mcpward/internal/tui/keymap"
)

// A Column is a table column. Width 0 makes the column flexible: it takes
// what the fixed columns leave.
type Column struct {
	Title string
	Width int
	Right bool // right-aligned
}

// A Cell is a cell's text and its style.
type Cell struct {
	Text  string
	Style *lipgloss.Style
}

// Table is the table's layout state: the cursor and scroll offset.
type Table struct {
	Cursor, Offset int
}

// Fit returns s cut or padded to exactly w cells.
func Fit(s string, w int, right bool) string {
	if w <= 0 {
		return ""
	}
	if ansi.StringWidth(s) > w {
		s = ansi.Truncate(s, w, "…")
	}
	pad := w - ansi.StringWidth(s)
	if pad <= 0 {
		return s
	}
	if right {
		return strings.Repeat(" ", pad) + s
	}
	return s + strings.Repeat(" ", pad)
}

// Move moves the cursor for a navigation key (up and down wrap around;
// top, bottom, page down and page up stop at the ends) over n rows with
// pages of page rows, and reports whether k was a navigation key.
func (t *Table) Move(k tea.KeyPressMsg, km *keymap.KeyMap, n, page int) bool {
	switch {
	case key.Matches(k, km.Down):
		if n > 0 {
			t.Cursor = (t.Cursor + 1) % n
		}
	case key.Matches(k, km.Up):
		if n > 0 {
			t.Cursor = (t.Cursor - 1 + n) % n
		}
	case key.Matches(k, km.Top):
		t.Cursor = 0
	case key.Matches(k, km.Bottom):
		t.Cursor = n - 1
	case key.Matches(k, km.PageDown):
		t.Cursor = min(n-1, t.Cursor+page)
	case key.Matches(k, km.PageUp):
		t.Cursor = max(0, t.Cursor-page)
	default:
		return false
	}
	return true
}

// Clamp keeps the cursor within n rows and in view for height rows.
func (t *Table) Clamp(n, height int) {
	if height < 1 {
		height = 1
	}
	t.Cursor = max(0, min(t.Cursor, n-1))
	if t.Cursor < t.Offset {
		t.Offset = t.Cursor
	}
	if t.Cursor >= t.Offset+height {
		t.Offset = t.Cursor - height + 1
	}
	t.Offset = max(0, min(t.Offset, n-height))
}

// Render draws the header and height-1 rows of cells (row(i) gives row
// i's cells) into width columns. header and sel style the header line
// and the cursor row.
func (t *Table) Render(cols []Column, n int, row func(i int) []Cell, width, height int, header, sel lipgloss.Style) string {
	if width <= 0 || height <= 0 {
		return ""
	}
	widths := Widths(cols, width)
	var b strings.Builder
	var hs []string
	for i, c := range cols {
		if widths[i] > 0 {
			hs = append(hs, Fit(c.Title, widths[i], c.Right))
		}
	}
	b.WriteString(header.Render(Fit(strings.Join(hs, " "), width, false)))
	body := height - 1
	t.Clamp(n, body)
	for i := t.Offset; i < min(n, t.Offset+body); i++ {
		b.WriteByte('\n')
		cells := row(i)
		var parts []string
		for j, c := range cols {
			if widths[j] <= 0 {
				continue
			}
			var cell Cell
			if j < len(cells) {
				cell = cells[j]
			}
			// A cell may hold a server's text: no escape sequence but
			// mcpward's own colour reaches the terminal.
			txt := Fit(termsafe.String(cell.Text), widths[j], c.Right)
			if cell.Style != nil && i != t.Cursor {
				txt = cell.Style.Render(txt)
			}
			parts = append(parts, txt)
		}
		line := strings.Join(parts, " ")
		if i == t.Cursor {
			line = sel.Render(Fit(line, width, false))
		}
		b.WriteString(line)
	}
	return b.String()
}

// Widths gives each column its width in a table width cells wide: fixed
// columns first, flexible ones share the rest; columns that do not fit are
// dropped (width 0) from the right.
func Widths(cols []Column, width int) []int {
	out := make([]int, len(cols))
	used, flex := 0, 0
	for i, c := range cols {
		if c.Width == 0 {
			flex++
			continue
		}
		if used+c.Width+1 > width && used > 0 {
			continue
		}
		out[i] = c.Width
		used += c.Width + 1
	}
	if flex > 0 {
		rest := width - used - (flex - 1)
		for i, c := range cols {
			if c.Width == 0 && rest > 0 {
				out[i] = max(1, rest/flex)
			}
		}
	}
	return out
}
