//go:build unix && !linux

package proxy

import "syscall"

// sysProcAttr puts the server in its own process group, so that a
// forwarded signal reaches its children too. There is no parent-death
// signal outside Linux: the reaper (startReaper) stands in for it.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
