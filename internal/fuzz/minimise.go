package fuzz

import "slices"

// Minimise shrinks items by delta debugging (Zeller's ddmin) to a smaller
// list for which still(list) is true, calling still at most budget times.
// items itself is assumed to reproduce; the result is never empty when
// items is not, and is items unchanged when nothing smaller reproduces
// within the budget.
func Minimise[T any](items []T, budget int, still func([]T) bool) []T {
	cur := slices.Clone(items)
	n := 2
	for len(cur) >= 2 && budget > 0 {
		chunk := (len(cur) + n - 1) / n
		reduced := false
		// Try each chunk alone, then each complement.
		for pass := 0; pass < 2 && !reduced; pass++ {
			for start := 0; start < len(cur) && budget > 0; start += chunk {
				end := min(start+chunk, len(cur))
				var try []T
				if pass == 0 {
					try = slices.Clone(cur[start:end])
				} else {
					try = append(slices.Clone(cur[:start]), cur[end:]...)
				}
				if len(try) == 0 || len(try) == len(cur) {
					continue
				}
				budget--
				if still(try) {
					cur = try
					if pass == 0 {
						n = 2
					} else {
						n = max(n-1, 2)
					}
					reduced = true
					break
				}
			}
		}
		if !reduced {
			if n >= len(cur) {
				break
			}
			n = min(n*2, len(cur))
		}
	}
	return cur
}

// MinimiseCase shrinks c for a finding: first its frames, then the bytes
// of its last frame, while still(case) reproduces the finding, within
// budget calls of still. The bytes are cut only for findings that do not
// depend on what the frame means (a crash, a zombie, junk on stdout).
func MinimiseCase(c Case, rule string, budget int, still func(Case) bool) Case {
	used := 0
	count := func() bool { used++; return used <= budget }
	frames := Minimise(c.Frames, budget, func(fs []Frame) bool {
		if !count() {
			return false
		}
		t := c.Clone()
		t.Frames = fs
		return still(t)
	})
	out := c.Clone()
	out.Frames = frames
	switch rule {
	case RuleCrash, RuleZombie, RuleStdoutNotClean:
	default:
		return out
	}
	if len(out.Frames) == 0 || used >= budget {
		return out
	}
	lastIdx := len(out.Frames) - 1
	last := out.Frames[lastIdx]
	shrunk := Minimise(last.Bytes, budget-used, func(b []byte) bool {
		t := out.Clone()
		t.Frames[lastIdx].Bytes = b
		t.Frames[lastIdx].Answer = AnswerMaybe
		t.Frames[lastIdx].WantCodes = nil
		t.Frames[lastIdx].Invalid = false
		return still(t)
	})
	if len(shrunk) < len(last.Bytes) {
		out.Frames[lastIdx].Bytes = shrunk
		out.Frames[lastIdx].Answer = AnswerMaybe
		out.Frames[lastIdx].WantCodes = nil
		out.Frames[lastIdx].Invalid = false
	}
	return out
}
