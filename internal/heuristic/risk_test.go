package heuristic

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpward/mcpward/internal/mcp"
)

func TestClassifyTool(t *testing.T) {
	tests := []struct {
		name, desc string
		want       Risk
	}{
		// Each word of each rule.
		{"delete", "", Destructive}, {"remove", "", Destructive}, {"destroy", "", Destructive},
		{"drop", "", Destructive}, {"purge", "", Destructive}, {"clear", "", Destructive}, {"reset", "", Destructive},
		{"create", "", Write}, {"add", "", Write}, {"update", "", Write}, {"set", "", Write},
		{"send", "", Write}, {"write", "", Write}, {"upload", "", Write},
		{"get", "", Read}, {"list", "", Read}, {"search", "", Read}, {"read", "", Read},
		{"fetch", "", Read}, {"find", "", Read}, {"show", "", Read}, {"view", "", Read},
		// Precedence: destructive > write > read, across name and description.
		{"get_and_delete", "", Destructive},
		{"list_items", "Adds nothing", Write},
		{"create_item", "Removes the old one first", Destructive},
		{"fetch", "then update", Write},
		// Unknown → write.
		{"frobnicate", "", Write},
		{"frobnicate", "Does things", Write},
		// surfaceprint's toy_open server: destructive 1, write 2, read 2.
		{"list_items", "", Read}, {"get_item", "", Read}, {"create_item", "", Write},
		{"delete_item", "", Destructive},
		// Separator normalisation (surfaceprint test_classify_and_signals).
		{"get_file_info", "", Read}, {"delete-file", "", Destructive}, {"delete.file", "", Destructive},
		// Case-insensitive.
		{"DELETE_ALL", "", Destructive}, {"Get", "", Read},
		// Whole words only: substrings do not match.
		{"address_lookup", "", Write}, // "add" inside "address"
		{"getaway", "", Write},
		{"settings_info", "", Write},
		{"undelete", "", Write},
		{"listener", "", Write},
		// Differences from surfaceprint: camelCase and inflections match.
		{"deleteItem", "", Destructive},
		{"getItem", "", Read},
		{"HTTPGetHandler", "", Read},
		{"s3Upload", "", Write},
		{"notes", "Deletes a note", Destructive},
		{"notes", "Permanently removed", Destructive},
		{"notes", "Fetching notes", Read},
		{"notes", "Wrote a file", Write},
		// "found" is deliberately not a read form.
		{"frobnicate", "Errors if not found", Write},
	}
	for _, tt := range tests {
		if got := ClassifyTool(tt.name, tt.desc); got != tt.want {
			t.Errorf("ClassifyTool(%q, %q) = %q, want %q", tt.name, tt.desc, got, tt.want)
		}
	}
}

func TestWords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"getItem", []string{"get", "item"}},
		{"HTTPServer", []string{"http", "server"}},
		{"get_file-info", []string{"get", "file", "info"}},
		{"s3Upload", []string{"s", "3", "upload"}},
		{"  ", nil},
		{"Ünïcode wörd", []string{"ünïcode", "wörd"}},
		{"don't", []string{"don", "t"}},
	}
	for _, tt := range tests {
		if d := cmp.Diff(tt.want, words(tt.in)); d != "" {
			t.Errorf("words(%q) mismatch (-want +got):\n%s", tt.in, d)
		}
	}
}

func TestClassifyWithAnnotations(t *testing.T) {
	tr, fa := true, false
	tests := []struct {
		name string
		tool string
		desc string
		ann  *mcp.ToolAnnotations
		want Label
	}{
		{"no annotations", "delete_note", "", nil,
			Label{Risk: Destructive, Source: SourceHeuristic, Heuristic: Destructive, Word: "delete"}},
		{"hints absent", "list_notes", "", &mcp.ToolAnnotations{OpenWorldHint: &fa},
			Label{Risk: Read, Source: SourceHeuristic, Heuristic: Read, Word: "list"}},
		{"agree read", "list_notes", "", &mcp.ToolAnnotations{ReadOnlyHint: &tr},
			Label{Risk: Read, Source: SourceAnnotations, Annotated: Read, Heuristic: Read, Word: "list"}},
		{"read-only claim on destructive words", "delete_note", "", &mcp.ToolAnnotations{ReadOnlyHint: &tr},
			Label{Risk: Destructive, Source: SourceHeuristic, Annotated: Read, Heuristic: Destructive, Word: "delete", Conflict: true}},
		{"non-destructive claim on destructive words", "archive_note", "Removes a note from view", &mcp.ToolAnnotations{DestructiveHint: &fa},
			Label{Risk: Destructive, Source: SourceHeuristic, Annotated: Write, Heuristic: Destructive, Word: "remove", Conflict: true}},
		{"annotations more cautious", "get_weather", "", &mcp.ToolAnnotations{DestructiveHint: &tr},
			Label{Risk: Destructive, Source: SourceAnnotations, Annotated: Destructive, Heuristic: Read, Word: "get"}},
		{"destructive default when not read-only", "list_notes", "", &mcp.ToolAnnotations{ReadOnlyHint: &fa},
			Label{Risk: Destructive, Source: SourceAnnotations, Annotated: Destructive, Heuristic: Read, Word: "list"}},
		{"unknown words take annotations", "frobnicate", "", &mcp.ToolAnnotations{ReadOnlyHint: &tr},
			Label{Risk: Read, Source: SourceAnnotations, Annotated: Read, Heuristic: Write}},
		{"snapgauge archive_note", "archive_note", "", &mcp.ToolAnnotations{IdempotentHint: &tr, DestructiveHint: &tr},
			Label{Risk: Destructive, Source: SourceAnnotations, Annotated: Destructive, Heuristic: Write}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ClassifyWithAnnotations(tt.tool, tt.desc, tt.ann)
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("ClassifyWithAnnotations mismatch (-want +got):\n%s", d)
			}
		})
	}
}

func TestRank(t *testing.T) {
	if !(Read.Rank() < Write.Rank() && Write.Rank() < Destructive.Rank()) {
		t.Errorf("ranks out of order")
	}
	if Risk("odd").Rank() != Write.Rank() {
		t.Errorf("unknown risk should rank as write")
	}
}
