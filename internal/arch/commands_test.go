package arch

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// commandImportsAllowed are the imports of one command package by another
// that remain, each until its TODO is done. An entry whose import is gone
// fails the test: delete it.
var commandImportsAllowed = map[[2]string]string{}

// TestCommandsDoNotImportCommands: a command package under internal/cli
// (one that declares a NewCmd… function) never imports another command
// package. The root (internal/cli) registers every verb, and a group
// package registers its own subcommands (internal/cli/sessionscmd imports
// internal/cli/sessionscmd/sesslistcmd); helpers without a command (cmdutil,
// cmdtest, sessionscmd/sessionargs) may be imported by any. What two commands
// share belongs in a domain package or a helper. Test files count too.
func TestCommandsDoNotImportCommands(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	edges, commands := commandImports(t, root)
	for _, want := range []string{"internal/cli/checkcmd", "internal/cli/sessionscmd/sessexportcmd", "internal/cli/wrapcmd"} {
		if !commands[want] {
			t.Errorf("%s is not seen as a command package: is the walk right?", want)
		}
	}
	for _, helper := range []string{"internal/cli/cmdutil", "internal/cli/cmdtest"} {
		if commands[helper] {
			t.Errorf("%s is seen as a command package", helper)
		}
	}
	seen := map[[2]string]bool{}
	for _, e := range edges {
		if !commands[e.to] || e.from == "internal/cli" || path.Dir(e.to) == e.from {
			continue
		}
		if _, ok := commandImportsAllowed[[2]string{e.from, e.to}]; ok {
			seen[[2]string{e.from, e.to}] = true
			continue
		}
		t.Errorf("%s: the command package %s imports the command package %s: move what they share to a domain package or a helper", e.file, e.from, e.to)
	}
	for k := range commandImportsAllowed {
		if !seen[k] {
			t.Errorf("commandImportsAllowed lists %s -> %s, which no longer imports it: delete the entry", k[0], k[1])
		}
	}
}

type importEdge struct{ file, from, to string }

// commandImports returns every import of an internal/cli package by a
// file under internal/cli, and which of those packages are commands.
func commandImports(t *testing.T, root string) ([]importEdge, map[string]bool) {
	t.Helper()
	fset := token.NewFileSet()
	var edges []importEdge
	commands := map[string]bool{}
	cli := filepath.Join(root, "internal", "cli")
	err := filepath.WalkDir(cli, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); name == "testdata" || strings.HasPrefix(name, ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		dir := filepath.ToSlash(filepath.Dir(rel))
		af, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if !strings.HasSuffix(p, "_test.go") && dir != "internal/cli" && declaresCommand(af) {
			commands[dir] = true
		}
		for _, imp := range af.Imports {
			ip, _ := strconv.Unquote(imp.Path.Value)
			local, ok := strings.CutPrefix(ip, module)
			if ok && under(local, []string{"internal/cli"}) && local != dir {
				edges = append(edges, importEdge{file: filepath.ToSlash(rel), from: dir, to: local})
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(edges, func(a, b importEdge) int { return strings.Compare(a.file+a.to, b.file+b.to) })
	return edges, commands
}

// declaresCommand reports whether the file declares a cobra constructor
// (a top-level func NewCmd…).
func declaresCommand(f *ast.File) bool {
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && strings.HasPrefix(fd.Name.Name, "NewCmd") {
			return true
		}
	}
	return false
}
