package wrap

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/mcpward/mcpward/internal/atomicfile"
	"github.com/mcpward/mcpward/internal/inputfile"
	"github.com/mcpward/mcpward/internal/migrate/mcpsnoop"
)

// BackupSuffix is appended to a config file's name for its backup.
const BackupSuffix = ".mcpward-backup"

// LockSuffix is appended to a config file's name for the lock file that
// serialises mcpward's edits of it. Close removes it while still holding
// the lock; an editor that waited on the removed file sees it is no longer
// the one at the path and locks the path anew (acquire), so two editors
// never hold two different lock files.
const LockSuffix = ".mcpward.lock"

// lockWait bounds the wait for another mcpward editing the same file.
const lockWait = 10 * time.Second

// ErrChanged: the file changed between read and write; nothing was
// written.
var ErrChanged = errors.New("the file changed while mcpward was editing it; nothing was written (run the command again)")

// ErrReadOnly: the file is not writable; nothing was written.
var ErrReadOnly = errors.New("the file is read-only; nothing was written (make it writable to let mcpward edit it)")

// ErrLocked: another mcpward kept the file locked for longer than
// mcpward waits.
var ErrLocked = errors.New("another mcpward is editing the file; nothing was written (run the command again)")

// A File is a config file read for editing. A symlinked config is edited
// through to its target: the link stays a link.
type File struct {
	// Path is the path as given; Real the file it resolves to.
	Path, Real string
	// Data is the content as read.
	Data []byte

	mode  fs.FileMode
	stamp stamp
	lock  *os.File // the held lock file, nil if none could be made

	// BeforeCommit, if set, runs after the new content is written to its
	// temporary file and before the final check: tests use it to edit the
	// file concurrently.
	BeforeCommit func()
}

type stamp struct {
	mtime time.Time
	size  int64
	sum   [sha256.Size]byte
}

// maxConfigBytes bounds a client config read: real ones are kilobytes.
const maxConfigBytes = 16 << 20

// readStamp reads a client config, which must be a regular file: wrap
// replaces it atomically, and a FIFO or a device there would block the
// read where no signal reaches it, or never end.
func readStamp(path string) (stamp, []byte, fs.FileMode, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return stamp{}, nil, 0, err
	}
	if !fi.Mode().IsRegular() {
		return stamp{}, nil, 0, &fs.PathError{Op: "read", Path: path, Err: inputfile.ErrNotRegular}
	}
	data, err := inputfile.ReadFile(context.Background(), path, maxConfigBytes)
	if err != nil {
		return stamp{}, nil, 0, err
	}
	if fi, err = os.Stat(path); err != nil {
		return stamp{}, nil, 0, err
	}
	return stamp{fi.ModTime(), fi.Size(), sha256.Sum256(data)}, data, fi.Mode().Perm(), nil
}

// Open reads path for editing. It first takes an exclusive lock on the
// sidecar <real file>.mcpward.lock (waiting a few seconds for another
// mcpward editing the same file), so that concurrent wraps of one file
// each see the others' edits; the file is read under the lock, which Close
// releases. When the lock file cannot be made (a directory mcpward may
// not write), the file is read without it: Commit will fail anyway.
func Open(path string) (f *File, err error) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil, pathErr(path, err)
	}
	// Before the lock: a device's lock file would land beside it in /dev.
	if fi, err := os.Stat(real); err == nil && !fi.Mode().IsRegular() {
		return nil, pathErr(path, &fs.PathError{Op: "read", Path: real, Err: inputfile.ErrNotRegular})
	}
	lock, err := acquire(real + LockSuffix)
	if err != nil {
		return nil, pathErr(path, err)
	}
	defer func() {
		if err != nil && lock != nil {
			unlock(lock)
			lock.Close()
		}
	}()
	st, data, mode, err := readStamp(real)
	if err != nil {
		return nil, pathErr(path, err)
	}
	return &File{Path: path, Real: real, Data: data, mode: mode, stamp: st, lock: lock}, nil
}

// acquire opens and locks the lock file. It returns nil and no error when
// the lock file cannot be created.
func acquire(name string) (*os.File, error) {
	deadline := time.Now().Add(lockWait)
	for {
		lf, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			return nil, nil
		}
		for pause := time.Millisecond; ; pause = min(2*pause, 50*time.Millisecond) {
			busy, err := tryLock(lf)
			if err != nil {
				lf.Close()
				return nil, nil // a file system without locks: go on unlocked
			}
			if !busy {
				break
			}
			if time.Now().After(deadline) {
				lf.Close()
				return nil, ErrLocked
			}
			time.Sleep(pause)
		}
		if current(lf, name) {
			return lf, nil
		}
		// The holder removed the file we waited on: lock the new one.
		unlock(lf)
		lf.Close()
	}
}

