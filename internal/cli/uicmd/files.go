package uicmd

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/plural"
	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/sessionlog"
	"github.com/mcpward/mcpward/internal/tui"
	"github.com/mcpward/mcpward/internal/tui/common"
	"github.com/mcpward/mcpward/internal/tui/memsource"
)

// A fileSource is the view's source for the logs named on the command line
// (`mcpward ui FILE…`, mcpsnoop's `open`): every session of every file,
// read once at start and held in memory; nothing live, no hub. Logs are
// read in any format sessionlog reads (mcpward's, mcpsnoop's).
type fileSource struct {
	*memsource.Source
	logs map[string]string // session id → the file it was read from
}

// openFiles reads the logs at paths. Lines that are not records are
// skipped and reported on warn; a file that cannot be read, or holds no
// record at all, is an input error.
func openFiles(paths []string, warn io.Writer) (*fileSource, error) {
	src := &fileSource{Source: memsource.New(true), logs: map[string]string{}}
	for _, p := range paths {
		var recs []*session.Record
		dup := map[string]bool{}
		problems, skipped, err := sessionlog.Read(p, func(r *session.Record, _ int) {
			switch from, ok := src.logs[r.Session]; {
			case !ok:
				src.logs[r.Session] = p
			case from != p:
				// The same session in two files (a log and its copy):
				// shown once, from the first.
				if !dup[r.Session] {
					dup[r.Session] = true
					fmt.Fprintf(warn, "mcpward: warning: %s: session %s was read from %s already; skipped\n", p, r.Session, from)
				}
				return
			}
			recs = append(recs, r)
		})
		if err != nil {
			return nil, err
		}
		for i := range problems {
			fmt.Fprintf(warn, "mcpward: warning: %s: %v\n", p, &problems[i])
		}
		if skipped > len(problems) {
			fmt.Fprintf(warn, "mcpward: warning: %s: %d more %s skipped\n", p, skipped-len(problems), plural.Of(skipped-len(problems), "line", "lines"))
		}
		if len(recs) == 0 && len(dup) == 0 {
			return nil, fault.Input(fmt.Errorf("%s: no session records in it (not a session log?)", p))
		}
		src.Push(recs...)
	}
	// Finished logs: nothing more comes, no session is live.
	src.Close()
	return src, nil
}

// Sessions implements common.Source: each session names its file.
func (s *fileSource) Sessions() []common.SessionInfo {
	infos := s.Source.Sessions()
	for i := range infos {
		infos[i].Log = s.logs[infos[i].ID]
	}
	return infos
}

// Delete implements common.Source. A file the user named is not deleted
// from the view (mcpsnoop's ctrl-d "deleted" such a session while its file
// stayed).
func (s *fileSource) Delete(id string) error {
	return fmt.Errorf("session %s was opened from %s: the view does not delete files it was given", id, s.logs[id])
}

func (s *fileSource) logOf(id string) string { return s.logs[id] }

// filesRun shows the logs in opts.Files.
func filesRun(ctx context.Context, opts *UIOptions) error {
	for _, p := range opts.Files {
		// Before the terminal check: a mistyped name is said as such.
		if _, err := os.Stat(p); err != nil {
			return fault.Input(fmt.Errorf("session log %s: %w", p, unwrapPath(err)))
		}
	}
	if err := tui.NeedTerminal(opts.IO); err != nil {
		return err
	}
	src, err := openFiles(opts.Files, opts.IO.ErrOut)
	if err != nil {
		return err
	}
	return Run(ctx, opts, src, logReplayer{logOf: src.logOf, version: opts.Version, environ: opts.Environ},
		logExporter{logOf: src.logOf, version: opts.Version})
}

// unwrapPath drops a *PathError's repetition of the path.
func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}
