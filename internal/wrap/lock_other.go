//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package wrap

import (
	"io/fs"
	"os"
)

// tryLock does not lock on this OS: concurrent wraps are caught, not
// prevented, by the check Commit makes before it renames (ErrChanged).
func tryLock(*os.File) (busy bool, err error) { return false, nil }

func unlock(*os.File) {}

// writable reports whether the file's write bit is set (on Windows, the
// read-only attribute clears it).
func writable(_ string, mode fs.FileMode) bool { return mode&0o200 != 0 }
