package feed

import (
	"context"
	"math/rand/v2"
	"net"
	"sync"
	"time"

	"github.com/mcpward/mcpward/internal/session"
)

// Defaults of Options.
const (
	DefaultBufferBytes = 4 << 20
	DefaultMinBackoff  = 100 * time.Millisecond
	DefaultMaxBackoff  = 5 * time.Second
	DefaultCloseGrace  = time.Second
)

// maxMissed bounds the ranges a Sink remembers; beyond it the last two are
// merged (the hub then re-reads a few records it already has, which its
// dedup drops).
const maxMissed = 256

// Options configure a Sink.
type Options struct {
	// Socket is the hub socket (SocketPath of the state directory).
	Socket string
	// Session, Label, Log and PID go into the hello.
	Session, Label, Log string
	PID                 int
	// BufferBytes bounds the encoded records waiting for the hub
	// (DefaultBufferBytes if 0). Beyond it records are dropped from the
	// feed, never from the log.
	BufferBytes int
	// MinBackoff and MaxBackoff bound the wait between connection
	// attempts; it doubles on each failure, with jitter.
	MinBackoff, MaxBackoff time.Duration
	// CloseGrace is how long Close waits for the hub to take what is
	// buffered.
	CloseGrace time.Duration
	// Dial connects to the hub (default: a Unix socket dial of Socket).
	Dial func(ctx context.Context) (net.Conn, error)
	// Now stamps control records (default time.Now).
	Now func() time.Time
}

// Stats are a Sink's counts.
type Stats struct {
	Records  int64 // records handed to the Sink
	Sent     int64 // records written to a hub connection
	Dropped  int64 // records dropped from the feed (still in the log)
	Connects int64 // successful connections
}

// A Sink sends records to the hub. Record and Line never block on the
// network: they append to a bounded buffer that the Sink's own goroutine
// writes out. All methods are safe for concurrent use.
type Sink struct {
	opts Options

	mu      sync.Mutex
	buf     []byte // encoded records not yet taken by the writer
	spare   []byte
	first   uint64 // seq range of the records in buf (0: none)
	last    uint64
	highest uint64  // highest seq handed to the Sink
	missed  []Range // dropped and not yet reported
	stats   Stats
	closed  bool
	conn    net.Conn // current connection, for Close to break a stuck write

	wake    chan struct{}
	closing chan struct{}
	ctx     context.Context
	cancel  context.CancelFunc
	done    chan struct{}
}

