//go:build race

package scan_test

// raceEnabled: under the race detector the prefilter check of the benign
// corpus runs on a sample (corpusPrefilterStride): it runs on one
// goroutine, so the detector adds nothing to what it proves, and the
// whole check takes over ten minutes there.
const raceEnabled = true
