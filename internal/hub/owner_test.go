//go:build unix

package hub

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/feed"
)

// Issue 26 item 2: the hub listened in a state directory others could
// write to (and removed or dialled whatever socket was there). It now
// refuses, as an input error (exit 4) with the reason, and leaves the
// file alone.
func TestListenRefusesWritableDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	sock := feed.SocketPath(dir)
	if err := os.WriteFile(sock, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	ln, err := listen(sock)
	if err == nil {
		ln.Close()
		t.Fatal("listen in a 0777 directory succeeded")
	}
	if !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), "writable by other users") {
		t.Errorf("listen = %v, want an input error naming the mode", err)
	}
	if _, err := os.Lstat(sock); err != nil {
		t.Errorf("the file in the way was touched: %v", err)
	}
}
