package arch

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpward/mcpward/internal/report"
)

// goFiles parses every non-test Go file of the repository (testdata and
// hidden directories skipped) and calls fn with its slash path relative to
// the root.
func goFiles(t *testing.T, fn func(fset *token.FileSet, rel string, f *ast.File)) {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	fset := token.NewFileSet()
	files := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); name == "testdata" || name == "node_modules" || (strings.HasPrefix(name, ".") && p != root) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		af, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		rel, _ := filepath.Rel(root, p)
		fn(fset, filepath.ToSlash(rel), af)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 200 {
		t.Errorf("checked only %d files: is the walk rooted at the module?", files)
	}
}

// exitLiteral returns the value of e when it is an integer literal that
// could be one of mcpward's exit codes (0–5).
func exitLiteral(e ast.Expr) (string, bool) {
	lit, ok := ast.Unparen(e).(*ast.BasicLit)
	if !ok || lit.Kind != token.INT {
		return "", false
	}
	n, err := strconv.ParseInt(lit.Value, 0, 64)
	return lit.Value, err == nil && n >= 0 && n <= 5
}

// isExitName reports whether e names an exit code: a field or variable
// ExitCode/exitCode, or a verdict's Code.
func isExitName(e ast.Expr) bool {
	var name string
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		name = x.Name
	case *ast.SelectorExpr:
		name = x.Sel.Name
	case *ast.CallExpr: // r.ExitCode()
		if sel, ok := x.Fun.(*ast.SelectorExpr); ok && len(x.Args) == 0 {
			name = sel.Sel.Name
		}
	}
	return name == "ExitCode" || name == "exitCode"
}

// TestExitCodesOnlyFromResult: the exit codes of PRODUCT.md are the
// constants of internal/result (Clean … Internal), decided by result.Decide
// and result.ExitCode. No other package writes, compares or returns one as a
// bare number: `ExitCode: 2`, `r.ExitCode = 1`, `code == 3`, `case 0:` in
// a switch on an exit code, `VerdictError{Code: 2}`, `Verdict(1)`, or
// `return 2` from a function whose name says it returns an exit code. Only
// literals 0–5 count, so HTTP statuses and JSON-RPC codes are not flagged.
func TestExitCodesOnlyFromResult(t *testing.T) {
	allowed := []string{"internal/result", "internal/fault"}
	var bad []string
	goFiles(t, func(fset *token.FileSet, rel string, f *ast.File) {
		if under(filepath.ToSlash(filepath.Dir(rel)), allowed) {
			return
		}
		bad = append(bad, bareExitCodes(fset, f)...)
	})
	for _, b := range bad {
		t.Errorf("%s: a bare exit code; use the constants of internal/result (result.Decide for a verdict)", b)
	}
}

