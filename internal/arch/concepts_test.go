package arch

import (
	"go/ast"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestOneNoEscapeMarshal: only internal/jsonx turns HTML escaping off
// (SetEscapeHTML). Everything else that must keep "<b>" as "<b>" calls
// jsonx.Marshal or jsonx.MarshalIndent (or render.JSON, which does), so
// there is one definition of how mcpward writes JSON instead of a private
// marshal per package. Test files are free to build their own encoders.
func TestOneNoEscapeMarshal(t *testing.T) {
	walkGo(t, func(rel string, af *ast.File) {
		if under(filepath.ToSlash(filepath.Dir(rel)), []string{"internal/jsonx"}) {
			return
		}
		ast.Inspect(af, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "SetEscapeHTML" {
				t.Errorf("%s: calls SetEscapeHTML itself; use internal/jsonx", rel)
			}
			return true
		})
	})
}

// TestOneSanitiser: text a server controls is made safe for a terminal by
// internal/termsafe only (issue 26 item 3). An escaper of control
// characters elsewhere is a format string that writes \xNN or \u{NNNN}
// (as termsafe does, and render.OneLine did). Whitespace compactors
// (strings.Fields) are no escapers: their output still goes through it.
func TestOneSanitiser(t *testing.T) {
	walkGo(t, func(rel string, af *ast.File) {
		if under(filepath.ToSlash(filepath.Dir(rel)), []string{"internal/termsafe"}) {
			return
		}
		ast.Inspect(af, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BasicLit:
				if n.Kind == token.STRING && (strings.Contains(n.Value, `\\x%02x`) || strings.Contains(n.Value, `\x%02x`) || strings.Contains(n.Value, `u{%04x}`)) {
					t.Errorf("%s: escapes control characters itself (%s); use internal/termsafe", rel, n.Value)
				}
			}
			return true
		})
	})
}

// walkGo is goFiles for checks that need no positions.
func walkGo(t *testing.T, fn func(rel string, af *ast.File)) {
	t.Helper()
	goFiles(t, func(_ *token.FileSet, rel string, af *ast.File) { fn(rel, af) })
}

// frameKindAllowed are the packages that still declare a frame kind of
// their own, each until its TODO is done. An entry that no longer does
// fails the test: delete it.
var frameKindAllowed = map[string]string{
	// TODO(issue 14): calls.Kind folds result and error into "response"
	// and its names are the filter language's kind: values and the
	// session export's "kind" member; moving it onto jsonrpc.Kind needs
	// a name mapping for those two outputs and touches traffic and the TUI.
	"internal/calls": "KindResponse is one kind for result and error",
}

// TestOneFrameKind: what a frame is (request, notification, result,
// error, batch, and the recorded lines without one) is jsonrpc.Kind.
// Nothing else declares a KindRequest or KindNotification constant; the
// hub's scanner, which is laxer than jsonrpc.Decode on purpose, reports
// jsonrpc's kinds.
func TestOneFrameKind(t *testing.T) {
	seen := map[string]bool{}
	walkGo(t, func(rel string, af *ast.File) {
		dir := filepath.ToSlash(filepath.Dir(rel))
		if dir == "internal/jsonrpc" {
			return
		}
		for _, d := range af.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, s := range g.Specs {
				for _, n := range s.(*ast.ValueSpec).Names {
					if n.Name != "KindRequest" && n.Name != "KindNotification" {
						continue
					}
					if _, ok := frameKindAllowed[dir]; ok {
						seen[dir] = true
					} else {
						t.Errorf("%s: declares %s; use jsonrpc.Kind", rel, n.Name)
					}
				}
			}
		}
	})
	for dir := range frameKindAllowed {
		if !seen[dir] {
			t.Errorf("%s no longer declares a frame kind: delete its entry from frameKindAllowed", dir)
		}
	}
}

// probeTypesAllowed are the struct types besides snapshot.ProbeDecl that
// declare a probe's fields (ID, Tool and Arguments), each with why.
var probeTypesAllowed = map[string]string{
	// The config file's entry: the probe plus enabled and reason, in the
	// file's key order; Probe.Decl gives the snapshot.ProbeDecl.
	"internal/config.Probe": "the config file's schema",
	// A probe's outcome, not its declaration: the arguments actually
	// sent (nil declared becomes {}) beside the answer.
	"internal/snapshot.ProbeEvidence": "evidence of one probe run",
}

// TestOneProbeType: a declared tools/call probe is snapshot.ProbeDecl.
// probe.Probe, compat.Probe and fixture.Probe are aliases of it, so a
// probe passes from a fixture or the config to the prober, compat and
// the probe-spec hash without a copy loop. A struct with the fields ID,
// Tool and Arguments anywhere else is a second probe type.
func TestOneProbeType(t *testing.T) {
	seen := map[string]bool{}
	walkGo(t, func(rel string, af *ast.File) {
		dir := filepath.ToSlash(filepath.Dir(rel))
		ast.Inspect(af, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok {
				return true
			}
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				return true
			}
			fields := map[string]bool{}
			for _, f := range st.Fields.List {
				for _, name := range f.Names {
					fields[name.Name] = true
				}
			}
			if !fields["ID"] || !fields["Tool"] || !fields["Arguments"] {
				return true
			}
			name := dir + "." + ts.Name.Name
			switch _, ok := probeTypesAllowed[name]; {
			case name == "internal/snapshot.ProbeDecl":
				seen[name] = true
			case ok:
				seen[name] = true
			default:
				t.Errorf("%s: %s has a probe's fields (ID, Tool, Arguments); use snapshot.ProbeDecl", rel, ts.Name.Name)
			}
			return true
		})
	})
	if !seen["internal/snapshot.ProbeDecl"] {
		t.Error("snapshot.ProbeDecl not found: is the test looking at the right fields?")
	}
	for name := range probeTypesAllowed {
		if !seen[name] {
			t.Errorf("%s is no longer a probe type: delete its entry from probeTypesAllowed", name)
		}
	}
}
