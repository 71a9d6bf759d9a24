// Package textview is the scrollable, searchable panel every overlay is
// drawn in: a title, pre-styled lines (with a plain copy for search and
// copy), `/` search with n/N, soft wrapping to the panel width, and a
// border centred on the screen.
package textview

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpward/mcpward/internal/termsafe"
	"github.com/mcpward/mcpward/internal/tui/common"
)

// Model is a panel's state.
type Model struct {
	c       common.Common
	Title   string
	lines   []string // styled
	plain   []string // same lines without styling, for search and copy
	offset  int
	query   string
	editing bool
	match   int // index into matches
	matches []int
	w, h    int
}

// New returns an empty panel.
func New(c common.Common) *Model { return &Model{c: c} }

// SetContent replaces the lines; plain may be nil when lines are unstyled.
// The scroll position is kept (live overlays are rebuilt on every tick).
//
// The lines may hold a server's text (a frame, a stderr line, headers,
// instructions): each goes through termsafe, so no escape sequence but
// mcpward's own colour reaches the terminal.
func (m *Model) SetContent(title string, lines, plain []string) {
	m.Title = termsafe.String(title)
	m.lines = make([]string, len(lines))
	for i, l := range lines {
		m.lines[i] = termsafe.String(l)
	}
	if plain == nil {
		plain = make([]string, len(lines))
		for i, l := range m.lines {
			plain[i] = ansi.Strip(l)
		}
	} else {
		safe := make([]string, len(plain))
		for i, l := range plain {
			safe[i] = termsafe.String(l)
		}
		plain = safe
	}
	m.plain = plain
	m.find()
}

// Text returns the plain content (what `y` copies).
func (m *Model) Text() string { return strings.Join(m.plain, "\n") }

// Searching reports whether the search prompt has the keyboard.
func (m *Model) Searching() bool { return m.editing }

// Query returns the search text.
func (m *Model) Query() string { return m.query }

// SetSize sets the screen size the panel is centred in.
func (m *Model) SetSize(w, h int) { m.w, m.h = w, h }

func (m *Model) inner() (int, int) {
	h := max(3, m.h-4) - 3 // border 2, title 1
	return InnerWidth(m.w), h
}

// InnerWidth is the text width of a panel on a screen w cells wide, so
// that an overlay can lay out a table that fits without wrapping.
func InnerWidth(w int) int { return max(10, w*9/10) - 4 }

func (m *Model) find() {
	m.matches = m.matches[:0]
	if m.query == "" {
		return
	}
	q := strings.ToLower(m.query)
	for i, l := range m.plain {
		if strings.Contains(strings.ToLower(l), q) {
			m.matches = append(m.matches, i)
		}
	}
	if m.match >= len(m.matches) {
		m.match = 0
	}
}

func (m *Model) jump() {
	if len(m.matches) > 0 {
		_, h := m.inner()
		m.offset = max(0, m.matches[m.match]-h/2)
	}
}

// Update handles scrolling and search keys. It reports whether it used
// the key, so that the owner may handle the rest.
func (m *Model) Update(msg tea.Msg) (bool, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return false, nil
	}
	km := m.c.KeyMap
	if m.editing {
		switch k.String() {
		case "enter":
			m.editing = false
		case "esc":
			m.editing, m.query = false, ""
			m.find()
		case "backspace":
			if r := []rune(m.query); len(r) > 0 {
				m.query = string(r[:len(r)-1])
			}
			m.find()
			m.jump()
		default:
			if k.Text != "" {
				m.query += k.Text
				m.match = 0
				m.find()
				m.jump()
			}
		}
		return true, nil
	}
	_, h := m.inner()
	switch {
	case key.Matches(k, km.Filter):
		m.editing, m.query = true, ""
		m.find()
	case key.Matches(k, km.NextMatch) && len(m.matches) > 0:
		m.match = (m.match + 1) % len(m.matches)
		m.jump()
	case key.Matches(k, km.PrevMatch) && len(m.matches) > 0:
		m.match = (m.match + len(m.matches) - 1) % len(m.matches)
		m.jump()
	case key.Matches(k, km.Down):
		m.offset++
	case key.Matches(k, km.Up):
		m.offset--
	case key.Matches(k, km.PageDown):
		m.offset += h
	case key.Matches(k, km.PageUp):
		m.offset -= h
	case key.Matches(k, km.Top):
		m.offset = 0
	case key.Matches(k, km.Bottom):
		m.offset = len(m.lines)
	default:
		return false, nil
	}
	return true, nil
}

