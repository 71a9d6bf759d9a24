package arch

import (
	"go/ast"
	"go/token"
	"path"
	"strconv"
	"strings"
	"testing"
)

// foreignEdges are the packages outside internal/migrate that may import
// it: the commands, and the readers of files a user hands mcpward whatever
// tool wrote them (a snapshot or config: contract; a session log:
// sessionlog; a client config: wrap; the browser engine). Everything else
// knows only mcpward's formats (issue 27 item 5).
var foreignEdges = []string{"internal/cli", "internal/contract", "internal/sessionlog", "internal/wrap", "internal/site/engine"}

// foreignMarkers are the file names and format keys of snapgauge,
// mcp-surfaceprint and mcpsnoop: a string literal holding one is a reader
// of that format, which belongs under internal/migrate (a command may
// name the files in its help, and 'mcpward migrate' finds them).
var foreignMarkers = []string{
	"snapgauge.config.", ".snapgauge", "@snapgauge/", "snapgaugeVersion", // snapgauge
	"snapshotFormatVersion", "surfaceEntityDigests", // mcp-surfaceprint
	".mcpsnoop.toml", ".mcpsnoop.bak", "server_label", "tool-baselines", // mcpsnoop
}

// TestForeignFormatsOnlyUnderMigrate: only the edges import
// internal/migrate/..., and no non-test file outside it and the commands
// names a foreign file or format key in a string literal.
func TestForeignFormatsOnlyUnderMigrate(t *testing.T) {
	goFiles(t, func(_ *token.FileSet, rel string, af *ast.File) {
		dir := path.Dir(rel)
		if under(dir, []string{"internal/migrate", "internal/arch"}) {
			return
		}
		for _, imp := range af.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if local := strings.TrimPrefix(p, module); local != p && under(local, []string{"internal/migrate"}) && !under(dir, foreignEdges) {
				t.Errorf("%s: %s imports %s; only the edges (%s) convert through migrate", rel, dir, local, strings.Join(foreignEdges, ", "))
			}
		}
		if under(dir, []string{"internal/cli"}) {
			return // the commands name the files in their help and find them
		}
		ast.Inspect(af, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			for _, m := range foreignMarkers {
				if strings.Contains(lit.Value, m) {
					t.Errorf("%s: the literal %s names a foreign format (%q): read it under internal/migrate", rel, lit.Value, m)
				}
			}
			return true
		})
	})
}
