package proxy

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/mcpward/mcpward/internal/plural"
	"github.com/mcpward/mcpward/internal/session"
)

// A Recorder receives the frames the relays observed. The relays call it
// with the frames of one read in one call, before that read is forwarded:
// the call is the read's stamp in the order of the wire. A Log numbers
// the records of a call under the lock every relay shares (both stdio
// directions, every HTTP exchange), so a frame that answers another, read
// only after the other was forwarded, always gets the higher seq, and the
// file order is the causal order. The stamp is per read, not per line: a
// relay that forwards bytes it never sees (splice) would reserve its place
// in the same way before forwarding, and have the lines cut later.
//
// Record copies the records it is given (the caller may reuse the slice)
// and takes ownership of their Frame bytes (the caller must not touch them
// again). It assigns Seq, Session and Label. It may block while the
// recorder is behind (backpressure) but never drops a frame silently.
// Record and Close are safe for concurrent use; Record must not be called
// after Close.
type Recorder interface {
	Record(recs ...session.Record)
	Close() error
}

// DefaultQueueBytes bounds the bytes a Log holds between the relays and
// the disk: 64 MiB.
const DefaultQueueBytes = 64 << 20

// recordOverhead is added to each record's frame size when accounting the
// queue, so that a flood of tiny frames is bounded too.
const recordOverhead = 256

// LogOptions configure a Log. The zero value is usable.
type LogOptions struct {
	// Session and Label are written into every record.
	Session, Label string
	// Now stamps records the relay left without a time.
	Now func() time.Time
	// QueueBytes bounds the memory between relays and the writer
	// (DefaultQueueBytes if 0). When it is full, Record waits: the pipe
	// slows down to disk speed rather than losing frames.
	QueueBytes int64
	// Filter, if set, runs on the writer goroutine on each record before it
	// is encoded: the place for redaction, which must never run on the
	// relay path. It may change the record (Frame included).
	Filter func(*session.Record)
	// Feed, if set, is called on the writer goroutine with each record as
	// written (after Filter): the hook for a live view. It must not block
	// for long and must not keep rec.Frame beyond the call without copying.
	Feed func(rec *session.Record)
	// FeedLine is Feed for a consumer that wants the record as encoded in
	// the log: line holds the pieces of the line as written (they
	// concatenate to one JSONL line), so it is not encoded a second time.
	// The same contract holds (no blocking, copy to keep).
	FeedLine func(rec *session.Record, line [][]byte)
	// Export, if set, is called like Feed, after it: the hook of the live
	// OTLP exporter. The same contract holds (no blocking, copy to keep).
	Export func(rec *session.Record)
	// Warn, if set, is told at once when records are being lost (the disk
	// is full): one line, at most every warnEvery, written by the writer
	// goroutine (the shim's stderr).
	Warn io.Writer
}

// LogStats are a Log's counts.
type LogStats struct {
	Frames int64 // records written
	Lost   int64 // records that could not be written
	Bytes  int64 // bytes written
}

// A Log is the Recorder that writes a session log. Seq numbers are
// assigned under the same lock that enqueues the record, so the file holds
// records in strictly increasing seq order on every transport, concurrent
// HTTP included; since the relays record a read before forwarding it, seq
// order is also the order of the wire (see [Recorder]). Encoding (one validation pass per frame) and writing run
// on the Log's own goroutine, off the relay path, with memory bounded by
// QueueBytes.
//
// A write that fails (disk full) does not stop the Log: the records of
// that write that did not reach the file whole are counted as lost, later
// writes are tried again, and a "lost" meta record with the counts is
// written as soon as the disk accepts data again. A write that stopped
// mid-line does not leave its torn line for the next record to be glued
// to: a file is truncated back to the last whole line; on another writer
// the next write starts with a newline, which leaves the torn piece on a
// line of its own (a reader skips it and reports it).
type Log struct {
	w    io.Writer
	opts LogOptions
	// pool keeps the buffers of the relays that record into the Log; the
	// writer ends each lease once its records are written and every hook
	// has seen them (the hooks copy what they keep).
	pool *bufferPool

	mu      sync.Mutex
	notFull sync.Cond
	// kick wakes the writer early (queue filling up, or Close); otherwise
	// it wakes every flushEvery. Waking it per frame would put a futex
	// wake-up and a context switch on the relay path of every frame.
	kick chan struct{}
	// q holds the queued records as the batches they came in (a relay's
	// batch is one read's lines): a batch is handed over whole, not
	// copied record by record (a record is ~370 bytes, so at 100-byte
	// frames that copy moved 3.7 bytes per byte relayed).
	q []batch
	// spare holds emptied line batches for the relays to fill again.
	spare  [][]line
	leases []seqLease // of the records in q, in seq order
	qBytes int64
	seq    uint64
	closed bool
	done   chan struct{}

	// Written by the writer goroutine; read after done or under mu.
	stats     LogStats
	pendLost  int64 // lost frames not yet reported by a lost record
	pendLostB int64
	lastErr   error
	firstErr  error
	// torn is set when the file ends in the middle of a line that could
	// not be cut off: the next write starts with a newline. tornWhole is
	// the size of a record torn just before its newline, so that the
	// newline makes it whole: it is counted once that newline is written.
	torn      bool
	tornWhole int64
	lastWarn  time.Time // of the last line to Warn
}

