//go:build !linux

package proxy

import (
	"io"
	"os"
)

// canSplice: splice(2) and tee(2) are Linux's.
func canSplice(dst, src *os.File) bool { return false }

// splice leaves every relay to the copy path.
func (r *relayRun) splice(dst io.Writer, src io.Reader) bool { return false }
