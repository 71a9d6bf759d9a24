package heuristic

import "github.com/mcpward/mcpward/internal/mcp"

// OnlyReads reports whether both facts say a tool only reads: the server
// declares readOnlyHint: true, and neither its name and words
// ([ChangeSignal]) nor a mode or option of its input schema ([ReadModes])
// carry a write, delete, send or execute signal. This is init's rule for
// enabling a probe (initcmd.probeDecision calls it and words the reason);
// fuzz calls a tool only where it holds. When it does not, action and
// verb are the signal found (ActionNone and "" when only the annotation
// is missing), and where is [WhereInput] when the input schema gave it,
// "" when the name or description did. inputSchema is the decoded
// schema, nil when absent.
func OnlyReads(name, description string, ann *mcp.ToolAnnotations, inputSchema any) (ok bool, action Action, verb, where string) {
	declared := ann != nil && ann.ReadOnlyHint != nil && *ann.ReadOnlyHint
	action, verb = ChangeSignal(name, description)
	if action == ActionNone {
		if ma, mw := ReadModes(inputSchema); ma.Changes() {
			action, verb, where = ma, mw, WhereInput
		}
	}
	return declared && action == ActionNone, action, verb, where
}