// current reports whether lf is still the file at name.
func current(lf *os.File, name string) bool {
	held, err := lf.Stat()
	if err != nil {
		return false
	}
	now, err := os.Stat(name)
	return err == nil && os.SameFile(held, now)
}

// Close removes the lock file and releases the lock Open took. It is safe
// to call more than once.
func (f *File) Close() error {
	if f.lock == nil {
		return nil
	}
	// Removed under the lock: whoever waits on it locks the path anew.
	removed := os.Remove(f.lock.Name()) == nil
	unlock(f.lock)
	err := f.lock.Close()
	if !removed {
		_ = os.Remove(f.lock.Name()) // where an open file cannot be removed
	}
	f.lock = nil
	return err
}

// CheckWritable returns ErrReadOnly when the file may not be written: its
// write permission is off (even for root, who could: a file made
// read-only on purpose is not replaced behind its owner's back).
func (f *File) CheckWritable() error {
	if !writable(f.Real, f.mode) {
		return fmt.Errorf("%s: %w", f.Path, ErrReadOnly)
	}
	return nil
}

// BackupPath is where the file's backup lives: beside the real file.
func (f *File) BackupPath() string { return f.Real + BackupSuffix }

// Backup returns the backup's content, or nil if there is none. Without
// one of mcpward's, it is mcpsnoop's backup (<file>.mcpsnoop.bak), so that
// unwrapping an entry mcpsnoop wrapped can restore the file byte for byte
// (Unwrap uses it only when the file is otherwise unchanged); mcpsnoop's
// backup is never removed.
func (f *File) Backup() ([]byte, error) {
	for _, p := range []string{f.BackupPath(), f.Real + mcpsnoop.BackupSuffix} {
		b, err := os.ReadFile(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, pathErr(p, err)
		}
		return b, nil
	}
	return nil, nil
}

// SaveBackup writes the content as read to the backup, unless a backup
// already exists (the first wrap's backup is the one that matters). It
// reports whether it wrote one.
func (f *File) SaveBackup() (bool, error) {
	if err := f.CheckWritable(); err != nil {
		return false, err
	}
	if _, err := os.Lstat(f.BackupPath()); err == nil {
		return false, nil
	}
	if err := atomicfile.Write(f.BackupPath(), f.Data, f.mode); err != nil {
		return false, err
	}
	return true, nil
}

// RemoveBackup deletes the backup, if any.
func (f *File) RemoveBackup() error {
	if err := os.Remove(f.BackupPath()); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return pathErr(f.BackupPath(), err)
	}
	return nil
}

// Commit replaces the real file with data, atomically, keeping its mode.
// A read-only file is refused (ErrReadOnly). Just before the rename it
// checks that the file is still what Open read
// (mtime, size and content hash); if not, it writes nothing and returns
// ErrChanged.
func (f *File) Commit(data []byte) (err error) {
	if err := f.CheckWritable(); err != nil {
		return err
	}
	dir, base := filepath.Split(f.Real)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".mcpward-*")
	if err != nil {
		return pathErr(f.Path, err)
	}
	name := tmp.Name()
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(name)
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return pathErr(f.Path, err)
	}
	if err := tmp.Chmod(f.mode); err != nil && runtime.GOOS != "windows" {
		return pathErr(f.Path, err)
	}
	if err := tmp.Sync(); err != nil {
		return pathErr(f.Path, err)
	}
	if err := tmp.Close(); err != nil {
		return pathErr(f.Path, err)
	}
	if f.BeforeCommit != nil {
		f.BeforeCommit()
	}
	now, cur, _, err := readStamp(f.Real)
	if err != nil {
		return pathErr(f.Path, err)
	}
	if !now.mtime.Equal(f.stamp.mtime) || now.size != f.stamp.size || now.sum != f.stamp.sum || !bytes.Equal(cur, f.Data) {
		return fmt.Errorf("%s: %w", f.Path, ErrChanged)
	}
	if err := os.Rename(name, f.Real); err != nil {
		return pathErr(f.Path, err)
	}
	return nil
}

// pathErr says which file, once.
func pathErr(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("%s: %w", path, err)
}