// bareExitCodes returns where f writes, compares or returns an exit code as
// a bare number.
func bareExitCodes(fset *token.FileSet, f *ast.File) []string {
	var bad []string
	flag := func(n ast.Node, what string) {
		bad = append(bad, fmt.Sprintf("%s: %s", fset.Position(n.Pos()), what))
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.KeyValueExpr:
			key, _ := x.Key.(*ast.Ident)
			if v, ok := exitLiteral(x.Value); ok && key != nil && (key.Name == "ExitCode" || key.Name == "exitCode") {
				flag(x, key.Name+": "+v)
			}
		case *ast.CompositeLit:
			// VerdictError{Code: 2}: a verdict's code.
			name := ""
			switch t := x.Type.(type) {
			case *ast.Ident:
				name = t.Name
			case *ast.SelectorExpr:
				name = t.Sel.Name
			}
			if name == "VerdictError" {
				for _, el := range x.Elts {
					if kv, ok := el.(*ast.KeyValueExpr); ok {
						if k, _ := kv.Key.(*ast.Ident); k != nil && k.Name == "Code" {
							if v, ok := exitLiteral(kv.Value); ok {
								flag(kv, "VerdictError Code: "+v)
							}
						}
					}
				}
			}
		case *ast.AssignStmt:
			for i, lhs := range x.Lhs {
				if i < len(x.Rhs) && isExitName(lhs) {
					if v, ok := exitLiteral(x.Rhs[i]); ok {
						flag(x, "exit code assigned "+v)
					}
				}
			}
		case *ast.BinaryExpr:
			switch x.Op {
			case token.EQL, token.NEQ, token.LSS, token.GTR, token.LEQ, token.GEQ:
				for _, pair := range [][2]ast.Expr{{x.X, x.Y}, {x.Y, x.X}} {
					if v, ok := exitLiteral(pair[1]); ok && isExitName(pair[0]) {
						flag(x, "exit code compared with "+v)
					}
				}
			}
		case *ast.SwitchStmt:
			if x.Tag != nil && isExitName(x.Tag) {
				for _, s := range x.Body.List {
					for _, e := range s.(*ast.CaseClause).List {
						if v, ok := exitLiteral(e); ok {
							flag(e, "case "+v+" in a switch on an exit code")
						}
					}
				}
			}
		case *ast.CallExpr:
			var name string
			switch fn := x.Fun.(type) {
			case *ast.Ident:
				name = fn.Name
			case *ast.SelectorExpr:
				name = fn.Sel.Name
			}
			if name == "Verdict" && len(x.Args) == 1 {
				if v, ok := exitLiteral(x.Args[0]); ok {
					flag(x, "Verdict("+v+")")
				}
			}
		case *ast.FuncDecl:
			if x.Body == nil || !exitFuncName(x.Name.Name) || !returnsInt(x.Type) {
				return true
			}
			ast.Inspect(x.Body, func(m ast.Node) bool {
				if _, ok := m.(*ast.FuncLit); ok {
					return false
				}
				if r, ok := m.(*ast.ReturnStmt); ok {
					for _, e := range r.Results {
						if v, ok := exitLiteral(e); ok {
							flag(r, "return "+v+" from "+x.Name.Name)
						}
					}
				}
				return true
			})
		}
		return true
	})
	return bad
}

// exitFuncName reports whether a function's name says it returns
// mcpward's exit code: …ExitCode/…exitCode, classify (the CLI's error →
// code mapper), codeOf…. A wrapped server's exit state (the shim passes it
// through) is not one: transport's ExitState is not matched.
func exitFuncName(name string) bool {
	l := strings.ToLower(name)
	return strings.HasSuffix(l, "exitcode") || l == "classify" || strings.HasPrefix(l, "codeof")
}

func returnsInt(ft *ast.FuncType) bool {
	if ft.Results == nil {
		return false
	}
	for _, r := range ft.Results.List {
		if id, ok := r.Type.(*ast.Ident); ok && id.Name == "int" {
			return true
		}
	}
	return false
}

// TestFormatsOnlyInRegistry: the output formats are listed once, in the
// registry of internal/report (report.Formats). No other file spells a
// list of two or more format names (a []string{"text", "json", …}, or the
// arguments of one call), and cmdutil.AddFormatFlags / AddJSONFlags are
// given a command the registry knows, never formats.
func TestFormatsOnlyInRegistry(t *testing.T) {
	names := map[string]bool{}
	commands := map[string]bool{}
	for _, f := range report.Formats() {
		names[f.Name] = true
		for _, c := range f.Commands {
			commands[c] = true
		}
	}
	if len(names) < 5 || !commands["check"] {
		t.Fatalf("the registry looks empty: formats %v, commands %v", names, commands)
	}
	const registry = "internal/report/formats.go"
	var bad []string
	seenRegistry := false
	goFiles(t, func(fset *token.FileSet, rel string, f *ast.File) {
		if rel == registry {
			seenRegistry = true
			return
		}
		// cmdutil itself forwards its caller's command.
		checkCalls := !strings.HasPrefix(rel, "internal/cli/cmdutil/")
		bad = append(bad, formatLists(fset, f, names, commands, checkCalls)...)
	})
	if !seenRegistry {
		t.Fatalf("%s not found: is the walk right?", registry)
	}
	for _, b := range bad {
		t.Errorf("%s: formats are listed only in %s", b, registry)
	}
}

