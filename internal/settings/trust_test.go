package settings

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpward/mcpward/internal/fault"
)

// The trust store keys a file by path and content: trusting replaces the
// path's entry, an edit untrusts, --revoke forgets, a damaged store is an
// input error naming its line.
func TestTrustStore(t *testing.T) {
	root := t.TempDir()
	cwd := filepath.Join(root, "repo")
	if err := os.MkdirAll(cwd, 0o755); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"XDG_CONFIG_HOME": filepath.Join(root, "cfg")}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	file := filepath.Join(cwd, FileName)
	write := func(body string) {
		t.Helper()
		if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	load := func() *File {
		t.Helper()
		f, err := Load("", cwd, lookup, nil)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	write("label = \"a\"\ntrace-file = \"t.jsonl\"\n")
	if f := load(); f.TraceFile != "" || strings.Join(f.Ignored, ",") != "trace-file" || f.Label != "a" {
		t.Fatalf("untrusted: %+v, want trace-file ignored and the label kept", f)
	}
	if _, _, err := TrustFile(file, lookup, nil); err != nil {
		t.Fatal(err)
	}
	if f := load(); f.TraceFile != filepath.Join(cwd, "t.jsonl") || f.Ignored != nil {
		t.Fatalf("trusted: %+v", f)
	}
	// Trusting again after an edit replaces the entry, never adds one.
	write("label = \"b\"\ntrace-file = \"u.jsonl\"\n")
	if f := load(); f.TraceFile != "" {
		t.Fatalf("edited file still trusted: %+v", f)
	}
	if _, _, err := TrustFile(file, lookup, nil); err != nil {
		t.Fatal(err)
	}
	if e, err := Trusted(lookup); err != nil || len(e) != 1 || e[0].Path != file {
		t.Fatalf("store = %+v, %v; want one entry for %s", e, err, file)
	}
	if _, err := Trust(file, nil, true, lookup); err != nil {
		t.Fatal(err)
	}
	if f := load(); f.TraceFile != "" {
		t.Fatalf("revoked file still trusted: %+v", f)
	}
	// The user's own config file is trusted as it is.
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "cfg", "mcpward", "config.toml"), []byte("trace-file = \"/x/t.jsonl\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if f := load(); f.TraceFile != "/x/t.jsonl" || f.Ignored != nil {
		t.Fatalf("user config: %+v", f)
	}
	// A trusted invalid file is refused by TrustFile.
	write("lable = 1\n")
	if _, _, err := TrustFile(file, lookup, nil); !errors.Is(err, fault.ErrInput) {
		t.Errorf("TrustFile(invalid) = %v, want an input error", err)
	}
	if err := os.WriteFile(TrustStorePath(lookup), []byte("nothex /x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Trusted(lookup); !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("Trusted(damaged) = %v, want an input error naming line 1", err)
	}
}
