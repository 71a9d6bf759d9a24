//go:build !unix

package proxy

import (
	"os"
	"syscall"
)

func sysProcAttr() *syscall.SysProcAttr { return nil }

// Without process groups only the server itself can be reached.
func signalGroup(p *os.Process, sig os.Signal) error { return p.Signal(sig) }

func killGroup(p *os.Process) error { return p.Kill() }

func startReaper(int) func() { return func() {} }
