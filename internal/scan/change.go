package scan

import (
	"github.com/mcpward/mcpward/internal/rules"
	"github.com/mcpward/mcpward/internal/snapshot"
)

// Change scans a tool's new definition against its old one (a rug pull):
// the findings the new definition has that the old one had not, by rule
// and field, and the annotation changes that widen what the tool may do
// without asking (readOnlyHint revoked, destructiveHint raised), under the
// diff's own rule ids. A rename does not hide them: the two definitions
// are compared whatever their names.
func Change(before, after snapshot.Object) []Finding {
	old := map[string]bool{}
	for _, f := range Tools("", []snapshot.Object{before}) {
		old[f.Rule+"\x00"+f.Field] = true
	}
	var out []Finding
	for _, f := range Tools("", []snapshot.Object{after}) {
		if !old[f.Rule+"\x00"+f.Field] {
			out = append(out, f)
		}
	}
	name := snapshot.Str(after, "name")
	oa, _ := before["annotations"].(map[string]any)
	na, _ := after["annotations"].(map[string]any)
	if hint(oa, "readOnlyHint") && !hint(na, "readOnlyHint") {
		out = append(out, Finding{Rule: "annotation.readOnlyHint.revoked", Level: rules.Risky, Tool: name, Field: "annotations.readOnlyHint",
			Message: "readOnlyHint was true and is no longer: a tool approved as read-only may now write"})
	}
	if !hint(oa, "destructiveHint") && hint(na, "destructiveHint") {
		out = append(out, Finding{Rule: "annotation.destructiveHint.raised", Level: rules.Risky, Tool: name, Field: "annotations.destructiveHint",
			Message: "destructiveHint became true: the tool may now destroy data"})
	}
	return out
}

func hint(a map[string]any, k string) bool {
	b, _ := a[k].(bool)
	return b
}
