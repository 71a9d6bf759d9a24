package tui

import (
	"runtime"
	"strings"
	"testing"

	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/tui/common"
	"github.com/mcpward/mcpward/internal/tui/memsource"
)

// Rows keep only a weak reference to their record: once the source lets a
// record go, the inspector and copy read it back through Source.Records
// (in a tea.Cmd), so what they show does not depend on the store keeping
// frames alive.
func TestInspectorReadsBackRecordTheSourceLetGo(t *testing.T) {
	hs := newHarness(t, 160, 40, Options{})
	const id = "clean-1-aaaa"
	kept := memsource.Script(id, "clean", t0)
	hs.src.Push(kept...) // the source's own records, which Records returns
	// The model gets copies that nothing else holds.
	copies := make([]*session.Record, len(kept))
	for i, r := range kept {
		c := *r
		copies[i] = &c
	}
	hs.send(FramesMsg{Batch: common.Batch{Records: copies}})
	hs.send(TickMsg(hs.now))
	copies = nil
	runtime.GC()
	ss := hs.m.Store().Session(id)
	if ss == nil || ss.Len() != len(kept) {
		t.Fatalf("store has %v, want %d rows", ss, len(kept))
	}
	for i := range ss.Len() {
		if ss.At(i).Record() != nil {
			t.Fatalf("row %d still reaches its record after the source let it go", i)
		}
	}

	hs.keys("enter", "/")
	hs.typeText("tool:echo")
	hs.keys("enter", "g", "enter")
	hs.want("FRAME 1/4", "tools/call echo", `"arguments": {`)
	hs.wantNot("frame no longer held")
	hs.keys("y")
	if len(hs.copied) != 1 || !strings.HasPrefix(hs.copied[0], `{"jsonrpc":"2.0","id":3,"method":"tools/call"`) {
		t.Errorf("inspector copied %q, want the raw request", hs.copied)
	}
	hs.keys("esc", "y")
	if len(hs.copied) != 2 || hs.copied[1] != hs.copied[0] {
		t.Errorf("stream copied %q, want the raw request again", hs.copied)
	}
	runtime.KeepAlive(kept)
}
