package arch

import (
	"go/ast"
	"go/token"
	"path"
	"sort"
	"strings"
	"testing"
)

// handScanAllowed are the files outside internal/jsonrpc that still walk
// the bytes of a quoted string themselves, each for a reason jsonrpc's
// scanner does not serve. An entry that no longer does fails the test:
// delete it.
var handScanAllowed = map[string]string{
	"internal/fixture/json.go":            "writeString's fast path asks whether a string needs escaping: an encoder, not a scanner",
	"internal/redact/text.go":             "redacts text that is not JSON (stderr, torn lines, JSON quoted inside a string): lax on purpose",
	"internal/settings/limits.go":         "TOML strings (the settings file's limits, checked before decoding)",
	"internal/tui/pages/overlays/json.go": "colours indented JSON one line at a time, and a line is no JSON value; TODO(issue 27): jsonrpc.SkipString per string",
	"internal/tui/store/store.go":         "compacts the first bytes of a frame for a row, cut mid-value: lax on purpose",
	"internal/wrap/jsonc.go":              "JSONC (comments, trailing commas) of client configs, which a JSON scanner refuses",
}

// TestOneJSONScanner: JSON is scanned by internal/jsonrpc (Valid,
// SkipSpace, SkipValue, SkipString, SkipNumber, Members, Elements), the
// relay's validator with its fuzz equivalence tests; the redaction
// tokenizer and the snapshot reader are built on it. A hand scanner is a
// function with a loop that tests bytes against both '"' and '\\' (it
// finds the end of a string by skipping escapes): outside jsonrpc only
// the files of handScanAllowed have one (issue 27 item 2).
func TestOneJSONScanner(t *testing.T) {
	seen := map[string]bool{}
	walkGo(t, func(rel string, af *ast.File) {
		if under(path.Dir(rel), []string{"internal/jsonrpc"}) {
			return
		}
		ast.Inspect(af, func(n ast.Node) bool {
			var body *ast.BlockStmt
			switch l := n.(type) {
			case *ast.ForStmt:
				body = l.Body
			case *ast.RangeStmt:
				body = l.Body
			default:
				return true
			}
			quote, backslash, writes := false, false, false
			ast.Inspect(body, func(m ast.Node) bool {
				switch m := m.(type) {
				case *ast.BasicLit:
					quote = quote || m.Kind == token.CHAR && m.Value == `'"'`
					backslash = backslash || m.Kind == token.CHAR && m.Value == `'\\'`
				case *ast.CallExpr:
					// An escaper writes a backslash: it encodes, it does
					// not scan.
					for _, a := range m.Args {
						if lit, ok := a.(*ast.BasicLit); ok && strings.Contains(lit.Value, `\\`) {
							writes = true
						}
					}
				}
				return true
			})
			if quote && backslash && !writes {
				seen[rel] = true
				if _, ok := handScanAllowed[rel]; !ok {
					t.Errorf("%s: scans a JSON string by hand; use internal/jsonrpc (SkipString, SkipValue, Members)", rel)
				}
				return false
			}
			return true
		})
	})
	var stale []string
	for rel := range handScanAllowed {
		if !seen[rel] {
			stale = append(stale, rel)
		}
	}
	sort.Strings(stale)
	for _, rel := range stale {
		t.Errorf("%s no longer scans a string by hand: delete it from handScanAllowed", rel)
	}
}
