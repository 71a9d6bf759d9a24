package migratecmd

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A cloned repository's .mcpward may be a symlink out of it (to ~/.ssh,
// say): migrate --write followed it and wrote there.
func TestPlaceRefusesSymlinkOut(t *testing.T) {
	repo, outside := t.TempDir(), t.TempDir()
	if err := os.Symlink(outside, filepath.Join(repo, ".mcpward")); err != nil {
		t.Skipf("symlink: %v", err)
	}
	inRepo := filepath.Join(repo, "sub")
	if err := os.Mkdir(inRepo, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(inRepo, filepath.Join(repo, "alias")); err != nil {
		t.Fatal(err)
	}
	for _, write := range []bool{false, true} {
		c := converter{write: write, dir: repo}
		wrote := false
		var it Item
		c.place(&it, filepath.Join(repo, ".mcpward", "notes.snapshot.json"), func() error { wrote = true; return nil })
		if wrote || !it.Failed || !strings.Contains(it.Result, "leads out of") {
			t.Errorf("write=%v: symlink out: wrote=%v result %q", write, wrote, it.Result)
		}
		// A link that stays inside the directory, and a destination
		// outside it (the state directory), are written as named.
		it = Item{}
		c.place(&it, filepath.Join(repo, "alias", "mcpward.json"), func() error { wrote = true; return nil })
		if it.Failed {
			t.Errorf("write=%v: link inside refused: %q", write, it.Result)
		}
		it = Item{}
		c.place(&it, filepath.Join(t.TempDir(), "state", "baseline.json"), func() error { return nil })
		if it.Failed {
			t.Errorf("write=%v: state dir refused: %q", write, it.Result)
		}
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("files written outside: %v", entries)
	}
}

// A candidate file or a directory migrate cannot read is listed, not
// passed over in silence. (Root reads any file whatever its mode, so the
// open is made to fail.)
func TestFindFilesListsUnreadable(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"snapgauge.config.json", "notes.txt"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	old := openFile
	openFile = func(p string) (io.ReadCloser, error) {
		return nil, &fs.PathError{Op: "open", Path: p, Err: fs.ErrPermission}
	}
	defer func() { openFile = old }()
	found, err := findFiles(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(found) != 1 || filepath.Base(found[0].path) != "snapgauge.config.json" || !errors.Is(found[0].unread, fs.ErrPermission) {
		t.Fatalf("found %+v, want the unreadable config listed", found)
	}
	if strings.Contains(found[0].unread.Error(), dir) {
		t.Errorf("reason repeats the path: %v", found[0].unread)
	}
}
