package scan

import (
	"fmt"
	"reflect"
)

// PrefilterMismatches returns the first text whose findings differ with
// and without the prefilter's anchors, or "".
func PrefilterMismatches(texts []string) string {
	for _, s := range texts {
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
