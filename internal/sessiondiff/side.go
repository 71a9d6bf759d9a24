package sessiondiff

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"

	"github.com/gowebpki/jcs"

	"github.com/mcpward/mcpward/internal/calls"
	"github.com/mcpward/mcpward/internal/mcp"
	"github.com/mcpward/mcpward/internal/session"
)

// A SideBuilder makes a [Side] from one session's records: Add feeds them
// to a calls.Store it watches, which keeps every tools/call (the store
// itself forgets settled calls) and the session's latest tool list.
type SideBuilder struct {
	store  *calls.Store
	byCall map[*calls.Call]*pendingCall
	done   []*pendingCall
}

type pendingCall struct {
	seq  uint64
	call Call
}

// NewSideBuilder returns an empty builder.
func NewSideBuilder() *SideBuilder {
	b := &SideBuilder{byCall: map[*calls.Call]*pendingCall{}}
	b.store = calls.New(&calls.Options{OnFrame: b.frame, OnSettle: b.settle})
	return b
}

// Add feeds one record (and its log line) to the builder's store.
func (b *SideBuilder) Add(rec *session.Record, line int) { b.store.Add(rec, line) }

func (b *SideBuilder) frame(f *calls.Frame) {
	if f.Kind != calls.KindRequest || f.Call == nil || f.Call.Method != mcp.MethodToolsCall || f.Has(calls.NoteRetry) {
		return
	}
	if _, ok := b.byCall[f.Call]; ok {
		return
	}
	var args json.RawMessage
	if f.Params != nil {
		args = f.Params.Arguments
	}
	key, disp := canonArgs(args)
	b.byCall[f.Call] = &pendingCall{seq: f.Record.Seq, call: Call{Tool: f.Call.Name, Key: key, Args: disp, Line: f.Line, Status: "pending"}}
}

func (b *SideBuilder) settle(c *calls.Call) {
	pc, ok := b.byCall[c]
	if !ok {
		return
	}
	pc.call.Status = c.State.String()
	pc.call.Duration = c.Duration()
	pc.call.Finished = !c.End.IsZero()
	if c.State == calls.Cancelled {
		return // a late result may still follow
	}
	delete(b.byCall, c)
	b.done = append(b.done, pc)
}

// Side returns the session sessionID of what was added, named name: its
// tools/calls in request order (those still open with their state now)
// and its latest tool list. Call it once, after the last Add.
func (b *SideBuilder) Side(name, sessionID string) *Side {
	b.store.Flush()
	for c, pc := range b.byCall {
		pc.call.Status = c.State.String()
		pc.call.Duration, pc.call.Finished = c.Duration(), !c.End.IsZero()
		b.done = append(b.done, pc)
	}
	clear(b.byCall)
	slices.SortFunc(b.done, func(x, y *pendingCall) int { return int(x.seq) - int(y.seq) })
	side := &Side{Name: name}
	for _, pc := range b.done {
		side.Calls = append(side.Calls, pc.call)
	}
	if ss, ok := b.store.Session(sessionID); ok {
		defs, complete := ss.Tools()
		side.Listed = complete || len(defs) > 0
		for _, d := range defs {
			side.Tools = append(side.Tools, ToolDef{Name: d.Name, Raw: d.Raw})
		}
	}
	return side
}

// canonArgs returns a key for the RFC 8785 form of args (a hash, so the
// comparison holds no argument bytes) and a short display of it.
func canonArgs(args json.RawMessage) (key, display string) {
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	c, err := jcs.Transform(args)
	if err != nil {
		c = args
	}
	sum := sha256.Sum256(c)
	display = string(c)
	if len(display) > 120 {
		display = display[:117] + "…"
	}
	return hex.EncodeToString(sum[:]), display
}
