package inputfile

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestReadFileRefusesDevicesAndDirectories(t *testing.T) {
	for _, path := range []string{"/dev/zero", "/dev/null", t.TempDir()} {
		_, err := ReadFile(context.Background(), path, 1<<20)
		if !errors.Is(err, ErrNotRegular) {
			t.Errorf("ReadFile(%s) = %v, want ErrNotRegular", path, err)
		}
	}
}

func TestReadFileLimit(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	if err := os.WriteFile(p, bytes.Repeat([]byte("x"), 100), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		limit int64
		ok    bool
	}{{99, false}, {100, true}, {1 << 20, true}} {
		data, err := ReadFile(context.Background(), p, tc.limit)
		var tl *TooLargeError
		switch {
		case tc.ok && (err != nil || len(data) != 100):
			t.Errorf("limit %d: %d bytes, %v", tc.limit, len(data), err)
		case !tc.ok && !errors.As(err, &tl):
			t.Errorf("limit %d: err %v, want TooLargeError", tc.limit, err)
		}
	}
}

func mkfifo(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	return p
}

// A pipe that pours more than the limit is cut at the limit, not read to
// its end (it has none).
func TestReadFilePipeLimit(t *testing.T) {
	p := mkfifo(t)
	done := make(chan struct{})
	go func() {
		defer close(done)
		w, err := os.OpenFile(p, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer w.Close()
		chunk := bytes.Repeat([]byte("y"), 4096)
		for {
			if _, err := w.Write(chunk); err != nil {
				return // the reader closed after the limit
			}
		}
	}()
	_, err := ReadFile(context.Background(), p, 64<<10)
	var tl *TooLargeError
	if !errors.As(err, &tl) || tl.Error() != "larger than 64 KiB" {
		t.Fatalf("err = %v, want larger than 64 KiB", err)
	}
	<-done
}

// A FIFO nobody writes to blocks open(2); cancelling the context returns.
func TestOpenFIFOCancelled(t *testing.T) {
	p := mkfifo(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := ReadFile(ctx, p, 1<<20)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	// Release the goroutine still blocked in open: it closes what it gets.
	w, err := os.OpenFile(p, os.O_WRONLY, 0)
	if err == nil {
		w.Close()
	}
}

// A FIFO whose writer stays open and silent: the read returns when the
// context ends.
func TestReadFIFOCancelledMidRead(t *testing.T) {
	p := mkfifo(t)
	writerOpen := make(chan *os.File, 1)
	go func() {
		w, err := os.OpenFile(p, os.O_WRONLY, 0)
		if err != nil {
			writerOpen <- nil
			return
		}
		w.Write([]byte(`{"partial":`))
		writerOpen <- w
	}()
	ctx, cancel := context.WithCancel(context.Background())
	f, err := Open(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	w := <-writerOpen
	if w == nil {
		t.Fatal("writer did not open")
	}
	defer w.Close()
	buf := make([]byte, 64)
	if n, err := f.Read(buf); err != nil || n == 0 {
		t.Fatalf("first read: %d, %v", n, err)
	}
	cancel()
	if _, err := f.Read(buf); err == nil {
		t.Fatal("read after cancel succeeded")
	}
	f.Close()
}
