// Package syserr names the machine's refusals: the errno values that mean
// the system, not mcpward and not the server, turned a request down. It is
// the platform half of the exit mapper: [result.ExitCode] is pure (it
// builds for WebAssembly, where there are no errnos), so the CLI hands it
// [Refused].
package syserr

import (
	"errors"
	"syscall"
)

// refusals are the machine refusing what it was asked, whichever code
// asked: a busy or foreign --listen address, an --out that cannot be
// written, a full disk. They are exit 4 with the reason, never 5 ("a
// bug").
var refusals = []error{
	syscall.EADDRINUSE, syscall.EADDRNOTAVAIL,
	syscall.ENOTDIR, syscall.EISDIR, syscall.EROFS, syscall.ENOSPC, syscall.EDQUOT,
	syscall.ENAMETOOLONG, syscall.ELOOP, syscall.EMFILE, syscall.ENFILE,
}

// Refused reports whether err is one of the system's refusals, found
// through any %w chain (a *net.OpError or *fs.PathError wraps the errno).
func Refused(err error) bool {
	for _, e := range refusals {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}
