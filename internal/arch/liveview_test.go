package arch

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestLiveViewLayers checks the import directions of the live view
// (issue 14, item 5), in every non-test Go file under internal/hub and
// internal/tui:
//
//   - the hub never imports the UI (it owns the records; the UI reads
//     them through tui/hubsource);
//   - a page never imports another page (pages/overlays does not import
//     pages/stream: the row cells both show are in tui/format);
//   - a component never imports a page or the root model;
//   - the layers below the pages (common, keymap, styles, store, format,
//     the sources) never import a page, a component or the root model.
func TestLiveViewLayers(t *testing.T) {
	const (
		ui         = "internal/tui"
		pages      = "internal/tui/pages"
		components = "internal/tui/components"
	)
	below := []string{"internal/tui/common", "internal/tui/keymap", "internal/tui/styles", "internal/tui/store",
		"internal/tui/format", "internal/tui/hubsource", "internal/tui/memsource"}
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	fset := token.NewFileSet()
	files := 0
	for _, top := range []string{"internal/hub", ui} {
		err := filepath.WalkDir(filepath.Join(root, top), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if d.Name() == "testdata" {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			rel, _ := filepath.Rel(root, path)
			dir := filepath.ToSlash(filepath.Dir(rel))
			af, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
			if err != nil {
				return err
			}
			files++
			for _, imp := range af.Imports {
				p, _ := strconv.Unquote(imp.Path.Value)
				if !strings.HasPrefix(p, module) {
					continue
				}
				local := strings.TrimPrefix(p, module)
				switch {
				case under(dir, []string{"internal/hub"}) && under(local, []string{ui}):
					t.Errorf("%s: the hub imports the UI (%s)", rel, local)
				case under(dir, []string{pages}) && under(local, []string{pages}) && page(dir) != page(local):
					t.Errorf("%s: the page %s imports the page %s", rel, page(dir), page(local))
				case under(dir, []string{components}) && (under(local, []string{pages}) || local == ui):
					t.Errorf("%s: the component %s imports %s", rel, dir, local)
				case under(dir, below) && (under(local, []string{pages, components}) || local == ui):
					t.Errorf("%s: %s is below the pages and components but imports %s", rel, dir, local)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if files < 30 {
		t.Errorf("checked only %d files: is the walk rooted at the module?", files)
	}
}

// page is the page a directory under internal/tui/pages belongs to.
func page(dir string) string {
	rest := strings.TrimPrefix(dir, "internal/tui/pages/")
	name, _, _ := strings.Cut(rest, "/")
	return name
}
