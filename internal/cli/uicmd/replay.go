package uicmd

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/mcpward/mcpward/internal/atomicfile"
	"github.com/mcpward/mcpward/internal/hub"
	"github.com/mcpward/mcpward/internal/replay"
	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/sessionexport"
	"github.com/mcpward/mcpward/internal/sessionlog"
	"github.com/mcpward/mcpward/internal/tui/common"
)

// A logIndex names the log file a session is read from ("" if unknown):
// the hub's (hubLogs) or the files given on the command line.
type logIndex func(sessionID string) string

// logExporter writes a session in a report format from its log, with
// the code of `mcpward sessions export`.
type logExporter struct {
	logOf   logIndex
	version string
}

// Export implements common.Exporter.
func (l logExporter) Export(sessionID, format, path string) error {
	log := l.logOf(sessionID)
	if log == "" {
		return fmt.Errorf("the log of session %s is not known", sessionID)
	}
	return exportFile(log, sessionID, format, path, l.version)
}

// exportFile exports one session of the log at logPath to the file out,
// in format, atomically.
func exportFile(logPath, sessionID, format, out, version string) error {
	if err := sessionexport.CheckFormat(format); err != nil {
		return err
	}
	return atomicfile.WriteFunc(out, 0o600, func(w io.Writer) error {
		x, err := sessionexport.New(w, &sessionexport.Options{Format: format, SessionID: sessionID, Version: version, Log: logPath})
		if err != nil {
			return err
		}
		problems, skipped, err := sessionlog.Read(logPath, x.Add)
		if err != nil {
			return err
		}
		return x.Finish(problems, skipped)
	})
}

// hubLogs returns the log file of a session the hub knows, or "".
func hubLogs(h *hub.Hub) logIndex {
	return func(sessionID string) string {
		for _, s := range h.Sessions() {
			if s.ID == sessionID {
				return s.Log
			}
		}
		return ""
	}
}

// logReplayer replays a request from the session's own log, exactly as
// `mcpward sessions replay --seq N` does: it finds the request and its
// start record there, reconnects to the recorded server and re-sends the
// recorded bytes.
type logReplayer struct {
	logOf   logIndex
	version string
	environ func() []string
}

// Replay implements common.Replayer.
func (l logReplayer) Replay(ctx context.Context, rec, _ *session.Record) (common.ReplayResult, error) {
	path := l.logOf(rec.Session)
	if path == "" {
		return common.ReplayResult{}, fmt.Errorf("replay: the log of session %s is not known", rec.Session)
	}
	f, err := os.Open(path)
	if err != nil {
		return common.ReplayResult{}, fmt.Errorf("replay: %w", err)
	}
	defer f.Close()
	rc, err := replay.Find(sessionlog.Normalize(f), replay.Selector{Seq: rec.Seq, Session: rec.Session})
	if err != nil {
		return common.ReplayResult{}, fmt.Errorf("replay seq %d: %w", rec.Seq, err)
	}
	out, err := replay.Run(ctx, rc, &replay.Options{ClientVersion: l.version, Environ: l.environ})
	if err != nil {
		return common.ReplayResult{}, err
	}
	return common.ReplayResult{Request: out.Request, Response: out.Response, Duration: out.Elapsed}, nil
}
