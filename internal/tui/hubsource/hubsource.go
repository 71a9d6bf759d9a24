// Package hubsource adapts a *hub.Hub to common.Source: the live view
// pulls coalesced batches through one hub Subscription and reads the
// sessions' counters from the hub.
package hubsource

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/mcpward/mcpward/internal/hub"
	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/tui/common"
)

// Source is a common.Source over a hub.
type Source struct {
	h   *hub.Hub
	sub *hub.Subscription

	mu      sync.Mutex
	deleted map[string]bool
	started bool
	// seen is the highest seq of each session delivered in the backlog:
	// live records at or below it were already delivered.
	seen map[string]uint64
	// Skipped counts records the UI did not receive: it fell too far
	// behind, or the hub let them go first (see hub.Batch.Skipped).
	Skipped uint64
}

// New subscribes to h. Subscribe first, then read history: the UI sees
// the backlog as its first batch.
func New(h *hub.Hub) *Source {
	return &Source{h: h, sub: h.Subscribe(), deleted: map[string]bool{}}
}

// Next implements common.Source.
func (s *Source) Next(ctx context.Context) (common.Batch, error) {
	if !s.started {
		s.started = true
		s.seen = map[string]uint64{}
		back := s.Backlog()
		for _, r := range back {
			s.seen[r.Session] = max(s.seen[r.Session], r.Seq)
		}
		if len(back) > 0 {
			return common.Batch{Records: back}, nil
		}
	}
	b, err := s.sub.Next(ctx)
	if errors.Is(err, hub.ErrClosed) {
		return common.Batch{}, context.Canceled
	}
	if err != nil {
		return common.Batch{}, err
	}
	s.mu.Lock()
	s.Skipped += b.Skipped
	recs := b.Records
	if len(s.deleted) > 0 || len(s.seen) > 0 {
		recs = make([]*session.Record, 0, len(b.Records))
		for _, r := range b.Records {
			if !s.deleted[r.Session] && r.Seq > s.seen[r.Session] {
				recs = append(recs, r)
			}
		}
	}
	s.mu.Unlock()
	return common.Batch{Records: recs, Skipped: b.Skipped}, nil
}

// Backlog returns the records the hub holds for every session (the
// history read at start), in seq order per session.
func (s *Source) Backlog() []*session.Record {
	var out []*session.Record
	for _, in := range s.h.Sessions() {
		recs, err := s.h.Records(in.ID, 0, 0)
		if err == nil {
			out = append(out, recs...)
		}
	}
	return out
}

// Sessions implements common.Source.
func (s *Source) Sessions() []common.SessionInfo {
	infos := s.h.Sessions()
	out := make([]common.SessionInfo, 0, len(infos))
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, in := range infos {
		if s.deleted[in.ID] {
			continue
		}
		ci := common.SessionInfo{ID: in.ID, Label: in.Label, Transport: in.Transport, Log: in.Log,
			Live: in.Live, Exited: in.Exited, Requests: in.Requests, Responses: in.Responses,
			Errors: in.Errors, Records: in.Records, Missing: in.Missing, First: in.First, Last: in.Last,
			Activity: in.Activity, InMemory: in.InMemory, Summarised: in.Summarised}
		if in.Client != nil {
			ci.Client = in.Client.Name + " " + in.Client.Version
		}
		out = append(out, ci)
	}
	return out
}

// Records implements common.Source.
func (s *Source) Records(id string, from, to uint64) ([]*session.Record, error) {
	return s.h.Records(id, from, to)
}

// Delete implements common.Source: it removes the session's log and hides
// the session from then on (the hub keeps no delete of its own).
func (s *Source) Delete(id string) error {
	var log string
	for _, in := range s.h.Sessions() {
		if in.ID == id {
			log = in.Log
		}
	}
	if log != "" {
		if err := os.Remove(log); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("remove log %s: %w", log, err)
		}
	}
	s.mu.Lock()
	s.deleted[id] = true
	s.mu.Unlock()
	return nil
}
