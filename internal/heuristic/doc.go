// Package heuristic labels MCP tools by risk and flags suspicious text in
// a server's surface. Both are best-effort annotations for people reading
// a report: they are never part of a snapshot's identity and never a
// verdict on their own.
//
// Risk labels read a tool as a reviewer does ([ReadTool]): the verb of its
// name and the verbs of its description's main clause, where a write,
// delete, send or execute verb beats a reading one and words in
// subordinate clauses ("… showing the changes") do not count. Verbs are
// strong (hardly ever anything else: "delete", "send") or weak (as often
// nouns: "message", "clear"), which count only where a verb stands.
// A strong verb standing as an object ("get_commit", "List commits"), or
// a weak changing verb leading a name whose description only reads
// ("trigger-long-running-operation": "Demonstrates …"), leaves the
// reading open: [ClassifyWithAnnotations] lets a declared
// readOnlyHint: true settle it as read, and reads it as a change
// otherwise. [ClassifyDefinition] also reads the input schema's modes
// and deleting options ([ReadModes]): a tool is labelled by the most
// dangerous thing one call can do (docs/labels.md).
// [ClassifyWithAnnotations] shows both facts apart: what the
// server claims (its annotations with the spec defaults) and what the
// words say; where they disagree it reports a conflict. Measured on a corpus of real
// servers by TestCorpusLabels against hand labels.
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
