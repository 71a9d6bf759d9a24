package tui

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"
)

// updating reports -update, which rewrites testdata/golden/*.txt from the
// screens rendered now. The flag is teatest's (it rewrites its own .golden
// files with it), so it is looked up rather than defined twice.
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// goldenViews are the main views, each reached from the scripted store
// (memsource.Script at t0, the clock fixed at t0+3s) by keys.
var goldenViews = []struct {
	name     string
	scripted bool
	keys     []string
}{
	{name: "empty"},
	{name: "sessions", scripted: true},
	{name: "stream", scripted: true, keys: []string{"enter"}},
	{name: "inspector", scripted: true, keys: []string{"enter", "g", "j", "j", "j", "j", "j", "j", "enter"}}, // tools/call echo
	{name: "capabilities", scripted: true, keys: []string{"c"}},
	{name: "summary", scripted: true, keys: []string{"s"}},
	{name: "help", scripted: true, keys: []string{"?"}},
	{name: "filter", scripted: true, keys: []string{"enter", "/"}},
}

// goldenSizes are a default terminal and a common larger one.
var goldenSizes = []struct{ w, h int }{{80, 24}, {120, 30}}

// TestRenderGolden renders each main view at each size, colour off, and
// compares the screen with testdata/golden/<view>@<w>x<h>.txt (-update
// rewrites them). Every line is exactly w cells or less, and there are
// exactly h lines: a view that overflows its terminal fails here too.
func TestRenderGolden(t *testing.T) {
	for _, v := range goldenViews {
		for _, sz := range goldenSizes {
			name := fmt.Sprintf("%s@%dx%d", v.name, sz.w, sz.h)
			t.Run(name, func(t *testing.T) {
				hs := newHarness(t, sz.w, sz.h, Options{Version: "v0.0.0-golden"})
				if v.scripted {
					scripted(hs)
				}
				hs.keys(v.keys...)
				got := hs.screen()
				lines := strings.Split(got, "\n")
				if len(lines) != sz.h {
					t.Errorf("%d lines, want %d", len(lines), sz.h)
				}
				for i, l := range lines {
					if w := ansi.StringWidth(l); w > sz.w {
						t.Errorf("line %d is %d cells wide, more than %d: %q", i+1, w, sz.w, l)
					}
				}
				file := filepath.Join("testdata", "golden", name+".txt")
				if updating() {
					if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(file)
				if err != nil {
					t.Fatalf("%v (run with -update)", err)
				}
				if d := cmp.Diff(string(want), got); d != "" {
					t.Errorf("%s (-want +got):\n%s", file, d)
				}
			})
		}
	}
}
