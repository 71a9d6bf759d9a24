package scan

import "github.com/mcpward/mcpward/internal/snapshot"

// Change scans a tool's new definition against its old one (a rug pull):
// the findings the new definition has that the old one had not, by rule
// and field. A rename does not hide them: the two definitions are
// compared whatever their names.
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
	return out
}
