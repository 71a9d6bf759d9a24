package hub

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/sessionlog"
)

// maxLogRead bounds the records Records reads back from a log at once.
const maxLogRead = 100_000

// readChunk is how much of a log is read and decoded at a time.
const readChunk = 1 << 20

// A tracker knows every log the hub reads and how far it has read each.
// Its files are touched by New (backfill) and then by the poller only;
// wanted is filled by feed goroutines.
type tracker struct {
	h   *Hub
	dir string // the sessions folder ("" for none)

	files   map[string]*logFile
	ignored map[string]int64 // logs left out by History: path -> size

	mu     sync.Mutex
	wanted map[string]bool
}

type logFile struct {
	path string
	off  int64 // bytes read: always at a line start
}

func newTracker(h *Hub, dir string) *tracker {
	return &tracker{h: h, dir: dir, files: map[string]*logFile{}, ignored: map[string]int64{}, wanted: map[string]bool{}}
}

// want asks the poller to look at a log now (a feed reported a gap or
// went away).
func (t *tracker) want(path string) {
	if path == "" {
		return
	}
	t.mu.Lock()
	t.wanted[path] = true
	t.mu.Unlock()
	select {
	case t.h.poke <- struct{}{}:
	default:
	}
}

type dirLog struct {
	path  string
	size  int64
	mtime time.Time
}

func (t *tracker) list() ([]dirLog, error) {
	if t.dir == "" {
		return nil, nil
	}
	ents, err := os.ReadDir(t.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("hub: list sessions: %w", err)
	}
	out := make([]dirLog, 0, len(ents))
	for _, e := range ents {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".jsonl") {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue // removed meanwhile
		}
		out = append(out, dirLog{filepath.Join(t.dir, e.Name()), info.Size(), info.ModTime()})
	}
	return out, nil
}

// backfill reads the newest n logs (all if n is 0), oldest first, and
// remembers the others so that they are read if they grow.
func (t *tracker) backfill(n int) error {
	logs, err := t.list()
	if err != nil {
		return err
	}
	slices.SortFunc(logs, func(a, b dirLog) int {
		return cmp.Or(b.mtime.Compare(a.mtime), cmp.Compare(b.path, a.path))
	})
	if n > 0 && len(logs) > n {
		for _, l := range logs[n:] {
			t.ignored[l.path] = l.size
		}
		logs = logs[:n]
	}
	slices.Reverse(logs)
	for _, l := range logs {
		f := &logFile{path: l.path}
		t.files[l.path] = f
		t.read(f)
	}
	return nil
}

func (h *Hub) poll() {
	defer h.wg.Done()
	tick := time.NewTicker(h.opts.PollInterval)
	defer tick.Stop()
	for {
		select {
		case <-h.closed:
			return
		case <-tick.C:
		case <-h.poke:
		}
		h.files.cycle()
	}
}

// cycle picks up new logs, reads logs that grew and have no live feed,
// and reads logs whose feed reported records it dropped.
func (t *tracker) cycle() {
	logs, _ := t.list() // an unreadable folder is tried again next time
	for _, l := range logs {
		if _, ok := t.files[l.path]; ok {
			continue
		}
		if size, ok := t.ignored[l.path]; ok {
			if size == l.size {
				continue
			}
			delete(t.ignored, l.path) // an old log that came back to life
		}
		t.files[l.path] = &logFile{path: l.path}
	}
	t.mu.Lock()
	wanted := t.wanted
	t.wanted = map[string]bool{}
	t.mu.Unlock()
	for p := range wanted {
		if _, ok := t.files[p]; !ok {
			t.files[p] = &logFile{path: p} // a --trace-file outside the folder
		}
	}
	fed, fill := t.h.feedState()
	for p, f := range t.files {
		if fed[p] && !fill[p] && !wanted[p] {
			continue // its proxy sends everything live
		}
		t.read(f)
	}
	if len(fill) > 0 {
		t.h.settleWanted()
	}
}

// feedState returns, per log path, whether a proxy feeds it live and
// whether a feed reported records that are still to be read from it.
func (h *Hub) feedState() (fed, fill map[string]bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	fed, fill = map[string]bool{}, map[string]bool{}
	for _, s := range h.sessions {
		if s.log == "" {
			continue
		}
		if s.feeds > 0 {
			fed[s.log] = true
		}
		if len(s.wanted.r) > 0 {
			fill[s.log] = true
		}
	}
	return fed, fill
}

// settleWanted forgets gap reports that the log reads have filled.
func (h *Hub) settleWanted() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, s := range h.sessions {
		if len(s.wanted.r) > 0 && s.seen.covers(&s.wanted) {
			s.wanted = seqSet{}
		}
	}
}

// read ingests the complete lines of f past its offset. A torn last line
// (a writer in the middle of a line, or killed there) is left for later.
func (t *tracker) read(f *logFile) {
	fh, err := os.Open(f.path)
	if err != nil {
		return // removed or not yet readable: tried again next time
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return
	}
	if st.Size() < f.off {
		f.off = 0 // truncated or replaced: read again, dedup drops repeats
	}
	if st.Size() == f.off {
		return
	}
	if _, err := fh.Seek(f.off, io.SeekStart); err != nil {
		return
	}
	buf := make([]byte, 0, readChunk)
	batch := make([]*session.Record, 0, 1024)
	for {
		if len(buf) == cap(buf) {
			if len(buf) > session.MaxLine {
				// One line longer than any record: skip it whole.
				t.h.problem(f.path, 1)
				f.off += int64(len(buf))
				buf = buf[:0]
			} else {
				buf = slices.Grow(buf, len(buf))
			}
		}
		n, err := fh.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if end := bytes.LastIndexByte(buf, '\n'); end >= 0 {
			// An mcpsnoop log (its state directory given as --state-dir)
			// is read as mcpward records.
			r := session.NewReader(sessionlog.NormalizeBytes(buf[:end+1]))
			for {
				rec, rerr := r.Next()
				if rerr != nil {
					break
				}
				batch = append(batch, rec)
				if len(batch) == cap(batch) {
					t.h.ingest(batch, f.path)
					batch = batch[:0]
				}
			}
			t.h.problem(f.path, int64(r.Skipped()))
			f.off += int64(end + 1)
			buf = buf[:copy(buf, buf[end+1:])]
		}
		if err != nil {
			break
		}
	}
	t.h.ingest(batch, f.path)
}

func (h *Hub) problem(path string, n int64) {
	if n == 0 {
		return
	}
	h.mu.Lock()
	h.problems[path] += n
	h.mu.Unlock()
}

// readRange reads the records of one session with from <= seq <= to from
// a log, at most limit of them.
func readRange(path, sessionID string, from, to uint64, limit int) ([]*session.Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read back %s: %w", path, err)
	}
	defer f.Close()
	r := session.NewReader(sessionlog.Normalize(f))
	var out []*session.Record
	for len(out) < limit {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return out, fmt.Errorf("read back %s: %w", path, err)
		}
		if rec.Session == sessionID && rec.Seq >= from && rec.Seq <= to {
			out = append(out, rec)
		}
	}
	return out, nil
}
