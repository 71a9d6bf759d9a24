package arch

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// escapeHTMLAllowed are the files that still turn encoding/json's HTML
// escaping off themselves, each until its TODO is done. An entry that no
// longer does fails the test: delete it.
var escapeHTMLAllowed = map[string]string{
	// TODO(issue 14): render.JSON does exactly this; switch once the
	// --json flag edits in these commands have landed.
	"internal/cli/sessions/diff/diff.go":     "writes its report with its own encoder",
	"internal/cli/sessions/replay/replay.go": "writes its outcome with its own encoder",
}

// TestOneNoEscapeMarshal: only internal/jsonx turns HTML escaping off
// (SetEscapeHTML). Everything else that must keep "<b>" as "<b>" calls
// jsonx.Marshal or jsonx.MarshalIndent (or render.JSON, which does), so
// there is one definition of how mcpward writes JSON instead of a private
// marshal per package. Test files are free to build their own encoders.
func TestOneNoEscapeMarshal(t *testing.T) {
	seen := map[string]bool{}
	walkGo(t, func(rel string, af *ast.File) {
		if under(filepath.ToSlash(filepath.Dir(rel)), []string{"internal/jsonx"}) {
			return
		}
		ast.Inspect(af, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "SetEscapeHTML" {
				if _, ok := escapeHTMLAllowed[rel]; ok {
					seen[rel] = true
				} else {
					t.Errorf("%s: calls SetEscapeHTML itself; use internal/jsonx", rel)
				}
			}
			return true
		})
	})
	for rel := range escapeHTMLAllowed {
		if !seen[rel] {
			t.Errorf("%s no longer calls SetEscapeHTML: delete its entry from escapeHTMLAllowed", rel)
		}
	}
}

// walkGo parses every non-test Go file of the module (not testdata or
// node_modules) and calls fn with its slash path relative to the root.
func walkGo(t *testing.T, fn func(rel string, af *ast.File)) {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	fset := token.NewFileSet()
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); name == "node_modules" || name == "testdata" || strings.HasPrefix(name, ".") && path != root {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		af, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		rel, _ := filepath.Rel(root, path)
		fn(filepath.ToSlash(rel), af)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 200 {
		t.Errorf("checked only %d files: is the walk rooted at the module?", files)
	}
}
