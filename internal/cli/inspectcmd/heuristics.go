package inspectcmd

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpward/mcpward/internal/heuristic"
	"github.com/mcpward/mcpward/internal/mcp"
	"github.com/mcpward/mcpward/internal/snapshot"
)

// heuristicKind is the note kind of the labels and signals --json adds.
const heuristicKind = "heuristic"

// withHeuristics adds the human view's tool risk labels and (when signals
// is set) suspicious-text signals to the snapshot as notes of kind
// "heuristic", which mcp-surfaceprint users found in
// observation.localAnnotations. Notes are observation: never diffed,
// never hashed, and the file stays a snapshot that diff and check read.
//
//	{"kind": "heuristic", "rule": "risk.destructive", "snippet": "delete_item"}
//	{"kind": "heuristic", "rule": "risk.source", "snippet": "delete_item: destructive from the heuristic (\"delete\" in its name); the server claims destructive (by the spec defaults: no hints declared)"}
//	{"kind": "heuristic", "rule": "risk.conflict", "snippet": "wipe: annotations say read, the words say destructive"}
//	{"kind": "heuristic", "rule": "signal.prompt_injection_phrase", "snippet": "tool sync_notes: …"}
func withHeuristics(s *snapshot.Snapshot, signals bool) {
	var notes []snapshot.Note
	for _, t := range s.Surface.Tools {
		name := snapshot.Str(t, "name")
		label := heuristic.ClassifyDefinition(name, snapshot.Str(t, "description"), annotations(t), t["inputSchema"])
		notes = append(notes, snapshot.Note{Kind: heuristicKind, Rule: "risk." + string(label.Risk), Snippet: name})
		notes = append(notes, snapshot.Note{Kind: heuristicKind, Rule: "risk.source", Snippet: sourceLine(name, label)})
		if label.Conflict {
			notes = append(notes, snapshot.Note{Kind: heuristicKind, Rule: "risk.conflict",
				Snippet: fmt.Sprintf("%s: annotations say %s, the words say %s", name, label.Annotated, label.Heuristic)})
		}
	}
	if signals {
		for _, sg := range heuristic.Signals(heuristic.SignalInput{
			Tools:             decodeAll[mcp.Tool](s.Surface.Tools),
			Resources:         decodeAll[mcp.Resource](s.Surface.Resources),
			ResourceTemplates: decodeAll[mcp.ResourceTemplate](s.Surface.ResourceTemplates),
			Prompts:           decodeAll[mcp.Prompt](s.Surface.Prompts),
		}) {
			notes = append(notes, snapshot.Note{Kind: heuristicKind, Rule: "signal." + strings.ReplaceAll(sg.Rule, " ", "_"),
				Snippet: fmt.Sprintf("%s %s: %s", sg.Kind, sg.Name, sg.Snippet)})
		}
	}
	all := append(slices.Clone(s.Observation.Notes), notes...)
	slices.SortStableFunc(all, func(a, b snapshot.Note) int {
		return cmp.Or(strings.Compare(a.Kind, b.Kind), strings.Compare(a.Rule, b.Rule), strings.Compare(a.Snippet, b.Snippet))
	})
	s.Observation.Notes = all
}

// sourceLine says where a tool's label came from, with both facts apart:
// the heuristic's reading (marked as such) and the server's claim.
func sourceLine(name string, l heuristic.Label) string {
	var words string
	if l.Heuristic != "" {
		words = fmt.Sprintf("the heuristic reads %s (%q in its %s)", l.Action.Reads(), l.Word, l.Where)
	} else {
		words = "the heuristic reads no verb"
	}
	claim := "declared annotations"
	if !l.Declared {
		claim = "by the spec defaults: no hints declared"
	}
	return fmt.Sprintf("%s: %s from %s; %s; the server claims %s (%s)", name, l.Risk, l.Source, words, l.Annotated, claim)
}
