package hub

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"time"

	"github.com/mcpward/mcpward/internal/calls"
	"github.com/mcpward/mcpward/internal/feed"
	"github.com/mcpward/mcpward/internal/jsonrpc"
	"github.com/mcpward/mcpward/internal/session"
)

// ErrClosed is returned by Subscription.Next once the hub is closed.
var ErrClosed = errors.New("hub closed")

// SessionInfo is what the sessions table shows about one session.
type SessionInfo struct {
	ID, Label string
	Transport session.Transport
	// Client and Server are the peers' own names, when seen (initialize,
	// or a 2026-07-28 request's _meta).
	Client, Server *Peer
	// Log is the session's log file, when known.
	Log string
	// Live is set while a proxy feeds the session over the socket.
	Live bool
	// Exited is set once the session's exit record was seen.
	Exited bool
	// Message counts: a batch counts each element. Errors is
	// calls.Session.Errors (the error signal: JSON-RPC errors, isError
	// results, failed tasks, HTTP error statuses; a malformed line is not
	// one), the count `sessions list` and the TUI give.
	Requests, Notifications, Responses, Errors, Stderr int64
	// Records is the number of distinct records received.
	Records int64
	// Missing counts seqs below the highest seen that were never received:
	// frames the log itself lacks (its "lost" records say why), or not
	// yet re-read from it.
	Missing int64
	// Problems counts log lines that could not be read (corrupt records).
	Problems int64
	// First and Last are the times of the earliest and latest record.
	First, Last time.Time
	// Activity holds records per second for the SparkSeconds seconds up to
	// the time Sessions was called, oldest first.
	Activity []int
	// InMemory and Summarised count the records held in full and the
	// older ones held as a FrameInfo only.
	InMemory, Summarised int
}

// A Batch is what a Subscription delivers: every record ingested since the
// previous call, in arrival order.
type Batch struct {
	// Records are shared with the hub and with other subscribers: do not
	// modify them. A record filled in from the log after a feed gap may
	// have a lower seq than records of its session delivered earlier.
	Records []*session.Record
	// Skipped counts records this subscriber missed because it fell more
	// than Options.Backlog records behind, or because they left their
	// session's window (KeepFull, MemoryBudget) before it took them. They
	// are still in the hub (see Records) or the log.
	Skipped uint64
}

// A Subscription pulls batches of new records. A slow subscriber never
// slows ingest: it only skips what fell out of the backlog.
type Subscription struct {
	h      *Hub
	cursor uint64
}

type entry struct {
	rec  *session.Record
	info FrameInfo
	ord  uint64 // ingest ordinal (Hub.total after it was counted)
}

type sessState struct {
	id, label string
	transport session.Transport
	client    *Peer
	server    *Peer
	log       string
	feeds     int
	exited    bool

	seen   seqSet
	wanted seqSet // seqs a feed said it dropped; read back from the log
	full   ring[entry]
	sums   ring[FrameInfo]
	mem    int64

	// calls correlates the session's records: its Errors is the error
	// count every other view gives (calls.Session.Errors: JSON-RPC errors,
	// isError results, failed tasks, HTTP error statuses).
	calls *calls.Store

	requests, notifications, responses, stderr, records int64
	first, last                                         time.Time
	touched                                             uint64 // h.total when last ingested into

	spark    []uint32 // ring of per-second counts
	sparkEnd int64    // unix second of the newest bucket
}

// errorCount is the session's error count as calls.Session counts it.
// A response that matches no request is held for calls.InvertWindow in
// case its request follows; once no proxy feeds the session (it exited,
// or its records come from a log) it is let go and counted, as `sessions
// list` does after its last record. Called with h.mu held.
func (s *sessState) errorCount() int64 {
	if s.exited || s.feeds == 0 {
		s.calls.Flush()
	}
	if cs, ok := s.calls.Session(s.id); ok {
		return cs.Errors
	}
	return 0
}

// maxWanted bounds the gap ranges kept per session.
const maxWanted = 64

const (
	entryOverhead   = 400 // Record struct, pointers, FrameInfo
	summaryOverhead = 96
)

func recCost(r *session.Record) int64 {
	n := int64(len(r.Frame)+len(r.Info)+len(r.Error)+len(r.Path)+len(r.Method)) + entryOverhead
	for k, v := range r.Header {
		n += int64(len(k)) + 16
		for _, s := range v {
			n += int64(len(s)) + 16
		}
	}
	return n
}

