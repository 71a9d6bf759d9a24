//go:build linux

package proxy

import "syscall"

// sysProcAttr puts the server in its own process group, so that a
// forwarded signal reaches its children too, and has the kernel kill it if
// the shim dies (even by SIGKILL), as internal/transport does.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
