//go:build unix && !linux

package procgroup

import "syscall"

// SysProcAttr puts the child in its own process group, so that signals
// reach its children too. There is no parent-death signal outside Linux.
func SysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
