//go:build unix

package procgroup

import (
	"os"
	"syscall"
)

// Signal sends sig to the process group led by p.
func Signal(p *os.Process, sig os.Signal) error {
	s, ok := sig.(syscall.Signal)
	if !ok {
		return p.Signal(sig)
	}
	return syscall.Kill(-p.Pid, s)
}

// Terminate asks the process group led by p to stop.
func Terminate(p *os.Process) error { return syscall.Kill(-p.Pid, syscall.SIGTERM) }

// Kill kills the process group led by p. The group outlives its leader
// while any member lives, so this also reaches the orphans of a leader
// that already exited.
func Kill(p *os.Process) error { return syscall.Kill(-p.Pid, syscall.SIGKILL) }
