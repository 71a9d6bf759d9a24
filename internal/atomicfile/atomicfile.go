package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// Write replaces path with data, atomically. The file gets mode perm
// (set explicitly, so the umask does not apply). The
// temporary file lives in path's directory, so the final rename never
// crosses a file system.
func Write(path string, data []byte, perm os.FileMode) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	name := tmp.Name()
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(name)
			err = fmt.Errorf("write %s: %w", path, err)
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return err
	}
	if err := tmp.Chmod(perm); err != nil && runtime.GOOS != "windows" {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(name, path); err != nil {
		return err
	}
	syncDir(dir)
	return nil
}

// syncDir makes the rename durable where the platform allows it. It is
// best effort: the file is already in place, and some systems (Windows,
// some network file systems) cannot sync a directory.
func syncDir(dir string) {
	if runtime.GOOS == "windows" {
		return
	}
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	_ = d.Sync()
	d.Close()
}
