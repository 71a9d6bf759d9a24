// Package stream is the stream page: the frames of one session as a table
// (time, direction, method or tool, id, duration with a live spinner,
// status, detail), filtered by the filter language, sorted, and followed.
package stream

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/mcpward/mcpward/internal/calls"
	"github.com/mcpward/mcpward/internal/tui/common"
	"github.com/mcpward/mcpward/internal/tui/components/table"
	"github.com/mcpward/mcpward/internal/tui/format"
	"github.com/mcpward/mcpward/internal/tui/store"
)

// Sort orders of the stream.
const (
	SortTime = iota
	SortMethod
	SortID
	SortDur
	SortStatus
)

// Page is the stream page.
type Page struct {
	c       common.Common
	st      *store.Store
	session string
	tbl     table.Table
	filter  string
	pred    Predicate
	sortBy  int
	desc    bool
	follow  bool
	rows    []*store.Row
}

// New returns the stream page over a store.
func New(c common.Common, st *store.Store) *Page {
	return &Page{c: c, st: st, pred: Compile(""), follow: true}
}

// SetSize implements common.Component.
func (p *Page) SetSize(w, h int) { p.c.SetSize(w, h) }

// Init implements common.Component.
func (p *Page) Init() tea.Cmd { return nil }

// SetSession shows a session's frames, following its tail.
func (p *Page) SetSession(id string) {
	if id != p.session {
		p.session, p.follow, p.tbl = id, true, table.Table{}
	}
	p.Refresh()
}

// Session returns the shown session's id.
func (p *Page) Session() string { return p.session }

// SetFilter sets the filter text.
func (p *Page) SetFilter(f string) {
	p.filter, p.pred = f, Compile(f)
	p.Refresh()
}

// Filter returns the filter text.
func (p *Page) Filter() string { return p.filter }

// Follow reports whether the table follows new frames.
func (p *Page) Follow() bool { return p.follow }

// SetFollow turns following on or off.
func (p *Page) SetFollow(on bool) {
	p.follow = on
	if on {
		p.sortBy, p.desc = SortTime, false
		p.Refresh()
	}
}

// Refresh recomputes the visible rows from the store.
func (p *Page) Refresh() {
	p.rows = p.rows[:0]
	ss := p.st.Session(p.session)
	if ss == nil {
		return
	}
	for i := 0; i < ss.Len(); i++ {
		if r := ss.At(i); p.pred(r) {
			p.rows = append(p.rows, r)
		}
	}
	if p.sortBy != SortTime || p.desc {
		f := sorter(p.sortBy, p.c.Now())
		if p.desc {
			g := f
			f = func(a, b *store.Row) int { return -g(a, b) }
		}
		slices.SortStableFunc(p.rows, f)
	}
	if p.follow {
		p.tbl.Cursor = len(p.rows) - 1
	}
}

func sorter(by int, now time.Time) func(a, b *store.Row) int {
	switch by {
	case SortMethod:
		return func(a, b *store.Row) int { return cmp.Compare(a.Method+" "+a.Tool, b.Method+" "+b.Tool) }
	case SortID:
		return func(a, b *store.Row) int { return cmp.Compare(a.ID, b.ID) }
	case SortDur:
		return func(a, b *store.Row) int { return cmp.Compare(dur(a, now), dur(b, now)) }
	case SortStatus:
		return func(a, b *store.Row) int { return cmp.Compare(store.Status(a), store.Status(b)) }
	}
	return func(a, b *store.Row) int { return a.Time.Compare(b.Time) }
}

func dur(r *store.Row, now time.Time) time.Duration {
	if r.Call == nil || (r.Kind != calls.KindRequest && r.Kind != calls.KindResponse) {
		return 0
	}
	if r.Unanswered() {
		return 0
	}
	if r.Call.State.Open() {
		return now.Sub(r.Call.Start)
	}
	return r.Call.Duration()
}

// Rows returns the visible rows in table order.
func (p *Page) Rows() []*store.Row { return p.rows }

// FrameIndex returns r's place among the wire frames shown (1-based; 0
// when r is not a shown wire frame: a start, exit or stderr record, a
// batch's later element) and how many wire frames are shown. The footer
// and the inspector both count with it, so "FRAME i/n" and "frames n/total"
// count the same frames (calls.Session.Frames' kind).
func (p *Page) FrameIndex(r *store.Row) (index, shown int) {
	for _, x := range p.rows {
		if !x.WireFrame {
			continue
		}
		shown++
		if x == r {
			index = shown
		}
	}
	return index, shown
}

// Selected returns the row under the cursor.
func (p *Page) Selected() *store.Row {
	if p.tbl.Cursor >= 0 && p.tbl.Cursor < len(p.rows) {
		return p.rows[p.tbl.Cursor]
	}
	return nil
}

