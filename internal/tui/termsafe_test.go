package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/tui/memsource"
)

// TestServerTextEscaped: a server's clipboard write (OSC 52), window title,
// clear screen and bare carriage return, in a stderr line, a tool name and
// an error message, are shown as visible escapes in the stream, the detail
// line and the frame inspector; only mcpward's own colour reaches the
// terminal (issue 26 item 3). The live view passed them raw before.
func TestServerTextEscaped(t *testing.T) {
	hs := newHarness(t, 200, 30, Options{})
	recs := memsource.Script("hostile-1-aaaa", "hostile", t0)
	at := recs[len(recs)-1].Time
	add := func(dir session.Direction, frame string) {
		last := recs[len(recs)-1]
		at = at.Add(10 * time.Millisecond)
		r := &session.Record{V: session.Version, Session: last.Session, Label: last.Label, Seq: last.Seq + 1, Time: at,
			Dir: dir, Transport: session.Stdio, Frame: []byte(frame), HasFrame: true, Size: int64(len(frame))}
		if dir != session.Stderr {
			r.RawFrame = r.Frame
		}
		recs = append(recs, r)
	}
	add(session.Stderr, "evil\x1b]52;c;ZXZpbA==\x07 \x1b]0;title\x07 \x1b[2J safe\rOVER")
	add(session.ClientToServer, `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"x\u001b]0;tool-title\u0007","arguments":{}}}`)
	add(session.ServerToClient, `{"jsonrpc":"2.0","id":9,"error":{"code":-32000,"message":"boom\u001b]52;c;eA==\u0007\u001b[2J\r"}}`)
	hs.push(recs...)
	hs.send(TickMsg(hs.now.Add(2 * time.Second)))
	hs.keys("enter")
	check := func(where string) {
		t.Helper()
		raw := hs.m.Content()
		for _, bad := range []string{"\x1b]", "\x1b[2J", "\r", "\x07"} {
			if strings.Contains(raw, bad) {
				t.Errorf("%s: the screen holds the raw %q:\n%q", where, bad, raw)
			}
		}
	}
	check("stream")
	hs.want(`evil\x1b]52;c;ZXZpbA==\x07`, `\x1b[2J safe\rOVER`, `x\x1b]0;tool-tit`, `boom\x1b]52;c;eA==`)
	// The inspector of the error response, then of the stderr line.
	hs.keys("G", "enter")
	check("inspector of the response")
	hs.want("FRAME", `boom\u001b]52`)
	hs.keys("esc", "up", "up", "enter")
	check("inspector of the stderr line")
	hs.want("FRAME", `evil\x1b]52;c;ZXZpbA==\x07`, `safe\x0dOVER`)
}
