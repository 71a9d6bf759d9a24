package proxy

import (
	"bytes"
	"errors"
	"io"
	"time"

	"github.com/mcpward/mcpward/internal/session"
)

// DefaultMaxFrame is the recording cap per frame: larger frames are relayed
// whole but recorded truncated (Record.Truncated, with their full Size).
const DefaultMaxFrame = 64 << 20

// relayBufSize is the read size of a stream relay. A pipe hands at most
// 64 KiB per read on Linux; more costs nothing and helps other sources.
const relayBufSize = 256 << 10

// RelayOptions configure Relay. The zero value relays without recording.
type RelayOptions struct {
	// Dir and Transport are stamped on every recorded frame.
	Dir       session.Direction
	Transport session.Transport
	// Recorder receives each complete line as a frame; nil records nothing.
	Recorder Recorder
	// MaxFrame caps the recorded copy of one frame (DefaultMaxFrame if 0).
	MaxFrame int
	// Now stamps frames (time.Now if nil); one call per read.
	Now func() time.Time
	// KeepReading makes Relay go on reading (and recording) src after a
	// write to dst failed, so that a writer on the other side of src never
	// blocks; the write error is still returned at the end.
	KeepReading bool
	// OnWriteError is called once, when the first write to dst fails.
	OnWriteError func(error)
	// Splice relays with splice(2) and tee(2) where the system and both
	// ends allow it (see Relay); else, or if false, by copy.
	Splice bool
}

// RelayResult says what a Relay did.
type RelayResult struct {
	Bytes    int64 // bytes read from src
	Frames   int64 // frames handed to the recorder
	ReadErr  error // nil at a clean EOF
	WriteErr error // the first write error, if any
	// Path is the way the bytes forwarded to dst went: PathSplice or
	// PathCopy. (After a failed write, a splice relay with KeepReading
	// reads the rest by copy, forwarding nothing.)
	Path string
}

