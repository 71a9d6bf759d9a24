// Package mcp is the protocol model of the Model Context Protocol across
// the revisions mcpward understands: 2024-11-05, 2025-03-26, 2025-06-18,
// 2025-11-25 (legacy, initialize handshake) and 2026-07-28 (modern,
// stateless, per-request _meta).
//
// It holds data and pure functions only: revisions and eras, the method
// catalogue, error codes, _meta keys, the wire shapes the analysis decodes
// (tools, resources, prompts, implementations, capabilities, the discover
// and initialize results) and the x-mcp-header rules. Nothing the binary
// does not reach is kept (issue 27 item 9: `go run
// golang.org/x/tools/cmd/deadcode ./cmd/mcpward` names no function here). It does no I/O, so it builds for GOOS=js GOARCH=wasm.
//
// Shapes decode with encoding/json and keep absent distinct from zero
// (pointers and omitempty), because a contract tester must see the
// difference between "readOnlyHint": false and no hint at all. Relayed
// bytes are never re-encoded from these structs.
//
// Example:
//
//	m, ok := mcp.LookupMethod("resources/subscribe")
//	if ok && m.Removed != "" {
//		fmt.Println(m.Name, "was removed in", m.Removed)
//	}
package mcp
