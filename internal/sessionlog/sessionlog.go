// Package sessionlog reads the session logs of the state directory (see
// session.Layout): listing them, matching a log's name with a session id
// or label, and reading a log record by record with its line numbers. The
// `mcpward sessions` verbs and the live view share it.
//
// mcpsnoop's logs are read as they are: [Detect] tells the format from the
// first record, the one place it is decided, and [ReadFrom] and
// [Normalize] convert each line with internal/migrate/mcpsnoop.
package sessionlog

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/inputfile"
	"github.com/mcpward/mcpward/internal/migrate/mcpsnoop"
	"github.com/mcpward/mcpward/internal/session"
)

// A File is one log file in the sessions folder.
type File struct {
	Path    string
	Size    int64
	ModTime time.Time
}

// List returns the *.jsonl files of dir, oldest name first (session ids
// sort by start time). A missing dir is an empty list.
func List(dir string) ([]File, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fault.Input(fmt.Errorf("list session logs: %w", err))
	}
	var out []File
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".jsonl") {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		out = append(out, File{Path: filepath.Join(dir, e.Name()), Size: info.Size(), ModTime: info.ModTime()})
	}
	slices.SortFunc(out, func(a, b File) int { return strings.Compare(filepath.Base(a.Path), filepath.Base(b.Path)) })
	return out, nil
}

// Name splits a log file name "<label>-<id>.jsonl" into its label and
// session id (a name without a '-' is all id). mcpsnoop's names,
// "<label>-<pid>-<12 hex>.jsonl", are all id (its session ids are the
// whole name) with the label before the pid.
func Name(path string) (label, id string) {
	stem := strings.TrimSuffix(filepath.Base(path), ".jsonl")
	if l, ok := mcpsnoop.Label(stem); ok {
		return l, stem
	}
	if i := strings.LastIndexByte(stem, '-'); i >= 0 {
		return stem[:i], stem[i+1:]
	}
	return "", stem
}

// Matches compares a log file name "<label>-<id>.jsonl" with an id (or id
// prefix, or the label) and a label; an empty id or label matches any.
func Matches(path, id, label string) bool {
	fLabel, fID := Name(path)
	if label != "" && fLabel != label {
		return false
	}
	if id != "" && !strings.HasPrefix(fID, id) && fLabel != id {
		return false
	}
	return true
}

// lineFeeder hands the session reader one line per Read, so that after
// each record the lines it consumed are known exactly.
type lineFeeder struct {
	br      *bufio.Reader
	pending []byte // bytes of the current chunk not handed out yet
	perr    error
	lines   int
	partial bool
}

func (l *lineFeeder) Read(p []byte) (int, error) {
	if len(l.pending) == 0 {
		if l.perr != nil {
			return 0, l.perr
		}
		chunk, err := l.br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			err = nil
		}
		l.pending, l.perr = chunk, err
		if len(chunk) == 0 {
			l.perr = nil
			return 0, err
		}
	}
	n := copy(p, l.pending)
	l.pending = l.pending[n:]
	if n > 0 {
		if p[n-1] == '\n' {
			l.lines++
			l.partial = false
		} else {
			l.partial = true
		}
	}
	if len(l.pending) == 0 && l.perr != nil {
		err := l.perr
		l.perr = nil
		return n, err
	}
	return n, nil
}

// line is the 1-based line of the record the reader returned last.
func (l *lineFeeder) line() int {
	if l.partial {
		return l.lines + 1
	}
	return l.lines
}

// Read streams every record of the log at path to add, with its line, and
// returns the lines it skipped (torn or corrupt) and how many. An
// unreadable file is an input error (exit 4).
func Read(path string, add func(rec *session.Record, line int)) ([]session.LineError, int, error) {
	return ReadContext(context.Background(), path, add)
}

// ReadContext is [Read] that stops when ctx ends, also on a FIFO that
// never gets a writer or never ends; a device or a directory is refused.
func ReadContext(ctx context.Context, path string, add func(rec *session.Record, line int)) ([]session.LineError, int, error) {
	fh, err := inputfile.Open(ctx, path)
	if err != nil {
		if ctx.Err() != nil {
			return nil, 0, fmt.Errorf("read session log %s: %w", path, ctx.Err())
		}
		return nil, 0, fault.Input(fmt.Errorf("read session log: %w", err))
	}
	defer fh.Close()
	problems, skipped, err := ReadFrom(fh, path, add)
	if err != nil && ctx.Err() != nil {
		return problems, skipped, fmt.Errorf("read session log %s: %w", path, ctx.Err())
	}
	return problems, skipped, err
}

// ReadFrom is Read over any reader (name is for messages). The format is
// told from the first record: mcpward's own, or an mcpsnoop log, whose
// records are converted as they are read (internal/migrate/mcpsnoop).
func ReadFrom(r io.Reader, name string, add func(rec *session.Record, line int)) ([]session.LineError, int, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	if Detect(br) == FormatMcpsnoop {
		return readMcpsnoop(br, name, add)
	}
	lf := &lineFeeder{br: br}
	sr := session.NewReader(lf)
	for {
		rec, err := sr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return sr.Problems(), sr.Skipped(), fault.Input(fmt.Errorf("read session log %s: %w", name, err))
		}
		add(rec, lf.line())
	}
	return sr.Problems(), sr.Skipped(), nil
}
