package sessions

import (
	"errors"
	"strings"
	"testing"
	"time"

	"charm.land/lipgloss/v2"

	"github.com/mcpward/mcpward/internal/diff"
	"github.com/mcpward/mcpward/internal/tui/common"
	"github.com/mcpward/mcpward/internal/tui/keymap"
	"github.com/mcpward/mcpward/internal/tui/store"
	"github.com/mcpward/mcpward/internal/tui/styles"
)

// prefix is the escape sequence a style starts its output with.
func prefix(st lipgloss.Style) string {
	s := st.Render("X")
	return s[:strings.Index(s, "X")]
}

// TestDriftMark: "! label" in the theme's warning colour for drift, its
// error colour for a baseline that cannot be used, nothing otherwise; with
// NO_COLOR the mark alone tells them apart from clean sessions.
func TestDriftMark(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	drifts := map[string]store.Drift{
		"top":     {}, // under the cursor, whose row style hides cell colours
		"drifted": {Checked: true, Found: true, Findings: []diff.Finding{{RuleID: "tool.added", Subject: `tool "x"`}}},
		"broken":  {Checked: true, Found: true, Err: errors.New("read baseline: corrupt")},
		"same":    {Checked: true, Found: true},
		"none":    {Checked: true},
	}
	order := []string{"top", "drifted", "broken", "same", "none"}
	for _, noColor := range []bool{false, true} {
		st := store.New(store.Options{})
		var infos []common.SessionInfo
		for i, id := range order {
			infos = append(infos, common.SessionInfo{ID: id, Label: id, First: t0.Add(time.Duration(i) * time.Second), Last: t0})
		}
		st.SetInfo(infos)
		for id, d := range drifts {
			st.Session(id).Drift = d
		}
		sty := styles.New(true, noColor)
		p := New(common.Common{Width: 100, Height: 10, Styles: sty, KeyMap: keymap.Default(), Now: func() time.Time { return t0 }}, st)
		p.Refresh()
		view := p.View()
		for _, id := range order {
			marked := strings.Contains(view, "! "+id)
			if want := id == "drifted" || id == "broken"; marked != want {
				t.Errorf("noColor=%v: %q marked = %v, want %v:\n%s", noColor, id, marked, want, view)
			}
		}
		if noColor {
			continue
		}
		if !strings.Contains(view, prefix(sty.Warn)+"! drifted") {
			t.Errorf("the drifted session is not in the warning colour:\n%q", view)
		}
		if !strings.Contains(view, prefix(sty.Err)+"! broken") {
			t.Errorf("the session with a broken baseline is not in the error colour:\n%q", view)
		}
	}
}
