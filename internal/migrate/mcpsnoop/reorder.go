package mcpsnoop

import (
	"cmp"
	"slices"
	"strings"

	"github.com/mcpward/mcpward/internal/session"
)

// reorderWindow is how many records of one session a read holds back
// waiting for a missing seq (mcpsnoop's HTTP proxy wrote adjacent records
// out of seq order under load: its bug 1, which made a complete capture
// look incomplete).
const reorderWindow = 64

// A Reorder hands records on in seq order within each session: a record
// whose seq is not the next one waits (with its line) until the missing
// ones arrive, the window fills (a real gap) or the log ends. mcpsnoop
// assigned seq when it observed a frame, so seq order is the order of
// observation; its stdio logs are in order already.
type Reorder struct {
	emit    func(rec *session.Record, line int)
	next    map[string]uint64 // next expected seq per session
	held    map[string][]heldRecord
	started []string // sessions in order of first record, for flush
}

type heldRecord struct {
	rec  *session.Record
	line int
}

// NewReorder returns a Reorder that hands records on to emit.
func NewReorder(emit func(*session.Record, int)) *Reorder {
	return &Reorder{emit: emit, next: map[string]uint64{}, held: map[string][]heldRecord{}}
}

// Add hands rec (read at line) on, or holds it back.
func (r *Reorder) Add(rec *session.Record, line int) {
	id := rec.Session
	next, ok := r.next[id]
	if !ok {
		r.started = append(r.started, id)
		next = rec.Seq
	}
	if rec.Seq > next {
		h := append(r.held[id], heldRecord{rec, line})
		slices.SortStableFunc(h, func(a, b heldRecord) int { return cmp.Compare(a.rec.Seq, b.rec.Seq) })
		r.held[id] = h
		if len(h) > reorderWindow {
			// A real gap: go on from the lowest held seq.
			next = h[0].rec.Seq
		}
		r.release(id, next)
		return
	}
	r.emit(rec, line)
	if rec.Seq == next {
		next++
	}
	r.release(id, next)
}

// release emits the held records of session id from seq next on, while
// they follow each other.
func (r *Reorder) release(id string, next uint64) {
	h := r.held[id]
	for len(h) > 0 && h[0].rec.Seq <= next {
		r.emit(h[0].rec, h[0].line)
		if h[0].rec.Seq == next {
			next++
		}
		h = h[1:]
	}
	r.held[id] = h
	r.next[id] = next
}

// Flush emits what is still held, in seq order, session by session.
func (r *Reorder) Flush() {
	for _, id := range r.started {
		for _, hr := range r.held[id] {
			r.emit(hr.rec, hr.line)
		}
		delete(r.held, id)
	}
}

// Label returns the label of an mcpsnoop session id (the stem of its log
// file name) "<label>-<pid>-<12 hex>"; ok is false for another name.
func Label(stem string) (string, bool) {
	i := strings.LastIndexByte(stem, '-')
	if i < 0 || len(stem)-i-1 != 12 || strings.Trim(stem[i+1:], "0123456789abcdef") != "" {
		return "", false
	}
	j := strings.LastIndexByte(stem[:i], '-')
	if j < 1 || j+1 == i || strings.Trim(stem[j+1:i], "0123456789") != "" {
		return "", false
	}
	return stem[:j], true
}
