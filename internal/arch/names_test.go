package arch

import (
	"go/ast"
	"path"
	"slices"
	"strings"
	"testing"
)

// TestPackageNames: every package's name is its directory's name, and no
// two packages of the module share a name, so that a name read in an
// import, a stack trace or a review says which package it is (issue 27
// item 6: 14 command packages were named like the domain package they
// call, 4 directories differed from their package, two packages were
// "otlp"). Command packages are internal/cli/<verb>cmd (package
// <verb>cmd); the subcommands of `sessions` are
// internal/cli/sessionscmd/sess<verb>cmd.
//
// Excepted, by how the walk sees them: `main` packages (a program's
// directory names the program: cmd/mcpward, internal/rules/gen ...), and
// directories holding only _test.go files, testdata or node_modules (no
// package of the module imports them). Test helper packages
// (reporttest, cmdtest, testenv ...) are packages like any other: their
// names end in "test" or say so, and they are checked.
func TestPackageNames(t *testing.T) {
	names := map[string]string{} // dir → package name
	walkGo(t, func(rel string, af *ast.File) {
		names[path.Dir(rel)] = af.Name.Name
	})
	if len(names) < 100 {
		t.Fatalf("saw only %d packages: is the walk rooted at the module?", len(names))
	}
	for _, p := range namingProblems(names) {
		t.Error(p)
	}
}

// namingProblems returns, sorted, each directory whose package is not
// named like it and each package name that more than one directory uses.
// main packages are skipped.
func namingProblems(names map[string]string) []string {
	var out []string
	byName := map[string][]string{}
	for dir, name := range names {
		if name == "main" {
			continue
		}
		if base := path.Base(dir); base != name {
			out = append(out, dir+": package "+name+" in a directory named "+base+": name one after the other")
		}
		byName[name] = append(byName[name], dir)
	}
	for name, dirs := range byName {
		if len(dirs) > 1 {
			slices.Sort(dirs)
			out = append(out, "package name "+name+" is used by "+strings.Join(dirs, ", ")+": give each its own")
		}
	}
	slices.Sort(out)
	return out
}

// TestNamingProblemsCheck: the check finds a mismatch and a duplicate, and
// lets a main package and a clean tree pass.
func TestNamingProblemsCheck(t *testing.T) {
	for _, c := range []struct {
		name  string
		names map[string]string
		want  int
	}{
		{"clean", map[string]string{"internal/diff": "diff", "internal/cli/diffcmd": "diffcmd"}, 0},
		{"main packages", map[string]string{"cmd/mcpward": "main", "internal/rules/gen": "main"}, 0},
		{"dir differs", map[string]string{"internal/cli/diff": "diffcmd"}, 1},
		{"duplicate", map[string]string{"internal/otlp": "otlp", "internal/export/otlp": "otlp"}, 1},
		{"both", map[string]string{"internal/check": "check", "internal/cli/checkcmd": "check"}, 2},
	} {
		if got := namingProblems(c.names); len(got) != c.want {
			t.Errorf("%s: %d problems %q, want %d", c.name, len(got), got, c.want)
		}
	}
}
