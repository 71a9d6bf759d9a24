package hub

import (
	"sort"

	"github.com/mcpward/mcpward/internal/feed"
)

// A seqSet is a set of seq numbers kept as sorted, disjoint, non-adjacent
// ranges. Dedup needs a set, not a high-water mark: records filled in from
// the log arrive after later ones from the feed (mcpsnoop's high-water
// mark silently dropped such records).
type seqSet struct{ r []feed.Range }

// find returns the index of the first range with To >= q.
func (s *seqSet) find(q uint64) int {
	return sort.Search(len(s.r), func(i int) bool { return s.r[i].To >= q })
}

// add inserts q and reports whether it was new.
func (s *seqSet) add(q uint64) bool {
	n := len(s.r)
	if n > 0 && s.r[n-1].To+1 == q { // the common case: the next seq
		s.r[n-1].To = q
		return true
	}
	return s.addRange(feed.Range{From: q, To: q}) > 0
}

// addRange inserts r and returns how many of its seqs were new.
func (s *seqSet) addRange(r feed.Range) uint64 {
	if r.Len() == 0 {
		return 0
	}
	// Ranges that overlap or touch r are merged with it.
	lo := sort.Search(len(s.r), func(i int) bool { return s.r[i].To+1 >= r.From })
	hi := lo
	covered := uint64(0)
	m := r
	for hi < len(s.r) && s.r[hi].From <= r.To+1 {
		x := s.r[hi]
		a, b := max(x.From, r.From), min(x.To, r.To)
		if a <= b {
			covered += b - a + 1
		}
		m.From, m.To = min(m.From, x.From), max(m.To, x.To)
		hi++
	}
	s.r = append(s.r[:lo], append([]feed.Range{m}, s.r[hi:]...)...)
	return r.Len() - covered
}

// count is the number of seqs in the set.
func (s *seqSet) count() uint64 {
	var n uint64
	for _, r := range s.r {
		n += r.Len()
	}
	return n
}

// max is the highest seq in the set (0 if empty).
func (s *seqSet) max() uint64 {
	if len(s.r) == 0 {
		return 0
	}
	return s.r[len(s.r)-1].To
}

// covers reports whether every seq of o is in s.
func (s *seqSet) covers(o *seqSet) bool {
	for _, r := range o.r {
		i := s.find(r.From)
		if i >= len(s.r) || s.r[i].From > r.From || s.r[i].To < r.To {
			return false
		}
	}
	return true
}
