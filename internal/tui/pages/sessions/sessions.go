// Package sessions is the sessions page: one row per session with its
// client, request/response/error counts, an activity sparkline, the age
// of its last record and a drift mark.
package sessions

import (
	"charm.land/lipgloss/v2"
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpward/mcpward/internal/tui/common"
	"github.com/mcpward/mcpward/internal/tui/components/table"
	"github.com/mcpward/mcpward/internal/tui/store"
)

// Sort orders of the table.
const (
	SortNone = iota
	SortName
	SortReq
	SortResp
	SortErr
	SortLast
)

// Page is the sessions page.
type Page struct {
	c      common.Common
	st     *store.Store
	tbl    table.Table
	filter string
	sortBy int
	desc   bool
	rows   []*store.Session
}

// New returns the sessions page over a store.
func New(c common.Common, st *store.Store) *Page { return &Page{c: c, st: st} }

// SetSize implements common.Component.
func (p *Page) SetSize(w, h int) { p.c.SetSize(w, h) }

// Init implements common.Component.
func (p *Page) Init() tea.Cmd { return nil }

// SetFilter sets the label filter (a case-insensitive substring).
func (p *Page) SetFilter(f string) { p.filter = strings.ToLower(f) }

// Refresh recomputes the visible rows from the store.
func (p *Page) Refresh() {
	all := p.st.Sessions()
	p.rows = p.rows[:0]
	for _, s := range all {
		if p.filter == "" || strings.Contains(strings.ToLower(s.Label), p.filter) {
			p.rows = append(p.rows, s)
		}
	}
	var f func(a, b *store.Session) int
	switch p.sortBy {
	case SortName:
		f = func(a, b *store.Session) int { return cmp.Compare(a.Label, b.Label) }
	case SortReq:
		f = func(a, b *store.Session) int { return cmp.Compare(a.Info.Requests, b.Info.Requests) }
	case SortResp:
		f = func(a, b *store.Session) int { return cmp.Compare(a.Info.Responses, b.Info.Responses) }
	case SortErr:
		f = func(a, b *store.Session) int { return cmp.Compare(errs(a), errs(b)) }
	case SortLast:
		f = func(a, b *store.Session) int { return last(a).Compare(last(b)) }
	}
	if f != nil {
		g := f
		if p.desc {
			g = func(a, b *store.Session) int { return -f(a, b) }
		}
		slices.SortStableFunc(p.rows, g)
	}
}

// errs is the session's error count as every surface gives it (the error
// signal, counted by the correlation store). The source's own count (the
// hub's quick classification of JSON-RPC errors) is another measure and is
// not mixed in.
func errs(s *store.Session) int64 { return s.Errors }

func last(s *store.Session) time.Time {
	if s.Info.Last.After(s.LastSeen) {
		return s.Info.Last
	}
	return s.LastSeen
}

// Selected returns the session under the cursor.
func (p *Page) Selected() *store.Session {
	if p.tbl.Cursor >= 0 && p.tbl.Cursor < len(p.rows) {
		return p.rows[p.tbl.Cursor]
	}
	return nil
}

// Select moves the cursor to a session; false if it is not shown.
func (p *Page) Select(id string) bool {
	for i, s := range p.rows {
		if s.ID == id {
			p.tbl.Cursor = i
			return true
		}
	}
	return false
}

// Visible returns the sessions shown, in table order.
func (p *Page) Visible() []*store.Session { return p.rows }

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
			p.sortBy, p.desc = by, by != SortName
		}
		p.Refresh()
	}
	switch {
	case p.tbl.Move(k, km, n, page):
	case key.Matches(k, km.Enter):
		if s := p.Selected(); s != nil {
			id := s.ID
			return p, func() tea.Msg { return common.SelectSessionMsg{ID: id} }
		}
	case key.Matches(k, km.SortName):
		sortKey(SortName)
	case key.Matches(k, km.SortReq):
		sortKey(SortReq)
	case key.Matches(k, km.SortResp):
		sortKey(SortResp)
	case key.Matches(k, km.SortErr):
		sortKey(SortErr)
	case key.Matches(k, km.SortLast):
		sortKey(SortLast)
	}
	return p, nil
}

var cols = []table.Column{
	{Title: "NAME"}, {Title: "CLIENT", Width: 20}, {Title: "REQ", Width: 6, Right: true},
	{Title: "RESP", Width: 6, Right: true}, {Title: "ERR", Width: 5, Right: true},
	{Title: "ACTIVITY", Width: 8}, {Title: "LAST", Width: 5, Right: true},
}

