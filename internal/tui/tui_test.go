package tui

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/tui/common"
	"github.com/mcpward/mcpward/internal/tui/memsource"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

type fakeReplayer struct{ calls int }

func (f *fakeReplayer) Replay(_ context.Context, rec, start *session.Record) (common.ReplayResult, error) {
	f.calls++
	return common.ReplayResult{Request: rec.Frame, Response: []byte(`{"jsonrpc":"2.0","id":3,"result":{"replayed":true}}`), Duration: 5 * time.Millisecond}, nil
}

// harness drives the model as bubbletea would, without a terminal: Update
// is a function, so tests send messages and read the screen.
type harness struct {
	t      *testing.T
	m      *Model
	src    *memsource.Source
	copied []string
	now    time.Time
}

func newHarness(t *testing.T, w, h int, opts Options) *harness {
	t.Helper()
	hs := &harness{t: t, src: memsource.New(true), now: t0.Add(time.Second)}
	opts.Source = hs.src
	opts.NoColor = true
	opts.Now = func() time.Time { return hs.now }
	opts.Clipboard = func(s string) tea.Cmd { hs.copied = append(hs.copied, s); return nil }
	if opts.StateDir == "" {
		opts.StateDir = t.TempDir()
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // the harness delivers batches itself; waits return at once
	opts.Context = ctx
	hs.m = New(opts)
	hs.m.noTick = true
	hs.send(tea.WindowSizeMsg{Width: w, Height: h})
	return hs
}

// push delivers records through the source and the wait command, then
// ticks so that the screen is rebuilt.
func (hs *harness) push(recs ...*session.Record) {
	hs.src.Push(recs...)
	hs.send(FramesMsg{Batch: common.Batch{Records: recs}})
	hs.send(TickMsg(hs.now))
}

// send runs Update and then any commands it returned that complete at
// once (not the wait or the tick), as the runtime would.
func (hs *harness) send(msg tea.Msg) {
	hs.t.Helper()
	_, cmd := hs.m.Update(msg)
	hs.run(cmd, 0)
}

func (hs *harness) run(cmd tea.Cmd, depth int) {
	if cmd == nil || depth > 3 {
		return
	}
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	select {
	case msg := <-done:
		switch msg := msg.(type) {
		case tea.BatchMsg:
			for _, c := range msg {
				hs.run(c, depth+1)
			}
		case nil, TickMsg, FramesMsg:
		default:
			if _, ok := msg.(tea.QuitMsg); ok {
				return
			}
			_, next := hs.m.Update(msg)
			hs.run(next, depth+1)
		}
	case <-time.After(5 * time.Second):
		hs.t.Fatal("a command blocked")
	}
}

func (hs *harness) keys(ks ...string) {
	for _, k := range ks {
		hs.send(keyMsg(k))
	}
}

func keyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	case "ctrl+d":
		return tea.KeyPressMsg{Code: 'd', Mod: tea.ModCtrl}
	case "ctrl+f":
		return tea.KeyPressMsg{Code: 'f', Mod: tea.ModCtrl}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

func (hs *harness) typeText(s string) {
	for _, r := range s {
		hs.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

func (hs *harness) screen() string { return ansi.Strip(hs.m.Content()) }

func (hs *harness) want(subs ...string) {
	hs.t.Helper()
	s := hs.screen()
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			hs.t.Fatalf("screen lacks %q:\n%s", sub, s)
		}
	}
}

func (hs *harness) wantNot(subs ...string) {
	hs.t.Helper()
	s := hs.screen()
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			hs.t.Fatalf("screen has %q:\n%s", sub, s)
		}
	}
}

func scripted(hs *harness) {
	hs.push(memsource.Script("clean-1-aaaa", "clean", t0)...)
	hs.src.SetClient("clean-1-aaaa", "demo-client 1.0")
	hs.send(TickMsg(hs.now.Add(2 * time.Second)))
}

func TestEmptyState(t *testing.T) {
	hs := newHarness(t, 80, 24, Options{})
	hs.want("▍mcpward", "sessions", "● live", "No sessions yet", "mcpward proxy --", "0 sessions")
	// wrap's real syntax (issue 25 item 11): one server name, the client
	// by flag.
	hs.want("mcpward wrap <server> [--client <client>]")
	hs.wantNot("wrap <client> <server>")
	// Every hint fits 80 columns whole: none is cut with "…".
	hs.want("route a server of a client's config through it", "a scripted session")
	hs.wantNot("…")
	hs.keys("y")
	if len(hs.copied) != 1 || !strings.Contains(hs.copied[0], "mcpward proxy") {
		t.Errorf("copied = %q, want the snippet", hs.copied)
	}
}

