//go:build unix && !linux

package transport

import "syscall"

// sysProcAttr puts the child in its own process group, so that signals
// reach its children too. There is no parent-death signal outside Linux.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