// View implements common.Component.
func (p *Page) View() string {
	st := p.c.Styles
	w := p.c.Width
	var use []table.Column
	var idx []int
	for i, c := range cols {
		if (i == 1 && w < 72) || (i == 5 && w < 88) {
			continue
		}
		use = append(use, c)
		idx = append(idx, i)
	}
	if len(p.rows) == 0 {
		return p.empty()
	}
	now := p.c.Now()
	names := DisplayNames(p.rows)
	row := func(i int) []table.Cell {
		s := p.rows[i]
		name := names[i]
		var nameSt = (*lipStyle)(nil)
		switch {
		case s.Drift.Failed():
			name, nameSt = "! "+name, &st.Err
		case s.Drift.Drifted():
			name, nameSt = "! "+name, &st.Warn
		}
		e := errs(s)
		var errSt = (*lipStyle)(nil)
		if e > 0 {
			errSt = &st.Err
		}
		age := now.Sub(last(s))
		var ageSt = (*lipStyle)(nil)
		if age > 30*time.Minute {
			ageSt = &st.Faint
		}
		all := []table.Cell{
			{Text: name, Style: nameSt},
			{Text: s.Info.Client},
			{Text: fmt.Sprint(s.Info.Requests)},
			{Text: fmt.Sprint(s.Info.Responses)},
			{Text: fmt.Sprint(e), Style: errSt},
			{Text: Spark(s.Info.Activity), Style: &st.Spark},
			{Text: Age(age), Style: ageSt},
		}
		out := make([]table.Cell, len(idx))
		for j, k := range idx {
			out[j] = all[k]
		}
		return out
	}
	return p.tbl.Render(use, len(p.rows), row, w, p.c.Height, st.TableHeader, st.Selected)
}

func (p *Page) empty() string {
	var b strings.Builder
	b.WriteString(p.c.Styles.Bright.Render("No sessions yet."))
	b.WriteString("\n\nRecord one by putting mcpward in front of a server:\n\n")
	b.WriteString("  mcpward proxy -- <server command>\n")
	// Each explanation on its own line: the commands and their words fit
	// an 80-column terminal whole (the golden at 80x24 pins it).
	b.WriteString("  mcpward wrap <server> [--client <client>]\n")
	b.WriteString("      route a server of a client's config through it\n")
	b.WriteString("  mcpward demo --ui\n")
	b.WriteString("      a scripted session\n")
	return b.String()
}

// Footer is the page's counter text.
func (p *Page) Footer() string {
	var e int64
	for _, s := range p.rows {
		e += errs(s)
	}
	noun := "sessions"
	if len(p.rows) == 1 {
		noun = "session"
	}
	return fmt.Sprintf("%d %s · %d err", len(p.rows), noun, e)
}

// ShortHelp implements help.KeyMap.
func (p *Page) ShortHelp() []key.Binding {
	km := p.c.KeyMap
	return []key.Binding{km.Enter, km.Filter, km.Caps, km.Summary, km.Help}
}

// FullHelp implements help.KeyMap.
func (p *Page) FullHelp() [][]key.Binding { return p.c.KeyMap.Groups() }

// Spark renders per-second activity as an 8-bucket sparkline (15 s each
// over the last two minutes).
func Spark(act []int) string {
	const buckets = 8
	if len(act) == 0 {
		return strings.Repeat(" ", buckets)
	}
	per := max(1, len(act)/buckets)
	sums := make([]int, buckets)
	for i := range buckets {
		lo := len(act) - (buckets-i)*per
		for j := max(0, lo); j < lo+per && j < len(act); j++ {
			if j >= 0 {
				sums[i] += act[j]
			}
		}
	}
	top := slices.Max(sums)
	bars := []rune("▁▂▃▄▅▆▇█")
	out := make([]rune, buckets)
	for i, v := range sums {
		switch {
		case v == 0:
			out[i] = ' '
		case top == 0:
			out[i] = bars[0]
		default:
			out[i] = bars[min(len(bars)-1, v*(len(bars)-1)/top)]
		}
	}
	return string(out)
}

// Age formats a duration as 5s, 3m, 2h or 4d.
func Age(d time.Duration) string {
	switch {
	case d < 0:
		return "0s"
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	}
	return fmt.Sprintf("%dd", int(d.Hours()/24))
}

type lipStyle = lipgloss.Style

// DisplayNames returns the name each session is shown by: its label, and
// for labels that several sessions share, the time the session started
// ("weather · 14:03:07"), or where even that is shared the end of its id
// ("weather · 14:03:07 #Q4ZK"), so that two runs of one server can be
// told apart.
func DisplayNames(rows []*store.Session) []string {
	byLabel := map[string]int{}
	for _, s := range rows {
		byLabel[s.Label]++
	}
	out := make([]string, len(rows))
	byName := map[string]int{}
	for i, s := range rows {
		out[i] = s.Label
		if byLabel[s.Label] > 1 {
			if t := s.Info.First; !t.IsZero() {
				out[i] += " · " + t.Local().Format("15:04:05")
			}
		}
		byName[out[i]]++
	}
	for i, s := range rows {
		if byLabel[s.Label] > 1 && byName[out[i]] > 1 && len(s.ID) >= 4 {
			out[i] += " #" + s.ID[len(s.ID)-4:]
		}
	}
	return out
}
