package hub

import "testing"

func TestRing(t *testing.T) {
	var r ring[int]
	const capacity = 2500
	var evicted []int
	for i := range 6000 {
		if old, ev := r.push(i, capacity); ev {
			evicted = append(evicted, old)
		}
	}
	if r.len() != capacity || len(evicted) != 6000-capacity || evicted[0] != 0 {
		t.Fatalf("len %d, %d evicted (first %d)", r.len(), len(evicted), evicted[0])
	}
	for i := range capacity {
		if got := r.at(i); got != 6000-capacity+i {
			t.Fatalf("at(%d) = %d, want %d", i, got, 6000-capacity+i)
		}
	}
	for i := range capacity {
		v, ok := r.pop()
		if !ok || v != 6000-capacity+i {
			t.Fatalf("pop %d = %d, %v", i, v, ok)
		}
	}
	if _, ok := r.pop(); ok || r.len() != 0 || r.blocks != nil {
		t.Errorf("ring not empty after popping all")
	}
	r.push(7, 1)
	if old, ev := r.push(8, 1); !ev || old != 7 || r.at(0) != 8 {
		t.Errorf("capacity 1: evicted %d %v, at(0) %d", old, ev, r.at(0))
	}
}