// NewLog starts a Log writing to w. Close must be called to flush it.
// A nil w writes nothing (--no-trace) but still runs Filter, Feed and
// Export on every record, so a live view or export needs no file.
func NewLog(w io.Writer, opts *LogOptions) *Log {
	l := &Log{w: w, done: make(chan struct{}), kick: make(chan struct{}, 1)}
	if opts != nil {
		l.opts = *opts
	}
	if l.opts.Now == nil {
		l.opts.Now = time.Now
	}
	if l.opts.QueueBytes <= 0 {
		l.opts.QueueBytes = DefaultQueueBytes
	}
	// What waits in the queue is lent out; more is in the relays' hands
	// (the buffers being read into, the pieces of a long line).
	l.pool = newBufferPool(int(l.opts.QueueBytes) + 16<<20)
	l.notFull.L = &l.mu
	go l.run()
	return l
}

// A logRecorder is a Log, or a type that embeds one (the CLI's
// recording.Recording): a relay feeding it lends it its buffers.
type logRecorder interface{ sessionLog() *Log }

func (l *Log) sessionLog() *Log { return l }

func recSize(r *session.Record) int64 { return int64(len(r.Frame)) + recordOverhead }

// A line is one frame of a relay's batch: its bytes (a slice of a read
// buffer, or a joined frame), its size as it travelled, and whether it
// ended without "\n".
type line struct {
	frame []byte
	size  int64
	noEOL bool
}

// A batch is what the Log queues: the records of one Record call, or the
// lines of one relay read, which share a time, direction and transport
// and become records one at a time on the writer goroutine. A line is 40
// bytes where a session.Record is about 370: at 100-byte frames, growing,
// clearing and scanning batches of records for the GC took about a third
// of the logging shim's CPU (bench/README.md).
type batch struct {
	recs      []session.Record // nil for a relay's batch
	lines     []line
	first     uint64 // the seq of lines[0]
	time      time.Time
	dir       session.Direction
	transport session.Transport
}

func (b *batch) len() int { return len(b.recs) + len(b.lines) }

// lineRecord is line i of a relay's batch as a record, without its seq.
func (b *batch) lineRecord(i int) session.Record {
	ln := &b.lines[i]
	return session.Record{
		Time: b.time, Dir: b.dir, Transport: b.transport,
		Frame: ln.frame, HasFrame: true, Size: ln.size, NoEOL: ln.noEOL,
		Truncated: ln.size > int64(len(ln.frame)),
	}
}

// at returns record i of b: in recs, or line i made a record in scratch.
func (b *batch) at(i int, scratch *session.Record) *session.Record {
	if b.recs != nil {
		return &b.recs[i]
	}
	*scratch = b.lineRecord(i)
	scratch.Seq = b.first + uint64(i)
	return scratch
}

// release lets go of the frames of records from up to to.
func (b *batch) release(from, to int) {
	if b.recs != nil {
		clear(b.recs[from:to])
	} else {
		clear(b.lines[from:to])
	}
}

// A seqLease ends once the record with seq is written.
type seqLease struct {
	seq   uint64
	lease *lease
}