// Update implements common.Component.
func (p *Page) Update(msg tea.Msg) (common.Component, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return p, nil
	}
	km := p.c.KeyMap
	n := len(p.rows)
	page := max(1, p.c.Height-1)
	sortKey := func(by int) {
		if p.sortBy == by {
			p.desc = !p.desc
		} else {
			p.sortBy, p.desc = by, false
		}
		if by != SortTime {
			p.follow = false
		}
		p.Refresh()
	}
	switch {
	case p.tbl.Move(k, km, n, page):
		// Following means the cursor sits on the newest row of a stream in
		// time order; any move decides it afresh.
		p.follow = n > 0 && p.tbl.Cursor == n-1 && p.sortBy == SortTime && !p.desc
	case key.Matches(k, km.Follow):
		p.SetFollow(!p.follow)
	case key.Matches(k, km.Enter):
		if r := p.Selected(); r != nil {
			m := common.OpenFrameMsg{Session: p.session, Seq: r.Seq, Batch: r.Batch}
			return p, func() tea.Msg { return m }
		}
	case key.Matches(k, km.SortTime):
		sortKey(SortTime)
	case key.Matches(k, km.SortMethod):
		sortKey(SortMethod)
	case key.Matches(k, km.SortID):
		sortKey(SortID)
	case key.Matches(k, km.SortDur):
		sortKey(SortDur)
	case key.Matches(k, km.SortStatus):
		sortKey(SortStatus)
	}
	return p, nil
}

// View implements common.Component.
func (p *Page) View() string {
	st := p.c.Styles
	w := p.c.Width
	now := p.c.Now()
	// A clock time people can read at every width: milliseconds while the
	// method column keeps room for a tool name, whole seconds below that
	// (a bare "05.0000" read as a number, not a time).
	timeFmt, timeW := "15:04:05.000", 12
	if w < 70 {
		timeFmt, timeW = "15:04:05", 8
	}
	// CACHE is a cacheable result's ttlMs and cacheScope (mcpsnoop showed
	// them in the detail): a column of its own from 120 columns, before
	// the detail below that.
	cols := []table.Column{{Title: "TIME", Width: timeW}, {Title: " ", Width: 1}, {Title: "METHOD/TOOL", Width: 28},
		{Title: "ID", Width: 6}, {Title: "DUR", Width: 9, Right: true}, {Title: "STATUS", Width: 10}, {Title: "CACHE", Width: 12}, {Title: "DETAIL"}}
	cacheCol := w >= 120
	switch {
	case w < 100:
		cols[2].Width = 0
		cols = cols[:6]
	case !cacheCol:
		cols = append(cols[:6], cols[7])
	}
	if len(p.rows) == 0 {
		if p.filter != "" {
			return st.Faint.Render("no frames match " + p.filter)
		}
		return st.Faint.Render("no frames yet")
	}
	row := func(i int) []table.Cell {
		r := p.rows[i]
		status := store.Status(r)
		var stSt *lipgloss.Style
		switch status {
		case "err", "bad", "state!":
			stSt = &st.Err
		case "warn", "late", "cancel", "superseded", "input_required":
			stSt = &st.Warn
		case "pending", "streaming":
			stSt = &st.Pending
		case "unanswered":
			stSt = &st.Warn
		case "ok":
			stSt = &st.OK
		}
		method := r.Method
		if r.Tool != "" {
			method += " " + st.Bright.Render(r.Tool)
		}
		if r.Kind == calls.KindStderr {
			method = "stderr"
		}
		detail := format.Detail(r)
		cells := []table.Cell{
			{Text: r.Time.Format(timeFmt), Style: &st.Faint},
			{Text: format.Glyph(r)},
			{Text: method},
			{Text: r.ID},
			{Text: format.Duration(r, now)},
			{Text: status, Style: stSt},
		}
		switch {
		case cacheCol:
			cells = append(cells, table.Cell{Text: r.Cache, Style: &st.Faint})
		case r.Cache != "":
			detail = "cache " + r.Cache + " · " + detail
		}
		return append(cells, table.Cell{Text: detail})
	}
	return p.tbl.Render(cols, len(p.rows), row, w, p.c.Height, st.TableHeader, st.Selected)
}

// Footer is the page's counter text: shown/total wire frames, missing, and
// error, bad, warning and pending counts over the whole session.
func (p *Page) Footer() string {
	ss := p.st.Session(p.session)
	if ss == nil {
		return ""
	}
	_, shown := p.FrameIndex(nil)
	s := fmt.Sprintf("frames %d/%d", shown, ss.Frames)
	if ss.Dropped > 0 {
		s += fmt.Sprintf(" (%d older not held)", ss.Dropped)
	}
	if ss.Info.Missing > 0 {
		s += fmt.Sprintf(" · %d missing", ss.Info.Missing)
	}
	open := "pending"
	if ss.Ended() {
		open = "unanswered"
	}
	return s + fmt.Sprintf(" · %d err · %d bad · %d warn · %d %s", ss.Errors, ss.Bad, ss.Warn, ss.Pending(), open)
}

// ShortHelp implements help.KeyMap.
func (p *Page) ShortHelp() []key.Binding {
	km := p.c.KeyMap
	return []key.Binding{km.Enter, km.Filter, km.Follow, km.Back, km.Help}
}

// FullHelp implements help.KeyMap.
func (p *Page) FullHelp() [][]key.Binding { return p.c.KeyMap.Groups() }
