package arch

import (
	"go/ast"
	"path"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// cmdutilImports are the mcpward packages internal/cli/cmdutil may import.
// Every command links cmdutil, so it holds the Factory, the errors and the
// flags only: the error kinds and codes (fault, result, suggest for "did
// you mean"), the streams, the format flags (export's registry), and the
// target flags with the spec they build (target, client, transport, mcp,
// fixture and rules for completion). What a group of commands shares
// beyond that has a package of its own: fleetrun (contract, fleet),
// addrguard and contract.StrictNet (--strict-net), syserr.
var cmdutilImports = []string{
	"internal/client", "internal/config", "internal/report", "internal/fault", "internal/fixture", "internal/iostreams",
	"internal/mcp", "internal/result", "internal/rules", "internal/suggest", "internal/connect", "internal/transport",
}

// TestCmdutilStaysLight: `go list -deps ./internal/cli/versioncmd` listed 43
// mcpward packages when cmdutil also held the fleet helpers, --strict-net
// and the rule-id completion; it lists 25 with the imports above.
func TestCmdutilStaysLight(t *testing.T) {
	seen := map[string]bool{}
	walkGo(t, func(rel string, af *ast.File) {
		if path.Dir(rel) != "internal/cli/cmdutil" {
			return
		}
		for _, imp := range af.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			local, ok := strings.CutPrefix(p, module)
			if !ok {
				continue
			}
			seen[local] = true
			if !slices.Contains(cmdutilImports, local) {
				t.Errorf("%s imports %s: every command would link it; give what needs it a package of its own (as fleetrun)", rel, local)
			}
		}
	})
	for _, p := range cmdutilImports {
		if !seen[p] {
			t.Errorf("cmdutilImports lists %s, which cmdutil no longer imports: delete it", p)
		}
	}
}
