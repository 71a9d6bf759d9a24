package diff

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcpward/mcpward/internal/snapshot"
)

// A Report is the outcome of [DiffReport].
type Report struct {
	// Findings are what [Diff] returns.
	Findings []Finding
	// FirstObserved names what one side holds where the other side's
	// snapshot was converted from a tool that never captured it
	// (snapshot.Observation.Uncaptured): a path pattern each, with the
	// number of entities it covers, sorted. Those differences say nothing
	// about the server, so they are not findings; the first snapshot
	// mcpward records of the server compares them from then on.
	FirstObserved []string
}

// Note returns the one line a Result carries about r.FirstObserved (what
// and why, as a "not evaluated" entry); ok is false when there is none.
func (r Report) Note() (what, why string, ok bool) {
	if len(r.FirstObserved) == 0 {
		return "", "", false
	}
	return "first observed: " + strings.Join(r.FirstObserved, ", "),
		"the other snapshot was converted from a tool that never captured them: nothing to compare, not drift; 'mcpward check --update' records them",
		true
}

// DiffReport is [Diff] that also says what it did not compare because one
// side never captured it (see [Report.FirstObserved]). A difference in a
// part both sides captured is reported exactly as by Diff; so is any
// difference where the side that did not capture a part holds a value
// there anyway.
func DiffReport(old, new *snapshot.Snapshot) Report {
	d := newDiffer(old, new)
	d.run(old, new)
	return Report{Findings: d.out, FirstObserved: d.firstObserved()}
}

// uncaptured is one side's Observation.Uncaptured, each pattern split
// into its segments. A pattern the diff does not understand matches
// nothing: the difference is reported, as it would be without the list.
type uncaptured [][]string

func parseUncaptured(list []string) uncaptured {
	if len(list) == 0 {
		return nil
	}
	out := make(uncaptured, 0, len(list))
	for _, p := range list {
		if p != "" {
			out = append(out, strings.Split(p, "."))
		}
	}
	return out
}

// has reports whether the part of the surface at path (one element per
// key: an entity's id is one element, dots and all) was not captured.
func (u uncaptured) has(path ...string) bool {
	for _, p := range u {
		if len(p) != len(path) {
			continue
		}
		ok := true
		for i, seg := range p {
			if !matchSegment(seg, path[i]) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// matchSegment matches one key against one pattern segment: "*" any
// key, "!a|b" any key but a and b, else the key itself. Wildcards never
// match a "@" element ("@nextPages"), which only its own name matches.
func matchSegment(seg, key string) bool {
	wild := !strings.HasPrefix(key, "@")
	switch {
	case seg == "*":
		return wild
	case strings.HasPrefix(seg, "!"):
		if !wild {
			return false
		}
		for alt := range strings.SplitSeq(seg[1:], "|") {
			if alt == key {
				return false
			}
		}
		return true
	}
	return seg == key
}

// nextPages is the path element of the entries on a list's pages after
// the first.
const nextPages = "@nextPages"

// any reports whether either side has an uncaptured list: snapshots
// mcpward records have none, and then no comparison looks further.
func (d *differ) anyUncaptured() bool { return d.uo != nil || d.un != nil }

// seen counts n entities of the part named by the pattern-like name what.
func (d *differ) seen(what string, n int) {
	if d.first == nil {
		d.first = map[string]int{}
	}
	d.first[what] += n
}

func (d *differ) firstObserved() []string {
	if len(d.first) == 0 {
		return nil
	}
	out := make([]string, 0, len(d.first))
	for _, k := range slices.Sorted(maps.Keys(d.first)) {
		if strings.ContainsAny(k, "*@") || !strings.Contains(k, ".") {
			// Entities of a list: say how many.
			out = append(out, fmt.Sprintf("%s (%d)", k, d.first[k]))
		} else {
			out = append(out, k)
		}
	}
	return out
}

// strip returns a and b without the keys one of them lacks where that
// side did not capture them (path plus the key): those keys say nothing
// about a change. name is path generalised for the note ("tools.*").
// The maps are copied before a key is dropped, never changed.
func (d *differ) strip(path []string, name string, a, b map[string]any) (map[string]any, map[string]any) {
	if !d.anyUncaptured() {
		return a, b
	}
	b = d.stripOne(d.uo, path, name, a, b)
	a = d.stripOne(d.un, path, name, b, a)
	return a, b
}

// stripOne drops from has the keys lacks lacks and u did not capture.
func (d *differ) stripOne(u uncaptured, path []string, name string, lacks, has map[string]any) map[string]any {
	if u == nil {
		return has
	}
	var out map[string]any
	for k := range has {
		if _, ok := lacks[k]; ok {
			continue
		}
		if !u.has(append(slices.Clip(path), k)...) {
			continue
		}
		if out == nil {
			out = maps.Clone(has)
		}
		delete(out, k)
		d.seen(name+"."+k, 1)
	}
	if out == nil {
		return has
	}
	return out
}

// section reports whether a whole section (resources, prompts, the
// manifest) is to be left out: one side has none of it and did not
// capture it. n is the number of entities the other side holds.
func (d *differ) section(name string, oEmpty, nEmpty bool, n int) bool {
	switch {
	case !d.anyUncaptured() || oEmpty == nEmpty:
		return false
	case oEmpty && d.uo.has(name), nEmpty && d.un.has(name):
		d.seen(name, n)
		return true
	}
	return false
}

// unpaged reports whether an entity of list that only one side holds may
// be one of the entries on pages after the first, which the other side
// did not read: the side that lacks it did not capture those pages
// (lacksU) and the side that holds it read more than one page.
func (d *differ) unpaged(list string, lacksU uncaptured, holderPages int) bool {
	if lacksU == nil || holderPages <= 1 || !lacksU.has(list, nextPages) {
		return false
	}
	d.seen(list+"."+nextPages, 1)
	return true
}

func listPages(l *snapshot.ListInfo) int {
	if l == nil {
		return 0
	}
	return l.Pages
}

func toolsPages(l *snapshot.ToolsList) int {
	if l == nil {
		return 0
	}
	return l.Pages
}

// uncapturedOnly reports whether a value only one side holds (oHas, nHas)
// is at a path the other side did not capture, counting it if so.
func (d *differ) uncapturedOnly(oHas, nHas bool, path ...string) bool {
	switch {
	case oHas == nHas || !d.anyUncaptured():
		return false
	case !oHas && d.uo.has(path...), !nHas && d.un.has(path...):
		d.seen(strings.Join(path, "."), 1)
		return true
	}
	return false
}