// New starts a Sink. It connects in the background and keeps
// reconnecting until Close.
func New(opts *Options) *Sink {
	s := &Sink{wake: make(chan struct{}, 1), closing: make(chan struct{}), done: make(chan struct{})}
	if opts != nil {
		s.opts = *opts
	}
	o := &s.opts
	if o.BufferBytes <= 0 {
		o.BufferBytes = DefaultBufferBytes
	}
	if o.MinBackoff <= 0 {
		o.MinBackoff = DefaultMinBackoff
	}
	if o.MaxBackoff < o.MinBackoff {
		o.MaxBackoff = max(DefaultMaxBackoff, o.MinBackoff)
	}
	if o.CloseGrace <= 0 {
		o.CloseGrace = DefaultCloseGrace
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Dial == nil {
		sock := o.Socket
		o.Dial = func(ctx context.Context) (net.Conn, error) {
			// Checked on every attempt: a socket may be planted later.
			if err := CheckOwner(sock); err != nil {
				return nil, err
			}
			var d net.Dialer
			return d.DialContext(ctx, "unix", sock)
		}
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	go s.run()
	return s
}

// Record queues rec (its Seq assigned) for the hub, encoded exactly as
// session.AppendRecord writes it to the log. It does not keep rec.
func (s *Sink) Record(rec *session.Record) {
	s.mu.Lock()
	if s.admitLocked(rec.Seq) {
		s.reserveLocked(len(rec.Frame) + len(rec.Info) + 512)
		s.buf = session.AppendRecord(s.buf, rec)
		s.queuedLocked(rec.Seq)
	}
	s.mu.Unlock()
}

// Line queues one encoded record line (with its "\n") of the given seq,
// as written to the log, given as pieces that concatenate to the line:
// the cheaper hook when the caller has the bytes already. The pieces are
// copied.
func (s *Sink) Line(seq uint64, line ...[]byte) {
	s.mu.Lock()
	if s.admitLocked(seq) {
		n := 0
		for _, p := range line {
			n += len(p)
		}
		s.reserveLocked(n)
		for _, p := range line {
			s.buf = append(s.buf, p...)
		}
		s.queuedLocked(seq)
	}
	s.mu.Unlock()
}

// admitLocked counts a record and reports whether it fits the buffer;
// if not, it is recorded as missed. One record may overshoot the bound,
// so that a frame larger than the buffer still reaches a fast hub.
func (s *Sink) admitLocked(seq uint64) bool {
	if s.closed {
		return false
	}
	s.stats.Records++
	s.highest = max(s.highest, seq)
	if len(s.buf) < s.opts.BufferBytes {
		return true
	}
	s.stats.Dropped++
	s.missed = addMissed(s.missed, Range{seq, seq})
	return false
}

// minBufferBytes is the buffer's first size. It grows by doubling up to
// the bound (plus an eighth, for the record that overshoots it): a shim
// whose hub never connects used to allocate the whole 4.5 MiB on its
// first record, which started a GC cycle a few milliseconds into every
// logging shim's start; doubling copies less than the bound in all.
const minBufferBytes = 64 << 10

// reserveLocked makes room for n more bytes, doubling the buffer.
func (s *Sink) reserveLocked(n int) {
	if cap(s.buf)-len(s.buf) >= n {
		return
	}
	limit := s.opts.BufferBytes + s.opts.BufferBytes/8
	c := min(max(2*cap(s.buf), minBufferBytes), limit)
	c = max(c, len(s.buf)+n)
	nb := make([]byte, len(s.buf), c)
	copy(nb, s.buf)
	s.buf = nb
}

func (s *Sink) queuedLocked(seq uint64) {
	if s.first == 0 {
		s.first = seq
	}
	s.last = seq
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// addMissed appends r, merging it with the last range when adjacent.
func addMissed(m []Range, r Range) []Range {
	if r.From == 0 {
		return m
	}
	if n := len(m); n > 0 && m[n-1].To+1 >= r.From && r.From >= m[n-1].From {
		m[n-1].To = max(m[n-1].To, r.To)
		return m
	}
	m = append(m, r)
	if n := len(m); n > maxMissed {
		m[n-2].To = max(m[n-2].To, m[n-1].To)
		m = m[:n-1]
	}
	return m
}

// Stats returns the counts so far.
func (s *Sink) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stats
}

// Close stops the Sink: what is buffered is written if a hub is connected
// and takes it within CloseGrace; the rest is dropped (it is in the log).
// Close does not close the log.
func (s *Sink) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		<-s.done
		return nil
	}
	s.closed = true
	close(s.closing)
	s.mu.Unlock()
	t := time.NewTimer(s.opts.CloseGrace)
	defer t.Stop()
	select {
	case <-s.done:
	case <-t.C:
		s.cancel()
		s.mu.Lock()
		if s.conn != nil {
			s.conn.Close()
		}
		s.mu.Unlock()
		<-s.done
	}
	s.cancel()
	return nil
}

func (s *Sink) run() {
	defer close(s.done)
	failures := 0
	for {
		select {
		case <-s.closing:
			s.dropBuffered()
			return
		default:
		}
		conn, err := s.opts.Dial(s.ctx)
		if err != nil {
			failures++
			if !s.sleep(backoff(s.opts.MinBackoff, s.opts.MaxBackoff, failures)) {
				s.dropBuffered()
				return
			}
			continue
		}
		failures = 0
		s.mu.Lock()
		s.conn = conn
		s.stats.Connects++
		s.mu.Unlock()
		closing := s.serve(conn)
		conn.Close()
		s.mu.Lock()
		s.conn = nil
		s.mu.Unlock()
		if closing {
			s.dropBuffered()
			return
		}
	}
}

