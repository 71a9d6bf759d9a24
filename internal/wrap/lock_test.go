package wrap

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestConcurrentWrapsAllLand: wraps of different servers of one file, run
// at once, each see the others' edits (the lock serialises
// read-modify-write), so none is lost and none is refused (issue 12,
// item 12).
func TestConcurrentWrapsAllLand(t *testing.T) {
	const n = 12
	var b strings.Builder
	b.WriteString("{\n  \"mcpServers\": {\n")
	for i := range n {
		sep := ","
		if i == n-1 {
			sep = ""
		}
		fmt.Fprintf(&b, "    \"s%d\": {\"command\": \"server-%d\"}%s\n", i, i, sep)
	}
	b.WriteString("  }\n}\n")
	path := filepath.Join(t.TempDir(), "c.json")
	writeFile(t, path, b.String(), 0o640)

	start := make(chan struct{})
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			errs[i] = wrapOnce(path, fmt.Sprintf("s%d", i))
		}()
	}
	close(start)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("wrap s%d: %v", i, err)
		}
	}
	doc := []byte(readFile(t, path))
	for i := range n {
		line, err := CommandLine(doc, desktop, fmt.Sprintf("s%d", i))
		if err != nil || !strings.HasPrefix(line, "/bin/mcpward proxy -- ") {
			t.Errorf("s%d after the concurrent wraps: %q, %v (an update was lost)", i, line, err)
		}
	}
	if got := readFile(t, path+BackupSuffix); got != b.String() {
		t.Errorf("backup is not the file before the first wrap:\n%s", got)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o640 {
		t.Errorf("mode after the wraps: %v, %v; want 0640 kept", fi.Mode(), err)
	}
}

// wrapOnce is what `mcpward wrap` does, returning its error.
func wrapOnce(path, server string) error {
	f, err := Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	out, err := Wrap(f.Data, desktop, server, Spec{Mcpward: "/bin/mcpward"})
	if err != nil {
		return err
	}
	if _, err := f.SaveBackup(); err != nil {
		return err
	}
	return f.Commit(out)
}

// TestReadOnlyRefused: a config the user made read-only is not replaced
// (rename would do it without a word, even for a non-root user), and no
// backup is written.
func TestReadOnlyRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.json")
	writeFile(t, path, cfg, 0o444)
	err := wrapOnce(path, "a")
	if !errors.Is(err, ErrReadOnly) || !strings.Contains(err.Error(), path) {
		t.Fatalf("wrap of a read-only file: error = %v, want ErrReadOnly naming the file", err)
	}
	if got := readFile(t, path); got != cfg {
		t.Errorf("the read-only file changed:\n%s", got)
	}
	if _, err := os.Stat(path + BackupSuffix); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a backup was written for a refused edit: %v", err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o444 {
		t.Errorf("mode = %v, want 0444 kept", fi.Mode())
	}
}

// TestLockReleased: Close releases the lock, so the next edit does not
// wait; a second Close is harmless.
func TestLockReleased(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.json")
	writeFile(t, path, cfg, 0o644)
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	// The lock file goes with the lock (issue 25 item 13).
	if _, err := os.Stat(path + LockSuffix); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("lock file after Close: %v; want it removed", err)
	}
	g, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if _, err := os.Stat(path + LockSuffix); err != nil {
		t.Errorf("lock file of the next Open: %v", err)
	}
}
