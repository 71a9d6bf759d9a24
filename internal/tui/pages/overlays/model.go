package overlays

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/tui/common"
	"github.com/mcpward/mcpward/internal/tui/components/textview"
)

// Kind is an overlay.
type Kind int

// The overlays.
const (
	KindNone Kind = iota
	KindInspector
	KindCaps
	KindSummary
	KindHelp
	KindReplay
)

// Model is the overlay layer drawn over the active page: which overlay
// is open, its scrollable, searchable text view, the inspected frame and
// the replay's state. The root model fills it with content (Inspector,
// Caps, Summary, Help, Replay), which needs the store and the pages.
type Model struct {
	c    common.Common
	kind Kind
	tv   *textview.Model
	// Seq and Batch name the frame the inspector shows (and a replay
	// starts from).
	Seq   uint64
	Batch int
	// Rec is the inspected record when it was read back from the source
	// (a row's own reference is weak).
	Rec *session.Record
	// Replay is the replay overlay's state.
	Replay ReplayState
}

// NewModel returns a closed overlay layer.
func NewModel(c common.Common) *Model {
	m := &Model{c: c}
	m.tv = textview.New(c)
	m.tv.SetSize(c.Width, c.Height)
	return m
}

// Kind returns the open overlay (KindNone: none).
func (m *Model) Kind() Kind { return m.kind }

// Open opens an overlay with an empty text view at the top.
func (m *Model) Open(k Kind) {
	m.kind = k
	m.tv = textview.New(m.c)
	m.tv.SetSize(m.c.Width, m.c.Height)
}

// Switch shows another overlay in the same text view.
func (m *Model) Switch(k Kind) { m.kind = k }

// Close closes the overlay.
func (m *Model) Close() { m.kind = KindNone }

// SetCommon restyles the layer (a new theme): the text view starts anew.
func (m *Model) SetCommon(c common.Common) {
	m.c = c
	m.tv = textview.New(c)
	m.tv.SetSize(c.Width, c.Height)
}

// SetSize sets the panel's size.
func (m *Model) SetSize(w, h int) {
	m.c.SetSize(w, h)
	m.tv.SetSize(w, h)
}

// SetContent replaces the text shown (plain is the uncoloured text, for
// search and copy).
func (m *Model) SetContent(title string, lines, plain []string) { m.tv.SetContent(title, lines, plain) }

// Update handles the text view's keys (scroll, search); it reports
// whether the key was used.
func (m *Model) Update(msg tea.Msg) (bool, tea.Cmd) { return m.tv.Update(msg) }

// View renders the panel.
func (m *Model) View() string { return m.tv.View() }

// Text returns the shown text without colour.
func (m *Model) Text() string { return m.tv.Text() }

// ShortHelp returns the footer's key hints while an overlay is open.
func (m *Model) ShortHelp() []key.Binding {
	km := m.c.KeyMap
	b := []key.Binding{km.Filter, km.NextMatch, km.Copy, km.Back}
	if m.kind == KindInspector {
		b = append(b, km.Jump, km.Replay)
	}
	return b
}
