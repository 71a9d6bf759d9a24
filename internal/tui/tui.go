package tui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/tui/common"
	"github.com/mcpward/mcpward/internal/tui/components/footer"
	"github.com/mcpward/mcpward/internal/tui/components/header"
	"github.com/mcpward/mcpward/internal/tui/components/palette"
	"github.com/mcpward/mcpward/internal/tui/components/table"
	"github.com/mcpward/mcpward/internal/tui/keymap"
	"github.com/mcpward/mcpward/internal/tui/pages/overlays"
	"github.com/mcpward/mcpward/internal/tui/pages/sessions"
	"github.com/mcpward/mcpward/internal/tui/pages/stream"
	"github.com/mcpward/mcpward/internal/tui/store"
	"github.com/mcpward/mcpward/internal/tui/styles"
)

// DefaultFPS bounds how often the screen is rebuilt.
const DefaultFPS = 30

// Options configure the root model.
type Options struct {
	Source   common.Source
	Replayer common.Replayer // nil: replay unavailable
	Exporter common.Exporter // nil: JSONL export only
	// Baseline reads the stored tool baselines that sessions are marked
	// against (nil: no drift marks). It is called once per complete
	// tools/list, inside a tea.Cmd.
	Baseline common.BaselineLoader
	// Trust, when set, is used instead of Baseline: a session whose
	// server identity has no baseline gets its complete tool list
	// recorded as one (trust on first use). Nil: only read.
	Trust common.BaselineTruster
	// StateDir is where exports are written (StateDir/exports).
	StateDir string
	Dark     bool
	// AutoTheme follows the terminal's background colour when it answers.
	AutoTheme bool
	NoColor   bool
	Version   string
	FPS       int
	Store     store.Options
	Now       func() time.Time
	// Context bounds the source waits (default context.Background()).
	Context context.Context
	// Clipboard copies text (default tea.SetClipboard, OSC 52).
	Clipboard func(string) tea.Cmd
	// Flash is shown once at start (e.g. "loaded newest 20 of 31 logs").
	Flash string
	// Intro is a line that stays under the header while no filter or
	// command is being typed: what the user is looking at and the first
	// keys to press (demo --ui explains itself with it).
	Intro string
}

// FramesMsg carries one coalesced batch from the source.
type FramesMsg struct {
	Batch common.Batch
	Err   error
}

// TickMsg is the redraw tick.
type TickMsg time.Time

type exportedMsg struct {
	path string
	err  error
}

type deletedMsg struct {
	id  string
	err error
}

// driftMsg carries the outcome of the baseline checks of one batch.
type driftMsg struct {
	checks []store.DriftCheck
	drifts []store.Drift
}

// recordMsg carries a record read back from the source for a row whose
// record the source no longer holds in memory.
type recordMsg struct {
	id   string
	seq  uint64
	rec  *session.Record
	copy bool // copy its frame to the clipboard
	err  error
}

type replayMsg struct {
	res common.ReplayResult
	err error
}

type mode int

const (
	modeNormal mode = iota
	modeFilter
	modePalette
	modeConfirmDelete
	modeConfirmReplay
	// modePickExport waits for the export format key (e).
	modePickExport
)

const (
	pageSessions = iota
	pageStream
)

// Model is the root model; the only tea.Model of the UI.
type Model struct {
	c      common.Common
	opts   Options
	st     *store.Store
	pages  []common.Component
	ses    *sessions.Page
	str    *stream.Page
	active int
	mode   mode
	input  string // filter or palette text being typed
	// replacing: the filter prompt opened on the filter in force, shown
	// selected; the first key typed replaces it (backspace clears it),
	// enter keeps it.
	replacing bool
	sfilter   string // sessions filter

	ov       *overlays.Model // the overlay over the active page
	replayOK map[string]bool // sessions whose replay was confirmed

	paused, dirty bool
	held          []*session.Record // records that arrived while paused
	infoAt        time.Time
	flash         string
	flashUntil    time.Time
	err           error
	srcErr        error
	srcDone       bool // the source delivered everything (io.EOF): nothing live
	content       string
	rendered      bool
	quitting      bool
	noTick        bool // tests drive ticks themselves
}

