//go:build unix

package feed

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// CheckOwner reports why the hub socket at sock must not be used: its
// directory belongs to another user or others may write to it (one could
// plant a socket there), or the socket itself is another user's. A proxy
// that connected would hand that user the live feed, secrets included; a
// hub that listened could be impersonated. A directory or socket that does
// not exist yet is no objection (the hub creates the directory 0700).
func CheckOwner(sock string) error {
	uid := os.Geteuid()
	dir := filepath.Dir(sock)
	if fi, err := os.Stat(dir); err == nil {
		if owner, ok := ownerOf(fi); ok && owner != uid {
			return fmt.Errorf("hub socket directory %s belongs to uid %d, not to you (uid %d): another user could read the live feed", dir, owner, uid)
		}
		if fi.Mode().Perm()&0o022 != 0 {
			return fmt.Errorf("hub socket directory %s is writable by other users (mode %04o): one could plant a socket there (chmod go-w %s)", dir, fi.Mode().Perm(), dir)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("hub socket directory %s: %w", dir, err)
	}
	if fi, err := os.Lstat(sock); err == nil {
		if owner, ok := ownerOf(fi); ok && owner != uid {
			return fmt.Errorf("hub socket %s belongs to uid %d, not to you (uid %d): refusing to use it", sock, owner, uid)
		}
	}
	return nil
}

func ownerOf(fi fs.FileInfo) (int, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}