// View renders the panel, centred in the screen size.
func (m *Model) View() string {
	st := m.c.Styles
	w, h := m.inner()
	// soft-wrap each logical line to the panel width
	var rows []string
	var src []int
	for i, l := range m.lines {
		for _, r := range Wrap(l, m.plain[i], w) {
			rows = append(rows, r)
			src = append(src, i)
		}
	}
	// offset counts logical lines; find the first visual row
	m.offset = max(0, min(m.offset, len(m.lines)-1))
	start := 0
	for start < len(src) && src[start] < m.offset {
		start++
	}
	if len(rows) > h && start > len(rows)-h {
		start = len(rows) - h
	}
	end := min(len(rows), start+h)
	var b strings.Builder
	title := st.OverlayTitle.Render(m.Title)
	if m.editing || m.query != "" {
		info := fmt.Sprintf("  /%s", m.query)
		if m.query != "" {
			info += fmt.Sprintf("  %d/%d", min(m.match+1, len(m.matches)), len(m.matches))
		}
		title += st.FilterText.Render(info)
	}
	b.WriteString(ansi.Truncate(title, w, "…"))
	cur := -1
	if len(m.matches) > 0 {
		cur = m.matches[m.match]
	}
	for i := start; i < end; i++ {
		b.WriteByte('\n')
		if src[i] == cur {
			b.WriteString(st.Match.Render(ansi.Strip(rows[i])))
		} else {
			b.WriteString(rows[i])
		}
	}
	for i := end - start; i < h; i++ {
		b.WriteByte('\n')
	}
	box := st.Overlay.Width(w + 4).Render(b.String())
	return lipgloss.Place(m.w, max(1, m.h-2), lipgloss.Center, lipgloss.Center, box)
}

// Wrap breaks a styled line into rows of at most w cells at word
// boundaries (a word longer than a row is cut). A line that starts with a
// label column ("baseline     text…", a word and two or more spaces)
// continues under its text, not under the label, so wrapped key-value
// lines stay readable. Breaks are found in the plain text and cut out of
// the styled one, so styles never hide a space from the wrapper.
func Wrap(styled, plain string, w int) []string {
	total := ansi.StringWidth(plain)
	if w <= 0 || total <= w {
		return []string{styled}
	}
	indent := labelIndent(plain)
	if indent > w/2 {
		indent = 0
	}
	pad := strings.Repeat(" ", indent)
	var out []string
	pos := 0 // cells of plain consumed
	for width := w; pos < total; width = w - indent {
		n := breakAt(ansi.Cut(plain, pos, total), width)
		if n == 0 { // only spaces left
			break
		}
		line := ansi.Cut(styled, pos, pos+n)
		if len(out) > 0 {
			line = pad + line
		}
		out = append(out, line)
		pos += n
		// skip the spaces the break fell on
		for pos < total && ansi.Cut(plain, pos, pos+1) == " " {
			pos++
		}
	}
	return out
}

// breakAt returns how many cells of rest go on a row of width cells: up
// to the last space that fits (a hyphenated name such as mcpward-runs-v2
// stays whole), or width cells of a word longer than the row.
func breakAt(rest string, width int) int {
	if ansi.StringWidth(rest) <= width {
		return ansi.StringWidth(strings.TrimRight(rest, " "))
	}
	head := ansi.Cut(rest, 0, width)
	if ansi.Cut(rest, width, width+1) == " " {
		return ansi.StringWidth(strings.TrimRight(head, " "))
	}
	if i := strings.LastIndexByte(head, ' '); i > 0 {
		return ansi.StringWidth(strings.TrimRight(head[:i], " "))
	}
	return width
}

// labelIndent returns where a wrapped line continues, in cells: under the
// text of a leading "label   " column (a run of non-space characters
// followed by at least two spaces, after the line's own indentation: the
// inspector's padded line numbers are one), else under the text of an
// indented bullet ("  ● logging  (…)"), else at the line's own
// indentation; 0 for a plain line.
func labelIndent(plain string) int {
	rest := strings.TrimLeft(plain, " ")
	lead := len(plain) - len(rest)
	if i := strings.IndexByte(rest, ' '); i > 0 && strings.HasPrefix(rest[i:], "  ") {
		j := i
		for j < len(rest) && rest[j] == ' ' {
			j++
		}
		if j < len(rest) {
			return ansi.StringWidth(plain[:lead+j])
		}
	}
	for _, bullet := range []string{"● ", "○ ", "• ", "- "} {
		if strings.HasPrefix(rest, bullet) {
			return lead + ansi.StringWidth(bullet)
		}
	}
	return lead
}