// New returns the root model.
func New(opts Options) *Model {
	if opts.FPS <= 0 {
		opts.FPS = DefaultFPS
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Context == nil {
		opts.Context = context.Background()
	}
	if opts.Clipboard == nil {
		opts.Clipboard = tea.SetClipboard
	}
	c := common.Common{Width: 80, Height: 24, Styles: styles.New(opts.Dark, opts.NoColor), KeyMap: keymap.Default(), Now: opts.Now}
	st := store.New(opts.Store)
	m := &Model{c: c, opts: opts, st: st, replayOK: map[string]bool{}}
	m.ses = sessions.New(c, st)
	m.str = stream.New(c, st)
	m.pages = []common.Component{m.ses, m.str}
	m.ov = overlays.NewModel(c)
	if opts.Flash != "" {
		m.setFlash(opts.Flash)
	}
	m.dirty = true
	m.layout()
	return m
}

// maxHeld bounds the records held back while paused; beyond it they are
// shown anyway rather than growing without bound. These are the only
// records the view itself keeps alive (rows hold weak references).
const maxHeld = 100_000

func (m *Model) ingestHeld() {
	if len(m.held) > 0 {
		m.st.Ingest(m.held)
		m.held, m.dirty = nil, true
	}
}

// flushDone lets the store show the responses it held for a request that
// may follow, once the source has delivered every record and none is held
// back by a pause (keys.go calls it again on resume).
func (m *Model) flushDone() {
	if m.srcDone && !m.paused {
		m.ingestHeld()
		m.st.Flush()
		m.dirty = true
	}
}

// Store returns the model's store (for tests and benchmarks).
func (m *Model) Store() *store.Store { return m.st }

// Init starts the source wait and the redraw tick.
func (m *Model) Init() tea.Cmd {
	return tea.Batch(m.waitCmd(), m.tickCmd(), tea.RequestBackgroundColor)
}

// waitCmd blocks on the source for the next coalesced batch.
func (m *Model) waitCmd() tea.Cmd {
	src, ctx := m.opts.Source, m.opts.Context
	if src == nil {
		return nil
	}
	return func() tea.Msg {
		b, err := src.Next(ctx)
		return FramesMsg{Batch: b, Err: err}
	}
}

// driftCmd compares the tool listings completed since the last call with
// their stored baselines: once per listing, off the render path, with the
// file reads inside the command.
func (m *Model) driftCmd() tea.Cmd {
	checks := m.st.DriftChecks()
	load, trust := m.opts.Baseline, m.opts.Trust
	if len(checks) == 0 {
		return nil
	}
	return func() tea.Msg {
		drifts := make([]store.Drift, len(checks))
		for i, c := range checks {
			switch {
			case trust != nil:
				drifts[i] = store.TrustDrift(c, trust)
			case load != nil:
				drifts[i] = store.CheckDrift(c, load)
			}
			drifts[i].Scan = store.ScanTools(c)
		}
		return driftMsg{checks: checks, drifts: drifts}
	}
}

func (m *Model) tickCmd() tea.Cmd {
	if m.noTick {
		return nil
	}
	return tea.Tick(time.Second/time.Duration(m.opts.FPS), func(t time.Time) tea.Msg { return TickMsg(t) })
}

func (m *Model) setFlash(s string) {
	m.flash, m.flashUntil = s, m.opts.Now().Add(3*time.Second)
}

func (m *Model) layout() {
	h := max(1, m.c.Height-3) // header, prompt, footer
	for _, p := range m.pages {
		p.SetSize(m.c.Width, h)
	}
	m.ov.SetSize(m.c.Width, m.c.Height)
}

// Update implements tea.Model.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmds []tea.Cmd
	redraw := true
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.c.SetSize(msg.Width, msg.Height)
		m.layout()
	case tea.BackgroundColorMsg:
		if m.opts.AutoTheme && !m.opts.NoColor {
			m.c.Styles = styles.New(msg.IsDark(), false)
			m.rebuildStyles()
		}
	case FramesMsg:
		redraw = false
		if msg.Err != nil {
			switch {
			case errors.Is(msg.Err, io.EOF):
				// Finished logs: the view shows no live or follow state.
				m.srcDone = true
				m.flushDone()
				m.refresh()
				redraw = true
			case !errors.Is(msg.Err, context.Canceled):
				m.srcErr = msg.Err
			}
			break // the source is done: no further wait
		}
		if m.paused && len(m.held) < maxHeld {
			m.held = append(m.held, msg.Batch.Records...)
		} else {
			m.ingestHeld()
			m.st.Ingest(msg.Batch.Records)
			m.dirty = true
		}
		cmds = append(cmds, m.waitCmd())
	case TickMsg:
		redraw = false
		cmds = append(cmds, m.tickCmd())
		now := time.Time(msg)
		if !m.paused && (m.dirty || now.Sub(m.infoAt) > time.Second) {
			m.refresh()
			redraw = true
		} else if m.ov.Kind() == overlays.KindReplay && m.ov.Replay.Running || m.active == pageStream {
			redraw = true // spinners
		}
		if m.flash != "" && now.After(m.flashUntil) {
			m.flash, redraw = "", true
		}
	case common.ErrorMsg:
		m.err = msg.Err
	case common.FlashMsg:
		m.setFlash(msg.Text)
	case common.SelectSessionMsg:
		m.openSession(msg.ID)
	case common.OpenFrameMsg:
		if cmd := m.openInspector(msg.Seq, msg.Batch); cmd != nil {
			cmds = append(cmds, cmd)
		}
	case recordMsg:
		switch {
		case msg.err != nil:
			m.err = msg.err
		case msg.rec == nil:
			if msg.copy {
				m.setFlash("frame not found in the session log")
			}
		case msg.copy:
			if cmd := m.clip(string(msg.rec.Frame)); cmd != nil {
				cmds = append(cmds, cmd)
			}
		case m.ov.Kind() == overlays.KindInspector && msg.id == m.currentSession() && msg.seq == m.ov.Seq:
			m.ov.Rec = msg.rec
			m.buildOverlay()
		}
	case exportedMsg:
		if msg.err != nil {
			m.err = msg.err
		} else {
			m.setFlash("exported to " + msg.path)
		}
	case deletedMsg:
		if msg.err != nil {
			m.err = msg.err
		} else {
			m.st.Delete(msg.id)
			m.setFlash("deleted " + msg.id)
			if m.active == pageStream && m.str.Session() == msg.id {
				m.active = pageSessions
			}
			m.refresh()
		}
	case replayMsg:
		r := msg.res
		if msg.err != nil {
			r.Err = msg.err
		}
		m.ov.Replay.Running, m.ov.Replay.Result = false, &r
		m.buildOverlay()
	case driftMsg:
		redraw = false // shown on the next tick
		for i, c := range msg.checks {
			m.st.SetDrift(c.Session, c.Gen, msg.drifts[i])
		}
		m.dirty = true
	case tea.KeyPressMsg:
		if cmd := m.key(msg); cmd != nil {
			cmds = append(cmds, cmd)
		}
	default:
		redraw = false
	}
	if m.quitting {
		return m, tea.Quit
	}
	if cmd := m.driftCmd(); cmd != nil {
		cmds = append(cmds, cmd)
	}
	if redraw {
		m.render()
	}
	return m, tea.Batch(cmds...)
}

