package heuristic

import "github.com/mcpward/mcpward/internal/mcp"

// OnlyReads reports whether both facts say a tool only reads: the server
// declares readOnlyHint: true, and its name and words carry no write,
// delete, send or execute signal ([ChangeSignal]). When they do not
// agree, action and verb are the signal found (ActionNone and "" when the
// words are silent and only the annotation is missing). `init` enables a
// probe and `fuzz` calls a tool only where this holds.
func OnlyReads(name, description string, ann *mcp.ToolAnnotations) (ok bool, action Action, verb string) {
	declared := ann != nil && ann.ReadOnlyHint != nil && *ann.ReadOnlyHint
	action, verb = ChangeSignal(name, description)
	return declared && action == ActionNone, action, verb
}
