package tui

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpward/mcpward/internal/atomicfile"
	"github.com/mcpward/mcpward/internal/calls"
	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/tui/common"
	"github.com/mcpward/mcpward/internal/tui/components/palette"
	"github.com/mcpward/mcpward/internal/tui/components/table"
	"github.com/mcpward/mcpward/internal/tui/components/textview"
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
)

type overlayKind int

const (
	ovNone overlayKind = iota
	ovInspector
	ovCaps
	ovSummary
	ovHelp
	ovReplay
)

const (
	pageSessions = iota
	pageStream
)

// Model is the root model; the only tea.Model of the UI.
type Model struct {
	c       common.Common
	opts    Options
	st      *store.Store
	pages   []common.Component
	ses     *sessions.Page
	str     *stream.Page
	active  int
	mode    mode
	input   string // filter or palette text being typed
	sfilter string // sessions filter

	overlay   overlayKind
	tv        *textview.Model
	inspSeq   uint64
	inspBatch int
	// inspRec is the inspected record when it was read back from the
	// source (the row's own reference is weak).
	inspRec  *session.Record
	replay   overlays.ReplayState
	replayOK map[string]bool // sessions whose replay was confirmed

	paused, dirty bool
	held          []*session.Record // records that arrived while paused
	infoAt        time.Time
	flash         string
	flashUntil    time.Time
	err           error
	srcErr        error
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
	m.tv = textview.New(c)
	if opts.Flash != "" {
		m.setFlash(opts.Flash)
	}
	m.dirty = true
	m.layout()
	return m
}

// maxHeld bounds the records held back while paused; beyond it they are
// shown anyway rather than growing without bound.
const maxHeld = 100_000