// sleep waits d, or less if the Sink closes (then it returns false).
func (s *Sink) sleep(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-s.closing:
		return false
	}
}

// backoff is the wait after n consecutive failures: min·2ⁿ⁻¹ capped at
// max, of which the upper half is random so that many proxies started
// together do not knock on a restarted hub in step.
func backoff(minD, maxD time.Duration, n int) time.Duration {
	d := minD
	for i := 1; i < n && d < maxD; i++ {
		d *= 2
	}
	d = min(d, maxD)
	half := d / 2
	return half + rand.N(half+1)
}

// dropBuffered counts what was never sent as dropped.
func (s *Sink) dropBuffered() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.first != 0 {
		s.stats.Dropped += int64(s.last - s.first + 1)
	}
	s.buf, s.first, s.last = s.buf[:0], 0, 0
}

// serve runs one connection until it breaks or the Sink closes with
// nothing left to send; it reports whether the Sink is closing. Records of
// a write that failed are added to missed: the hub may have got some of
// them, and re-reading the rest from the log costs less than losing them.
func (s *Sink) serve(conn net.Conn) (closing bool) {
	s.mu.Lock()
	hello := &Hello{Log: s.opts.Log, PID: s.opts.PID, Missed: s.missed, Next: s.first}
	if hello.Next == 0 {
		hello.Next = s.highest + 1
	}
	s.missed = nil
	s.mu.Unlock()
	line := AppendControl(nil, KindHello, s.opts.Session, s.opts.Label, s.opts.Now(), hello)
	if _, err := conn.Write(line); err != nil {
		s.restoreMissed(hello.Missed, Range{})
		return s.isClosed()
	}
	var ctl []byte
	for {
		s.mu.Lock()
		for len(s.buf) == 0 && len(s.missed) == 0 && !s.closed {
			s.mu.Unlock()
			select {
			case <-s.wake:
			case <-s.closing:
			}
			s.mu.Lock()
		}
		chunk, first, last, missed := s.buf, s.first, s.last, s.missed
		s.buf, s.spare, s.first, s.last, s.missed = s.spare[:0], nil, 0, 0, nil
		closing = s.closed
		s.mu.Unlock()

		if len(missed) > 0 {
			ctl = AppendControl(ctl[:0], KindGap, s.opts.Session, s.opts.Label, s.opts.Now(), &Hello{Missed: missed})
			if _, err := conn.Write(ctl); err != nil {
				s.restoreMissed(missed, Range{first, last})
				return s.isClosed()
			}
		}
		if len(chunk) > 0 {
			if _, err := conn.Write(chunk); err != nil {
				s.restoreMissed(nil, Range{first, last})
				return s.isClosed()
			}
		}
		s.mu.Lock()
		if first != 0 {
			s.stats.Sent += int64(last - first + 1)
		}
		if cap(chunk) <= 4*s.opts.BufferBytes {
			s.spare = chunk[:0]
		}
		done := closing && len(s.buf) == 0
		s.mu.Unlock()
		if done {
			return true
		}
	}
}

// restoreMissed puts back ranges that could not be reported, in front of
// any recorded since, and adds the range of records whose write failed.
func (s *Sink) restoreMissed(old []Range, failed Range) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var m []Range
	for _, r := range old {
		m = addMissed(m, r)
	}
	if failed.From != 0 {
		s.stats.Dropped += int64(failed.Len())
		m = addMissed(m, failed)
	}
	for _, r := range s.missed {
		m = addMissed(m, r)
	}
	s.missed = m
}

func (s *Sink) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}
