package arch

import (
	"fmt"
	"go/ast"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// exitConstants are the exit codes of internal/result.
var exitConstants = []string{"Clean", "Drift", "Incomplete", "Violation", "Usage", "Internal"}

// TestOneExitMapper: an error becomes an exit code in result.ExitCode
// only. The root command and every fleet section call it; no other
// package tests an error (errors.Is, errors.As, a fault or context
// sentinel) and yields an exit constant from it, and nothing declares a
// second set of names for the codes (an ExitUsage beside result.Usage).
// Reading a code an error already carries (a printed verdict's) is not
// mapping.
func TestOneExitMapper(t *testing.T) {
	goFiles(t, func(fset *token.FileSet, rel string, f *ast.File) {
		if filepath.ToSlash(filepath.Dir(rel)) == "internal/result" {
			return
		}
		for _, b := range exitMappings(fset, f) {
			t.Errorf("%s; map errors with result.ExitCode", b)
		}
	})
}

// exitMappings returns where f maps an error to an exit code itself: an if
// or a case that tests an error and whose body assigns or returns an exit
// constant of internal/result, and any constant named Exit….
func exitMappings(fset *token.FileSet, f *ast.File) []string {
	var bad []string
	flag := func(n ast.Node, what string) {
		bad = append(bad, fmt.Sprintf("%s: %s", fset.Position(n.Pos()), what))
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.GenDecl:
			if x.Tok != token.CONST {
				return true
			}
			for _, s := range x.Specs {
				for _, name := range s.(*ast.ValueSpec).Names {
					if strings.HasPrefix(name.Name, "Exit") {
						flag(name, "declares the exit-code name "+name.Name)
					}
				}
			}
		case *ast.IfStmt:
			if testsError(x.Cond) && yieldsExitCode(x.Body.List) {
				flag(x, "an if on an error yields an exit code")
			}
		case *ast.CaseClause:
			if slices.ContainsFunc(x.List, testsError) && yieldsExitCode(x.Body) {
				flag(x, "a case on an error yields an exit code")
			}
		}
		return true
	})
	return bad
}

// testsError reports whether e classifies an error: it calls errors.Is or
// errors.As, or names a fault kind or a context sentinel.
func testsError(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		pkg, _ := sel.X.(*ast.Ident)
		switch {
		case pkg == nil:
		case pkg.Name == "errors" && (sel.Sel.Name == "Is" || sel.Sel.Name == "As"),
			pkg.Name == "fault" && strings.HasPrefix(sel.Sel.Name, "Err"),
			pkg.Name == "context" && (sel.Sel.Name == "Canceled" || sel.Sel.Name == "DeadlineExceeded"):
			found = true
		}
		return !found
	})
	return found
}

// yieldsExitCode reports whether stmts return or assign an exit constant
// of internal/result (result.Usage …), not counting nested functions.
func yieldsExitCode(stmts []ast.Stmt) bool {
	found := false
	var values []ast.Expr
	for _, s := range stmts {
		ast.Inspect(s, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt:
				values = append(values, x.Results...)
			case *ast.AssignStmt:
				values = append(values, x.Rhs...)
			}
			return true
		})
	}
	for _, v := range values {
		if sel, ok := ast.Unparen(v).(*ast.SelectorExpr); ok {
			if pkg, _ := sel.X.(*ast.Ident); pkg != nil && pkg.Name == "result" && slices.Contains(exitConstants, sel.Sel.Name) {
				found = true
			}
		}
	}
	return found
}

// The mapper check flags the shapes the tree had before the codes had one
// mapper (cmdutil's errno list and alias constants, the root's classify,
// the fleet's ExitCodeOf), and not a call of result.ExitCode, a printed
// verdict's code or a comparison of a code.
func TestExitMappingsCheck(t *testing.T) {
	src := `package x

const (
	ExitOK    = result.Clean
	ExitUsage = result.Usage
)

func classify(err error) int {
	switch {
	case isFlagError(err) || errors.Is(err, fault.ErrInput):
		return result.Usage
	case errors.Is(err, context.Canceled):
		return result.Incomplete
	}
	for _, e := range environmentErrs {
		if errors.Is(err, e) {
			return result.Usage
		}
	}
	return result.Internal
}

func section(s *Section, err error) {
	if errors.Is(err, context.DeadlineExceeded) {
		s.ExitCode = result.Incomplete
	}
}

func fine(w io.Writer, err error, code int) int {
	var v *VerdictError
	if errors.As(err, &v) {
		return v.Code
	}
	if code == result.Usage && errors.Is(err, errFlag) {
		fmt.Fprintln(w, "hint")
	}
	if errors.Is(err, io.EOF) {
		return result.ExitCode(err, nil)
	}
	return result.ExitCode(err, syserr.Refused)
}
`
	want := []int{4, 5, 10, 12, 16, 24}
	if got := flaggedLines(t, src, exitMappings); !slices.Equal(got, want) {
		t.Errorf("flagged lines %v, want %v", got, want)
	}
}
