// Package arch holds no code: its test checks the dependency rules of the
// whole tree (STYLE §1, §7), so that the layout keeps showing the
// architecture.
package arch
