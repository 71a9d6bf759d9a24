//go:build unix

package transport

import (
	"os"
	"syscall"
)

// terminateGroup asks the process group led by p to stop.
func terminateGroup(p *os.Process) error { return syscall.Kill(-p.Pid, syscall.SIGTERM) }

// killGroup kills the process group led by p. The group outlives its
// leader while any member lives, so this also reaches orphaned children
// after the leader exited.
func killGroup(p *os.Process) error { return syscall.Kill(-p.Pid, syscall.SIGKILL) }
