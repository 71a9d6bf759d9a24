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
func (m *Model) SetContent(title string, lines, plain []string) {
	m.Title = title
	m.lines = lines
	if plain == nil {
		plain = make([]string, len(lines))
		for i, l := range lines {
			plain[i] = ansi.Strip(l)
		}
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
	w := max(10, m.w*9/10) - 4
	h := max(3, m.h-4) - 3 // border 2, title 1
	return w, h
}

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
		wrapped := strings.Split(ansi.Hardwrap(l, w, true), "\n")
		for _, r := range wrapped {
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
