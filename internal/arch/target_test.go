package arch

import (
	"go/ast"
	"path"
	"path/filepath"
	"strconv"
	"testing"
)

// specLiteralAllowed are the packages, besides internal/connect, that
// still build a connect.Spec themselves, each with its reason. An entry
// that no longer does fails the test: delete it.
var specLiteralAllowed = map[string]string{
	// A recorded session served in-process (Spec.Serve): no config entry
	// names such a server.
	"internal/replay": "Spec.Serve of a recorded session",
	// The corpus tools run each corpus server's argv and env list as the
	// corpus pins them; their tool-definition cache is keyed on it.
	"internal/testenv/corpustools": "the corpus's own argv and env",
}

// resultTargetAllowed are the packages, besides internal/result, that
// build a result.Target themselves.
var resultTargetAllowed = map[string]string{
	// A snapgauge result converted as it is: its endpoint is its name.
	"internal/migrate/snapgauge": "a foreign result's target",
}

// isolateHomeAllowed are the packages that handle isolateHome: the file's
// key (config), the flag (cmdutil), the one resolve function and the dial
// (connect), the process it shapes (transport), and the corpus tools
// (specLiteralAllowed).
var isolateHomeAllowed = []string{"internal/config", "internal/cli/cmdutil", "internal/connect", "internal/transport", "internal/testenv/corpustools"}

// TestOneTargetPath (issue 27 item 4): a server named by flags and one
// named in mcpward.json are the same entry (config.Target; the flags build
// it with cmdutil.TargetFlags.Entry) and become a connection in one
// function, connect.Resolve: no other package builds a connect.Spec
// literal (so no command resolves a target its own way), and only the
// packages of isolateHomeAllowed touch isolateHome. A report's target has
// one constructor, result.TargetOf: nothing else builds a result.Target
// literal.
func TestOneTargetPath(t *testing.T) {
	seen := map[string]bool{}
	walkGo(t, func(rel string, af *ast.File) {
		dir := filepath.ToSlash(filepath.Dir(rel))
		connectName, resultName := importName(af, "internal/connect"), importName(af, "internal/result")
		ast.Inspect(af, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CompositeLit:
				sel, ok := n.Type.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				x, ok := sel.X.(*ast.Ident)
				if !ok {
					return true
				}
				switch {
				case x.Name == connectName && sel.Sel.Name == "Spec" && dir != "internal/connect":
					if _, ok := specLiteralAllowed[dir]; ok {
						seen["spec "+dir] = true
						break
					}
					t.Errorf("%s builds a connect.Spec itself: build a config.Target (or the flags' Entry) and resolve it with connect.Resolve", rel)
				case x.Name == resultName && sel.Sel.Name == "Target" && dir != "internal/result":
					if _, ok := resultTargetAllowed[dir]; ok {
						seen["result "+dir] = true
						break
					}
					t.Errorf("%s builds a result.Target itself: use result.TargetOf(spec.Info())", rel)
				}
			case *ast.SelectorExpr:
				if n.Sel.Name == "IsolateHome" && !under(dir, isolateHomeAllowed) {
					t.Errorf("%s handles IsolateHome: connect.Resolve is where an entry's isolateHome becomes a connection", rel)
				}
			case *ast.KeyValueExpr:
				if k, ok := n.Key.(*ast.Ident); ok && k.Name == "IsolateHome" && !under(dir, isolateHomeAllowed) {
					t.Errorf("%s sets IsolateHome: connect.Resolve is where an entry's isolateHome becomes a connection", rel)
				}
			}
			return true
		})
	})
	for dir := range specLiteralAllowed {
		if !seen["spec "+dir] {
			t.Errorf("specLiteralAllowed lists %s, which no longer builds a connect.Spec: delete it", dir)
		}
	}
	for dir := range resultTargetAllowed {
		if !seen["result "+dir] {
			t.Errorf("resultTargetAllowed lists %s, which no longer builds a result.Target: delete it", dir)
		}
	}
}

// importName is the name af refers to the module's package local by ("" when
// af does not import it).
func importName(af *ast.File, local string) string {
	for _, imp := range af.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		if p != module+local {
			continue
		}
		if imp.Name != nil {
			return imp.Name.Name
		}
		return path.Base(p)
	}
	return ""
}