// Record implements Recorder. The records are copied; recs is the
// caller's again when Record returns.
func (l *Log) Record(recs ...session.Record) {
	if len(recs) == 0 {
		return
	}
	l.enqueue(nil, batch{recs: slices.Clone(recs)}, false)
}

// recordBatch queues a relay's batch, whose lines point into the buffers
// of ls (which ends once they are all written), and returns empty lines
// to fill next: b.lines is the Log's until it is written. If the Log
// closes first, ls never ends and its buffers are left to the GC.
func (l *Log) recordBatch(ls *lease, b batch) []line {
	if len(b.lines) == 0 {
		return b.lines
	}
	return l.enqueue(ls, b, true)
}

// maxSpare bounds the emptied batches the Log keeps for reuse.
const maxSpare = 64

// spareLocked returns emptied lines, or nil.
func (l *Log) spareLocked() []line {
	n := len(l.spare)
	if n == 0 {
		return nil
	}
	b := l.spare[n-1]
	l.spare[n-1] = nil
	l.spare = l.spare[:n-1]
	return b
}

// enqueue queues b (not empty) under one lock, numbering its records,
// and returns spare lines if asked to.
func (l *Log) enqueue(ls *lease, b batch, spare bool) []line {
	var sz int64
	for i := range b.recs {
		sz += recSize(&b.recs[i])
	}
	for i := range b.lines {
		sz += int64(len(b.lines[i].frame)) + recordOverhead
	}
	var now time.Time
	l.mu.Lock()
	defer l.mu.Unlock()
	// Wait for room, but always admit a batch into an empty queue so
	// that a frame larger than the bound still passes.
	for l.qBytes > 0 && l.qBytes+sz > l.opts.QueueBytes && !l.closed {
		l.wake()
		l.notFull.Wait()
	}
	if l.closed {
		return nil
	}
	for i := range b.recs {
		r := &b.recs[i]
		l.seq++
		r.Seq = l.seq
		if r.Time.IsZero() {
			if now.IsZero() {
				now = l.opts.Now()
			}
			r.Time = now
		}
	}
	if b.recs == nil {
		b.first = l.seq + 1
		l.seq += uint64(len(b.lines))
		if b.time.IsZero() {
			b.time = l.opts.Now()
		}
	}
	l.q = append(l.q, b)
	l.qBytes += sz
	if ls != nil {
		l.leases = append(l.leases, seqLease{l.seq, ls})
	}
	if l.qBytes >= kickBytes {
		l.wake()
	}
	if !spare {
		return nil
	}
	return l.spareLocked()
}

// kickBytes is the queue size at which Record wakes the writer at once.
const kickBytes = 1 << 20

// flushEvery is how often the writer looks at the queue when not woken:
// the delay between a frame and its line in the file.
const flushEvery = 2 * time.Millisecond

func (l *Log) wake() {
	select {
	case l.kick <- struct{}{}:
	default:
	}
}

// Stats returns the counts so far.
func (l *Log) Stats() LogStats {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.stats
}

// Close writes what is queued and stops the Log. It returns an error if
// any record was lost, saying how many and why.
func (l *Log) Close() error {
	l.mu.Lock()
	if !l.closed {
		l.closed = true
		l.wake()
		l.notFull.Broadcast()
	}
	l.mu.Unlock()
	<-l.done
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.tornWhole > 0 {
		// The file ends with a whole record but its newline: a reader
		// reads it (an unterminated last line that decodes).
		l.stats.Frames++
		l.stats.Bytes += l.tornWhole
		l.tornWhole = 0
	}
	if l.stats.Lost > 0 {
		return fmt.Errorf("session log: %s lost: %w", plural.Count(l.stats.Lost, "frame"), l.firstErr)
	}
	return nil
}

// flushAt is the encoded size at which the writer writes mid-batch.
const flushAt = 1 << 20

