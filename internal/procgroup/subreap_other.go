//go:build !linux

package procgroup

// Subreap is Linux's (PR_SET_CHILD_SUBREAPER); elsewhere a grandchild
// that leaves the process group is not adopted.
func Subreap() error { return nil }

// EndAdopted has nothing to end where Subreap adopts nothing.
func EndAdopted(keep ...int) {}
