package arch

import (
	"bytes"
	"go/ast"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"testing"
)

// engineCalls are the steps of an engine that has a home outside the
// command packages: a command calls the engine (contract.Check,
// verdict.SessionsCheck), it does not assemble it from these.
var engineCalls = map[string]string{
	"traffic.New":              "verdict.SessionsCheck.Log",
	"verdict.NewCollector":     "verdict.NewSessionsCheck",
	"verdict.NewTrafficResult": "verdict.NewSessionsCheck",
	"verdict.LogProblems":      "verdict.SessionsCheck.Read",
	"verdict.MissingFrames":    "verdict.SessionsCheck.Read",
	"verdict.CheckRuleIDs":     "contract.Check",
	"proxy.NewLog":             "recording.Open",
}

// maxCommandFileLines caps a non-test file of a package under
// internal/cli: a command is flags, resolve, call, render, and a file
// that outgrows this holds an engine. cli/checkcmd, whose file held the
// check engine (438 lines), has the tighter maxCheckLines.
const (
	maxCommandFileLines = 480
	maxCheckLines       = 300
)

// TestNoEngineInCommands: the packages under internal/cli call engines,
// they do not assemble them (engineCalls), and no file of theirs
// outgrows a command (maxCommandFileLines; maxCheckLines for cli/checkcmd).
func TestNoEngineInCommands(t *testing.T) {
	walkGo(t, func(rel string, af *ast.File) {
		if !under(path.Dir(rel), []string{"internal/cli"}) {
			return
		}
		ast.Inspect(af, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if pkg, ok := sel.X.(*ast.Ident); ok {
				if home, ok := engineCalls[pkg.Name+"."+sel.Sel.Name]; ok {
					t.Errorf("%s: calls %s.%s, a step of an engine; call %s", rel, pkg.Name, sel.Sel.Name, home)
				}
			}
			return true
		})
	})
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	walkGo(t, func(rel string, _ *ast.File) {
		if !under(path.Dir(rel), []string{"internal/cli"}) {
			return
		}
		b, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		n := bytes.Count(b, []byte("\n"))
		limit := maxCommandFileLines
		if path.Dir(rel) == "internal/cli/checkcmd" {
			limit = maxCheckLines
		}
		if n > limit {
			t.Errorf("%s: %d lines, over %d: move its engine to a domain package", rel, n, limit)
		}
	})
}