func (m *Model) ingestHeld() {
	if len(m.held) > 0 {
		m.st.Ingest(m.held)
		m.held, m.dirty = nil, true
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
	load := m.opts.Baseline
	if len(checks) == 0 || load == nil {
		return nil
	}
	return func() tea.Msg {
		drifts := make([]store.Drift, len(checks))
		for i, c := range checks {
			drifts[i] = store.CheckDrift(c, load)
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
	m.tv.SetSize(m.c.Width, m.c.Height)
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
			if !errors.Is(msg.Err, context.Canceled) {
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
		} else if m.overlay == ovReplay && m.replay.Running || m.active == pageStream {
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
		case m.overlay == ovInspector && msg.id == m.currentSession() && msg.seq == m.inspSeq:
			m.inspRec = msg.rec
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
		m.replay.Running, m.replay.Result = false, &r
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
	m.tv = textview.New(m.c)
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
	if m.overlay != ovNone && m.overlay != ovHelp {
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

func (m *Model) openInspector(seq uint64, batch int) tea.Cmd {
	m.overlay, m.inspSeq, m.inspBatch, m.inspRec = ovInspector, seq, batch, nil
	m.tv = textview.New(m.c)
	m.tv.SetSize(m.c.Width, m.c.Height)
	m.buildOverlay()
	if r := m.inspected(); r != nil && r.Record() == nil {
		return m.recordCmd(m.currentSession(), seq, false)
	}
	return nil
}

// recordCmd reads one record back from the source (from the hub's memory
// or the session log): rows keep only a weak reference to theirs.
func (m *Model) recordCmd(id string, seq uint64, copy bool) tea.Cmd {
	src := m.opts.Source
	if src == nil || id == "" {
		return nil
	}
	return func() tea.Msg {
		rec, err := readRecord(src, id, seq)
		return recordMsg{id: id, seq: seq, rec: rec, copy: copy, err: err}
	}
}

// inspectedRecord is the inspected row's record, if still held or read
// back.
func (m *Model) inspectedRecord(r *store.Row) *session.Record {
	if rec := r.Record(); rec != nil {
		return rec
	}
	if m.inspRec != nil && m.inspRec.Seq == r.Seq && m.inspRec.Session == m.currentSession() {
		return m.inspRec
	}
	return nil
}

func (m *Model) openOverlay(k overlayKind) {
	m.overlay = k
	m.tv = textview.New(m.c)
	m.tv.SetSize(m.c.Width, m.c.Height)
	m.buildOverlay()
}

// buildOverlay (re)builds the open overlay's content from the store.
func (m *Model) buildOverlay() {
	id := m.currentSession()
	ss := m.st.Session(id)
	var title string
	var lines, plain []string
	switch m.overlay {
	case ovInspector:
		if ss == nil {
			title, lines = "FRAME", []string{"session gone"}
			break
		}
		r := ss.Find(m.inspSeq, m.inspBatch)
		if r == nil {
			title, lines = "FRAME", []string{"frame no longer held; it is in the session log"}
			break
		}
		idx, total := 0, len(m.str.Rows())
		for i, x := range m.str.Rows() {
			if x == r {
				idx = i + 1
			}
		}
		title, lines, plain = overlays.Inspector(m.c, ss, r, m.inspectedRecord(r), idx, total)
	case ovCaps:
		cs, _ := m.st.Calls(id)
		client := ""
		if ss != nil {
			client = ss.Info.Client
		}
		title, lines, plain = overlays.Caps(m.c, cs, client, overlays.Instructions(ss))
	case ovSummary:
		var drift store.Drift
		log := ""
		if ss != nil {
			drift, log = ss.Drift, ss.Info.Log
		}
		title, lines, plain = overlays.Summary(m.c, m.st.Summary(id), drift, log)
	case ovHelp:
		title, lines, plain = overlays.Help(m.c.KeyMap, m.opts.Version)
	case ovReplay:
		title, lines, plain = overlays.Replay(m.c, m.replay)
	default:
		return
	}
	m.tv.SetContent(title, lines, plain)
}

func (m *Model) key(k tea.KeyPressMsg) tea.Cmd {
	km := m.c.KeyMap
	if key.Matches(k, km.Quit) {
		m.quitting = true
		return nil
	}
	m.err = nil
	switch m.mode {
	case modeFilter, modePalette:
		return m.editKey(k)
	case modeConfirmDelete:
		m.mode = modeNormal
		if s := k.String(); s == "y" || s == "enter" {
			return m.deleteCmd(m.currentSession())
		}
		m.setFlash("delete cancelled")
		return nil
	case modeConfirmReplay:
		m.mode = modeNormal
		m.replay.Confirm = ""
		if k.String() == "y" {
			m.replayOK[m.currentSession()] = true
			return m.startReplay()
		}
		m.overlay = ovNone
		return nil
	}
	if m.overlay != ovNone {
		return m.overlayKey(k)
	}
	switch {
	case key.Matches(k, km.Filter):
		m.mode, m.input = modeFilter, m.filterText()
		return nil
	case key.Matches(k, km.Palette):
		m.mode, m.input = modePalette, ""
		return nil
	case key.Matches(k, km.Help):
		m.openOverlay(ovHelp)
		return nil
	case key.Matches(k, km.Caps):
		m.openOverlay(ovCaps)
		return nil
	case key.Matches(k, km.Summary) && k.String() == "s":
		m.openOverlay(ovSummary)
		return nil
	case key.Matches(k, km.Pause):
		m.paused = !m.paused
		if !m.paused {
			m.ingestHeld()
			m.refresh()
		}
		return nil
	case key.Matches(k, km.Copy):
		return m.copyCmd()
	case key.Matches(k, km.Export):
		return m.exportCmd(m.currentSession(), "")
	case key.Matches(k, km.Delete):
		if m.currentSession() != "" {
			m.mode = modeConfirmDelete
		}
		return nil
	case key.Matches(k, km.PrevSession), key.Matches(k, km.NextSession):
		m.stepSession(key.Matches(k, km.NextSession))
		return nil
	case key.Matches(k, km.Back):
		if m.active == pageSessions && m.sfilter == "" && k.String() == "q" {
			// q at the top level quits, as in less, k9s and lazygit; esc
			// never does, so backing out with esc cannot end the view.
			m.quitting = true
			return nil
		}
		if m.active == pageStream {
			if m.str.Filter() != "" {
				m.str.SetFilter("")
			} else {
				m.active = pageSessions
				m.ses.Refresh()
			}
		} else if m.sfilter != "" {
			m.sfilter = ""
			m.ses.SetFilter("")
			m.ses.Refresh()
		}
		return nil
	case key.Matches(k, km.Replay) && m.active == pageStream:
		if r := m.str.Selected(); r != nil {
			m.inspSeq, m.inspBatch = r.Seq, r.Batch
			return m.replayCmd()
		}
		return nil
	}
	_, cmd := m.pages[m.active].Update(k)
	return cmd
}

func (m *Model) filterText() string {
	if m.active == pageStream {
		return m.str.Filter()
	}
	return m.sfilter
}

func (m *Model) applyFilter(s string) {
	if m.active == pageStream {
		m.str.SetFilter(s)
		return
	}
	m.sfilter = s
	m.ses.SetFilter(s)
	m.ses.Refresh()
}

func (m *Model) editKey(k tea.KeyPressMsg) tea.Cmd {
	switch k.String() {
	case "esc":
		if m.mode == modeFilter {
			m.applyFilter("")
		}
		m.mode, m.input = modeNormal, ""
		return nil
	case "enter":
		md, in := m.mode, m.input
		m.mode, m.input = modeNormal, ""
		if md == modePalette {
			return m.command(in)
		}
		return nil
	case "backspace":
		if r := []rune(m.input); len(r) > 0 {
			m.input = string(r[:len(r)-1])
		}
	case "ctrl+u":
		m.input = ""
	default:
		if k.Text == "" {
			return nil
		}
		m.input += k.Text
	}
	if m.mode == modeFilter {
		m.applyFilter(m.input) // live as you type
	}
	return nil
}

// command runs a palette command (the list is palette.Commands).
func (m *Model) command(in string) tea.Cmd {
	f := strings.Fields(in)
	if len(f) == 0 {
		return nil
	}
	cmd, ok := palette.Lookup(strings.ToLower(f[0]))
	if !ok {
		q := strings.ToLower(in)
		for _, s := range m.st.Sessions() {
			if strings.Contains(strings.ToLower(s.Label), q) {
				m.openSession(s.ID)
				return nil
			}
		}
		return common.ErrorCmd(fmt.Errorf("no command or session %q (: lists the commands)", in))
	}
	switch cmd.Name {
	case "quit":
		m.quitting = true
	case "help":
		m.openOverlay(ovHelp)
	case "sessions":
		m.active = pageSessions
	case "stream":
		if id := m.currentSession(); id != "" {
			m.openSession(id)
		}
	case "summary":
		m.openOverlay(ovSummary)
	case "caps":
		m.openOverlay(ovCaps)
	case "export":
		path := ""
		if len(f) > 2 {
			path = f[2]
		}
		if len(f) > 1 && f[1] != "jsonl" {
			return m.exportFormatCmd(m.currentSession(), f[1], path)
		}
		return m.exportCmd(m.currentSession(), path)
	}
	return nil
}

func (m *Model) stepSession(next bool) {
	m.ses.Refresh()
	vis := m.ses.Visible()
	if len(vis) == 0 {
		return
	}
	cur := m.currentSession()
	i := 0
	for j, s := range vis {
		if s.ID == cur {
			i = j
		}
	}
	if next {
		i = (i + 1) % len(vis)
	} else {
		i = (i - 1 + len(vis)) % len(vis)
	}
	m.ses.Select(vis[i].ID)
	if m.active == pageStream {
		m.openSession(vis[i].ID)
	}
}

func (m *Model) overlayKey(k tea.KeyPressMsg) tea.Cmd {
	km := m.c.KeyMap
	if used, cmd := m.tv.Update(k); used {
		return cmd
	}
	switch {
	case key.Matches(k, km.Copy):
		return m.clip(m.overlayCopyText())
	case m.overlay == ovInspector && key.Matches(k, km.Jump):
		return m.jumpPair()
	case (m.overlay == ovInspector || m.overlay == ovReplay) && key.Matches(k, km.Replay):
		return m.replayCmd()
	case key.Matches(k, km.Back), key.Matches(k, km.Enter), key.Matches(k, km.Caps), k.String() == "s", key.Matches(k, km.Help):
		m.overlay = ovNone
	}
	return nil
}

func (m *Model) overlayCopyText() string {
	if m.overlay == ovInspector {
		if r := m.inspected(); r != nil {
			if rec := m.inspectedRecord(r); rec != nil {
				return string(rec.Frame)
			}
		}
	}
	return m.tv.Text()
}

func (m *Model) inspected() *store.Row {
	ss := m.st.Session(m.currentSession())
	if ss == nil {
		return nil
	}
	return ss.Find(m.inspSeq, m.inspBatch)
}

// jumpPair moves the inspector to the paired request or response, even
// one the filter hides.
func (m *Model) jumpPair() tea.Cmd {
	ss := m.st.Session(m.currentSession())
	r := m.inspected()
	if ss == nil || r == nil {
		return nil
	}
	p := ss.Pair(r)
	if p == nil {
		m.setFlash("no paired frame held")
		return nil
	}
	return m.openInspector(p.Seq, p.Batch)
}

func (m *Model) copyCmd() tea.Cmd {
	switch {
	case m.active == pageStream:
		if r := m.str.Selected(); r != nil {
			if rec := r.Record(); rec != nil {
				return m.clip(string(rec.Frame))
			}
			return m.recordCmd(m.str.Session(), r.Seq, true)
		}
	case m.ses.Selected() != nil:
		if log := m.ses.Selected().Info.Log; log != "" {
			return m.clip(log)
		}
	default:
		return m.clip("mcpward proxy -- <server command>")
	}
	return nil
}

func (m *Model) clip(s string) tea.Cmd {
	m.setFlash(fmt.Sprintf("copied %d bytes", len(s)))
	return m.opts.Clipboard(s)
}

// exportCmd writes the session's records as JSONL, atomically (a reader
// never sees a half-written export; mcpsnoop truncated in place).
func (m *Model) exportCmd(id, path string) tea.Cmd {
	if id == "" {
		return nil
	}
	src, dir := m.opts.Source, m.opts.StateDir
	if path == "" {
		if dir == "" {
			return common.ErrorCmd(errors.New("export: no state directory"))
		}
		path = filepath.Join(dir, "exports", safeName(id)+".jsonl")
	}
	return func() tea.Msg {
		recs, err := src.Records(id, 0, 0)
		if err != nil {
			return exportedMsg{err: fmt.Errorf("export %s: %w", id, err)}
		}
		var buf []byte
		for _, r := range recs {
			buf = session.AppendRecord(buf, r)
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return exportedMsg{err: fmt.Errorf("export %s: %w", id, err)}
		}
		if err := atomicfile.Write(path, buf, 0o600); err != nil {
			return exportedMsg{err: fmt.Errorf("export %s: %w", id, err)}
		}
		return exportedMsg{path: path}
	}
}

// exportFormatCmd writes the session in a report format through the
// Exporter (the same documents as `mcpward sessions export`).
func (m *Model) exportFormatCmd(id, format, path string) tea.Cmd {
	if id == "" {
		return nil
	}
	exp, dir := m.opts.Exporter, m.opts.StateDir
	if exp == nil {
		return common.ErrorCmd(fmt.Errorf("export %s: only jsonl is available here", format))
	}
	if path == "" {
		if dir == "" {
			return common.ErrorCmd(errors.New("export: no state directory"))
		}
		path = filepath.Join(dir, "exports", safeName(id)+"."+format)
	}
	return func() tea.Msg {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return exportedMsg{err: fmt.Errorf("export %s: %w", id, err)}
		}
		if err := exp.Export(id, format, path); err != nil {
			return exportedMsg{err: fmt.Errorf("export %s: %w", id, err)}
		}
		return exportedMsg{path: path}
	}
}

func safeName(id string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ':' || r < ' ' {
			return '_'
		}
		return r
	}, id)
}

func (m *Model) deleteCmd(id string) tea.Cmd {
	src := m.opts.Source
	return func() tea.Msg {
		if err := src.Delete(id); err != nil {
			return deletedMsg{id: id, err: fmt.Errorf("delete %s: %w", id, err)}
		}
		return deletedMsg{id: id}
	}
}

// replayCmd opens the replay overlay for the inspected request: it asks
// for confirmation first in each session, then runs the replay in a Cmd.
func (m *Model) replayCmd() tea.Cmd {
	m.overlay = ovReplay
	m.tv = textview.New(m.c)
	m.tv.SetSize(m.c.Width, m.c.Height)
	m.replay = overlays.ReplayState{}
	id := m.currentSession()
	r := m.inspected()
	cs, _ := m.st.Calls(id)
	switch {
	case m.opts.Replayer == nil:
		m.replay.Unavailable = "this build has no replay engine (internal/replay)"
	case r == nil || r.Kind != calls.KindRequest || r.Dir != session.ClientToServer:
		m.replay.Unavailable = "only a client request can be replayed"
	case cs == nil || len(cs.Command) == 0:
		m.replay.Unavailable = "the session recorded no server command (stdio sessions only)"
	case !m.replayOK[id]:
		m.replay.Confirm = strings.Join(cs.Command, " ")
		m.mode = modeConfirmReplay
	default:
		m.buildOverlay()
		return m.startReplay()
	}
	m.buildOverlay()
	return nil
}

func (m *Model) startReplay() tea.Cmd {
	r := m.inspected()
	ss := m.st.Session(m.currentSession())
	if r == nil || ss == nil {
		return nil
	}
	var start *session.Record
	var startSeq uint64
	for i := 0; i < ss.Len(); i++ {
		if x := ss.At(i); x.RecKind == session.KindStart {
			start, startSeq = x.Record(), x.Seq
			break
		}
	}
	m.overlay = ovReplay
	m.replay = overlays.ReplayState{Running: true, Started: m.opts.Now()}
	m.buildOverlay()
	rep, ctx, rec, src, id, seq := m.opts.Replayer, m.opts.Context, m.inspectedRecord(r), m.opts.Source, ss.ID, r.Seq
	return func() tea.Msg {
		// Records the source no longer holds in memory are read back
		// from it here, off the update path.
		var err error
		if rec == nil {
			if rec, err = readRecord(src, id, seq); rec == nil {
				return replayMsg{err: cmp.Or(err, fmt.Errorf("replay: frame %d of %s is not in the session log", seq, id))}
			}
		}
		if start == nil && startSeq != 0 {
			start, _ = readRecord(src, id, startSeq)
		}
		ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
		defer cancel()
		res, err := rep.Replay(ctx, rec, start)
		return replayMsg{res: res, err: err}
	}
}

// readRecord reads one record from the source (nil if it has none).
func readRecord(src common.Source, id string, seq uint64) (*session.Record, error) {
	if src == nil {
		return nil, nil
	}
	recs, err := src.Records(id, seq, seq)
	if err != nil {
		return nil, fmt.Errorf("read frame %d of %s: %w", seq, id, err)
	}
	for _, r := range recs {
		if r.Seq == seq {
			return r, nil
		}
	}
	return nil, nil
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
	case m.overlay != ovNone:
		body = m.tv.View()
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

func (m *Model) header() string {
	st := m.c.Styles
	parts := []string{st.Brand.Render("▍mcpward")}
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
	parts = append(parts, st.Crumb.Render(crumb))
	if f := m.filterText(); f != "" && m.mode != modeFilter {
		parts = append(parts, st.FilterText.Render("filter: "+f))
	}
	if m.active == pageStream && m.str.Follow() {
		parts = append(parts, st.Follow.Render("⇣ follow"))
	}
	switch {
	case m.paused:
		parts = append(parts, st.Paused.Render("● paused"))
	case m.srcErr != nil:
		parts = append(parts, st.Err.Render("● source: "+m.srcErr.Error()))
	default:
		parts = append(parts, st.Live.Render("● live"))
	}
	return strings.Join(parts, "  ")
}

func (m *Model) prompt() string {
	st := m.c.Styles
	switch m.mode {
	case modeFilter:
		return st.FilterText.Render("/" + m.input + "▏")
	case modePalette:
		return st.FilterText.Render(":" + m.input + "▏")
	}
	if m.opts.Intro != "" {
		return st.Faint.Render(m.opts.Intro)
	}
	return ""
}

func (m *Model) footer() string {
	st := m.c.Styles
	var hints []string
	var bindings []key.Binding
	if m.overlay != ovNone {
		km := m.c.KeyMap
		bindings = []key.Binding{km.Filter, km.NextMatch, km.Copy, km.Back}
		if m.overlay == ovInspector {
			bindings = append(bindings, km.Jump, km.Replay)
		}
	} else {
		bindings = m.pages[m.active].ShortHelp()
	}
	for _, b := range bindings {
		hints = append(hints, b.Help().Key+" "+b.Help().Desc)
	}
	var right string
	switch {
	case m.mode == modeConfirmDelete:
		right = st.Confirm.Render("delete session " + m.currentSession() + " and its log? y/enter")
	case m.err != nil:
		right = st.Err.Render(m.err.Error())
	case m.flash != "":
		right = st.Flash.Render(m.flash)
	case m.active == pageStream:
		right = st.Footer.Render(m.str.Footer())
	default:
		right = st.Footer.Render(m.ses.Footer())
	}
	w := m.c.Width
	rw := lipgloss.Width(right)
	if rw+2 >= w {
		return ansi.Truncate(right, w, "…")
	}
	lw := w - rw - 2 // two spaces keep the hints apart from the counters
	left := st.Footer.Render(fitHints(hints, lw))
	return table.Fit(left, max(0, lw), false) + "  " + right
}

// fitHints joins as many whole hints as fit in w cells, never cutting one
// in half; when some are left out, the help hint ("? help") is kept last
// so the rest can always be found.
func fitHints(hints []string, w int) string {
	const sep, help = " · ", "? help"
	join := strings.Join(hints, sep)
	if ansi.StringWidth(join) <= w {
		return join
	}
	var tail []string
	if slices.Contains(hints, help) {
		tail = []string{help}
	}
	var kept []string
	for _, h := range hints {
		if h == help {
			continue
		}
		next := strings.Join(append(append(append([]string{}, kept...), h), tail...), sep)
		if ansi.StringWidth(next) > w {
			break
		}
		kept = append(kept, h)
	}
	out := strings.Join(append(kept, tail...), sep)
	if ansi.StringWidth(out) > w {
		return ""
	}
	return out
}
