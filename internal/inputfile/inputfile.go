// Package inputfile opens and reads the files a user names on the command
// line (snapshots, session logs, client configs) as untrusted input.
//
// Three things go wrong with a bare os.ReadFile on a path someone typed or
// a config named: a device such as /dev/zero never ends and grows the
// process without bound; a FIFO blocks in open(2) until a writer appears,
// where no Ctrl-C reaches it; and a huge file is read whole before anything
// checks it. Here a directory or a device is refused at once, a FIFO or a
// socket (what `diff <(git show …) new.json` hands us) is allowed but
// opened and read so that the context cancels both, and every read stops at
// a limit the caller chooses.
package inputfile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ErrNotRegular is wrapped by the error for a directory or a device.
var ErrNotRegular = errors.New("not a regular file")

// isDirectory says what the system says of reading a directory.
type isDirectory struct{}

func (isDirectory) Error() string        { return "is a directory" }
func (isDirectory) Is(target error) bool { return target == ErrNotRegular }

// TooLargeError is the error for input past the caller's limit.
type TooLargeError struct {
	Limit int64
}

func (e *TooLargeError) Error() string {
	return "larger than " + human(e.Limit)
}

func human(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// File is an opened input. Close it as an *os.File; it is also closed when
// the context of Open ends, so a Read blocked on a pipe returns at once.
type File struct {
	*os.File
	stop func() bool
}

// Close closes the file and forgets the context.
func (f *File) Close() error {
	f.stop()
	return f.File.Close()
}

// Open opens path for reading. A directory or a device is refused with
// ErrNotRegular; a FIFO's open, which blocks until a writer comes, returns
// ctx's error when ctx ends first.
func Open(ctx context.Context, path string) (*File, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := checkMode(fi.Mode()); err != nil {
		return nil, err
	}
	var f *os.File
	if fi.Mode()&fs.ModeNamedPipe != 0 {
		f, err = openPipe(ctx, path)
	} else {
		f, err = os.Open(path)
	}
	if err != nil {
		return nil, err
	}
	// The mode can change between Stat and Open (a file replaced by a
	// device): check what was opened.
	if fi, err = f.Stat(); err == nil {
		err = checkMode(fi.Mode())
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return &File{File: f, stop: context.AfterFunc(ctx, func() { f.Close() })}, nil
}

func checkMode(m fs.FileMode) error {
	switch {
	case m.IsRegular(), m&fs.ModeNamedPipe != 0, m&fs.ModeSocket != 0:
		return nil
	case m.IsDir():
		return isDirectory{}
	case m&fs.ModeDevice != 0, m&fs.ModeCharDevice != 0:
		return fmt.Errorf("%w: a device", ErrNotRegular)
	}
	return fmt.Errorf("%w (mode %s)", ErrNotRegular, m.Type())
}

// openPipe opens a FIFO in a goroutine: open(2) of a FIFO for reading
// blocks in the kernel until a writer opens it, where no signal handler of
// ours runs. If ctx ends first the goroutine stays blocked until a writer
// comes or the process exits (which, for a command being interrupted, is
// at once); a file it opens after that is closed.
func openPipe(ctx context.Context, path string) (*os.File, error) {
	type opened struct {
		f   *os.File
		err error
	}
	ch := make(chan opened, 1)
	go func() {
		f, err := os.Open(path)
		ch <- opened{f, err}
	}()
	select {
	case o := <-ch:
		return o.f, o.err
	case <-ctx.Done():
		go func() {
			if o := <-ch; o.f != nil {
				o.f.Close()
			}
		}()
		return nil, ctx.Err()
	}
}

// ReadFile reads the whole of path, at most limit bytes: more is a
// *TooLargeError. It stops with ctx's error when ctx ends first, even on a
// pipe that never ends.
func ReadFile(ctx context.Context, path string, limit int64) ([]byte, error) {
	f, err := Open(ctx, path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var initial int64 = 512
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		if fi.Size() > limit {
			return nil, &TooLargeError{Limit: limit}
		}
		initial = fi.Size() + 1
	}
	data, err := readAll(f, limit, initial)
	if err != nil && ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return data, err
}

// readAll reads r to its end, failing once more than limit bytes came.
func readAll(r io.Reader, limit, initial int64) ([]byte, error) {
	if initial > limit+1 {
		initial = limit + 1
	}
	buf := make([]byte, 0, initial)
	lr := io.LimitReader(r, limit+1)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := lr.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > limit {
			return nil, &TooLargeError{Limit: limit}
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}
