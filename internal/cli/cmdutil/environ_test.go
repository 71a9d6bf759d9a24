package cmdutil

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
// other unmarked error is still the caller's to classify (a bug by default).
func TestCodeOfEnvironment(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want int
		ok   bool
	}{
		{"busy port", fmt.Errorf("listen on x: %w", &net.OpError{Op: "listen", Net: "tcp", Err: os.NewSyscallError("bind", syscall.EADDRINUSE)}), result.Usage, true},
		{"address not here", &net.OpError{Op: "listen", Net: "tcp", Err: os.NewSyscallError("bind", syscall.EADDRNOTAVAIL)}, result.Usage, true},
		{"permission", fmt.Errorf("write the site: %w", &fs.PathError{Op: "open", Path: "/x", Err: syscall.EACCES}), result.Usage, true},
		{"parent is a file", &fs.PathError{Op: "mkdir", Path: "/x", Err: syscall.ENOTDIR}, result.Usage, true},
		{"read-only fs", &fs.PathError{Op: "open", Path: "/x", Err: syscall.EROFS}, result.Usage, true},
		{"disk full", &fs.PathError{Op: "write", Path: "/x", Err: syscall.ENOSPC}, result.Usage, true},
		{"plain error", errors.New("nil map"), result.Internal, false},
		{"other errno", &fs.PathError{Op: "read", Path: "/x", Err: syscall.EINVAL}, result.Internal, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, ok := CodeOf(tt.err)
			if code != tt.want || ok != tt.ok {
				t.Errorf("CodeOf(%v) = %d, %v; want %d, %v", tt.err, code, ok, tt.want, tt.ok)
			}
		})
	}
}
