package report

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestPureImports keeps the report tree free of I/O (STYLE §7): every
// format must build for GOOS=js GOARCH=wasm and write to an io.Writer.
// reporttest reads golden files and is imported by tests only, which the
// second half of the walk checks.
func TestPureImports(t *testing.T) {
	forbidden := map[string]bool{"os": true, "os/exec": true, "net": true, "net/http": true, "syscall": true, "log": true}
	fset := token.NewFileSet()
	n := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		n++
		af, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		testHelper := strings.HasPrefix(filepath.ToSlash(path), "reporttest/")
		for _, imp := range af.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if forbidden[p] && !testHelper {
				t.Errorf("%s imports %s", path, p)
			}
			if strings.HasSuffix(p, "/report/reporttest") {
				t.Errorf("%s imports the test helper %s outside a test", path, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 10 {
		t.Errorf("checked only %d files; is the walk rooted right?", n)
	}
}
