// Package har writes HTTP Archive (HAR 1.2) documents, streaming: the
// header first, entries one by one as they are ready, the pages last, so
// memory does not grow with the number of entries.
//
//	w := har.NewWriter(out, har.Creator{Name: "mcpward", Version: v})
//	w.Entry(&har.Entry{…})
//	err := w.Close(pages)
//
// HAR has no notion of stdio: `mcpward sessions export -T har` maps a
// stdio call onto a synthetic `POST mcp+stdio://<label>/` with the
// JSON-RPC request and response as bodies, so browser devtools and HAR
// viewers can show MCP traffic of either transport.
//
// The package is pure (no I/O beyond the io.Writer it is given).
package har
