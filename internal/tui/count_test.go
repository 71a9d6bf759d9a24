package tui

import (
	"io"
	"regexp"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/tui/memsource"
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

// TestFinishedLogShowsLastResponse: a response that matches no request is
// held by the correlation store for InvertWindow in case its request
// follows (calls.Store.Flush). When the source has delivered every record
// (io.EOF) nothing follows: the view lets it go and shows it, as
// `sessions list` (which flushes) counts it. Before, the view never showed
// it: 11 of the 12 wire frames of the log.
func TestFinishedLogShowsLastResponse(t *testing.T) {
	hs := newHarness(t, 160, 30, Options{})
	recs := memsource.Script("clean-1-aaaa", "clean", t0)
	last := recs[len(recs)-1]
	orphan := []byte(`{"jsonrpc":"2.0","id":"orphan-77","result":{"content":[{"type":"text","text":"late"}]}}`)
	recs = append(recs, &session.Record{V: session.Version, Session: last.Session, Label: last.Label, Seq: last.Seq + 1,
		Time: last.Time.Add(time.Millisecond), Dir: session.ServerToClient, Transport: last.Transport,
		Frame: orphan, RawFrame: orphan, HasFrame: true, Size: int64(len(orphan))})
	hs.push(recs...)
	hs.src.Close()
	hs.send(FramesMsg{Err: io.EOF})
	hs.send(TickMsg(hs.now))
	hs.keys("enter")
	hs.want(`"text":"late"`, "no matching request", "frames 12/12")
}
