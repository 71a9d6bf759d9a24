package scan

import (
	"regexp"
	"sync"
)

// A lazyRe is a pattern compiled on first use, so that importing the
// package costs nothing (TestPackageInitIsSmall in internal/cli).
type lazyRe struct {
	once sync.Once
	src  string
	re   *regexp.Regexp
	// The pattern's branches in the prefilter's table (prefilter.go),
	// set when the table is built.
	first, n int
	split    bool
}

func (l *lazyRe) get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.src) })
	return l.re
}

func (l *lazyRe) MatchString(s string) bool  { return l.get().MatchString(s) }
func (l *lazyRe) FindString(s string) string { return l.get().FindString(s) }
func (l *lazyRe) FindAllStringIndex(s string, n int) [][]int {
	return l.get().FindAllStringIndex(s, n)
}
func (l *lazyRe) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return l.get().FindAllStringSubmatchIndex(s, n)
}
