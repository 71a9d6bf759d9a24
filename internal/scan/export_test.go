package scan

import (
	"fmt"
	"reflect"
)

// PrefilterMismatches returns the first text whose findings differ with
// and without the prefilter's anchors, or "". Each distinct text is
// checked once: a corpus repeats its parameter texts (64,337 strings of
// the 1,640 corpus tools hold 10,620 distinct ones), and a text's
// findings depend on nothing else.
func PrefilterMismatches(texts []string) string {
	seen := make(map[string]bool, len(texts))
	for _, s := range texts {
		if seen[s] {
			continue
		}
		seen[s] = true
		for _, mode := range []textMode{inDefinition, inParam, inResult} {
			a := instructions(visible(s), mode)
			noPrefilter = true
			b := instructions(visible(s), mode)
			noPrefilter = false
			if !reflect.DeepEqual(a, b) {
				return fmt.Sprintf("prefilter hides a match in %q: %v vs %v", s, a, b)
			}
		}
	}
	return ""
}

// CollectStrings appends every string of a decoded JSON value.
var CollectStrings = collectStrings
