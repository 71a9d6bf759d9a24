package mcp_test

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/mcpward/mcpward/internal/mcp"
)

func ExampleLookupMethod() {
	m, _ := mcp.LookupMethod(mcp.MethodResourcesSubscribe)
	fmt.Println(slices.Contains(m.Revisions, mcp.LatestLegacy), slices.Contains(m.Revisions, mcp.Latest), m.Removed)
	// Output: true false 2026-07-28
}

func ExampleHeaderBindings() {
	schema := json.RawMessage(`{"type":"object","properties":{
		"workspace":{"type":"string","x-mcp-header":"X-Workspace"},
		"q":{"type":"string"}}}`)
	bindings, _ := mcp.HeaderBindings(schema)
	headers, _ := mcp.ParamHeaders(bindings, json.RawMessage(`{"workspace":"café","q":"x"}`))
	fmt.Println(mcp.ToolHeadersValid(bindings), headers)
	// Output: true [[Mcp-Param-X-Workspace =?base64?Y2Fmw6k=?=]]
}

func ExampleRevision_Era() {
	for _, v := range []string{"2025-06-18", "2026-07-28", "2027-03-01", "draft"} {
		fmt.Println(v, mcp.Revision(v).Era())
	}
	// Output:
	// 2025-06-18 legacy
	// 2026-07-28 modern
	// 2027-03-01 modern
	// draft unknown
}
