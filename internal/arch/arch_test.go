package arch

import (
	"go/ast"
	"go/token"
	"path"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/mcpward/mcpward/"

// pure are the core packages: no I/O, built for WebAssembly in CI. They
// take []byte, io.Reader/Writer, fs.FS and times passed in.
var pure = []string{
	"internal/mcp", "internal/jsonrpc", "internal/snapshot", "internal/diff", "internal/rules",
	"internal/redact", "internal/report", "internal/sessionexport", "internal/otlpspan", "internal/result", "internal/heuristic", "internal/fault",
	"internal/session", "internal/calls", "internal/traffic", "internal/filter", "internal/config",
	"internal/sessiondiff", "internal/suggest", "internal/jsonx", "internal/verdict", "internal/migrate", "internal/scan", "internal/fuzz",
	"internal/termsafe",
	"internal/plural",
}

// impureConverters are the converters under internal/migrate whose output
// is a type of a package that does I/O (settings, baseline): they do no
// I/O themselves, but are not core, and the browser engine does not link
// them.
var impureConverters = []string{"internal/migrate/mcpsnoopfiles"}

// isPure reports whether dir is a core package.
func isPure(dir string) bool { return under(dir, pure) && !under(dir, impureConverters) }

// forbiddenInPure are imports that mean I/O or a UI.
var forbiddenInPure = []string{"os", "os/exec", "net", "net/http", "syscall", "log",
	"github.com/spf13/cobra", "charm.land/bubbletea/v2", "charm.land/lipgloss/v2", "charm.land/bubbles/v2"}

// testHelpers are packages only tests import; they may read files.
var testHelpers = []string{"internal/report/reporttest", "internal/testenv", "internal/cli/cmdtest"}

// tools are programs run by go generate; they write files.
var tools = []string{"internal/rules/gen"}

func under(dir string, roots []string) bool {
	for _, r := range roots {
		if dir == r || strings.HasPrefix(dir, r+"/") {
			return true
		}
	}
	return false
}

// TestDependencyRules walks every non-test Go file: the core imports no
// I/O, UI or CLI package; nothing outside internal/cli imports the CLI;
// only the UI and the CLI import the UI; test helpers stay in tests.
func TestDependencyRules(t *testing.T) {
	goFiles(t, func(_ *token.FileSet, rel string, af *ast.File) {
		dir := path.Dir(rel)
		for _, imp := range af.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			local := strings.TrimPrefix(p, module)
			switch {
			case under(dir, tools):
				// go generate programs write the generated files.
			case isPure(dir) && !under(dir, testHelpers) && slices.Contains(forbiddenInPure, p):
				t.Errorf("%s: the core package %s imports %s", rel, dir, p)
			case isPure(dir) && local != p && (under(local, []string{"internal/cli", "internal/tui"}) || !isPure(local)):
				t.Errorf("%s: the core package %s imports %s, which is not core", rel, dir, local)
			case local != p && under(local, []string{"internal/cli"}) && !under(dir, []string{"internal/cli", "cmd"}):
				t.Errorf("%s: %s imports the CLI (%s)", rel, dir, local)
			case local != p && under(local, []string{"internal/tui"}) && !under(dir, []string{"internal/tui", "internal/cli"}):
				t.Errorf("%s: %s imports the UI (%s)", rel, dir, local)
			case local != p && under(local, testHelpers) && !under(dir, testHelpers):
				t.Errorf("%s: %s imports the test helper %s outside a test", rel, dir, local)
			}
		}
	})
}
