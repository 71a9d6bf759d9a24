package proxy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mcpward/mcpward/internal/session"
)

// roomWriter is a disk that fills up: it takes room more bytes (all if
// room < 0), the last write partly, then fails with ENOSPC until given
// room again.
type roomWriter struct {
	w    io.Writer
	room atomic.Int64
}

func (r *roomWriter) Write(p []byte) (int, error) {
	room := r.room.Load()
	if room < 0 {
		return r.w.Write(p)
	}
	k, err := r.w.Write(p[:min(int64(len(p)), room)])
	r.room.Add(-int64(k))
	if err == nil && k < len(p) {
		err = &os.PathError{Op: "write", Path: "log.jsonl", Err: syscall.ENOSPC}
	}
	return k, err
}

// roomFile is a roomWriter over a file, which the Log can truncate.
type roomFile struct {
	*roomWriter
	f *os.File
}

func (r roomFile) Seek(off int64, whence int) (int64, error) { return r.f.Seek(off, whence) }
func (r roomFile) Truncate(size int64) error                 { return r.f.Truncate(size) }

// A disk that fills up mid-line and empties again: no record is glued to
// the torn line (every line after the recovery parses), the records
// reported lost are exactly those missing from the file, and the user is
// told at once, in one line. Before the fix the first record after the
// recovery was glued to the torn line and destroyed, and the records of a
// failed write that had reached the file whole were counted lost anyway.
func TestLogDiskFullKeepsLineBoundary(t *testing.T) {
	t0 := time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)
	rec := func(i int) session.Record {
		r := frameRec(fmt.Sprintf(`{"i":%d,"pad":"%s"}`, i, strings.Repeat("x", 40+i%7)))
		r.Time = t0
		return r
	}
	// lineEnd is the length of the first k lines of the log.
	lineEnd := func(k int) int64 {
		n := 0
		for i := range k {
			r := rec(i)
			r.Seq, r.Session, r.Label = uint64(i+1), "S", "L"
			n += len(session.AppendRecord(nil, &r))
		}
		return int64(n)
	}
	const before, during, after = 50, 10, 20
	tests := []struct {
		name     string
		file     bool  // a file the Log can truncate, else a bare writer
		room     int64 // where the disk fills up
		problems int   // lines a reader must skip
	}{
		{"writer, full mid-line", false, lineEnd(17) + 23, 1},
		{"writer, full before a newline", false, lineEnd(17) - 1, 0},
		{"writer, full at a line end", false, lineEnd(17), 0},
		{"file, full mid-line", true, lineEnd(17) + 23, 0},
		{"file, full before a newline", true, lineEnd(17) - 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var out io.ReadWriter = &bytes.Buffer{}
				rw := &roomWriter{}
				var w io.Writer = rw
				if tt.file {
					f, err := os.Create(filepath.Join(t.TempDir(), "log.jsonl"))
					if err != nil {
						t.Fatal(err)
					}
					defer f.Close()
					out, w = f, roomFile{rw, f}
				}
				rw.w = out
				rw.room.Store(tt.room)
				var warn bytes.Buffer
				lg := NewLog(w, &LogOptions{Session: "S", Label: "L", Warn: &warn})
				settle := func() { time.Sleep(5 * flushEvery); synctest.Wait() }
				i := 0
				record := func(n int) {
					for range n {
						lg.Record(rec(i))
						i++
					}
					settle()
				}
				record(before) // fills the disk
				record(during) // all lost
				if got := strings.Count(warn.String(), "\n"); got != 1 || !strings.Contains(warn.String(), "lost so far") {
					t.Errorf("warnings while the disk is full = %q, want one line at once", warn.String())
				}
				rw.room.Store(-1)
				record(after)
				err := lg.Close()
				st := lg.Stats()

				if f, ok := out.(*os.File); ok {
					f.Seek(0, io.SeekStart)
				}
				rd := session.NewReader(out)
				present := map[int]bool{}
				var lostRecorded int64
				var lastSeq uint64
				for {
					r, err := rd.Next()
					if err == io.EOF {
						break
					}
					if err != nil {
						t.Fatal(err)
					}
					if r.Seq <= lastSeq {
						t.Errorf("seq %d after %d", r.Seq, lastSeq)
					}
					lastSeq = r.Seq
					if r.Kind == session.KindLost {
						var info struct{ Frames int64 }
						json.Unmarshal(r.Info, &info)
						lostRecorded += info.Frames
						continue
					}
					var fr struct{ I int }
					if err := json.Unmarshal(r.RawFrame, &fr); err != nil {
						t.Fatalf("seq %d: frame %q: %v", r.Seq, r.Frame, err)
					}
					present[fr.I] = true
				}
				if len(rd.Problems()) != tt.problems {
					t.Errorf("reader skipped %v, want %d line(s)", rd.Problems(), tt.problems)
				}
				for j := before + during; j < i; j++ {
					if !present[j] {
						t.Errorf("frame %d, written after the disk had room again, is not in the log", j)
					}
				}
				missing := int64(i - len(present))
				if st.Lost != missing || lostRecorded != missing {
					t.Errorf("%d frames missing from the log; Stats().Lost = %d, lost records say %d", missing, st.Lost, lostRecorded)
				}
				if missing == 0 || err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%d frames lost", missing)) {
					t.Errorf("Close() = %v, want %d frames lost", err, missing)
				}
				if written := st.Frames; written != int64(len(present))+1 { // the lost record
					t.Errorf("Stats().Frames = %d, want %d frames and a lost record", written, len(present))
				}
			})
		})
	}
}