func (m *Model) rebuildStyles() {
	cur := m.str.Session()
	filter := m.str.Filter()
	m.ses = sessions.New(m.c, m.st)
	m.str = stream.New(m.c, m.st)
	m.pages = []common.Component{m.ses, m.str}
	m.ov.SetCommon(m.c)
	m.layout()
	m.str.SetSession(cur)
	m.str.SetFilter(filter)
	m.ses.SetFilter(m.sfilter)
	m.refresh()
}

// refresh pulls session info and recomputes the pages' rows.
func (m *Model) refresh() {
	if m.opts.Source != nil {
		m.st.SetInfo(m.opts.Source.Sessions())
	}
	m.infoAt = m.opts.Now()
	m.dirty = false
	sel := ""
	if s := m.ses.Selected(); s != nil {
		sel = s.ID
	}
	m.ses.Refresh()
	if sel != "" {
		m.ses.Select(sel)
	}
	if m.active == pageStream {
		m.str.Refresh()
	}
	if m.ov.Kind() != overlays.KindNone && m.ov.Kind() != overlays.KindHelp {
		m.buildOverlay()
	}
}

func (m *Model) openSession(id string) {
	m.active = pageStream
	m.str.SetSession(id)
	m.ses.Select(id)
}

// currentSession is the session the stream shows, or the one under the
// sessions cursor.
func (m *Model) currentSession() string {
	if m.active == pageStream {
		return m.str.Session()
	}
	if s := m.ses.Selected(); s != nil {
		return s.ID
	}
	return ""
}