func sumCost(f *FrameInfo) int64 { return summaryOverhead + int64(len(f.ID)) }

func (h *Hub) sessLocked(rec *session.Record) *sessState {
	s := h.sessions[rec.Session]
	if s == nil {
		s = &sessState{id: rec.Session, label: rec.Label, transport: rec.Transport,
			spark: make([]uint32, h.opts.SparkSeconds), calls: calls.New(&calls.Options{})}
		h.sessions[rec.Session] = s
	}
	return s
}

// ingest adds records from any source. Each is classified before the lock
// is taken; duplicates (by session and seq) are dropped.
func (h *Hub) ingest(recs []*session.Record, log string) {
	if len(recs) == 0 {
		return
	}
	cls := make([]classified, len(recs))
	for i, r := range recs {
		cls[i] = classify(r)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	added := false
	for i, r := range recs {
		if r.Session == "" || r.Seq == 0 {
			continue
		}
		s := h.sessLocked(r)
		if !s.seen.add(r.Seq) {
			h.dups++
			continue
		}
		if log != "" && s.log == "" {
			s.log = log
		}
		h.addLocked(s, r, &cls[i])
		added = true
	}
	if added {
		h.wakeLocked()
	}
}

func (h *Hub) addLocked(s *sessState, r *session.Record, c *classified) {
	c.info.Method = h.intern.intern(c.info.Method)
	if s.label == "" {
		s.label = r.Label
	}
	if s.transport == "" {
		s.transport = r.Transport
	}
	if c.client != nil {
		s.client = c.client
	}
	if c.server != nil {
		s.server = c.server
	}
	if r.Dir == session.Meta && r.Kind == session.KindExit {
		s.exited = true
	}
	s.requests += int64(c.requests)
	s.notifications += int64(c.notifications)
	s.responses += int64(c.results + c.errors)
	s.calls.Add(r, 0)
	if c.info.Kind == jsonrpc.KindStderr {
		s.stderr++
	}
	s.records++
	if s.first.IsZero() || r.Time.Before(s.first) {
		s.first = r.Time
	}
	if r.Time.After(s.last) {
		s.last = r.Time
	}
	s.tick(r.Time)

	h.total++
	s.touched = h.total
	h.backlog.push(r, h.opts.Backlog)
	// Keep it in full; the oldest full record becomes a summary, the
	// oldest summary goes.
	cost := recCost(r)
	s.mem += cost
	h.mem += cost
	if old, ev := s.full.push(entry{r, c.info, h.total}, h.opts.KeepFull); ev {
		h.demoteLocked(s, old)
	}
	h.budgetLocked(s)
}

// releaseLocked drops the backlog's reference to a record that left its
// session's full ring, so that the session windows are the only thing
// that keeps records alive and MemoryBudget is the real bound: a
// subscriber that has not taken it yet counts it as skipped (it is in the
// log).
func (h *Hub) releaseLocked(e *entry) {
	first := h.total + 1 - uint64(h.backlog.len()) // ordinal of the oldest in the backlog
	if e.ord >= first && e.ord <= h.total {
		i := int(e.ord - first)
		if h.backlog.at(i) == e.rec {
			h.backlog.set(i, nil)
		}
	}
}

// demoteLocked turns an entry evicted from the full ring into a summary.
func (h *Hub) demoteLocked(s *sessState, e entry) {
	h.releaseLocked(&e)
	c := recCost(e.rec) - sumCost(&e.info)
	s.mem -= c
	h.mem -= c
	if old, ev := s.sums.push(e.info, h.opts.KeepSummaries); ev {
		c := sumCost(&old)
		s.mem -= c
		h.mem -= c
	}
}

// budgetLocked enforces Options.MemoryBudget: whole sessions go first,
// least recently active first, never the one being ingested into; if that
// one alone is over budget, its oldest records are summarised and then
// its oldest summaries dropped.
func (h *Hub) budgetLocked(keep *sessState) {
	for h.mem > h.opts.MemoryBudget {
		// Sessions a proxy still feeds go last: their view is the one
		// being watched.
		var victim *sessState
		for _, s := range h.sessions {
			if s == keep {
				continue
			}
			if victim == nil || (s.feeds == 0) != (victim.feeds == 0) && s.feeds == 0 ||
				(s.feeds == 0) == (victim.feeds == 0) && s.touched < victim.touched {
				victim = s
			}
		}
		if victim != nil {
			for i := 0; i < victim.full.len(); i++ {
				e := victim.full.at(i)
				h.releaseLocked(&e)
			}
			h.mem -= victim.mem
			delete(h.sessions, victim.id)
			h.evicted++
			continue
		}
		if keep.full.len() > 1 {
			e, _ := keep.full.pop()
			h.demoteLocked(keep, e)
			continue
		}
		if f, ok := keep.sums.pop(); ok {
			c := sumCost(&f)
			keep.mem -= c
			h.mem -= c
			continue
		}
		return
	}
}

// tick counts a record in the per-second activity ring.
func (s *sessState) tick(t time.Time) {
	n := int64(len(s.spark))
	if n == 0 {
		return
	}
	sec := t.Unix()
	switch {
	case sec > s.sparkEnd:
		gap := sec - s.sparkEnd
		if gap >= n || s.sparkEnd == 0 {
			clear(s.spark)
		} else {
			for i := s.sparkEnd + 1; i <= sec; i++ {
				s.spark[i%n] = 0
			}
		}
		s.sparkEnd = sec
	case sec <= s.sparkEnd-n:
		return // older than the window (a backfilled record)
	}
	s.spark[sec%n]++
}

// activity returns the window ending at now, oldest first.
func (s *sessState) activity(now int64) []int {
	n := int64(len(s.spark))
	out := make([]int, n)
	for i := int64(0); i < n; i++ {
		sec := now - n + 1 + i
		if sec <= s.sparkEnd && sec > s.sparkEnd-n {
			out[i] = int(s.spark[sec%n])
		}
	}
	return out
}

func (h *Hub) wakeLocked() {
	if h.wake != nil {
		close(h.wake)
		h.wake = nil
	}
}

// Subscribe returns a Subscription that delivers records ingested from
// now on. Subscribe before reading Sessions and Records, so that nothing
// falls between the two (a record may then be seen twice).
func (h *Hub) Subscribe() *Subscription {
	h.mu.Lock()
	defer h.mu.Unlock()
	return &Subscription{h: h, cursor: h.total}
}

// Next waits until at least one record was ingested since the previous
// call and returns all of them. It returns ctx.Err() when ctx is done and
// ErrClosed once the hub is closed. Next must not be called concurrently
// on one Subscription.
func (sub *Subscription) Next(ctx context.Context) (Batch, error) {
	h := sub.h
	for {
		h.mu.Lock()
		if h.total > sub.cursor {
			b := sub.takeLocked()
			h.mu.Unlock()
			return b, nil
		}
		if h.isClosed {
			h.mu.Unlock()
			return Batch{}, ErrClosed
		}
		if h.wake == nil {
			h.wake = make(chan struct{})
		}
		w := h.wake
		h.mu.Unlock()
		select {
		case <-w:
		case <-ctx.Done():
			return Batch{}, ctx.Err()
		case <-h.closed:
		}
	}
}

func (sub *Subscription) takeLocked() Batch {
	h := sub.h
	var b Batch
	behind := h.total - sub.cursor
	held := uint64(h.backlog.len())
	if behind > held {
		b.Skipped = behind - held
		behind = held
	}
	b.Records = make([]*session.Record, 0, behind)
	for i := held - behind; i < held; i++ {
		if r := h.backlog.at(int(i)); r != nil {
			b.Records = append(b.Records, r)
		} else {
			b.Skipped++ // released: its session's window no longer holds it
		}
	}
	sub.cursor = h.total
	return b
}

// Sessions returns every session in memory, oldest first.
func (h *Hub) Sessions() []SessionInfo {
	now := h.opts.Now().Unix()
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]SessionInfo, 0, len(h.sessions))
	for _, s := range h.sessions {
		out = append(out, SessionInfo{
			ID: s.id, Label: s.label, Transport: s.transport, Client: s.client, Server: s.server,
			Log: s.log, Live: s.feeds > 0, Exited: s.exited,
			Requests: s.requests, Notifications: s.notifications, Responses: s.responses,
			Errors: s.errorCount(), Stderr: s.stderr, Records: s.records,
			Missing:  int64(s.seen.max() - s.seen.count()),
			Problems: h.problems[s.log],
			First:    s.first, Last: s.last, Activity: s.activity(now),
			InMemory: s.full.len(), Summarised: s.sums.len(),
		})
	}
	slices.SortFunc(out, func(a, b SessionInfo) int {
		return cmp.Or(a.First.Compare(b.First), cmp.Compare(a.ID, b.ID))
	})
	return out
}

