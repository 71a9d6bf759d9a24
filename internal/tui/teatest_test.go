package tui

import (
	"bytes"
	"context"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/mcpward/mcpward/internal/tui/memsource"
)

// TestProgram runs the model in a real bubbletea program (teatest: fixed
// size, no colour), feeds records through the source while it runs, and
// waits for them on screen; then resizes from 40×10 to 300×80.
func TestProgram(t *testing.T) {
	src := memsource.New(true)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	m := New(Options{Source: src, NoColor: true, Context: ctx, StateDir: t.TempDir()})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(100, 30),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.NoTTY)))
	waitFor := func(s string) {
		t.Helper()
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
			return bytes.Contains([]byte(ansi.Strip(string(b))), []byte(s))
		}, teatest.WithDuration(5*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
	}
	waitFor("No sessions yet")
	src.Push(memsource.Script("clean-1-aaaa", "clean", time.Now())...)
	waitFor("clean")
	tm.Send(keyMsg("enter"))
	waitFor("tools/list")
	tm.Send(tea.WindowSizeMsg{Width: 40, Height: 10})
	tm.Send(tea.WindowSizeMsg{Width: 300, Height: 80})
	waitFor("DETAIL")
	tm.Send(keyMsg("ctrl+c"))
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	fm := tm.FinalModel(t).(*Model)
	if fm.c.Width != 300 || fm.c.Height != 80 {
		t.Errorf("final size %dx%d, want 300x80", fm.c.Width, fm.c.Height)
	}
}
