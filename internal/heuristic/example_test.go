package heuristic_test

import (
	"fmt"

	"github.com/mcpward/mcpward/internal/heuristic"
	"github.com/mcpward/mcpward/internal/mcp"
)

func ExampleClassifyWithAnnotations() {
	readOnly := true
	l := heuristic.ClassifyWithAnnotations("delete_note", "Deletes a note", &mcp.ToolAnnotations{ReadOnlyHint: &readOnly})
	fmt.Println(l.Risk, l.Source, l.Annotated, l.Conflict)
	// Output: destructive heuristic read true
}
