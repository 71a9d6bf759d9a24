package wrap

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpward/mcpward/internal/migrate/mcpsnoop"
)

func TestBackupNeeded(t *testing.T) {
	const (
		plain     = `{"mcpServers": {"a": {"command": "npx", "args": ["a-server"]}, "b": {"command": "b"}}}`
		edited    = `{"mcpServers": {"a": {"command": "npx", "args": ["a-server"], "env": {"K": "v"}}, "b": {"command": "b"}}}`
		bWrapped  = `{"mcpServers": {"a": {"command": "npx", "args": ["a-server"]}, "b": {"command": "/bin/mcpward", "args": ["proxy", "--label", "b", "--", "b"]}}}`
		shortForm = `{"mcpServers": {"a": {"command": "npx", "args": ["a-server"]}, "b": {"command": "mcpward.exe", "args": ["--", "b"]}}}`
		snoop     = `{"mcpServers": {"a": {"command": "/bin/mcpsnoop", "args": ["--", "npx", "a-server"]}, "b": {"command": "b"}}}`
		snoopBare = `{"mcpServers": {"a": {"command": "mcpsnoop", "args": ["npx", "a-server"]}, "b": {"command": "b"}}}`
		snoopFlag = `{"mcpServers": {"a": {"command": "/bin/mcpsnoop", "args": ["--redact-key", "apiKey", "--no-trace", "--", "npx", "a-server"]}, "b": {"command": "b"}}}`
		snoopHist = `{"mcpServers": {"a": {"command": "/bin/mcpsnoop", "args": ["--history-limit=5", "npx", "a-server"]}, "b": {"command": "b"}}}`
		// Claude Code: one server list per project, one backup for all.
		otherProject = `{"mcpServers": {}, "projects": {"/p1": {"mcpServers": {"a": {"command": "npx", "args": ["a-server"]}}}, "/p2": {"mcpServers": {"c": {"command": "/bin/mcpward", "args": ["proxy", "--", "c"]}}}}}`
		projectsDone = `{"mcpServers": {}, "projects": {"/p1": {"mcpServers": {"a": {"command": "npx", "args": ["a-server"]}}}, "/p2": {"mcpServers": {"c": {"command": "c"}}}}}`
	)
	tests := []struct {
		name, doc, backup string
		need              bool
		why               string // substring; "" means none
	}{
		{"identical", plain, plain, false, ""},
		{"the user's edits are in the file", edited, plain, false, ""},
		{"a server the user deleted", `{"mcpServers": {"b": {"command": "b"}}}`, plain, false, ""},
		{"another entry still wrapped", bWrapped, plain, true, ""},
		{"the short form is wrapped too", shortForm, plain, true, ""},
		{"wrapped in another project", otherProject, plain, true, ""},
		{"no project wrapped any more", projectsDone, otherProject, false, ""},
		{"mcpsnoop's own form", plain, snoop, false, ""},
		{"mcpsnoop without --", plain, snoopBare, false, ""},
		{"mcpsnoop flags only in the backup", plain, snoopFlag, true, `server "a" (--redact-key apiKey --no-trace)`},
		{"mcpsnoop history limit only in the backup", plain, snoopHist, true, `(--history-limit=5)`},
		{"mcpsnoop flags still in the file", snoopFlag, snoopFlag + " ", false, ""},
		{"backup is not JSON", plain, `{"mcpServers": `, true, "cannot be read as JSON"},
		{"JSONC backup", plain, "{\n  // mine\n  \"mcpServers\": {\"a\": {\"command\": \"npx\", \"args\": [\"a-server\"],},},\n}", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			need, why := BackupNeeded([]byte(tt.doc), []byte(tt.backup))
			if need != tt.need || (tt.why == "") != (why == "") || !strings.Contains(why, tt.why) {
				t.Errorf("BackupNeeded = %v, %q; want %v, %q", need, why, tt.need, tt.why)
			}
		})
	}
}

func TestTidyBackup(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "c.json")
	doc := `{"mcpServers": {"a": {"command": "npx", "args": ["a-server"], "env": {"K": "v"}}}}`
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// No backup: nothing to do.
	if note, err := f.TidyBackup([]byte(doc)); note != "" || err != nil {
		t.Fatalf("without a backup: %q, %v", note, err)
	}
	// Kept, with a note.
	flags := `{"mcpServers": {"a": {"command": "mcpsnoop", "args": ["--label", "x", "--", "npx", "a-server"]}}}`
	if err := os.WriteFile(f.BackupPath(), []byte(flags), 0o644); err != nil {
		t.Fatal(err)
	}
	note, err := f.TidyBackup([]byte(doc))
	if err != nil || !strings.Contains(note, f.BackupPath()) || !strings.Contains(note, "--label x") {
		t.Fatalf("note %q, %v", note, err)
	}
	if _, err := os.Stat(f.BackupPath()); err != nil {
		t.Fatalf("the backup is gone: %v", err)
	}
	// Removed although it differs from the file; mcpsnoop's stays.
	if err := os.WriteFile(f.BackupPath(), []byte(`{"mcpServers": {"a": {"command": "npx", "args": ["a-server"]}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	snoopBak := path + mcpsnoop.BackupSuffix
	if err := os.WriteFile(snoopBak, []byte(flags), 0o644); err != nil {
		t.Fatal(err)
	}
	if note, err := f.TidyBackup([]byte(doc)); note != "" || err != nil {
		t.Fatalf("%q, %v", note, err)
	}
	if _, err := os.Stat(f.BackupPath()); !os.IsNotExist(err) {
		t.Errorf("the backup stays: %v", err)
	}
	if _, err := os.Stat(snoopBak); err != nil {
		t.Errorf("mcpsnoop's backup was touched: %v", err)
	}
}
