// Package heuristic labels MCP tools by risk and flags suspicious text in
// a server's surface. Both are best-effort annotations for people reading
// a report: they are never part of a snapshot's identity and never a
// verdict on their own.
//
// Risk classification follows mcp-surfaceprint's word rules (destructive
// beats write beats read, unknown is write) with two deliberate
// differences, documented on [ClassifyTool]: camelCase names are split,
// and simple inflections ("deletes", "deleted", "deleting") match.
// [ClassifyWithAnnotations] sets the server's self-described annotations
// beside the word heuristic and reports when they disagree: annotations
// are shown, never trusted.
//
// Signals are the six suspicious-text rules of surfaceprint §5.1
// (prompt-injection phrasing, exfiltration words, "do not tell the user",
// system prompt mentions, PEM key material, curl/wget downloads).
//
// Example:
//
//	risk := heuristic.ClassifyTool("deleteItem", "Removes an item")
//	// risk == heuristic.Destructive
//
// The package is pure: no I/O, safe for GOOS=js GOARCH=wasm.
package heuristic
