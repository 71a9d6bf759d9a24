package wrap

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"

	"github.com/mcpward/mcpward/internal/inputfile"
)

var desktop = Target{Containers: [][]string{{"mcpServers"}}}

const cfg = `{
  "mcpServers": {
    "a": {"command": "a-server", "args": ["--x"]},
    "b": {"command": "b-server"}
  }
}
`

func writeFile(t *testing.T, path, data string, perm os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), perm); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// wrapFile and unwrapFile are what the commands do.
func wrapFile(t *testing.T, path, server string) {
	t.Helper()
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out, err := Wrap(f.Data, desktop, server, Spec{Mcpward: "/bin/mcpward"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.SaveBackup(); err != nil {
		t.Fatal(err)
	}
	if err := f.Commit(out); err != nil {
		t.Fatal(err)
	}
}

func unwrapFile(t *testing.T, path, server string) bool {
	t.Helper()
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	backup, err := f.Backup()
	if err != nil {
		t.Fatal(err)
	}
	out, restored, err := Unwrap(f.Data, backup, desktop, server)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Commit(out); err != nil {
		t.Fatal(err)
	}
	return restored
}

func TestRoundTripThroughSymlink(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	dir := t.TempDir()
	real := filepath.Join(dir, "dotfiles", "claude.json")
	os.MkdirAll(filepath.Dir(real), 0o755)
	writeFile(t, real, cfg, 0o600)
	link := filepath.Join(dir, "claude_desktop_config.json")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	wrapFile(t, link, "a")
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced by a file")
	}
	if fi, _ := os.Stat(real); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode = %v, want 0600 kept", fi.Mode().Perm())
	}
	if _, err := os.Stat(real + BackupSuffix); err != nil {
		t.Errorf("no backup beside the real file: %v", err)
	}
	if !unwrapFile(t, link, "a") {
		t.Error("unwrap did not restore the backup")
	}
	if got := readFile(t, real); got != cfg {
		t.Errorf("round trip not byte-identical:\n%s", got)
	}
}

func TestUnwrapKeepsOtherEdits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.json")
	writeFile(t, path, cfg, 0o644)
	wrapFile(t, path, "a")
	// The user edits another server while "a" is wrapped.
	edited := readFile(t, path)
	edited = replaceOnce(t, edited, `"b-server"`, `"b-server-2"`)
	writeFile(t, path, edited, 0o644)
	if unwrapFile(t, path, "a") {
		t.Error("backup restored although the file was edited since the wrap")
	}
	want := replaceOnce(t, cfg, `"b-server"`, `"b-server-2"`)
	if got := readFile(t, path); got != want {
		t.Errorf("unwrap lost the other edit:\n%s", got)
	}
}

func replaceOnce(t *testing.T, s, old, new string) string {
	t.Helper()
	i := len(s)
	for j := 0; j+len(old) <= len(s); j++ {
		if s[j:j+len(old)] == old {
			i = j
			break
		}
	}
	if i == len(s) {
		t.Fatalf("%q not in %q", old, s)
	}
	return s[:i] + new + s[i+len(old):]
}

func TestConcurrentEditRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.json")
	writeFile(t, path, cfg, 0o644)
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out, err := Wrap(f.Data, desktop, "a", Spec{Mcpward: "/bin/mcpward"})
	if err != nil {
		t.Fatal(err)
	}
	// Same size, so only the content hash can tell.
	concurrent := replaceOnce(t, cfg, `"a-server"`, `"z-server"`)
	f.BeforeCommit = func() { writeFile(t, path, concurrent, 0o644) }
	err = f.Commit(out)
	if !errors.Is(err, ErrChanged) {
		t.Fatalf("Commit() error = %v, want ErrChanged", err)
	}
	if got := readFile(t, path); got != concurrent {
		t.Errorf("the concurrent edit was overwritten:\n%s", got)
	}
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".c.json.mcpward-*"))
	if len(left) > 0 {
		t.Errorf("temporary files left behind: %v", left)
	}
}

func TestBackupWrittenOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.json")
	writeFile(t, path, cfg, 0o644)
	wrapFile(t, path, "a")
	wrapFile(t, path, "b")
	if got := readFile(t, path+BackupSuffix); got != cfg {
		t.Errorf("backup is not the file before the first wrap:\n%s", got)
	}
	// Unwrapping both in either order gets the original bytes back.
	unwrapFile(t, path, "a")
	unwrapFile(t, path, "b")
	if got := readFile(t, path); got != cfg {
		t.Errorf("after unwrapping both:\n%s", got)
	}
}

func TestOpenMissing(t *testing.T) {
	_, err := Open(filepath.Join(t.TempDir(), "none.json"))
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Open(missing) error = %v, want ErrNotExist", err)
	}
}

func TestLocate(t *testing.T) {
	tests := []struct {
		client, scope, explicit string
		env                     Env
		wantPath                string
		wantContainers          [][]string
	}{
		{ClaudeDesktop, "", "", Env{GOOS: "linux", Home: "/h"}, "/h/.config/Claude/claude_desktop_config.json", [][]string{{"mcpServers"}}},
		{ClaudeDesktop, "", "", Env{GOOS: "darwin", Home: "/Users/u"}, "/Users/u/Library/Application Support/Claude/claude_desktop_config.json", [][]string{{"mcpServers"}}},
		{ClaudeCode, "user", "", Env{GOOS: "linux", Home: "/h", Cwd: "/p"}, "/h/.claude.json", [][]string{{"mcpServers"}, {"projects", "/p", "mcpServers"}}},
		{ClaudeCode, "workspace", "", Env{Cwd: "/p"}, "/p/.mcp.json", [][]string{{"mcpServers"}}},
		{Cursor, "user", "", Env{Home: "/h"}, "/h/.cursor/mcp.json", [][]string{{"mcpServers"}}},
		{Cursor, "workspace", "", Env{Cwd: "/p"}, "/p/.cursor/mcp.json", [][]string{{"mcpServers"}}},
		{VSCode, "user", "", Env{GOOS: "linux", Home: "/h"}, "/h/.config/Code/User/settings.json", [][]string{{"mcp", "servers"}, {"mcp.servers"}}},
		{VSCode, "workspace", "", Env{Cwd: "/p"}, "/p/.vscode/mcp.json", [][]string{{"servers"}}},
		{VSCode, "user", "/h/.config/Code/User/mcp.json", Env{}, "/h/.config/Code/User/mcp.json", [][]string{{"servers"}}},
	}
	for _, tt := range tests {
		path, target, err := Locate(tt.client, tt.scope, tt.explicit, tt.env)
		if err != nil || filepath.ToSlash(path) != tt.wantPath || !reflectEqual(target.Containers, tt.wantContainers) {
			t.Errorf("Locate(%s, %s) = %q, %v, %v; want %q, %v", tt.client, tt.scope, path, target.Containers, err, tt.wantPath, tt.wantContainers)
		}
	}
}

func reflectEqual(a, b [][]string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if len(a[i]) != len(b[i]) {
			return false
		}
		for j := range a[i] {
			if a[i][j] != b[i][j] {
				return false
			}
		}
	}
	return true
}

// A client config that is a FIFO held wrap in open(2), deaf to signals; a
// device would never end. Neither is a config wrap can replace: refused.
func TestOpenRefusesNonRegular(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "claude_desktop_config.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for _, p := range []string{fifo, "/dev/zero"} {
		f, err := Open(p)
		if err == nil {
			f.Close()
			t.Fatalf("Open(%s) succeeded", p)
		}
		if !errors.Is(err, inputfile.ErrNotRegular) {
			t.Errorf("Open(%s) = %v, want not a regular file", p, err)
		}
	}
}
