// Package suggest finds what a user probably meant: the candidates
// closest to a misspelt name, by edit distance. It does no I/O.
package suggest

import (
	"slices"
	"strings"
)

// Distance is the Levenshtein distance between a and b, counted in
// runes: insertions, deletions and substitutions cost 1 each.
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			c := 1
			if ra[i-1] == rb[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// Closest returns up to n candidates within maxDist of word (compared
// without case), nearest first, ties in alphabetical order.
func Closest(word string, candidates []string, maxDist, n int) []string {
	return Ranked(word, candidates, n, func(_ string, d int) bool { return d <= maxDist })
}

// Ranked returns up to n of the candidates keep accepts, given each one's
// distance to word (compared without case), nearest first, ties in
// alphabetical order.
func Ranked(word string, candidates []string, n int, keep func(cand string, dist int) bool) []string {
	type cand struct {
		s string
		d int
	}
	var cs []cand
	lw := strings.ToLower(word)
	for _, c := range candidates {
		if d := Distance(lw, strings.ToLower(c)); keep(c, d) {
			cs = append(cs, cand{c, d})
		}
	}
	slices.SortFunc(cs, func(a, b cand) int {
		if a.d != b.d {
			return a.d - b.d
		}
		return strings.Compare(a.s, b.s)
	})
	var out []string
	for _, c := range cs[:min(n, len(cs))] {
		out = append(out, c.s)
	}
	return out
}
