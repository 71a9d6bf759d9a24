//go:build linux

package procgroup

import "syscall"

// SysProcAttr puts the child in its own process group, so that signals
// reach its children too, and has the kernel kill it if the parent dies
// (even by SIGKILL).
func SysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