func TestSessionsTable(t *testing.T) {
	hs := newHarness(t, 120, 24, Options{})
	scripted(hs)
	hs.want("NAME", "CLIENT", "REQ", "RESP", "ERR", "ACTIVITY", "LAST", "clean", "demo-client 1.0", "1 session · 1 err")
	// narrow: CLIENT and ACTIVITY hidden
	hs.send(tea.WindowSizeMsg{Width: 70, Height: 20})
	hs.wantNot("CLIENT", "ACTIVITY")
	hs.want("NAME", "REQ")
}

func TestStreamRowsAndDetail(t *testing.T) {
	hs := newHarness(t, 160, 30, Options{})
	scripted(hs)
	hs.keys("enter")
	hs.want("sessions › clean", "⇣ follow", "TIME", "METHOD/TOOL", "DUR", "STATUS", "DETAIL",
		"initialize", "tools/list", "tools/call echo", "tools/call add",
		"-32602 InvalidParams: a must be a number", // error code name
		"━━━━━─────", "1/2",                        // progress bar
		"pending", "┆", "server: echo done", `"abc"`)
	// frames counts wire frames as every surface does (issue 22 item 5):
	// 13 rows, less the start record and the stderr line
	hs.want("frames 11/11", "1 err", "1 pending")
	// narrow stream: no DETAIL, breadcrumb shortened, the time still a clock time
	hs.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	hs.wantNot("DETAIL", "sessions ›")
	hs.want("clean (1/1)", "12:00:00.130")
}

func TestPendingSpinnerAdvances(t *testing.T) {
	hs := newHarness(t, 160, 30, Options{})
	scripted(hs)
	hs.keys("enter")
	hs.now = t0.Add(3 * time.Second)
	hs.send(TickMsg(hs.now))
	hs.want("2.9s") // pending since 130 ms
	hs.now = t0.Add(5 * time.Second)
	hs.send(TickMsg(hs.now))
	hs.want("4.9s")
}

func TestFilter(t *testing.T) {
	tests := []struct {
		filter  string
		want    []string
		wantNot []string
	}{
		{"tool:add", []string{"tools/call add"}, []string{"tools/call echo", "initialize"}},
		{"id:abc", []string{"tools/call add"}, []string{"tools/call echo"}},
		{`id:"abc"`, []string{"tools/call add"}, []string{"tools/call echo"}},
		{"id:3", []string{"tools/call echo"}, []string{"tools/call add"}},
		{"status:err", []string{"a must be a number"}, []string{"initialize"}},
		{"status:pending", []string{"slow"}, []string{"initialize"}},
		{"dir:stderr", []string{"server: echo done"}, []string{"initialize"}},
		{"kind:notify", []string{"notifications/progress"}, []string{"tools/list"}},
		{"method:tools/list", []string{"tools/list"}, []string{"initialize"}},
		{"m:init t:nothing", nil, []string{"initialize"}},
		{"héllo", []string{"tools/call echo"}, []string{"tools/call add"}},
	}
	for _, tt := range tests {
		t.Run(tt.filter, func(t *testing.T) {
			hs := newHarness(t, 160, 30, Options{})
			scripted(hs)
			hs.keys("enter", "/")
			hs.typeText(tt.filter)
			hs.want("/" + tt.filter)
			hs.keys("enter")
			hs.want("filter: " + tt.filter)
			hs.want(tt.want...)
			hs.wantNot(tt.wantNot...)
			// esc clears the filter first, then goes back
			hs.keys("esc")
			hs.want("initialize")
			hs.keys("q")
			hs.want("NAME", "CLIENT")
		})
	}
}

// TestFilterReplaces: / opens on the filter in force, selected: typing
// replaces it instead of appending to it, backspace clears it, enter
// keeps it (issue 25 item 11).
func TestFilterReplaces(t *testing.T) {
	hs := newHarness(t, 160, 30, Options{})
	scripted(hs)
	hs.keys("enter", "/")
	hs.typeText("tool:add")
	hs.keys("enter")
	hs.want("filter: tool:add")
	hs.keys("/")
	hs.want("/tool:add▏", "typing replaces it")
	hs.typeText("tool:echo")
	hs.want("/tool:echo▏")
	hs.wantNot("tool:addtool:echo", "typing replaces it")
	hs.keys("enter")
	hs.want("filter: tool:echo", "tools/call echo")
	hs.wantNot("tools/call add")
	// enter keeps it
	hs.keys("/", "enter")
	hs.want("filter: tool:echo")
	// backspace clears the selected filter at once
	hs.keys("/", "backspace")
	hs.want("/▏")
	hs.keys("enter")
	hs.wantNot("filter: ")
	hs.want("tools/call add", "tools/call echo")
}

