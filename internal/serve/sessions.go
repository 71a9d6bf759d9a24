package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/mcpward/mcpward/internal/calls"
	"github.com/mcpward/mcpward/internal/hub"
	"github.com/mcpward/mcpward/internal/sessionexport"
)

// SessionRow is one session of GET /api/sessions.
type SessionRow struct {
	ID        string `json:"id"`
	Label     string `json:"label"`
	Transport string `json:"transport"`
	Client    string `json:"client,omitempty"`
	Server    string `json:"server,omitempty"`
	Live      bool   `json:"live"`
	Exited    bool   `json:"exited"`
	Requests  int64  `json:"requests"`
	Responses int64  `json:"responses"`
	Notifs    int64  `json:"notifications"`
	// Frames and Errors are the session's counts as every other surface
	// gives them (calls.Session: wire frames; the error signal).
	Frames   int64     `json:"frames"`
	Errors   int64     `json:"errors"`
	Stderr   int64     `json:"stderr"`
	Records  int64     `json:"records"`
	Missing  int64     `json:"missing"`
	Problems int64     `json:"problems"`
	First    time.Time `json:"first"`
	Last     time.Time `json:"last"`
}

// counts follows each hub session through a correlation store of its own,
// so that its frames and errors are counted where every other surface
// counts them (calls.Session), not by the hub's quick classification. A
// session is fed the records it has not seen yet on each listing.
type counts struct {
	mu       sync.Mutex
	sessions map[string]*counted
}

type counted struct {
	store *calls.Store
	next  uint64 // the lowest seq not fed yet
}

// of returns the frames and errors of every session in infos, and forgets
// the sessions the hub no longer lists.
func (c *counts) of(h *hub.Hub, infos []hub.SessionInfo) (frames, errs map[string]int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sessions == nil {
		c.sessions = map[string]*counted{}
	}
	frames, errs = map[string]int64{}, map[string]int64{}
	listed := map[string]bool{}
	for _, in := range infos {
		listed[in.ID] = true
		cs := c.sessions[in.ID]
		if cs == nil {
			cs = &counted{store: calls.New(nil), next: 1}
			c.sessions[in.ID] = cs
		}
		// Records reads back at most a bounded number from the log at a
		// time: a long log is caught up over a few listings.
		if recs, err := h.Records(in.ID, cs.next, 0); err == nil {
			for _, r := range recs {
				cs.store.Add(r, 0)
				cs.next = r.Seq + 1
			}
		}
		if ss, ok := cs.store.Session(in.ID); ok {
			frames[in.ID], errs[in.ID] = ss.Frames, ss.Errors
		}
	}
	for id := range c.sessions {
		if !listed[id] {
			delete(c.sessions, id)
		}
	}
	return frames, errs
}

func peer(p *hub.Peer) string {
	if p == nil {
		return ""
	}
	if p.Version != "" {
		return p.Name + " " + p.Version
	}
	return p.Name
}

func (s *Server) sessions(w http.ResponseWriter, r *http.Request) {
	rows := []SessionRow{}
	if h := s.opts.Hub; h != nil {
		infos := h.Sessions()
		frames, errs := s.counts.of(h, infos)
		for _, in := range infos {
			rows = append(rows, SessionRow{
				ID: in.ID, Label: in.Label, Transport: string(in.Transport), Client: peer(in.Client), Server: peer(in.Server),
				Live: in.Live, Exited: in.Exited, Requests: in.Requests, Responses: in.Responses, Notifs: in.Notifications,
				Frames: frames[in.ID], Errors: errs[in.ID], Stderr: in.Stderr, Records: in.Records, Missing: in.Missing, Problems: in.Problems,
				First: in.First, Last: in.Last,
			})
		}
	}
	// Newest activity first, as a person looks for the session they just ran.
	slices.SortStableFunc(rows, func(a, b SessionRow) int { return b.Last.Compare(a.Last) })
	writeJSON(w, http.StatusOK, map[string]any{"sessions": rows})
}

// sessionExport answers the session's JSON export (the document the HTML
// session report is built from), with the traffic rules' findings, over
// every record the hub holds or reads back from the log.
func (s *Server) sessionExport(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	h := s.opts.Hub
	var log string
	found := false
	if h != nil {
		for _, in := range h.Sessions() {
			if in.ID == id {
				found, log = true, in.Log
				break
			}
		}
	}
	if !found {
		writeError(w, http.StatusNotFound, "no_session", fmt.Sprintf("no session %q", id))
		return
	}
	recs, err := h.Records(id, 0, 0)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "read_session", fmt.Sprintf("read session %s: %v", id, err))
		return
	}
	if log == "" {
		log = id
	}
	var buf bytes.Buffer
	x, err := sessionexport.New(&buf, &sessionexport.Options{Format: "json", SessionID: id, Version: s.opts.Version, Check: true, Log: log})
	if err != nil {
		writeError(w, http.StatusInternalServerError, "export", err.Error())
		return
	}
	for _, rec := range recs {
		x.Add(rec, 0)
	}
	if err := x.Finish(nil, 0); err != nil {
		writeError(w, http.StatusInternalServerError, "export", err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(buf.Bytes())
}

// eventPace is the least time between two events of one stream: records
// arriving meanwhile are announced together.
const eventPace = 250 * time.Millisecond

// eventStream announces, as Server-Sent Events, which sessions received
// records: event "records", data {"sessions": [ids…], "records": n}. The
// page then fetches what it shows again.
func (s *Server) eventStream(w http.ResponseWriter, r *http.Request) {
	h := s.opts.Hub
	if h == nil {
		writeError(w, http.StatusNotFound, "no_hub", "sessions are not served")
		return
	}
	select {
	case s.events <- struct{}{}:
		defer func() { <-s.events }()
	default:
		w.Header().Set("Retry-After", "5")
		writeError(w, http.StatusServiceUnavailable, "too_many_streams", fmt.Sprintf("more than %d event streams are open", maxEventStreams))
		return
	}
	fl, ok := w.(http.Flusher)
	if !ok {
		writeError(w, http.StatusInternalServerError, "no_streaming", "the connection cannot stream")
		return
	}
	sub := h.Subscribe()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodHead {
		return
	}
	fmt.Fprint(w, "retry: 2000\nevent: hello\ndata: {}\n\n")
	fl.Flush()
	ctx := r.Context()
	for {
		b, err := sub.Next(ctx)
		if errors.Is(err, hub.ErrClosed) || errors.Is(err, context.Canceled) || ctx.Err() != nil {
			return
		}
		if err != nil {
			return
		}
		seen := map[string]bool{}
		ids := []string{}
		for _, rec := range b.Records {
			if !seen[rec.Session] {
				seen[rec.Session] = true
				ids = append(ids, rec.Session)
			}
		}
		data, _ := json.Marshal(map[string]any{"sessions": ids, "records": len(b.Records), "skipped": b.Skipped})
		if _, err := fmt.Fprintf(w, "event: records\ndata: %s\n\n", data); err != nil {
			return
		}
		fl.Flush()
		t := time.NewTimer(eventPace)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
}
