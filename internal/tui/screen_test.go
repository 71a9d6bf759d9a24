package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpward/mcpward/internal/tui/components/footer"
	"github.com/mcpward/mcpward/internal/tui/components/palette"
	"github.com/mcpward/mcpward/internal/tui/memsource"
)

// The screen at the two sizes people use most: a default terminal
// (80×24) and a large one (200×50). Each check is about what a reader can
// take from the screen, not about layout details.
var screenSizes = []struct{ w, h int }{{80, 24}, {200, 50}}

func TestScreenTimeIsAClockTime(t *testing.T) {
	for _, sz := range screenSizes {
		hs := newHarness(t, sz.w, sz.h, Options{})
		scripted(hs)
		hs.keys("enter")
		// t0 is 12:00:00 UTC; the scripted frames are 10 ms apart.
		hs.want("12:00:00.020")
	}
}

// footerHints returns the footer's left part (the key hints).
func footerHints(hs *harness) string {
	lines := strings.Split(hs.screen(), "\n")
	f := lines[len(lines)-1]
	if i := strings.Index(f, "  "); i >= 0 {
		f = f[:i]
	}
	return strings.TrimSpace(f)
}

func TestScreenFooterHintsAreWhole(t *testing.T) {
	for _, sz := range screenSizes {
		hs := newHarness(t, sz.w, sz.h, Options{})
		scripted(hs)
		for _, page := range []string{"sessions", "stream"} {
			if page == "stream" {
				hs.keys("enter")
			}
			f := footerHints(hs)
			if strings.Contains(f, "…") {
				t.Errorf("%dx%d %s: a hint is cut: %q", sz.w, sz.h, page, f)
			}
			if !strings.HasSuffix(f, "? help") {
				t.Errorf("%dx%d %s: footer %q does not keep '? help'", sz.w, sz.h, page, f)
			}
			for _, h := range strings.Split(f, " · ") {
				if !strings.Contains(h, " ") {
					t.Errorf("%dx%d %s: hint %q has a key but no description", sz.w, sz.h, page, h)
				}
			}
		}
	}
}

func TestFitHintsDropsWholeHintsAndKeepsHelp(t *testing.T) {
	hints := []string{"enter open", "/ filter", "c capabilities", "s tool summary", "? help"}
	tests := []struct {
		w    int
		want string
	}{
		{200, "enter open · / filter · c capabilities · s tool summary · ? help"},
		{40, "enter open · / filter · ? help"},
		{6, "? help"},
		{5, ""},
	}
	for _, tt := range tests {
		if got := footer.FitHints(hints, tt.w); got != tt.want {
			t.Errorf("fitHints(w=%d) = %q, want %q", tt.w, got, tt.want)
		}
	}
	if got := footer.FitHints([]string{"/ filter", "esc back"}, 10); got != "/ filter" {
		t.Errorf("without a help hint: %q, want no help added", got)
	}
}

func TestScreenSummaryWrapsAtWords(t *testing.T) {
	for _, sz := range screenSizes {
		hs := newHarness(t, sz.w, sz.h, Options{})
		scripted(hs)
		hs.keys("s")
		scr := hs.screen()
		// Every word of the summary's text is on the screen whole: a word
		// cut by the wrap would be missing.
		for _, w := range strings.Fields(hs.m.ov.Text()) {
			if !strings.Contains(scr, w) {
				t.Errorf("%dx%d: %q is not whole on the screen:\n%s", sz.w, sz.h, w, scr)
			}
		}
		// The tool table's rows are one line each.
		for _, l := range strings.Split(scr, "\n") {
			if strings.Contains(l, "CALLS") && !strings.Contains(l, "RESULT") {
				t.Errorf("%dx%d: the table header wraps: %q", sz.w, sz.h, l)
			}
		}
	}
}

// TestScreenSummaryTableFits: on a panel too narrow for every column the
// tool summary's table leaves out its rightmost columns whole, so each
// row stays one line (at 60 columns "52 B ~13t" used to wrap to "52" and
// "B ~13t", RESULT to a line of its own).
func TestScreenSummaryTableFits(t *testing.T) {
	for _, w := range []int{50, 60, 80, 120} {
		hs := newHarness(t, w, 24, Options{})
		scripted(hs)
		hs.keys("s")
		lines := strings.Split(hs.screen(), "\n")
		head := -1
		for i, l := range lines {
			if strings.Contains(l, "TOOL ") && strings.Contains(l, "CALLS") {
				head = i
			}
		}
		if head < 0 || head+2 >= len(lines) {
			t.Fatalf("%d columns: no tool table:\n%s", w, hs.screen())
		}
		add, echo := strings.Fields(strings.Trim(lines[head+1], "│ ")), strings.Fields(strings.Trim(lines[head+2], "│ "))
		if len(add) < 3 || add[0] != "add" || add[1] != "1" || len(echo) < 3 || echo[0] != "echo" {
			t.Errorf("%d columns: the table's rows are not one line each:\n%s", w, strings.Join(lines[head:head+4], "\n"))
		}
		if w >= 80 && !strings.Contains(lines[head], "RESULT") {
			t.Errorf("%d columns: RESULT left out: %q", w, lines[head])
		}
	}
}