func TestInspectorPairSearchCopy(t *testing.T) {
	hs := newHarness(t, 160, 40, Options{})
	scripted(hs)
	hs.keys("enter", "/")
	hs.typeText("tool:echo")
	hs.keys("enter", "g", "enter")
	hs.want("FRAME 1/4", "tools/call echo", "req 7 ⇄ resp 9", `"arguments": {`, "1 {")
	hs.keys("x") // to the paired response
	hs.want("FRAME 3/4", "content")
	hs.keys("x")
	hs.want("FRAME 1/4")
	hs.keys("/")
	hs.typeText("text")
	hs.keys("enter")
	hs.want("/text", "1/1")
	hs.keys("n", "N", "y")
	if len(hs.copied) != 1 || !strings.HasPrefix(hs.copied[0], `{"jsonrpc":"2.0","id":3,"method":"tools/call"`) {
		t.Errorf("copied %q, want the raw request", hs.copied)
	}
	hs.want("copied")
	hs.keys("esc")
	hs.wantNot("FRAME 1/3")
}

func TestCapsSummaryHelp(t *testing.T) {
	hs := newHarness(t, 160, 50, Options{Version: "v9.9"})
	scripted(hs)
	hs.keys("c")
	hs.want("CAPABILITIES", "protocol 2025-06-18", "client  demo-client 1.0", "● roots", "● elicitation", "○ sampling",
		"server  clean 1.0.0", "● tools", "● logging", "deprecated", "instructions", "Use echo to test.")
	hs.keys("c")
	hs.keys("s")
	hs.want("TOOL SUMMARY", "definitions  2 tools", "TOOL", "CALLS", "P50", "DEF", "RESULT", "echo", "add",
		"heaviest", "tokens")
	hs.keys("y")
	if len(hs.copied) == 0 || !strings.Contains(hs.copied[0], "TOOL SUMMARY") && !strings.Contains(hs.copied[0], "definitions") {
		t.Errorf("copy in summary = %q", hs.copied)
	}
	hs.keys("s", "?")
	hs.want("HELP", "navigation")
	hs.keys("G")
	hs.want("tool:NAME", "mcpward v9.9")
	hs.keys("q")
	hs.wantNot("HELP")
}

func TestReplay(t *testing.T) {
	t.Run("unavailable", func(t *testing.T) {
		hs := newHarness(t, 120, 30, Options{})
		scripted(hs)
		hs.keys("enter", "/")
		hs.typeText("id:3 kind:req")
		hs.keys("enter", "r")
		hs.want("REPLAY", "replay unavailable")
	})
	t.Run("confirm then run", func(t *testing.T) {
		rp := &fakeReplayer{}
		hs := newHarness(t, 120, 60, Options{Replayer: rp})
		scripted(hs)
		hs.keys("enter", "/")
		hs.typeText("id:3 kind:req")
		hs.keys("enter", "enter", "r")
		hs.want("replay runs: mcpward fixture serve clean@v1")
		hs.keys("y")
		hs.want("ok", "replayed")
		if rp.calls != 1 {
			t.Errorf("replays = %d, want 1", rp.calls)
		}
		hs.keys("r") // confirmed once per session
		if rp.calls != 2 {
			t.Errorf("replays = %d, want 2", rp.calls)
		}
	})
}

func TestPaletteExportDelete(t *testing.T) {
	dir := t.TempDir()
	hs := newHarness(t, 120, 30, Options{StateDir: dir})
	scripted(hs)
	hs.keys(":")
	hs.typeText("clean")
	hs.keys("enter")
	hs.want("sessions › clean")
	hs.keys("e")
	path := filepath.Join(dir, "exports", "clean-1-aaaa.jsonl")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "\n"); n != 13 {
		t.Errorf("export has %d lines, want 13", n)
	}
	hs.want("exported to")
	hs.keys(":")
	hs.typeText("export csv")
	hs.keys("enter")
	hs.want("only jsonl")
	hs.keys(":")
	hs.typeText("nosuch")
	hs.keys("enter")
	hs.want(`no command or session "nosuch"`)
	// delete: anything but y cancels
	hs.keys("ctrl+d")
	hs.want("delete session clean-1-aaaa and its log? y/enter")
	hs.keys("n")
	hs.want("delete cancelled", "tools/list")
	hs.keys("ctrl+d", "y")
	hs.want("deleted clean-1-aaaa", "No sessions yet")
	hs.keys(":")
	hs.typeText("q")
	hs.keys("enter")
	if !hs.m.quitting {
		t.Error(":q did not quit")
	}
}

