// Package memsource is an in-memory common.Source: records pushed from any
// goroutine are delivered coalesced to the one consumer. Tests, the
// benchmark and `mcpward demo --ui` use it; `mcpward ui` uses the hub.
package memsource

import (
	"context"
	"io"
	"slices"
	"sync"

	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/tui/common"
)

// Source holds pushed records until Next takes them. It keeps per-session
// counters only (not the records), unless Keep is set. Without Keep
// nothing owns the records once delivered (the store's rows hold only
// weak references), which suits benchmarks but not a view that inspects
// frames.
type Source struct {
	mu      sync.Mutex
	pending []*session.Record
	wake    chan struct{}
	infos   map[string]*common.SessionInfo
	kept    map[string][]*session.Record
	closed  bool
	// Keep makes Records answer from every pushed record (tests, demo).
	Keep bool
}

// New returns an empty Source.
func New(keep bool) *Source {
	return &Source{wake: make(chan struct{}, 1), infos: map[string]*common.SessionInfo{}, kept: map[string][]*session.Record{}, Keep: keep}
}

// Push adds records; safe for concurrent use.
func (s *Source) Push(recs ...*session.Record) {
	s.mu.Lock()
	s.pending = append(s.pending, recs...)
	for _, r := range recs {
		in := s.infos[r.Session]
		if in == nil {
			in = &common.SessionInfo{ID: r.Session, Label: r.Label, Transport: r.Transport, First: r.Time, Live: !s.closed}
			s.infos[r.Session] = in
		}
		if r.Dir == session.Meta && r.Kind == session.KindExit {
			in.Exited = true
		}
		in.Records++
		in.Last = r.Time
		switch r.Dir {
		case session.ClientToServer:
			in.Requests++
		case session.ServerToClient:
			in.Responses++
		}
		if s.Keep {
			s.kept[r.Session] = append(s.kept[r.Session], r)
		}
	}
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// SetClient names a session's client in Sessions.
func (s *Source) SetClient(id, client string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if in := s.infos[id]; in != nil {
		in.Client = client
	}
}

// Close says that no more records will be pushed: every session is no
// longer live, and Next returns io.EOF once drained.
func (s *Source) Close() {
	s.mu.Lock()
	s.closed = true
	for _, in := range s.infos {
		in.Live = false
	}
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// Next implements common.Source.
func (s *Source) Next(ctx context.Context) (common.Batch, error) {
	for {
		s.mu.Lock()
		if len(s.pending) > 0 {
			b := common.Batch{Records: s.pending}
			s.pending = nil
			s.mu.Unlock()
			return b, nil
		}
		closed := s.closed
		s.mu.Unlock()
		if closed {
			return common.Batch{}, io.EOF
		}
		select {
		case <-s.wake:
		case <-ctx.Done():
			return common.Batch{}, ctx.Err()
		}
	}
}

// Sessions implements common.Source.
func (s *Source) Sessions() []common.SessionInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]common.SessionInfo, 0, len(s.infos))
	for _, in := range s.infos {
		out = append(out, *in)
	}
	slices.SortFunc(out, func(a, b common.SessionInfo) int { return a.First.Compare(b.First) })
	return out
}

// Records implements common.Source.
func (s *Source) Records(id string, from, to uint64) ([]*session.Record, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*session.Record
	for _, r := range s.kept[id] {
		if r.Seq >= from && (to == 0 || r.Seq <= to) {
			out = append(out, r)
		}
	}
	return out, nil
}

// Delete implements common.Source.
func (s *Source) Delete(id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.infos, id)
	delete(s.kept, id)
	return nil
}