// Index returns a FrameInfo for every record of a session still known to
// the hub, in seq order: the newest KeepFull in full, older ones as
// summaries.
func (h *Hub) Index(sessionID string) []FrameInfo {
	h.mu.Lock()
	defer h.mu.Unlock()
	s := h.sessions[sessionID]
	if s == nil {
		return nil
	}
	out := make([]FrameInfo, 0, s.sums.len()+s.full.len())
	for i := 0; i < s.sums.len(); i++ {
		out = append(out, s.sums.at(i))
	}
	for i := 0; i < s.full.len(); i++ {
		out = append(out, s.full.at(i).info)
	}
	slices.SortFunc(out, func(a, b FrameInfo) int { return cmp.Compare(a.Seq, b.Seq) })
	return out
}

// Records returns the records of a session with from <= seq <= to (to 0:
// no upper bound), in seq order. Records held in memory are returned as
// they are (do not modify them); older ones are read back from the
// session's log, at most maxLogRead of them.
func (h *Hub) Records(sessionID string, from, to uint64) ([]*session.Record, error) {
	if to == 0 {
		to = ^uint64(0)
	}
	h.mu.Lock()
	s := h.sessions[sessionID]
	if s == nil {
		h.mu.Unlock()
		return nil, nil
	}
	var out []*session.Record
	lowest := ^uint64(0)
	for i := 0; i < s.full.len(); i++ {
		r := s.full.at(i).rec
		lowest = min(lowest, r.Seq)
		if r.Seq >= from && r.Seq <= to {
			out = append(out, r)
		}
	}
	log := s.log
	h.mu.Unlock()
	if from < lowest && log != "" {
		older, err := readRange(log, sessionID, from, min(to, lowest-1), maxLogRead)
		if err != nil {
			return nil, err
		}
		out = append(older, out...)
	}
	slices.SortFunc(out, func(a, b *session.Record) int { return cmp.Compare(a.Seq, b.Seq) })
	return out, nil
}

