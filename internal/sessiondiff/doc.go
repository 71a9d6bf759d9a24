// Package sessiondiff compares two recorded sessions: tools added,
// removed and changed (the caller supplies the definition comparison, so
// the rule ids are those of tool baselines and internal/diff), tools/call
// outcomes matched by tool and canonical arguments (the i-th call of a
// tool with the same arguments in one session pairs with the i-th in the
// other), and notable duration changes.
//
//	r := sessiondiff.Compare(a, b, &sessiondiff.Options{Threshold: 100 * time.Millisecond, Ratio: 2})
//	sessiondiff.WriteText(os.Stdout, r)
//	if r.Regression { … }
//
// The package is pure: sides are built by the caller from the call store.
package sessiondiff