func (l *Log) run() {
	defer close(l.done)
	var batches []batch
	var leases []seqLease
	var enc session.HeadEncoder
	var scratch session.Record // a relay line's record
	var segs [][]byte
	var ends []int
	buf := make([]byte, 0, 64<<10)
	tick := time.NewTicker(flushEvery)
	defer tick.Stop()
	for {
		l.mu.Lock()
		for len(l.q) == 0 {
			if l.closed {
				l.mu.Unlock()
				return
			}
			l.mu.Unlock()
			select {
			case <-l.kick:
			case <-tick.C:
			}
			l.mu.Lock()
		}
		batches, l.q = l.q, batches[:0]
		leases, l.leases = l.leases, leases[:0]
		l.mu.Unlock()

		ended := 0             // leases ended
		startB, startI := 0, 0 // first record of the chunk
		var queued int64       // queue bytes of the chunk
		// A chunk of records is written as segments: runs of encoded
		// lines in buf, and big frames straight from their own memory
		// (copying a 1 MB frame into buf cost as much as validating it).
		var size int    // bytes in the chunk
		ends = ends[:0] // the chunk's size at the end of each record
		mark := 0       // start of buf not yet in segs
		for bi := range batches {
			n := batches[bi].len()
			for i := range n {
				r := batches[bi].at(i, &scratch)
				r.Session, r.Label = l.opts.Session, l.opts.Label
				queued += recSize(r)
				if l.opts.Filter != nil {
					l.opts.Filter(r)
				}
				var line [][]byte // the encoded line, for FeedLine
				if l.w != nil {
					var frame []byte
					before := len(buf)
					buf, frame = enc.AppendRecordHead(buf, r)
					size += len(buf) - before
					if frame != nil {
						if len(frame) >= directFrame {
							segs = append(segs, buf[mark:], frame)
							mark = len(buf)
							if l.opts.FeedLine != nil {
								line = append(line, buf[before:], frame)
								before = len(buf)
							}
						} else {
							buf = append(buf, frame...)
						}
						buf = append(buf, "}\n"...)
						size += len(frame) + 2
					}
					if l.opts.FeedLine != nil {
						line = append(line, buf[before:])
					}
				} else if l.opts.FeedLine != nil {
					line = [][]byte{session.AppendRecord(nil, r)}
				}
				if l.opts.Feed != nil {
					l.opts.Feed(r)
				}
				if l.opts.FeedLine != nil {
					l.opts.FeedLine(r, line)
				}
				if l.opts.Export != nil {
					l.opts.Export(r)
				}
				ends = append(ends, size)
				last := bi == len(batches)-1 && i == n-1
				if size < flushAt && !last {
					continue
				}
				segs = append(segs, buf[mark:])
				l.write(segs, ends)
				for ; ended < len(leases) && leases[ended].seq <= r.Seq; ended++ {
					leases[ended].lease.end()
				}
				// Let go of the chunk's frames and its room in the queue
				// now, not at the end of the batches: they can be the
				// whole queue, and holding it all until then had the relay
				// wait and then refill the queue in one go, into new
				// memory, while the old was not yet collected.
				for b := startB; b <= bi; b++ {
					from, to := 0, batches[b].len()
					if b == startB {
						from = startI
					}
					if b == bi {
						to = i + 1
					}
					batches[b].release(from, to)
				}
				l.mu.Lock()
				l.qBytes -= queued
				l.notFull.Broadcast()
				// Hand back the batches written whole.
				done := bi
				if i < n-1 {
					done = bi - 1
				}
				for b := startB; b <= done && len(l.spare) < maxSpare; b++ {
					if batches[b].recs == nil {
						l.spare = append(l.spare, batches[b].lines[:0])
					}
				}
				l.mu.Unlock()
				clear(segs)
				segs, buf, mark, size, queued = segs[:0], buf[:0], 0, 0, 0
				startB, startI = done+1, 0
				if done < bi {
					startI = i + 1
				}
				ends = ends[:0]
			}
		}
		clear(batches)
		clear(leases)
		if cap(buf) > 4*flushAt {
			buf = make([]byte, 0, 64<<10)
		}
	}
}

// directFrame is the frame size from which the writer writes a frame
// from its own buffer instead of copying it into the line buffer.
const directFrame = 32 << 10

