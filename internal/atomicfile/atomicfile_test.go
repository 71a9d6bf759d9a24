package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// entries lists dir, to check that no temporary file is left behind.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func TestWriteNew(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.json")
	if err := Write(path, []byte("hello\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != "hello\n" {
		t.Fatalf("ReadFile = %q, %v; want %q", got, err, "hello\n")
	}
	if runtime.GOOS != "windows" {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o640 {
			t.Errorf("mode = %v, want 0640", fi.Mode().Perm())
		}
	}
	if names := entries(t, dir); len(names) != 1 {
		t.Errorf("directory holds %v, want only out.json", names)
	}
}

func TestWriteReplaces(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	if err := os.WriteFile(path, []byte("old content that is longer"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != "new" {
		t.Errorf("content = %q, want %q", got, "new")
	}
	if names := entries(t, dir); len(names) != 1 {
		t.Errorf("directory holds %v, want only out.txt", names)
	}
}

func TestWriteMissingDir(t *testing.T) {
	path := filepath.Join(t.TempDir(), "no", "such", "out.txt")
	if err := Write(path, []byte("x"), 0o644); err == nil {
		t.Fatal("Write into a missing directory succeeded")
	}
}

// TestWriteRenameFails makes the final rename fail (the destination is a
// non-empty directory) and checks that the temporary file is removed and
// the destination untouched.
func TestWriteRenameFails(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "taken")
	if err := os.MkdirAll(filepath.Join(path, "inside"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, []byte("x"), 0o644); err == nil {
		t.Fatal("Write over a directory succeeded")
	}
	if names := entries(t, dir); len(names) != 1 || names[0] != "taken" {
		t.Errorf("directory holds %v, want only the untouched destination", names)
	}
	if fi, err := os.Stat(filepath.Join(path, "inside")); err != nil || !fi.IsDir() {
		t.Errorf("destination changed: %v", err)
	}
}

func TestWriteRelative(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := Write("rel.txt", []byte("r"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "rel.txt")); string(got) != "r" {
		t.Errorf("content = %q", got)
	}
}

func TestWriteFuncKeepsOldFileOnProducerError(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.html")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("log read failed")
	err := WriteFunc(path, 0o644, func(w io.Writer) error {
		w.Write([]byte("partial"))
		return boom
	})
	if err != boom {
		t.Fatalf("WriteFunc() = %v, want the producer's error as is", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("file = %q, want the old content", b)
	}
	if names := entries(t, dir); len(names) != 1 {
		t.Errorf("left behind: %v", names)
	}
}

func TestWriteFuncStreams(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big")
	err := WriteFunc(path, 0o600, func(w io.Writer) error {
		for i := 0; i < 1000; i++ {
			if _, err := w.Write(make([]byte, 1024)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() != 1024*1000 {
		t.Errorf("stat = %v, %v", fi, err)
	}
}