// formatLists returns where f lists two or more format names, or (with
// checkCalls) gives AddFormatFlags/AddJSONFlags anything but a command of
// the registry.
func formatLists(fset *token.FileSet, f *ast.File, names, commands map[string]bool, checkCalls bool) []string {
	var bad []string
	flag := func(n ast.Node, what string) {
		bad = append(bad, fmt.Sprintf("%s: %s", fset.Position(n.Pos()), what))
	}
	formatList := func(n ast.Node, exprs []ast.Expr) {
		var found []string
		for _, e := range exprs {
			if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if s, err := strconv.Unquote(lit.Value); err == nil && names[s] && !slices.Contains(found, s) {
					found = append(found, s)
				}
			}
		}
		if len(found) >= 2 {
			flag(n, "lists formats "+strings.Join(found, ", "))
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.CompositeLit:
			formatList(x, x.Elts)
		case *ast.CallExpr:
			formatList(x, x.Args)
			fn := ""
			switch f := x.Fun.(type) {
			case *ast.SelectorExpr:
				fn = f.Sel.Name
			case *ast.Ident:
				fn = f.Name
			}
			if checkCalls && (fn == "AddFormatFlags" || fn == "AddJSONFlags") && len(x.Args) == 3 {
				lit, _ := x.Args[2].(*ast.BasicLit)
				if c, err := strconv.Unquote(litValue(lit)); err != nil || !commands[c] {
					flag(x, fn+" is given something other than a command of the registry")
				}
			}
		}
		return true
	})
	return bad
}

func litValue(l *ast.BasicLit) string {
	if l == nil {
		return ""
	}
	return l.Value
}

// flaggedLines parses src and returns the lines check flags.
func flaggedLines(t *testing.T, src string, check func(*token.FileSet, *ast.File) []string) []int {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	var lines []int
	for _, b := range check(fset, f) {
		var line, col int
		if _, err := fmt.Sscanf(strings.TrimPrefix(b, "x.go:"), "%d:%d", &line, &col); err != nil {
			t.Fatalf("position of %q: %v", b, err)
		}
		if !slices.Contains(lines, line) {
			lines = append(lines, line)
		}
	}
	slices.Sort(lines)
	return lines
}

// The exit-code check flags what the tree did before the codes had one
// home (contract, compat, render, check), and not HTTP statuses, JSON-RPC
// codes, a wrapped server's exit state or an unrelated Code field.
func TestBareExitCodesCheck(t *testing.T) {
	src := `package x

func compare(r *R, failed bool) {
	switch {
	case !r.Complete:
		r.ExitCode = 2
	case failed:
		r.ExitCode = 1
	}
}
func (r *Report) ExitCode() int {
	if len(r.Problems) > 0 {
		return 2
	}
	return 0
}
func label(r *R) string {
	switch r.ExitCode {
	case 0:
		return "PASS"
	}
	return ""
}
func incomplete() error { return &cmdutil.VerdictError{Code: 2} }
func drift() error      { return cmdutil.Verdict(1) }

var res = Result{ExitCode: 3}

func failed(r *R) bool { return r.ExitCode != 0 }

func fine(r *R, code int) (int, bool) {
	r.ExitCode = result.Decide(result.Outcome{Drift: true})
	_ = code == 404 || code == 2 || r.Status == 200
	_ = Status{Code: 1}
	_ = r.ExitCode == result.Clean
	return 0, false
}
func ExitState() (int, bool) { return 1, true }
`
	want := []int{6, 8, 13, 15, 19, 24, 25, 27, 29}
	got := flaggedLines(t, src, bareExitCodes)
	if !slices.Equal(got, want) {
		t.Errorf("flagged lines %v, want %v", got, want)
	}
}

// The format check flags a list of formats and a call that passes formats
// instead of its command, and not other string lists.
func TestFormatListsCheck(t *testing.T) {
	names := map[string]bool{"text": true, "json": true, "md": true, "tsv": true}
	commands := map[string]bool{"check": true}
	src := `package x

var Formats = []string{"text", "json", "md"}

func old(cmd *C, s *string) { cmdutil.AddFormatFlags(cmd, s, "text", "json", cmdutil.FormatTSV) }
func unknown(cmd *C, s *string) { cmdutil.AddFormatFlags(cmd, s, "nope") }
func variable(cmd *C, s *string, c string) { cmdutil.AddJSONFlags(cmd, s, c) }

var kinds = []string{"text", "image"}

func fine(cmd *C, s *string) { cmdutil.AddFormatFlags(cmd, s, "check") }
`
	check := func(fset *token.FileSet, f *ast.File) []string {
		return formatLists(fset, f, names, commands, true)
	}
	if got, want := flaggedLines(t, src, check), []int{3, 5, 6, 7}; !slices.Equal(got, want) {
		t.Errorf("flagged lines %v, want %v", got, want)
	}
}
