package hub

// A ring is a fixed-capacity FIFO: push drops the oldest element when full.
type ring[T any] struct {
	buf  []T
	head int // index of the oldest element
	n    int
}

// push appends v; the backing array grows lazily up to capacity, so that
// many small sessions do not each hold a full-size array. When full, the
// oldest element is returned as evicted.
func (r *ring[T]) push(v T, capacity int) (old T, evicted bool) {
	if r.n < len(r.buf) {
		r.buf[(r.head+r.n)%len(r.buf)] = v
		r.n++
		return old, false
	}
	if len(r.buf) < capacity {
		if r.head != 0 {
			nb := make([]T, 0, min(2*len(r.buf), capacity))
			for i := 0; i < r.n; i++ {
				nb = append(nb, r.at(i))
			}
			r.buf, r.head = nb, 0
		}
		r.buf = append(r.buf, v)
		r.n++
		return old, false
	}
	old = r.buf[r.head]
	r.buf[r.head] = v
	r.head = (r.head + 1) % len(r.buf)
	return old, true
}

// pop removes and returns the oldest element.
func (r *ring[T]) pop() (v T, ok bool) {
	if r.n == 0 {
		return v, false
	}
	var zero T
	v = r.buf[r.head]
	r.buf[r.head] = zero
	r.head = (r.head + 1) % len(r.buf)
	r.n--
	if r.n == 0 {
		r.head = 0
		r.buf = r.buf[:0]
	}
	return v, true
}

func (r *ring[T]) len() int { return r.n }

// at returns the i-th oldest element.
func (r *ring[T]) at(i int) T { return r.buf[(r.head+i)%len(r.buf)] }
