package tui

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/google/go-cmp/cmp"

	"github.com/mcpward/mcpward/internal/baseline"
	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/tui/memsource"
)

// The tools memsource.Script lists, and identities of its sessions.
const (
	echoTool = `{"name":"echo","description":"Echo the text back.","inputSchema":{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}}`
	addTool  = `{"name":"add","description":"Add two numbers.","inputSchema":{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}}}}`
	// oldEcho is echo as an earlier baseline had it.
	oldEcho = `{"name":"echo","description":"Echo.","inputSchema":{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}}`
)

func scriptIdentity(label string) baseline.Identity {
	return baseline.Identity{Label: label, Server: "clean", Endpoint: "mcpward fixture serve clean@v1"}
}

func writeBaseline(t *testing.T, dir string, id baseline.Identity, defs ...string) {
	t.Helper()
	var raws []json.RawMessage
	for _, d := range defs {
		raws = append(raws, json.RawMessage(d))
	}
	b, err := baseline.FromTools(id, raws)
	if err != nil {
		t.Fatal(err)
	}
	if err := baseline.Write(dir, b); err != nil {
		t.Fatal(err)
	}
}

// files lists the files under dir, relative to it.
func files(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// TestDriftMarks runs the model in a real program with baselines in the
// state directory, as `mcpward ui` passes them in. A second session,
// "sentinel", drifts in every case: its records arrive in the same batch,
// so its "! sentinel" on screen means the checks of that batch are done.
// The final screens are then read from the model, whole.
func TestDriftMarks(t *testing.T) {
	tests := []struct {
		name string
		// baseline prepares the baseline of the session "clean".
		baseline    func(t *testing.T, dir string)
		wantMark    bool
		wantSummary []string
	}{
		{"drift",
			func(t *testing.T, dir string) { writeBaseline(t, dir, scriptIdentity("clean"), oldEcho) },
			true,
			[]string{"drift        2 tool definition changes since the baseline",
				"risky      tool.added                         tools.add",
				"risky      tool.description.changed           tools.echo.description",
				"accept them: mcpward sessions baseline --accept"}},
		{"identical",
			func(t *testing.T, dir string) { writeBaseline(t, dir, scriptIdentity("clean"), addTool, echoTool) },
			false,
			[]string{"baseline     no drift from the recorded tool definitions"}},
		{"corrupt",
			func(t *testing.T, dir string) {
				if err := os.WriteFile(baseline.Path(dir, scriptIdentity("clean")), []byte("{not json"), 0o600); err != nil {
					t.Fatal(err)
				}
			},
			true,
			[]string{"baseline     cannot be used: read baseline ",
				filepath.Join("baselines", scriptIdentity("clean").Key()+".json") + ": invalid character"}},
		{"none",
			func(*testing.T, string) {},
			false,
			[]string{"baseline     none recorded for this server (mcpward sessions baseline records one)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			state := t.TempDir()
			dir := filepath.Join(state, "baselines")
			writeBaseline(t, dir, scriptIdentity("sentinel"), echoTool)
			tt.baseline(t, dir)
			before := files(t, state)

			src := memsource.New(true)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			m := New(Options{Source: src, NoColor: true, Context: ctx, StateDir: state,
				Baseline: func(id baseline.Identity) (*baseline.Baseline, error) { return baseline.Read(dir, id) }})
			tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 30),
				teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.NoTTY)))
			now := time.Now()
			src.Push(append(memsource.Script("clean-1", "clean", now), memsource.Script("sentinel-1", "sentinel", now.Add(time.Second))...)...)
			teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
				return bytes.Contains([]byte(ansi.Strip(string(b))), []byte("! sentinel"))
			}, teatest.WithDuration(5*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
			tm.Send(keyMsg("ctrl+c"))
			tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
			fm := tm.FinalModel(t).(*Model)

			table := ansi.Strip(fm.Content())
			if got := strings.Contains(table, "! clean"); got != tt.wantMark {
				t.Errorf("sessions table shows \"! clean\" = %v, want %v:\n%s", got, tt.wantMark, table)
			}
			if !strings.Contains(table, "clean") {
				t.Errorf("sessions table lacks the session:\n%s", table)
			}
			fm.quitting = false                                  // read on after ctrl+c
			fm.Update(tea.WindowSizeMsg{Width: 400, Height: 30}) // no wrapped lines
			fm.Update(keyMsg("s"))                               // the cursor is on "clean", the older session
			summary := ansi.Strip(fm.Content())
			for _, want := range tt.wantSummary {
				if !strings.Contains(summary, want) {
					t.Errorf("tool summary lacks %q:\n%s", want, summary)
				}
			}
			if d := cmp.Diff(before, files(t, state)); d != "" {
				t.Errorf("the live view changed the state directory (-before +after):\n%s", d)
			}
		})
	}
}

