package ui

import (
	"context"
	"fmt"
	"os"

	"github.com/mcpward/mcpward/internal/hub"
	"github.com/mcpward/mcpward/internal/replay"
	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/tui/common"
)

// logReplayer replays a request from the session's own log, exactly as
// `mcpward sessions replay --seq N` does: it finds the request and its
// start record there, reconnects to the recorded server and re-sends the
// recorded bytes.
type logReplayer struct {
	h       *hub.Hub
	version string
	environ func() []string
}

// Replay implements common.Replayer.
func (l logReplayer) Replay(ctx context.Context, rec, _ *session.Record) (common.ReplayResult, error) {
	path := ""
	for _, s := range l.h.Sessions() {
		if s.ID == rec.Session {
			path = s.Log
		}
	}
	if path == "" {
		return common.ReplayResult{}, fmt.Errorf("replay: the log of session %s is not known", rec.Session)
	}
	f, err := os.Open(path)
	if err != nil {
		return common.ReplayResult{}, fmt.Errorf("replay: %w", err)
	}
	defer f.Close()
	rc, err := replay.Find(f, replay.Selector{Seq: rec.Seq, Session: rec.Session})
	if err != nil {
		return common.ReplayResult{}, fmt.Errorf("replay seq %d: %w", rec.Seq, err)
	}
	out, err := replay.Run(ctx, rc, &replay.Options{ClientVersion: l.version, Environ: l.environ})
	if err != nil {
		return common.ReplayResult{}, err
	}
	return common.ReplayResult{Request: out.Request, Response: out.Response, Duration: out.Elapsed}, nil
}
