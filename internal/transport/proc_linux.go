//go:build linux

package transport

import "syscall"

// sysProcAttr puts the child in its own process group, so that signals
// reach its children too, and has the kernel kill it if mcpward dies.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