// View implements tea.Model. It returns the frame built by the last
// render; records arriving between ticks do not rebuild it.
func (m *Model) View() tea.View {
	if !m.rendered {
		m.render()
	}
	v := tea.NewView(m.content)
	v.AltScreen = true
	v.WindowTitle = "mcpward ui"
	return v
}

// Content returns the current screen as text (for tests).
func (m *Model) Content() string {
	if !m.rendered {
		m.render()
	}
	return m.content
}

func (m *Model) render() {
	m.rendered = true
	w, h := m.c.Width, m.c.Height
	if w <= 0 || h <= 0 {
		m.content = ""
		return
	}
	body := m.pages[m.active].View()
	switch {
	case m.mode == modePalette:
		var labels []string
		for _, s := range m.st.Sessions() {
			labels = append(labels, s.Label)
		}
		body = palette.View(m.c, m.input, labels, w, max(0, h-3))
	case m.ov.Kind() != overlays.KindNone:
		body = m.ov.View()
	}
	lines := []string{m.header(), m.prompt()}
	bl := strings.Split(body, "\n")
	bh := max(0, h-3)
	if len(bl) > bh {
		bl = bl[:bh]
	}
	for len(bl) < bh {
		bl = append(bl, "")
	}
	lines = append(lines, bl...)
	lines = append(lines, m.footer())
	if len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		lines[i] = table.Fit(l, w, false)
	}
	m.content = strings.Join(lines, "\n")
}

// header builds the header line's State from the pages.
func (m *Model) header() string {
	crumb := "sessions"
	if m.active == pageStream {
		ss := m.st.Session(m.str.Session())
		label := m.str.Session()
		if ss != nil && ss.Label != "" {
			label = ss.Label
		}
		if m.c.Width < 100 {
			vis := m.ses.Visible()
			i := 0
			for j, s := range vis {
				if s.ID == m.str.Session() {
					i = j + 1
				}
			}
			crumb = fmt.Sprintf("%s (%d/%d)", label, i, len(vis))
		} else {
			crumb = "sessions › " + label
		}
	}
	s := header.State{Crumb: crumb, Follow: !m.srcDone && m.active == pageStream && m.str.Follow(), Paused: m.paused,
		SrcErr: m.srcErr, Done: m.srcDone}
	if m.mode != modeFilter {
		s.Filter = m.filterText()
	}
	return header.View(m.c, s)
}

func (m *Model) prompt() string {
	in := header.InputNone
	switch m.mode {
	case modeFilter:
		in = header.InputFilter
	case modePalette:
		in = header.InputPalette
	}
	if in == header.InputFilter && m.replacing {
		return header.Prompt(m.c, in, m.input, m.opts.Intro) + m.c.Styles.Faint.Render("  typing replaces it · enter keeps it · esc clears it")
	}
	return header.Prompt(m.c, in, m.input, m.opts.Intro)
}

// footer builds the footer line's State from the mode, the open overlay
// and the active page.
func (m *Model) footer() string {
	s := footer.State{Err: m.err, Flash: m.flash}
	if m.ov.Kind() != overlays.KindNone {
		s.Bindings = m.ov.ShortHelp()
	} else {
		s.Bindings = m.pages[m.active].ShortHelp()
	}
	if m.mode == modeConfirmDelete {
		s.Confirm = "delete session " + m.currentSession() + " and its log? y/enter"
	}
	if m.mode == modePickExport {
		s.Confirm = exportPrompt()
	}
	if m.active == pageStream {
		s.Status = m.str.Footer()
	} else {
		s.Status = m.ses.Footer()
	}
	return footer.View(m.c, s)
}
