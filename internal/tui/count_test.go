package tui

import (
	"regexp"
	"testing"
)

// TestInspectorFooterSameCount: the inspector's "FRAME i/n" and the
// footer's "frames shown/total" count the same thing (wire frames, as
// calls.Session.Frames counts them), unfiltered and filtered.
func TestInspectorFooterSameCount(t *testing.T) {
	inspector := regexp.MustCompile(`FRAME (\d+)/(\d+)`)
	footer := regexp.MustCompile(`frames (\d+)/(\d+)`)
	for _, tc := range []struct {
		name   string
		filter string
		keys   []string
	}{
		{name: "unfiltered", keys: []string{"g", "j", "j", "j", "j", "j", "j", "enter"}},
		{name: "filtered", filter: "tool:echo", keys: []string{"g", "enter"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hs := newHarness(t, 160, 40, Options{})
			scripted(hs)
			hs.keys("enter")
			if tc.filter != "" {
				hs.keys("/")
				hs.typeText(tc.filter)
				hs.keys("enter")
			}
			hs.keys(tc.keys...)
			screen := hs.screen()
			i, f := inspector.FindStringSubmatch(screen), footer.FindStringSubmatch(screen)
			if i == nil || f == nil {
				t.Fatalf("no FRAME i/n or frames shown/total on the screen:\n%s", screen)
			}
			if i[2] != f[1] {
				t.Errorf("inspector says FRAME %s/%s, footer frames %s/%s: the inspector's total is not the footer's shown count", i[1], i[2], f[1], f[2])
			}
		})
	}
}