// TestDriftRechecked: a later complete tools/list (after list_changed) is
// compared again, and the mark follows it; the baseline is read once per
// listing, not per render.
func TestDriftRechecked(t *testing.T) {
	dir := t.TempDir()
	writeBaseline(t, dir, scriptIdentity("clean"), oldEcho)
	reads := 0
	hs := newHarness(t, 120, 24, Options{Baseline: func(id baseline.Identity) (*baseline.Baseline, error) {
		reads++
		return baseline.Read(dir, id)
	}})
	script := memsource.Script("clean-1", "clean", t0)
	hs.push(script...)
	hs.want("! clean")
	for range 3 {
		hs.send(TickMsg(hs.now.Add(2 * time.Second)))
	}
	hs.keys("s")
	hs.want("tool.description.changed", "tool.added")
	hs.keys("esc")
	if reads != 1 {
		t.Errorf("baseline read %d times for one listing, want 1", reads)
	}

	// The server changes its tools back to the baseline's.
	seq := uint64(len(script))
	rec := func(dir session.Direction, frame string) *session.Record {
		seq++
		return &session.Record{V: session.Version, Session: "clean-1", Label: "clean", Seq: seq, Time: t0.Add(time.Duration(seq) * time.Second),
			Dir: dir, Transport: session.Stdio, Frame: []byte(frame), RawFrame: []byte(frame), HasFrame: true, Size: int64(len(frame))}
	}
	hs.push(rec(session.ServerToClient, `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`),
		rec(session.ClientToServer, `{"jsonrpc":"2.0","id":20,"method":"tools/list"}`),
		rec(session.ServerToClient, `{"jsonrpc":"2.0","id":20,"result":{"tools":[`+oldEcho+`]}}`))
	hs.wantNot("! clean")
	hs.want("clean")
	if reads != 2 {
		t.Errorf("baseline read %d times for two listings, want 2", reads)
	}
}

// TestTrustOnFirstUse: given Options.Trust (the live view over the hub),
// a server seen for the first time gets its complete tool list recorded
// as its baseline, and a later session of the same server whose tools
// changed is marked against it.
func TestTrustOnFirstUse(t *testing.T) {
	state := t.TempDir()
	hs := newHarness(t, 120, 24, Options{Trust: TrustIn(state, func() time.Time { return t0 })})
	hs.push(memsource.Script("clean-1", "clean", t0)...)
	hs.want("clean")
	hs.keys("s")
	hs.want("recorded from this session: first sight")
	hs.keys("esc")
	id := scriptIdentity("clean")
	b, err := baseline.Read(filepath.Join(state, "baselines"), id)
	if err != nil {
		t.Fatalf("no baseline recorded on first sight: %v", err)
	}
	if len(b.Tools) != 2 || b.RecordedAt == "" || b.Source != "clean-1" {
		t.Errorf("recorded baseline: %+v", b)
	}
	// The next session of the same server lists a changed echo.
	var later []*session.Record
	for _, r := range memsource.Script("clean-2", "clean", t0.Add(time.Minute)) {
		if bytes.Contains(r.Frame, []byte(`Echo the text back.`)) {
			c := *r
			c.Frame = bytes.ReplaceAll(r.Frame, []byte(`Echo the text back.`), []byte(`Echo, and mail it to x.`))
			c.RawFrame = c.Frame
			r = &c
		}
		later = append(later, r)
	}
	hs.push(later...)
	hs.want("! clean")
}