// write writes one encoded chunk of records (in segments; ends[i] is the
// chunk's length at the end of record i) and does the loss accounting:
// the records that reached the file whole are written, the rest lost.
func (l *Log) write(segs [][]byte, ends []int) {
	var err error
	written := 0 // bytes of the chunk in the file
	if l.w != nil {
		if l.torn {
			// Restore the line boundary before anything else goes in.
			if _, err = l.w.Write(newline); err == nil {
				l.mu.Lock()
				l.untearLocked()
				l.mu.Unlock()
			}
		}
		for _, b := range segs {
			if err != nil {
				break
			}
			if len(b) == 0 {
				continue
			}
			var k int
			k, err = l.w.Write(b)
			written += k
		}
	}
	n, size := len(ends), 0
	if n > 0 {
		size = ends[n-1]
	}
	whole := n // records written whole
	if err != nil {
		whole = sort.SearchInts(ends, written+1)
	}
	good := 0 // bytes of the records written whole
	if whole > 0 {
		good = ends[whole-1]
	}
	var tornWhole int64
	if written > good {
		// The file ends with part of record whole (0-based).
		if !l.cutBack(written - good) {
			if written == ends[whole]-1 {
				tornWhole = int64(written - good) // all but its newline
			}
		}
	}
	l.mu.Lock()
	l.stats.Frames += int64(whole)
	l.stats.Bytes += int64(good)
	if err == nil {
		if l.pendLost > 0 {
			l.queueLostLocked()
		}
		l.mu.Unlock()
		return
	}
	lost, lostB := int64(n-whole), int64(size-good)
	if tornWhole > 0 {
		lost, lostB = lost-1, lostB-tornWhole-1
		l.tornWhole = tornWhole
	}
	l.stats.Lost += lost
	l.pendLost += lost
	l.pendLostB += lostB
	l.lastErr = err
	if l.firstErr == nil {
		l.firstErr = err
	}
	warn := l.opts.Warn != nil && lost > 0 && (l.lastWarn.IsZero() || l.opts.Now().Sub(l.lastWarn) >= warnEvery)
	if warn {
		l.lastWarn = l.opts.Now()
	}
	total := l.stats.Lost
	l.mu.Unlock()
	if warn {
		// Outside the lock: a slow stderr must not hold up Record.
		fmt.Fprintf(l.opts.Warn, "mcpward: session log: %s lost so far: %v\n", plural.Count(total, "frame"), err)
	}
}

var newline = []byte("\n")

// warnEvery is the least time between two lines to LogOptions.Warn.
const warnEvery = 10 * time.Second

// untearLocked counts the record that the newline just written made
// whole, if the tear was just before its newline.
func (l *Log) untearLocked() {
	l.torn = false
	if l.tornWhole > 0 {
		l.stats.Frames++
		l.stats.Bytes += l.tornWhole + 1
		l.tornWhole = 0
	}
}

// A truncater is a log file that can cut off a torn line (*os.File).
type truncater interface {
	Seek(offset int64, whence int) (int64, error)
	Truncate(size int64) error
}

// cutBack removes the last extra bytes written, a piece of a line, from
// the file, and reports whether it did; if not, the next write starts
// with a newline (torn). It cuts only if the file ends where our write
// did, so that a line another process appended since (several runs may
// share a --trace-file) is never cut.
func (l *Log) cutBack(extra int) bool {
	if f, ok := l.w.(truncater); ok {
		off, err := f.Seek(0, io.SeekCurrent)
		if err == nil {
			var end int64
			if end, err = f.Seek(0, io.SeekEnd); err == nil && end != off {
				_, _ = f.Seek(off, io.SeekStart)
			} else if err == nil && off >= int64(extra) {
				if err = f.Truncate(off - int64(extra)); err == nil {
					if _, err = f.Seek(off-int64(extra), io.SeekStart); err == nil {
						return true
					}
				}
			}
		}
	}
	l.mu.Lock()
	l.torn = true
	l.mu.Unlock()
	return false
}

// queueLostLocked enqueues a lost record, so that it gets its seq in
// order like any other record.
func (l *Log) queueLostLocked() {
	info, _ := json.Marshal(struct {
		Frames int64 `json:"frames"`
		Bytes  int64 `json:"bytes"`
	}{l.pendLost, l.pendLostB})
	l.seq++
	l.q = append(l.q, batch{recs: []session.Record{{
		Seq: l.seq, Time: l.opts.Now(),
		Dir: session.Meta, Kind: session.KindLost, Error: l.lastErr.Error(), Info: info,
	}}})
	l.qBytes += recordOverhead
	l.pendLost, l.pendLostB = 0, 0
}
