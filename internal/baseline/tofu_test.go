package baseline

import (
	"errors"
	"os"
	"testing"
)

func TestTrustOnFirstUse(t *testing.T) {
	dir := t.TempDir()
	first := tools(t, `{"name":"a","description":"x","inputSchema":{"type":"object"}}`)
	old, recorded, err := TrustOnFirstUse(dir, first)
	if err != nil || !recorded || len(Compare(old, first)) != 0 {
		t.Fatalf("first sight: recorded %v, err %v, want the list recorded and no drift", recorded, err)
	}
	if fi, err := os.Stat(Path(dir, first.Identity)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("baseline file: %v, %v; want mode 0600", fi, err)
	}
	later := tools(t, `{"name":"a","description":"y","inputSchema":{"type":"object"}}`)
	old, recorded, err = TrustOnFirstUse(dir, later)
	if err != nil || recorded {
		t.Fatalf("second sight: recorded %v, err %v; want the stored baseline", recorded, err)
	}
	if d := Compare(old, later); len(d) != 1 || d[0].RuleID != "tool.description.changed" {
		t.Errorf("drift against the first list: %v", d)
	}
	// The first writer wins: create does not replace a file.
	if created, err := create(dir, later); err != nil || created {
		t.Errorf("create over an existing baseline: created %v, err %v", created, err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("%d files in the baseline directory, want 1 (no temporary file left)", len(entries))
	}
	// An unusable baseline is an error, never replaced.
	os.WriteFile(Path(dir, first.Identity), []byte("{"), 0o600)
	if _, _, err := TrustOnFirstUse(dir, later); err == nil || errors.Is(err, ErrNotFound) {
		t.Errorf("corrupt baseline: err %v, want a read error", err)
	}
	if b, _ := os.ReadFile(Path(dir, first.Identity)); string(b) != "{" {
		t.Error("a corrupt baseline was overwritten")
	}
}
