package proxy

import (
	"math/bits"
	"sync"
)

// A framePool recycles the buffers the relays assemble long frames into.
// A frame that spans pipe reads is joined into memory of its own, which
// the recorder owns until the Log has written it. Fresh memory for every
// 1 MB frame made the relay fault in new pages and the runtime collect
// garbage once per few frames; with the pool, the Log hands each buffer
// back once the frame is in the file and the relay assembles the next
// frame into it.
//
// The pool knows the buffers it lent by their first byte, so a frame that
// did not come from it (an HTTP body, a frame a Filter replaced) is never
// taken in: only memory nobody else can reach is reused.
type framePool struct {
	mu    sync.Mutex
	lent  map[*byte][]byte // buffers handed out, whole, by first byte
	free  map[int][][]byte // spare buffers by class size
	spare int              // bytes in free
}

// Frames shorter than poolMin are left to the allocator: they are cheap
// and the relay copies them in slabs shared by several frames.
const poolMin = 64 << 10

// maxSpare bounds the bytes a pool keeps unused (four 8 MB frames).
const maxSpare = 32 << 20

func newFramePool() *framePool {
	return &framePool{lent: map[*byte][]byte{}, free: map[int][][]byte{}}
}

// classSize rounds n up to a buffer size: four sizes per doubling, so a
// buffer wastes at most a quarter of itself and a frame of a given size
// always finds the buffers of the frames of that size before it.
func classSize(n int) int {
	step := 1 << (bits.Len(uint(n)) - 3) // an eighth of the next power of two
	return (n + step - 1) / step * step
}

// get returns a buffer of length n, its content undefined, or nil if the
// pool does not serve that size (or is nil).
func (p *framePool) get(n int) []byte {
	if p == nil || n < poolMin {
		return nil
	}
	size := classSize(n)
	p.mu.Lock()
	defer p.mu.Unlock()
	var buf []byte
	if l := p.free[size]; len(l) > 0 {
		buf, l[len(l)-1] = l[len(l)-1], nil
		p.free[size] = l[:len(l)-1]
		p.spare -= size
	} else {
		buf = make([]byte, size)
	}
	p.lent[&buf[0]] = buf
	return buf[:n]
}

// put takes back a frame the recorder is done with. A frame the pool did
// not lend is ignored.
func (p *framePool) put(frame []byte) {
	if p == nil || cap(frame) < poolMin {
		return
	}
	key := &frame[:1][0]
	p.mu.Lock()
	defer p.mu.Unlock()
	buf, ok := p.lent[key]
	if !ok {
		return
	}
	delete(p.lent, key)
	if p.spare+len(buf) > maxSpare {
		return // the GC takes it
	}
	p.free[len(buf)] = append(p.free[len(buf)], buf)
	p.spare += len(buf)
}