// Stats are the hub's own counts.
type Stats struct {
	Ingested   uint64 // distinct records
	Duplicates uint64 // records dropped as already seen
	Evicted    uint64 // sessions evicted to stay within the memory budget
	Memory     int64  // estimated bytes held for sessions
	Sessions   int
	Feeds      int // live feed connections
}

// Stats returns the hub's counts.
func (h *Hub) Stats() Stats {
	h.mu.Lock()
	defer h.mu.Unlock()
	return Stats{Ingested: h.total, Duplicates: h.dups, Evicted: h.evicted, Memory: h.mem,
		Sessions: len(h.sessions), Feeds: h.feeds}
}

// feedHello notes a feed's hello or gap report: the seqs it lacks are
// wanted from the log, which the poller then reads.
func (h *Hub) feedReport(sessionID, label string, hello *feed.Hello, first bool) (log string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	s := h.sessLocked(&session.Record{Session: sessionID, Label: label})
	if hello.Log != "" {
		s.log = hello.Log
	}
	if first {
		s.feeds++
		h.feeds++
	}
	if s.log == "" {
		return "" // nothing to read the records back from
	}
	if first && hello.Next > 1 {
		s.wanted.addRange(feed.Range{From: 1, To: hello.Next - 1})
	}
	for _, r := range hello.Missed {
		s.wanted.addRange(r)
	}
	// A hub that is slow for long gets many small gaps: one range over
	// all of them keeps this O(1); the log read is the same either way.
	if n := len(s.wanted.r); n > maxWanted {
		s.wanted.r = []feed.Range{{From: s.wanted.r[0].From, To: s.wanted.r[n-1].To}}
	}
	if s.seen.covers(&s.wanted) {
		s.wanted = seqSet{}
	}
	return s.log
}

func (h *Hub) feedGone(sessionID string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.feeds--
	if s := h.sessions[sessionID]; s != nil && s.feeds > 0 {
		s.feeds--
	}
}
