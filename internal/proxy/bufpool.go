package proxy

import (
	"math/bits"
	"slices"
	"sync"
	"sync/atomic"
)

// Recording without copying: the frames a relay hands a Log are slices of
// the buffers the relay read them into (a line that spans buffers is
// joined into a frame buffer of its own). Each Record call comes with a
// lease on those buffers, which the Log ends once the call's records are
// in the file and every hook has seen them (hooks copy what they keep);
// a buffer nobody leases any more goes back to the Log's bufferPool, and
// the relays read into it again. Copying every frame into fresh memory
// before this made the logging relay fault in new pages and collect
// garbage at the rate of the traffic.

// A readBuffer is one of the buffers a relay reads into. refs counts its
// holders: the relay while it reads into it or while it holds a piece of
// an unfinished line, and every lease on it.
type readBuffer struct {
	b    []byte
	refs atomic.Int32
}

// unref drops one holder; the last one hands the buffer to p.
func (rb *readBuffer) unref(p *bufferPool) {
	if rb.refs.Add(-1) == 0 {
		p.putRead(rb)
	}
}

// A lease is what the records of one Record call point into.
type lease struct {
	pool   *bufferPool
	reads  []*readBuffer
	frames [][]byte // joined frames, from pool.getFrame
}

// end gives back everything the lease holds, the lease included.
func (l *lease) end() {
	p := l.pool
	for _, rb := range l.reads {
		rb.unref(p)
	}
	for _, f := range l.frames {
		p.putFrame(f)
	}
	clear(l.reads)
	clear(l.frames)
	l.reads, l.frames = l.reads[:0], l.frames[:0]
	p.mu.Lock()
	if len(p.leases) < maxSpareLeases {
		p.leases = append(p.leases, l)
	}
	p.mu.Unlock()
}

// getLease returns an empty lease on p's buffers.
func (p *bufferPool) getLease() *lease {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n := len(p.leases); n > 0 {
		l := p.leases[n-1]
		p.leases[n-1] = nil
		p.leases = p.leases[:n-1]
		return l
	}
	return &lease{pool: p}
}

// A bufferPool keeps the read buffers and frame buffers of the relays
// feeding one Log. A nil pool allocates and keeps nothing: a Recorder that
// is not a Log may keep its frames for ever.
//
// The pool keeps what comes back up to limit bytes (the Log's queue
// bound and some): the relays lend out about that much at most, since
// what they lend waits in the queue, so everything lent comes back to be
// lent again, and a full queue draining at once leaves no garbage behind.
// Keeping less (16 MiB at first) had a tenth of the 1 MB frames
// allocated anew, and the heap grew to twice the queue before a
// collection.
type bufferPool struct {
	mu     sync.Mutex
	leases []*lease
	reads  []*readBuffer
	frames map[int][][]byte // spare frame buffers by class size
	spare  int              // bytes in reads and frames
	limit  int

	// newReads and newFrames count the buffers the pool had to allocate
	// (none spare): what tests check to see that buffers come back and are
	// lent again, which process-wide allocation counts cannot show on a
	// busy machine.
	newReads, newFrames atomic.Int64
	// joins counts the lines joined from the buffers they spanned.
	joins atomic.Int64
}

// Frames shorter than poolMin are joined into memory from the allocator:
// they are cheap, and rarely span buffers.
const poolMin = 64 << 10

// maxSpareLeases bounds the spare lease records.
const maxSpareLeases = 1024

// newBufferPool returns a pool that keeps up to limit bytes of spare
// buffers.
func newBufferPool(limit int) *bufferPool {
	return &bufferPool{frames: map[int][][]byte{}, limit: limit}
}

// getRead returns a read buffer of size bytes held once, by the caller.
// Spare buffers of other sizes (a relay's buffers grow with its lines, see
// splitter.readBuf) are let go first when a new one would not fit the
// pool's limit.
func (p *bufferPool) getRead(size int) *readBuffer {
	var rb *readBuffer
	if p != nil {
		p.mu.Lock()
		for i := len(p.reads) - 1; i >= 0; i-- {
			if len(p.reads[i].b) == size {
				rb = p.reads[i]
				p.reads = slices.Delete(p.reads, i, i+1)
				p.spare -= size
				break
			}
		}
		for rb == nil && p.spare+size > p.limit && p.dropFrameLocked() {
		}
		for rb == nil && len(p.reads) > 0 && p.spare+size > p.limit {
			p.spare -= len(p.reads[0].b)
			p.reads[0] = nil
			p.reads = p.reads[1:]
		}
		p.mu.Unlock()
	}
	if rb == nil {
		rb = &readBuffer{b: make([]byte, size)}
		if p != nil {
			p.newReads.Add(1)
		}
	}
	rb.refs.Store(1)
	return rb
}

func (p *bufferPool) putRead(rb *readBuffer) {
	if p == nil {
		return
	}
	p.mu.Lock()
	// Read buffers come first: once a relay's buffers have grown to its
	// lines, frame buffers are rarely lent (only lines longer than
	// expected are joined), and spare ones kept the read buffers out, to
	// be allocated again.
	for p.spare+len(rb.b) > p.limit && p.dropFrameLocked() {
	}
	if p.spare+len(rb.b) <= p.limit {
		p.reads = append(p.reads, rb)
		p.spare += len(rb.b)
	}
	p.mu.Unlock()
}

// dropFrameLocked lets one spare frame buffer go, if there is one.
func (p *bufferPool) dropFrameLocked() bool {
	for size, l := range p.frames {
		if n := len(l); n > 0 {
			l[n-1] = nil
			p.frames[size] = l[:n-1]
			p.spare -= size
			return true
		}
	}
	return false
}

// classSize rounds n up to a frame buffer size: four sizes per doubling,
// so a buffer wastes at most a quarter of itself, and frames of one size
// share buffers.
func classSize(n int) int {
	step := 1 << (bits.Len(uint(n)) - 3) // an eighth of the next power of two
	return (n + step - 1) / step * step
}

// getFrame returns a frame buffer of length n, its content undefined, or
// nil if the pool does not serve that size (or is nil).
func (p *bufferPool) getFrame(n int) []byte {
	if p == nil || n < poolMin {
		return nil
	}
	size := classSize(n)
	p.mu.Lock()
	defer p.mu.Unlock()
	if l := p.frames[size]; len(l) > 0 {
		buf := l[len(l)-1]
		l[len(l)-1] = nil
		p.frames[size] = l[:len(l)-1]
		p.spare -= size
		return buf[:n]
	}
	p.newFrames.Add(1)
	return make([]byte, n, size)
}

// putFrame takes back a buffer getFrame returned.
func (p *bufferPool) putFrame(f []byte) {
	size := cap(f)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.spare+size > p.limit {
		return // the GC takes it
	}
	p.frames[size] = append(p.frames[size], f[:size])
	p.spare += size
}