// Relay copies src to dst unchanged, writing each read through as soon as
// it arrives, and hands every "\n"-terminated line (and a final
// unterminated one) to the recorder as a frame, in order. The relay path
// does no JSON work and copies nothing: frames are slices of the read
// buffers (see splitter); only a line spanning buffers is joined, once,
// for the recorder.
//
// The lines a read completes reach the recorder before the read is
// written to dst: the recorder numbers them then (see [Recorder]), so
// whatever the peer sends in answer, read by the relay of the other
// direction after the peer had these bytes, is numbered after them. A
// final unterminated line is known to be one only at the end of src.
//
// With opts.Splice, on Linux, when src and dst are pipes or stream
// sockets (an [*os.File], possibly behind a [GatedReader] or the shim's
// held writer), the bytes go from src to dst by splice(2) without
// passing through user space, and the recorder's copy is taken with
// tee(2): see relaySplice. The bytes dst gets, the frames and their order
// are the same on both paths (RelayResult.Path says which one ran).
func Relay(dst io.Writer, src io.Reader, opts *RelayOptions) RelayResult {
	var o RelayOptions
	if opts != nil {
		o = *opts
	}
	if o.MaxFrame <= 0 {
		o.MaxFrame = DefaultMaxFrame
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	r := &relayRun{o: &o, writing: true}
	r.res.Path = PathCopy
	if o.Recorder != nil {
		r.sp = newSplitter(&o, &r.res)
	}
	if o.Splice && r.splice(dst, src) {
		return r.res
	}
	r.copy(dst, src)
	return r.res
}

// relayRun is the state of one Relay, shared by its two paths: the splice
// path hands over to the copy path when dst failed and src is still read.
type relayRun struct {
	o       *RelayOptions
	res     RelayResult
	sp      *splitter // nil without a recorder
	writing bool      // no write to dst has failed
}

// writeFailed notes the first failed write; it reports whether the relay
// stops (else it goes on reading and recording src, KeepReading).
func (r *relayRun) writeFailed(err error) (stop bool) {
	r.res.WriteErr = err
	r.writing = false
	if r.o.OnWriteError != nil {
		r.o.OnWriteError(err)
	}
	if !r.o.KeepReading {
		r.finish()
		return true
	}
	return false
}

// finish records a final unterminated line and lets the buffers go.
func (r *relayRun) finish() {
	if r.sp != nil {
		r.sp.finish()
	}
}

// readEnd ends the relay on a read that failed (nil at end of file).
func (r *relayRun) readEnd(err error) {
	if err != nil && !errors.Is(err, io.EOF) {
		r.res.ReadErr = err
	}
	r.finish()
}

// copy is the portable path: read into user space, record, write.
func (r *relayRun) copy(dst io.Writer, src io.Reader) {
	var buf []byte
	if r.sp == nil {
		buf = make([]byte, relayBufSize)
	}
	for {
		b := buf
		if r.sp != nil {
			b = r.sp.readBuf()
		}
		n, err := src.Read(b)
		if n > 0 {
			chunk := b[:n]
			r.res.Bytes += int64(n)
			if r.sp != nil {
				// The order of the wire: the frames this chunk completes
				// are numbered before it is forwarded, so a peer's answer,
				// read after the peer had the chunk, is numbered after them.
				r.sp.feed(chunk)
			}
			if r.writing {
				if _, werr := dst.Write(chunk); werr != nil && r.writeFailed(werr) {
					return
				}
			}
		}
		if err != nil {
			r.readEnd(err)
			return
		}
	}
}

// splitter cuts a byte stream into lines for the recorder. It owns the
// relay's read buffers and reads into each one front to back: a line that
// arrived whole, or across reads into the same buffer, is recorded as a
// slice of that buffer, without a copy; only a line spanning buffers is
// copied, once, when its pieces are joined. With a Log, the buffers come
// back through leases (see bufferPool) and are read into again.
type splitter struct {
	opts *RelayOptions
	res  *RelayResult
	log  *Log        // the Recorder, if it ends leases; else nil
	pool *bufferPool // log's pool, set with log; nil allocates and never reuses
	// lines are the frames of the read being split, all observed at
	// linesAt (one read, one time: when its last bytes were read).
	lines   []line
	linesAt time.Time
	recs    []session.Record // lines as records, for a Recorder not a Log
	lease   *lease           // what lines point into
	leased  bool             // cur is in lease

	// cur is the buffer reads go into, at off; nothing before off is
	// ever read into again (it may be leased or pending).
	cur      *readBuffer
	off      int
	curPiece bool // cur holds a piece of the pending line

	// The line being assembled across reads: its pieces (up to MaxFrame
	// bytes in all, pendLen), slices of the read buffers, and its full
	// size. While all of it is in cur (from pendStart), it is recorded as
	// a slice of cur; held are the earlier buffers of a line spanning
	// several, which the splitter holds until the line is joined.
	pending   [][]byte
	pendLen   int
	pendSize  int64
	pendStart int
	held      []*readBuffer

	// big is the size of the last line longer than poolMin: the size a
	// line is expected to have, so that buffers are taken big enough to
	// hold such lines whole (see readBuf).
	big int
}

// minRead is the least room a read is given: a pipe hands over up to
// 64 KiB at a time.
const minRead = 64 << 10

func newSplitter(o *RelayOptions, res *RelayResult) *splitter {
	s := &splitter{opts: o, res: res}
	if lr, ok := o.Recorder.(logRecorder); ok {
		l := lr.sessionLog()
		s.log, s.pool = l, l.pool
	}
	return s
}

// readBuf returns where the next read goes; feed must be given what was
// read into it.
//
// Buffers grow with the lines: once a line longer than poolMin was seen,
// buffers are taken to hold one of that size, and a line that has just
// started where it would not fit is moved to the front of a new buffer
// while it is short (its first read: at most 64 KiB copied). So lines of
// a steady size are slices of a buffer, like short ones, instead of being
// joined from the buffers they spanned (a copy of the whole line, out of
// cache: 19 % of the logging shim's CPU at 8 MB). A line longer than
// expected spans buffers and is joined as before.
func (s *splitter) readBuf() []byte {
	room := 0
	if s.cur != nil {
		room = len(s.cur.b) - s.off
	}
	switch {
	case s.cur != nil && room >= minRead && !s.shouldMove(room):
	case s.cur != nil && s.curPiece && s.shouldMove(room):
		nb := s.pool.getRead(s.bufSize())
		n := copy(nb.b, s.cur.b[s.pendStart:s.pendStart+s.pendLen])
		s.cur.unref(s.pool) // leases keep their holds
		clear(s.pending)
		s.pending = append(s.pending[:0], nb.b[:n:n])
		s.cur, s.off, s.pendStart = nb, n, 0
	default:
		if s.cur != nil {
			if s.curPiece {
				s.held = append(s.held, s.cur) // until the line is joined
			} else {
				s.cur.unref(s.pool)
			}
		}
		s.cur, s.off, s.curPiece = s.pool.getRead(s.bufSize()), 0, false
	}
	return s.cur.b[s.off:]
}

// readCap bounds the next read of a reader that could hand more than a
// pipe's 64 KiB at once (the splice path's fills): once long lines were
// seen, reads stay at minRead, so that the start of a line is short
// enough for readBuf to move it (a fill of up to 1 MiB left the start of
// most long lines unmovable, and they were joined: memmove 18 % of the
// logging shim's CPU on the 5,000-tool list).
func (s *splitter) readCap() int {
	if s.pool != nil && s.big > 0 {
		return minRead
	}
	return maxReadBuf
}

// maxMove is the most of a line readBuf moves to a new buffer.
const maxMove = minRead

// maxReadBuf bounds the size of a read buffer: longer lines are joined
// from 256 KiB buffers, as before buffers grew. Buffers grown to 8 MB
// lines (9 MiB each) raised the logging shim's peak RSS in proxybench
// from 40-56 to 72-80 MiB without a lower CPU per MiB there (in
// BenchmarkRelayLogPipe they did save CPU: bench/README.md).
const maxReadBuf = 4 << 20

// bufSize is the size of the next read buffer: room for a line of the
// expected size and the reads around it. A buffer of two lines instead
// moved half as often but held twice the memory per line waiting in the
// queue (peak RSS at 8 MB frames 40 -> 104 MiB).
func (s *splitter) bufSize() int {
	if s.pool == nil || s.big == 0 {
		return relayBufSize
	}
	n := classSize(s.big + 2*minRead)
	if n > maxReadBuf {
		return relayBufSize
	}
	return max(relayBufSize, n)
}

// shouldMove reports whether the line being read, all of it in cur so
// far and short, should move to a new buffer: the expected line does not
// fit cur's room, but fits a new buffer.
func (s *splitter) shouldMove(room int) bool {
	return s.curPiece && s.pool != nil && len(s.held) == 0 && s.big > 0 &&
		s.pendLen <= maxMove && int64(s.pendLen) == s.pendSize &&
		s.big-s.pendLen > room && s.bufSize() >= s.big+minRead
}

func (s *splitter) record(frame []byte, size int64, noEOL bool, now time.Time) {
	if len(s.lines) == 0 {
		s.linesAt = now
	}
	s.lines = append(s.lines, line{frame: frame, size: size, noEOL: noEOL})
}

// leaseCur adds cur to the lease of the records being batched.
func (s *splitter) leaseCur() {
	if s.pool == nil || s.leased {
		return
	}
	s.cur.refs.Add(1)
	l := s.batchLease()
	l.reads = append(l.reads, s.cur)
	s.leased = true
}

// batchLease returns the lease of the records being batched, starting one.
func (s *splitter) batchLease() *lease {
	if s.lease == nil {
		s.lease = s.pool.getLease()
	}
	return s.lease
}

// addPending adds part of a line, b, the slice of cur at offset at, to
// the pieces, up to the cap.
func (s *splitter) addPending(b []byte, at int) {
	if s.pendSize == 0 {
		s.pendStart = at
	}
	s.pendSize += int64(len(b))
	if room := s.opts.MaxFrame - s.pendLen; room > 0 && len(b) > 0 {
		piece := b[:min(room, len(b))]
		s.pending = append(s.pending, piece)
		s.pendLen += len(piece)
		s.curPiece = true
	}
}

// takePending returns the assembled line and resets. A line all in cur is
// a slice of it; one spanning buffers is joined into a frame buffer of its
// own, and the buffers it spanned are let go.
func (s *splitter) takePending() ([]byte, int64) {
	var frame []byte
	switch {
	case len(s.held) == 0:
		// Contiguous in cur: its pieces were read one after the other.
		s.leaseCur()
		frame = s.cur.b[s.pendStart : s.pendStart+s.pendLen : s.pendStart+s.pendLen]
	default:
		if s.pool != nil {
			s.pool.joins.Add(1)
		}
		frame = s.pool.getFrame(s.pendLen)
		if frame != nil {
			n := 0
			for _, p := range s.pending {
				n += copy(frame[n:], p)
			}
			l := s.batchLease() // frame came from the pool: there is one
			l.frames = append(l.frames, frame)
		} else {
			frame = bytes.Join(s.pending, nil) // one exactly sized, unzeroed allocation
		}
		for _, rb := range s.held {
			rb.unref(s.pool)
		}
		clear(s.held)
		s.held = s.held[:0]
	}
	size := s.pendSize
	if size > poolMin {
		s.big = int(min(size, int64(s.opts.MaxFrame)))
	}
	clear(s.pending)
	s.pending, s.pendLen, s.pendSize, s.curPiece = s.pending[:0], 0, 0, false
	return frame, size
}

// feed splits what was read into the buffer readBuf returned.
func (s *splitter) feed(chunk []byte) {
	defer func() { s.off += len(chunk) }()
	// IndexByte first: it is vectorised, LastIndexByte is a byte loop, and
	// most reads of a big frame hold no line end at all.
	first := bytes.IndexByte(chunk, '\n')
	if first < 0 {
		s.addPending(chunk, s.off)
		return
	}
	last := bytes.LastIndexByte(chunk, '\n')
	now := s.opts.Now()
	start := 0
	if s.pendSize > 0 {
		// The first line completes what was pending.
		s.addPending(chunk[:first], s.off)
		frame, size := s.takePending()
		s.record(frame, size, false, now)
		start = first + 1
	}
	// The whole lines of this read are slices of it.
	if whole := chunk[start : last+1]; len(whole) > 0 {
		s.leaseCur()
		for len(whole) > 0 {
			i := bytes.IndexByte(whole, '\n')
			n := min(i, s.opts.MaxFrame)
			s.record(whole[:n:n], int64(i), false, now)
			whole = whole[i+1:]
		}
	}
	if rest := chunk[last+1:]; len(rest) > 0 {
		s.addPending(rest, s.off+last+1)
	}
	s.flush()
}

func (s *splitter) finish() {
	if s.pendSize > 0 {
		frame, size := s.takePending()
		s.record(frame, size, true, s.opts.Now())
	}
	s.flush()
	if s.cur != nil {
		s.cur.unref(s.pool)
		s.cur = nil
	}
}

func (s *splitter) flush() {
	if len(s.lines) == 0 {
		return
	}
	s.res.Frames += int64(len(s.lines))
	b := batch{lines: s.lines, time: s.linesAt, dir: s.opts.Dir, transport: s.opts.Transport}
	if s.log != nil {
		// The Log takes the batch whole and hands back empty lines.
		s.lines = s.log.recordBatch(s.lease, b)
	} else {
		for i := range b.lines {
			s.recs = append(s.recs, b.lineRecord(i))
		}
		s.opts.Recorder.Record(s.recs...)
		clear(s.recs)
		clear(s.lines)
		s.recs, s.lines = s.recs[:0], s.lines[:0]
	}
	s.lease, s.leased = nil, false
}
