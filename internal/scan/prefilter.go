package scan

import (
	"cmp"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// The instruction rules run a few hundred alternatives on every sentence.
// Go's regexp runs an alternation in linear time, but it carries every
// branch through every byte, which is too slow for 1,000 tools in
// 100 ms. So each pattern of the prefilter is split at its top-level '|'
// into branches, and from each branch's syntax tree comes a set of
// literals, one of which every match of the branch contains. One pass of
// an Aho-Corasick automaton over a text gives the branches whose
// literals it holds; only those branches are run (a branch with no
// literal always runs). A text matches a pattern exactly when it matches
// one of its branches, so the prefilter never changes a boolean answer;
// TestPrefilterExact checks it on every text of the test data, and the
// patterns whose matched text is used (FindString) run whole, after the
// prefilter said they match.

// noPrefilter turns the prefilter off (tests compare both ways).
var noPrefilter = false

// prefiltered are the patterns matched through the prefilter.
func prefiltered() []*lazyRe {
	return []*lazyRe{&reAddr, &reOverride, &reScope, &reModal, &reHarm, &reSendTo, &rePermits, &reLeadRequest, &reWeakHarm, &reLeadImperative, &reReachOut,
		&reSendVerb, &reSecrecy, &reMarker, &reResultMarker, &reSensStrong, &reSensWeak, &reRequest, &reDest,
		&reReqScope, &reSelfRestrict, &reSelfUse, &reParamCombo, &reDefer, &reOnlyWhenAsked, &reParamValue, &reSensNounWord, &reNegation, &reOutboundWord, &reUntrusted, &rePrivate, &reOutbound, &reURL, &reGoes, &reValueSecrecy, &reContentsOf}
}

// maxBranches bounds the branches a hits set holds; a branch past it
// always runs.
const maxBranches = 64 * len(hits{})

// hits is a set of branches, by index in the prefilter's table.
type hits [16]uint64

func (h *hits) has(i int) bool { return i < maxBranches && h[i>>6]&(1<<(i&63)) != 0 }

func (h *hits) or(o *hits) {
	for i := range h {
		h[i] |= o[i]
	}
}

type branch struct {
	re     *regexp.Regexp
	always bool
}

type prefilterTable struct {
	branches []branch
	// The automaton: byte classes, transitions by state and class, and
	// for each state the index in sets of the branches it completes (-1
	// for none).
	class  [256]uint8
	nclass int
	delta  []int32
	outIdx []int32
	sets   []hits
}

var table = sync.OnceValue(buildTable)

func buildTable() *prefilterTable {
	t := &prefilterTable{}
	lits := map[string][]int{} // literal -> branches
	for _, l := range prefiltered() {
		l.first = len(t.branches)
		for _, src := range topLevelBranches(l.src) {
			id := len(t.branches)
			b := branch{re: regexp.MustCompile(src)}
			re, err := syntax.Parse(src, syntax.Perl)
			var ls []string
			ok := err == nil
			if ok {
				ls, ok = required(re.Simplify())
			}
			if !ok || id >= maxBranches {
				b.always = true
			}
			for _, s := range ls {
				lits[s] = append(lits[s], id)
			}
			t.branches = append(t.branches, b)
		}
		l.n = len(t.branches) - l.first
		l.split = true
	}
	t.build(lits)
	return t
}

// build makes the Aho-Corasick automaton of the literals.
func (t *prefilterTable) build(lits map[string][]int) {
	t.nclass = 1
	for s := range lits {
		for i := 0; i < len(s); i++ {
			if t.class[s[i]] == 0 {
				t.class[s[i]] = uint8(t.nclass)
				t.nclass++
			}
		}
	}
	nc := t.nclass
	// The trie: children as a dense table, -1 for none.
	child := make([]int32, nc)
	for i := range child {
		child[i] = -1
	}
	out := []hits{{}}
	for s, ids := range lits {
		st := 0
		for i := 0; i < len(s); i++ {
			c := int(t.class[s[i]])
			if child[st*nc+c] < 0 {
				child[st*nc+c] = int32(len(out))
				out = append(out, hits{})
				for range nc {
					child = append(child, -1)
				}
			}
			st = int(child[st*nc+c])
		}
		for _, id := range ids {
			if id < maxBranches {
				out[st][id>>6] |= 1 << (id & 63)
			}
		}
	}
	n := len(out)
	t.delta = make([]int32, n*nc)
	fail := make([]int32, n)
	queue := make([]int32, 0, n)
	for c := range nc {
		if v := child[c]; v >= 0 {
			t.delta[c] = v
			queue = append(queue, v)
		}
	}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for c := range nc {
			v := child[int(u)*nc+c]
			if v < 0 {
				t.delta[int(u)*nc+c] = t.delta[int(fail[u])*nc+c]
				continue
			}
			t.delta[int(u)*nc+c] = v
			if u != 0 {
				fail[v] = t.delta[int(fail[u])*nc+c]
			}
			out[v].or(&out[fail[v]])
			queue = append(queue, v)
		}
	}
	t.outIdx = make([]int32, n)
	for i := range out {
		t.outIdx[i] = -1
		if out[i] != (hits{}) {
			t.outIdx[i] = int32(len(t.sets))
			t.sets = append(t.sets, out[i])
		}
	}
}

