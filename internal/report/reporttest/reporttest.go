// Package reporttest holds what the tests of every report format share:
// the Result documents under internal/report/testdata that each format
// renders, and the golden-file comparison. Only tests import it.
package reporttest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpward/mcpward/internal/result"
)

// Cases are the Results every format renders: the seed example, a clean
// run, incomplete evidence, rule violations, hostile server strings, and a
// fleet (check --all: a passing, a drifting, an unreachable target and one
// with no stored snapshot).
var Cases = []string{"seed", "clean", "incomplete", "violations", "hostile", "fleet"}

// Load reads internal/report/testdata/<name>.json.
func Load(t testing.TB, name string) *result.Result {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	b, err := os.ReadFile(filepath.Join(filepath.Dir(file), "..", "testdata", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var r result.Result
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("decode %s: %v", name, err)
	}
	return &r
}

// Golden compares got with the file at path, or rewrites the file when
// update is set (go test -update).
func Golden(t testing.TB, update bool, path string, got []byte) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if d := cmp.Diff(string(want), string(got)); d != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", path, d)
	}
}
