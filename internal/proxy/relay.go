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
}

// RelayResult says what a Relay did.
type RelayResult struct {
	Bytes    int64 // bytes read from src
	Frames   int64 // frames handed to the recorder
	ReadErr  error // nil at a clean EOF
	WriteErr error // the first write error, if any
}

// Relay copies src to dst unchanged, writing each read through as soon as
// it arrives, and hands every "\n"-terminated line (and a final
// unterminated one) to the recorder as a frame, in order. The relay path
// does no JSON work: it copies bytes, and per read makes at most one
// allocation, the copy of the complete lines it hands over. A line that
// spans reads is assembled for the recorder only.
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
	var res RelayResult
	var sp *splitter
	if o.Recorder != nil {
		sp = &splitter{opts: &o, res: &res}
		if l, ok := o.Recorder.(*Log); ok {
			sp.pool = l.pool // the Log hands written frames back
		}
	}
	var buf []byte
	if sp == nil {
		buf = make([]byte, relayBufSize)
	}
	writing := true
	for {
		b := buf
		if sp != nil {
			b = sp.readBuf()
		}
		n, err := src.Read(b)
		if n > 0 {
			chunk := b[:n]
			res.Bytes += int64(n)
			if writing {
				if _, werr := dst.Write(chunk); werr != nil {
					res.WriteErr = werr
					writing = false
					if o.OnWriteError != nil {
						o.OnWriteError(werr)
					}
					if !o.KeepReading {
						if sp != nil {
							sp.feed(chunk)
							sp.finish()
						}
						return res
					}
				}
			}
			if sp != nil {
				sp.feed(chunk)
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				res.ReadErr = err
			}
			if sp != nil {
				sp.finish()
			}
			return res
		}
	}
}

// splitter cuts a byte stream into lines for the recorder. It owns the
// relay's read buffers, so that the pieces of a line spanning reads stay
// where they were read instead of being copied out of the way of the next
// read: such a line is copied once, when it is joined.
type splitter struct {
	opts  *RelayOptions
	res   *RelayResult
	pool  *framePool // where joined frames are assembled; nil allocates
	batch []session.Record
	// The line being assembled across reads: its pieces (up to MaxFrame
	// bytes in all, pendLen), slices of the read buffers, and its full
	// size. A list, joined once into an exactly sized frame, instead of a
	// slice grown by appends: growing a 1 MB line 64 KiB at a time copied
	// and cleared it several times over.
	pending  [][]byte
	pendLen  int
	pendSize int64

	// cur is the buffer reads go into, at off. While held, pending has
	// bytes of cur before off and reads go after them; other buffers with
	// pending bytes are in heldBufs. free keeps a few released buffers.
	cur      []byte
	off      int
	held     bool
	heldBufs [][]byte
	free     [][]byte
}

// minRead is the least room a read is given: a pipe hands over up to
// 64 KiB at a time.
const minRead = 64 << 10

// maxFree bounds the spare read buffers a splitter keeps after a long
// line released them.
const maxFree = 40

// readBuf returns where the next read goes; feed must be given what was
// read into it.
func (s *splitter) readBuf() []byte {
	if !s.held {
		s.off = 0
	}
	if s.cur == nil || len(s.cur)-s.off < minRead {
		if s.held {
			s.heldBufs = append(s.heldBufs, s.cur)
			s.held = false
			s.cur = nil
		}
		if s.cur == nil {
			if n := len(s.free); n > 0 {
				s.cur, s.free[n-1] = s.free[n-1], nil
				s.free = s.free[:n-1]
			} else {
				s.cur = make([]byte, relayBufSize)
			}
		}
		s.off = 0
	}
	return s.cur[s.off:]
}

func (s *splitter) record(frame []byte, size int64, noEOL bool, now time.Time) {
	s.batch = append(s.batch, session.Record{
		Time: now, Dir: s.opts.Dir, Transport: s.opts.Transport,
		Frame: frame, HasFrame: true, Size: size, NoEOL: noEOL,
		Truncated: size > int64(len(frame)),
	})
}

// addPending adds part of a line, a slice of the current read buffer, to
// the pieces, up to the cap. The buffer is held until the line is taken.
func (s *splitter) addPending(b []byte) {
	s.pendSize += int64(len(b))
	if room := s.opts.MaxFrame - s.pendLen; room > 0 && len(b) > 0 {
		piece := b[:min(room, len(b))]
		s.pending = append(s.pending, piece)
		s.pendLen += len(piece)
		s.held = true
	}
}

// takePending returns the assembled line, a copy of its own, resets, and
// releases the read buffers the pieces were in.
func (s *splitter) takePending() ([]byte, int64) {
	frame := s.pool.get(s.pendLen)
	switch {
	case frame != nil:
		n := 0
		for _, p := range s.pending {
			n += copy(frame[n:], p)
		}
	case len(s.pending) == 0:
		frame = []byte{}
	case len(s.pending) == 1:
		frame = bytes.Clone(s.pending[0])
	default:
		frame = bytes.Join(s.pending, nil) // one exactly sized, unzeroed allocation
	}
	size := s.pendSize
	clear(s.pending)
	s.pending, s.pendLen, s.pendSize = s.pending[:0], 0, 0
	for _, b := range s.heldBufs {
		if len(s.free) < maxFree {
			s.free = append(s.free, b)
		}
	}
	clear(s.heldBufs)
	s.heldBufs, s.held = s.heldBufs[:0], false
	return frame, size
}

// feed splits what was read into the buffer readBuf returned.
func (s *splitter) feed(chunk []byte) {
	defer func() { s.off += len(chunk) }()
	// IndexByte first: it is vectorised, LastIndexByte is a byte loop, and
	// most reads of a big frame hold no line end at all.
	first := bytes.IndexByte(chunk, '\n')
	if first < 0 {
		s.addPending(chunk)
		return
	}
	last := bytes.LastIndexByte(chunk, '\n')
	now := s.opts.Now()
	start := 0
	if s.pendSize > 0 {
		// The first line completes what was pending.
		s.addPending(chunk[:first])
		frame, size := s.takePending()
		s.record(frame, size, false, now)
		start = first + 1
	}
	// The whole lines of this read share one copy.
	if whole := chunk[start : last+1]; len(whole) > 0 {
		big := len(whole) > s.opts.MaxFrame
		slab := whole
		if !big {
			slab = bytes.Clone(whole)
		}
		for len(slab) > 0 {
			i := bytes.IndexByte(slab, '\n')
			line := slab[:i:i]
			size := int64(i)
			if big {
				line = bytes.Clone(line[:min(i, s.opts.MaxFrame)])
			}
			s.record(line, size, false, now)
			slab = slab[i+1:]
		}
	}
	if rest := chunk[last+1:]; len(rest) > 0 {
		s.addPending(rest)
	}
	s.flush()
}

func (s *splitter) finish() {
	if s.pendSize > 0 {
		frame, size := s.takePending()
		s.record(frame, size, true, s.opts.Now())
	}
	s.flush()
}

func (s *splitter) flush() {
	if len(s.batch) == 0 {
		return
	}
	s.res.Frames += int64(len(s.batch))
	s.opts.Recorder.Record(s.batch...)
	clear(s.batch)
	s.batch = s.batch[:0]
}
