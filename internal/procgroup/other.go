//go:build !unix

package procgroup

import (
	"os"
	"syscall"
)

// SysProcAttr is nil: there are no process groups to start in.
func SysProcAttr() *syscall.SysProcAttr { return nil }

// Without process groups only the child itself can be reached.

// Signal sends sig to the child.
func Signal(p *os.Process, sig os.Signal) error { return p.Signal(sig) }

// Terminate stops the child.
func Terminate(p *os.Process) error { return p.Kill() }

// Kill kills the child.
func Kill(p *os.Process) error { return p.Kill() }
