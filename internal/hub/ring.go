package hub

// blockSize is the number of elements per ring block.
const blockSize = 1024

// A ring is a bounded FIFO of fixed-size blocks: push drops the oldest
// element when full. Blocks are allocated as it grows and freed as it
// shrinks, so a session that never fills its ring holds little, and
// growth never copies (a ring of 200,000 summaries grown by append spent
// more CPU copying than ingest did).
type ring[T any] struct {
	blocks [][]T // every block but the last is full
	head   int   // index of the oldest element in blocks[0]
	n      int
}

// push appends v; when the ring holds capacity elements the oldest is
// removed first and returned as evicted.
func (r *ring[T]) push(v T, capacity int) (old T, evicted bool) {
	if r.n >= capacity && r.n > 0 {
		old, evicted = r.pop()
	}
	if k := len(r.blocks); k == 0 || len(r.blocks[k-1]) == blockSize {
		r.blocks = append(r.blocks, make([]T, 0, blockSize))
	}
	k := len(r.blocks) - 1
	r.blocks[k] = append(r.blocks[k], v)
	r.n++
	return old, evicted
}

// pop removes and returns the oldest element.
func (r *ring[T]) pop() (v T, ok bool) {
	if r.n == 0 {
		return v, false
	}
	var zero T
	b := r.blocks[0]
	v = b[r.head]
	b[r.head] = zero
	r.head++
	r.n--
	if r.head == len(b) {
		r.blocks[0] = nil
		r.blocks = r.blocks[1:]
		r.head = 0
	}
	if r.n == 0 {
		r.blocks, r.head = nil, 0
	}
	return v, true
}

func (r *ring[T]) len() int { return r.n }

// at returns the i-th oldest element.
func (r *ring[T]) at(i int) T {
	j := r.head + i
	return r.blocks[j/blockSize][j%blockSize]
}

// set replaces the i-th oldest element.
func (r *ring[T]) set(i int, v T) {
	j := r.head + i
	r.blocks[j/blockSize][j%blockSize] = v
}
