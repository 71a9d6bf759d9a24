package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpward/mcpward/internal/tui/common"
	"github.com/mcpward/mcpward/internal/tui/components/palette"
	"github.com/mcpward/mcpward/internal/tui/pages/overlays"
)

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
	case modePickExport:
		m.mode = modeNormal
		if f := pickedFormat(k.String()); f != "" {
			if f == "jsonl" {
				return m.exportCmd(m.currentSession(), "")
			}
			return m.exportFormatCmd(m.currentSession(), f, "")
		}
		m.setFlash("export cancelled")
		return nil
	case modeConfirmReplay:
		m.mode = modeNormal
		m.ov.Replay.Confirm = ""
		if k.String() == "y" {
			m.replayOK[m.currentSession()] = true
			return m.startReplay()
		}
		m.ov.Close()
		return nil
	}
	if m.ov.Kind() != overlays.KindNone {
		return m.overlayKey(k)
	}
	switch {
	case key.Matches(k, km.Filter):
		// The filter in force is shown selected: typing replaces it
		// (it used to be appended to), enter keeps it.
		m.mode, m.input = modeFilter, m.filterText()
		m.replacing = m.input != ""
		return nil
	case key.Matches(k, km.Palette):
		m.mode, m.input = modePalette, ""
		return nil
	case key.Matches(k, km.Help):
		m.openOverlay(overlays.KindHelp)
		return nil
	case key.Matches(k, km.Caps):
		m.openOverlay(overlays.KindCaps)
		return nil
	case key.Matches(k, km.Summary) && k.String() == "s":
		m.openOverlay(overlays.KindSummary)
		return nil
	case key.Matches(k, km.Pause):
		m.paused = !m.paused
		if !m.paused {
			m.ingestHeld()
			m.flushDone()
			m.refresh()
		}
		return nil
	case key.Matches(k, km.Copy):
		return m.copyCmd()
	case key.Matches(k, km.Export):
		if m.opts.Exporter == nil {
			// Only the raw log can be written: no question to ask.
			return m.exportCmd(m.currentSession(), "")
		}
		if m.currentSession() != "" {
			m.mode = modePickExport
		}
		return nil
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
			m.ov.Seq, m.ov.Batch = r.Seq, r.Batch
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
	replacing := m.replacing
	m.replacing = false
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
		if r := []rune(m.input); replacing {
			m.input = ""
		} else if len(r) > 0 {
			m.input = string(r[:len(r)-1])
		}
	case "ctrl+u":
		m.input = ""
	default:
		if k.Text == "" {
			m.replacing = replacing // an arrow or a modifier: still selected
			return nil
		}
		if replacing {
			m.input = ""
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
		m.openOverlay(overlays.KindHelp)
	case "sessions":
		m.active = pageSessions
	case "stream":
		if id := m.currentSession(); id != "" {
			m.openSession(id)
		}
	case "summary":
		m.openOverlay(overlays.KindSummary)
	case "caps":
		m.openOverlay(overlays.KindCaps)
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