// litHits sets in h the branches whose literals the text holds (the
// text case-folded as the literals are).
func litHits(text string, h *hits) {
	t := table()
	st := int32(0)
	var buf [utf8.UTFMax]byte
	step := func(b byte) {
		st = t.delta[int(st)*t.nclass+int(t.class[b])]
		if o := t.outIdx[st]; o >= 0 {
			h.or(&t.sets[o])
		}
	}
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			step(c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(text[i:])
		i += n
		for _, b := range buf[:utf8.EncodeRune(buf[:], canon(r))] {
			step(b)
		}
	}
}

// match reports whether the pattern matches text, running only the
// branches whose literals h (litHits of text) holds.
func (l *lazyRe) match(text string, h *hits) bool {
	if noPrefilter {
		return l.MatchString(text)
	}
	t := table()
	if !l.split {
		return l.MatchString(text)
	}
	for i := l.first; i < l.first+l.n; i++ {
		b := &t.branches[i]
		if (b.always || h.has(i)) && b.re.MatchString(text) {
			return true
		}
	}
	return false
}

// findAll returns the spans of the matches of the pattern's branches
// whose literals h holds, in order of their start: the matches of the
// whole pattern and, where two branches overlap, both.
func (l *lazyRe) findAll(text string, h *hits) [][]int {
	if noPrefilter || h == nil {
		return l.FindAllStringIndex(text, -1)
	}
	t := table()
	if !l.split {
		return l.FindAllStringIndex(text, -1)
	}
	var out [][]int
	for i := l.first; i < l.first+l.n; i++ {
		b := &t.branches[i]
		if b.always || h.has(i) {
			out = append(out, b.re.FindAllStringIndex(text, -1)...)
		}
	}
	slices.SortFunc(out, func(a, b []int) int { return cmp.Or(a[0]-b[0], a[1]-b[1]) })
	return out
}

// topLevelBranches splits a pattern at its top-level '|', a leading
// (?i) carried to every branch.
func topLevelBranches(src string) []string {
	flags := ""
	if strings.HasPrefix(src, "(?i)") {
		flags, src = "(?i)", src[4:]
	}
	var out []string
	depth, start, inClass := 0, 0, false
	for i := 0; i < len(src); i++ {
		switch c := src[i]; {
		case c == '\\':
			i++
		case inClass:
			inClass = c != ']'
		case c == '[':
			inClass = true
			if i+1 < len(src) && src[i+1] == '^' {
				i++
			}
			if i+1 < len(src) && src[i+1] == ']' {
				i++
			}
		case c == '(':
			depth++
		case c == ')':
			depth--
		case c == '|' && depth == 0:
			out = append(out, flags+src[start:i])
			start = i + 1
		}
	}
	return append(out, flags+src[start:])
}

// maxLits bounds the literals of one branch.
const maxLits = 96

// required returns literals (case-folded by canon) one of which every
// match of re contains, and false when the tree offers none.
func required(re *syntax.Regexp) ([]string, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		var b strings.Builder
		for _, r := range re.Rune {
			b.WriteRune(canon(r))
		}
		return []string{b.String()}, true
	case syntax.OpCharClass:
		var out []string
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				if len(out) == 8 {
					return nil, false
				}
				out = append(out, string(canon(r)))
			}
		}
		out = minimalSet(out)
		return out, len(out) > 0
	case syntax.OpCapture, syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
	case syntax.OpAlternate:
		var out []string
		for _, s := range re.Sub {
			l, ok := required(s)
			if !ok {
				return nil, false
			}
			out = append(out, l...)
		}
		out = minimalSet(out)
		return out, len(out) <= maxLits
	case syntax.OpConcat:
		var best []string
		for _, s := range re.Sub {
			if l, ok := required(s); ok && better(l, best) {
				best = l
			}
		}
		return best, best != nil
	}
	return nil, false
}

// better prefers the set whose shortest literal is longer, then the
// smaller set.
func better(a, b []string) bool {
	if b == nil {
		return true
	}
	ma, mb := shortest(a), shortest(b)
	return ma > mb || ma == mb && len(a) < len(b)
}

func shortest(ls []string) int {
	m := -1
	for _, s := range ls {
		if m < 0 || len(s) < m {
			m = len(s)
		}
	}
	return m
}

// minimalSet drops duplicates and every literal that holds another one
// (its presence implies the other's).
func minimalSet(ls []string) []string {
	var out []string
	for i, s := range ls {
		keep := true
		for j, o := range ls {
			if j != i && strings.Contains(s, o) && (len(o) < len(s) || j < i) {
				keep = false
				break
			}
		}
		if keep {
			out = append(out, s)
		}
	}
	return out
}

// canon maps every character of one case-folding orbit to the same
// character (ASCII lowercase where the orbit has one), so that a literal
// a case-insensitive pattern matches is found in the folded text.
func canon(r rune) rune {
	if r < utf8.RuneSelf {
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		return r
	}
	m := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		m = min(m, f)
	}
	if 'A' <= m && m <= 'Z' {
		m += 'a' - 'A'
	}
	return m
}
