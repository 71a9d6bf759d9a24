package tui

import (
	"cmp"
	"context"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpward/mcpward/internal/calls"
	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/tui/common"
	"github.com/mcpward/mcpward/internal/tui/pages/overlays"
	"github.com/mcpward/mcpward/internal/tui/store"
)

func (m *Model) openInspector(seq uint64, batch int) tea.Cmd {
	m.ov.Open(overlays.KindInspector)
	m.ov.Seq, m.ov.Batch, m.ov.Rec = seq, batch, nil
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
	if m.ov.Rec != nil && m.ov.Rec.Seq == r.Seq && m.ov.Rec.Session == m.currentSession() {
		return m.ov.Rec
	}
	return nil
}

func (m *Model) openOverlay(k overlays.Kind) {
	m.ov.Open(k)
	m.buildOverlay()
}

// buildOverlay (re)builds the open overlay's content from the store.
func (m *Model) buildOverlay() {
	id := m.currentSession()
	ss := m.st.Session(id)
	var title string
	var lines, plain []string
	switch m.ov.Kind() {
	case overlays.KindInspector:
		if ss == nil {
			title, lines = "FRAME", []string{"session gone"}
			break
		}
		r := ss.Find(m.ov.Seq, m.ov.Batch)
		if r == nil {
			title, lines = "FRAME", []string{"frame no longer held; it is in the session log"}
			break
		}
		idx, total := m.str.FrameIndex(r)
		title, lines, plain = overlays.Inspector(m.c, ss, r, m.inspectedRecord(r), idx, total)
	case overlays.KindCaps:
		cs, _ := m.st.Calls(id)
		client := ""
		if ss != nil {
			client = ss.Info.Client
		}
		title, lines, plain = overlays.Caps(m.c, cs, client, overlays.Instructions(ss))
	case overlays.KindSummary:
		var drift store.Drift
		log := ""
		if ss != nil {
			drift, log = ss.Drift, ss.Info.Log
		}
		title, lines, plain = overlays.Summary(m.c, m.st.Summary(id), drift, log)
	case overlays.KindHelp:
		title, lines, plain = overlays.Help(m.c.KeyMap, m.opts.Version)
	case overlays.KindReplay:
		title, lines, plain = overlays.Replay(m.c, m.ov.Replay)
	default:
		return
	}
	m.ov.SetContent(title, lines, plain)
}

func (m *Model) overlayKey(k tea.KeyPressMsg) tea.Cmd {
	km := m.c.KeyMap
	if used, cmd := m.ov.Update(k); used {
		return cmd
	}
	switch {
	case key.Matches(k, km.Copy):
		return m.clip(m.overlayCopyText())
	case m.ov.Kind() == overlays.KindInspector && key.Matches(k, km.Jump):
		return m.jumpPair()
	case (m.ov.Kind() == overlays.KindInspector || m.ov.Kind() == overlays.KindReplay) && key.Matches(k, km.Replay):
		return m.replayCmd()
	case key.Matches(k, km.Back), key.Matches(k, km.Enter), key.Matches(k, km.Caps), k.String() == "s", key.Matches(k, km.Help):
		m.ov.Close()
	}
	return nil
}

func (m *Model) overlayCopyText() string {
	if m.ov.Kind() == overlays.KindInspector {
		if r := m.inspected(); r != nil {
			if rec := m.inspectedRecord(r); rec != nil {
				return string(rec.Frame)
			}
		}
	}
	return m.ov.Text()
}

func (m *Model) inspected() *store.Row {
	ss := m.st.Session(m.currentSession())
	if ss == nil {
		return nil
	}
	return ss.Find(m.ov.Seq, m.ov.Batch)
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

// replayCmd opens the replay overlay for the inspected request: it asks
// for confirmation first in each session, then runs the replay in a Cmd.
func (m *Model) replayCmd() tea.Cmd {
	m.ov.Open(overlays.KindReplay)
	m.ov.Replay = overlays.ReplayState{}
	id := m.currentSession()
	r := m.inspected()
	cs, _ := m.st.Calls(id)
	switch {
	case m.opts.Replayer == nil:
		m.ov.Replay.Unavailable = "this build has no replay engine (internal/replay)"
	case r == nil || r.Kind != calls.KindRequest || r.Dir != session.ClientToServer:
		m.ov.Replay.Unavailable = "only a client request can be replayed"
	case cs == nil || len(cs.Command) == 0:
		m.ov.Replay.Unavailable = "the session recorded no server command (stdio sessions only)"
	case !m.replayOK[id]:
		m.ov.Replay.Confirm = strings.Join(cs.Command, " ")
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
	m.ov.Switch(overlays.KindReplay)
	m.ov.Replay = overlays.ReplayState{Running: true, Started: m.opts.Now()}
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
