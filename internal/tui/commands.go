package tui

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpward/mcpward/internal/atomicfile"
	"github.com/mcpward/mcpward/internal/plural"
	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/sessionexport"
	"github.com/mcpward/mcpward/internal/tui/common"
)

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
	m.setFlash("copied " + plural.Count(len(s), "byte"))
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
		path = filepath.Join(session.Layout{Root: dir}.Exports(), safeName(id)+".jsonl")
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
		path = filepath.Join(session.Layout{Root: dir}.Exports(), safeName(id)+"."+format)
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

// exportFormats are the formats e offers, in key order (1, 2, …): the
// raw log, then every `mcpward sessions export` format.
var exportFormats = append([]string{"jsonl"}, sessionexport.Formats...)

// defaultExportFormat is what enter picks: html, as mcpsnoop's e wrote.
const defaultExportFormat = "html"

// exportPrompt is the footer question of the format picker.
func exportPrompt() string {
	var b strings.Builder
	b.WriteString("export as:")
	for i, f := range exportFormats {
		fmt.Fprintf(&b, " %d %s", i+1, f)
	}
	b.WriteString(" · enter " + defaultExportFormat + " · esc cancels")
	return b.String()
}

// pickedFormat is the format a key picks in the export picker, or "".
func pickedFormat(k string) string {
	if k == "enter" {
		return defaultExportFormat
	}
	if len(k) == 1 && k[0] >= '1' && int(k[0]-'1') < len(exportFormats) {
		return exportFormats[k[0]-'1']
	}
	return ""
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
