package syserr

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"syscall"
	"testing"

	"github.com/mcpward/mcpward/internal/result"
)

// An error the environment caused is exit 4 whatever wrapped it; any
// other unmarked error is a bug (exit 5).
func TestExitCodeOfEnvironment(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want int
	}{
		{"busy port", fmt.Errorf("listen on x: %w", &net.OpError{Op: "listen", Net: "tcp", Err: os.NewSyscallError("bind", syscall.EADDRINUSE)}), result.Usage},
		{"address not here", &net.OpError{Op: "listen", Net: "tcp", Err: os.NewSyscallError("bind", syscall.EADDRNOTAVAIL)}, result.Usage},
		{"permission", fmt.Errorf("write the site: %w", &fs.PathError{Op: "open", Path: "/x", Err: syscall.EACCES}), result.Usage},
		{"parent is a file", &fs.PathError{Op: "mkdir", Path: "/x", Err: syscall.ENOTDIR}, result.Usage},
		{"read-only fs", &fs.PathError{Op: "open", Path: "/x", Err: syscall.EROFS}, result.Usage},
		{"disk full", &fs.PathError{Op: "write", Path: "/x", Err: syscall.ENOSPC}, result.Usage},
		{"plain error", errors.New("nil map"), result.Internal},
		{"other errno", &fs.PathError{Op: "read", Path: "/x", Err: syscall.EINVAL}, result.Internal},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := result.ExitCode(tt.err, Refused); got != tt.want {
				t.Errorf("ExitCode(%v, Refused) = %d, want %d", tt.err, got, tt.want)
			}
		})
	}
	// Without the classifier (the browser engine) a refusal is a bug.
	if got := result.ExitCode(syscall.EADDRINUSE, nil); got != result.Internal {
		t.Errorf("ExitCode(EADDRINUSE, nil) = %d, want %d", got, result.Internal)
	}
}
