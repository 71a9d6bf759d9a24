package cmdutil

import (
	"errors"
	"syscall"

	"github.com/mcpward/mcpward/internal/result"
)

// environmentErrs are the machine refusing what it was asked, whichever
// code asked: a busy or foreign --listen address, an --out that cannot be
// written, a full disk. They are exit 4 with the reason, never 5 ("a
// bug"). They live here, not in the pure internal/result, because naming
// an errno takes syscall.
var environmentErrs = []error{
	syscall.EADDRINUSE, syscall.EADDRNOTAVAIL,
	syscall.ENOTDIR, syscall.EISDIR, syscall.EROFS, syscall.ENOSPC, syscall.EDQUOT,
	syscall.ENAMETOOLONG, syscall.ELOOP, syscall.EMFILE, syscall.ENFILE,
}

// CodeOf is [result.CodeOf] with the system's refusals (environmentErrs,
// found through any %w chain: a *net.OpError or *fs.PathError wraps the
// errno) as usage errors too. The root command and the fleet both map
// with it.
func CodeOf(err error) (int, bool) {
	if code, ok := result.CodeOf(err); ok {
		return code, true
	}
	for _, e := range environmentErrs {
		if errors.Is(err, e) {
			return result.Usage, true
		}
	}
	return result.Internal, false
}