func TestScreenQuitsWithQAtTheTopOnly(t *testing.T) {
	hs := newHarness(t, 80, 24, Options{})
	scripted(hs)
	hs.keys("enter", "q")
	if hs.m.quitting {
		t.Fatal("q on the stream page quit instead of going back")
	}
	hs.want("NAME")
	hs.keys("esc")
	if hs.m.quitting {
		t.Fatal("esc at the top quit")
	}
	hs.keys("q")
	if !hs.m.quitting {
		t.Fatal("q on the sessions page did not quit")
	}
}

func TestScreenPaletteListsItsCommands(t *testing.T) {
	for _, sz := range screenSizes {
		hs := newHarness(t, sz.w, sz.h, Options{})
		scripted(hs)
		hs.keys(":")
		for _, c := range palette.Commands {
			hs.want(c.Name)
		}
		hs.want("WHAT IT DOES", "export [FORMAT] [PATH]")
		hs.typeText("exp")
		hs.want("export")
		hs.wantNot("quit ")
		hs.typeText("zz")
		hs.want("no command starts with expzz")
		hs.keys("esc")
		hs.wantNot("WHAT IT DOES")
	}
}

func TestPaletteRunsEveryListedCommand(t *testing.T) {
	// Every command the palette lists is one the model runs (the list and
	// the switch cannot drift apart unnoticed).
	for _, c := range palette.Commands {
		hs := newHarness(t, 80, 24, Options{})
		scripted(hs)
		hs.keys(":")
		hs.typeText(c.Name)
		hs.keys("enter")
		if hs.m.err != nil && strings.Contains(hs.m.err.Error(), "no command") {
			t.Errorf("listed command %q is not run: %v", c.Name, hs.m.err)
		}
	}
}

func TestScreenSameLabelSessionsAreTold(t *testing.T) {
	for _, sz := range screenSizes {
		hs := newHarness(t, sz.w, sz.h, Options{})
		hs.push(memsource.Script("01AAAAAAAAAAAAAAAAAAAAAAA1", "index.js", t0)...)
		hs.push(memsource.Script("01AAAAAAAAAAAAAAAAAAAAAAA2", "index.js", t0.Add(5*time.Second))...)
		hs.push(memsource.Script("01AAAAAAAAAAAAAAAAAAAAAAA3", "index.js", t0.Add(5*time.Second))...)
		hs.send(TickMsg(hs.now.Add(2 * time.Second)))
		start0 := t0.Local().Format("15:04:05")
		start5 := t0.Add(5 * time.Second).Local().Format("15:04:05")
		hs.want("index.js · "+start0, "index.js · "+start5+" #AAA2", "index.js · "+start5+" #AAA3")
	}
}

func TestScreenIntro(t *testing.T) {
	const intro = "demo: a scripted session · q quits"
	hs := newHarness(t, 80, 24, Options{Intro: intro})
	scripted(hs)
	hs.want(intro)
	hs.keys("/")
	hs.wantNot(intro) // the filter prompt takes the line
	hs.keys("esc")
	hs.want(intro)
}

func TestScreenNoLineWiderThanTheTerminal(t *testing.T) {
	for _, sz := range screenSizes {
		hs := newHarness(t, sz.w, sz.h, Options{Intro: strings.Repeat("intro ", 60)})
		scripted(hs)
		for _, ks := range [][]string{nil, {"enter"}, {"s"}, {"esc", "c"}, {"esc", "?"}, {"esc", ":"}} {
			hs.keys(ks...)
			lines := strings.Split(hs.m.Content(), "\n")
			if len(lines) > sz.h {
				t.Errorf("%dx%d after %v: %d lines", sz.w, sz.h, ks, len(lines))
			}
			for _, l := range lines {
				if ansi.StringWidth(l) > sz.w {
					t.Errorf("%dx%d after %v: line of %d cells: %q", sz.w, sz.h, ks, ansi.StringWidth(l), ansi.Strip(l))
				}
			}
		}
	}
}