func TestPauseFollowSortNavigate(t *testing.T) {
	hs := newHarness(t, 160, 30, Options{})
	scripted(hs)
	hs.push(memsource.Script("other-2-bbbb", "other", t0.Add(time.Second))...)
	hs.keys("enter")
	hs.want("sessions › clean")
	hs.keys("]")
	hs.want("sessions › other")
	hs.keys("[")
	hs.want("sessions › clean")
	hs.keys("f")
	hs.wantNot("⇣ follow")
	hs.keys("G")
	hs.want("⇣ follow")
	hs.keys("M") // sort by method: follow off
	hs.wantNot("⇣ follow")
	hs.keys("D", "I", "S", "T", "k", "j", "ctrl+f", "g", "up", "down")
	hs.keys("p")
	hs.want("● paused")
	hs.push(memsource.Script("third-3-cccc", "third", t0.Add(2*time.Second))...)
	hs.keys("q")
	hs.wantNot("third")
	hs.keys("p")
	hs.want("● live", "third")
	hs.keys("N", "N", "R", "S", "E", "L", "j", "k", "G", "g")
	hs.keys("/")
	hs.typeText("oth")
	hs.keys("enter")
	hs.want("other")
	hs.wantNot("clean ")
	hs.keys("esc")
	hs.want("clean")
	hs.keys("ctrl+c")
	if !hs.m.quitting {
		t.Error("ctrl+c did not quit")
	}
}

func TestResizeNoPanic(t *testing.T) {
	hs := newHarness(t, 80, 24, Options{})
	scripted(hs)
	sizes := [][2]int{{40, 10}, {1, 1}, {0, 0}, {300, 80}, {72, 24}, {99, 30}, {100, 30}, {41, 11}}
	for _, s := range sizes {
		for _, keys := range [][]string{nil, {"enter"}, {"enter", "enter"}, {"c"}, {"s"}, {"?"}} {
			hs.send(tea.WindowSizeMsg{Width: s[0], Height: s[1]})
			hs.keys(keys...)
			out := hs.m.Content()
			for i, l := range strings.Split(out, "\n") {
				if w := ansi.StringWidth(l); w > max(s[0], 0) {
					t.Fatalf("%dx%d %v: line %d is %d wide", s[0], s[1], keys, i, w)
				}
			}
			if n := strings.Count(out, "\n") + 1; s[1] > 0 && n > s[1] {
				t.Fatalf("%dx%d %v: %d lines", s[0], s[1], keys, n)
			}
			hs.keys("esc", "esc", "esc")
		}
	}
}

func TestWideRunesTruncated(t *testing.T) {
	hs := newHarness(t, 100, 20, Options{})
	recs := memsource.Script("wide-1-cccc", strings.Repeat("世界", 40), t0)
	hs.push(recs...)
	for _, l := range strings.Split(hs.m.Content(), "\n") {
		if w := ansi.StringWidth(l); w > 100 {
			t.Fatalf("line %d wide: %q", w, l)
		}
	}
	hs.want("世…")
}

func TestMemoryBoundedWindow(t *testing.T) {
	hs := newHarness(t, 120, 30, Options{Store: storeOpts(50)})
	for i := range 200 {
		req, resp := memsource.Call("big-1-dddd", "big", uint64(2*i+1), t0, i)
		hs.push(req, resp)
	}
	ss := hs.m.Store().Session("big-1-dddd")
	if ss.Len() != 50 || ss.Dropped != 350 || ss.Frames != 400 {
		t.Errorf("len %d dropped %d frames %d, want 50 350 400", ss.Len(), ss.Dropped, ss.Frames)
	}
	hs.keys("enter")
	hs.want("frames 50/400 (350 older not held)")
}

// TestEndedSessionUnanswered: a call still open when its session ended
// (an exit record, or a source that has nothing more: `ui FILE`) is
// "unanswered (session ended)", not a spinner that runs for ever (issue 22
// item 7); a finished log shows no live or follow state.
func TestEndedSessionUnanswered(t *testing.T) {
	for _, how := range []string{"exit record", "finished logs"} {
		t.Run(how, func(t *testing.T) {
			hs := newHarness(t, 160, 30, Options{})
			recs := memsource.Script("clean-1-aaaa", "clean", t0)
			hs.push(recs...)
			hs.keys("enter")
			hs.want("pending", "1 pending", "● live", "⇣ follow")
			switch how {
			case "exit record":
				last := recs[len(recs)-1]
				hs.push(&session.Record{V: session.Version, Session: last.Session, Label: last.Label, Seq: last.Seq + 1,
					Time: last.Time.Add(time.Millisecond), Dir: session.Meta, Transport: last.Transport, Kind: session.KindExit,
					Info: []byte(`{"code":0}`)})
			case "finished logs":
				hs.src.Close()
				hs.send(FramesMsg{Err: io.EOF})
			}
			hs.now = t0.Add(time.Minute)
			hs.send(TickMsg(hs.now))
			hs.want("unanswered", "unanswered (session ended)", "1 unanswered")
			hs.wantNot("pending", "59.")
			if how == "finished logs" {
				hs.want("○ recorded")
				hs.wantNot("● live", "⇣ follow")
			}
		})
	}
}
