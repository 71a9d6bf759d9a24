//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package wrap

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// tryLock takes an exclusive flock on f without waiting. It reports
// busy when another open file description holds it (another mcpward, or
// another goroutine of this one).
func tryLock(f *os.File) (busy bool, err error) {
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return true, nil
	}
	return false, err
}

// unlock releases the flock (closing the file would too).
func unlock(f *os.File) { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }

// writable reports whether this process may write path: its owner write
// bit is set (root included: a file made read-only on purpose stays so)
// and access(2) agrees.
func writable(path string, mode fs.FileMode) bool {
	if mode&0o200 == 0 {
		return false
	}
	return syscall.Access(path, 2 /* W_OK */) == nil
}
