// Package jsonrpc is the raw-bytes envelope of JSON-RPC 2.0 as MCP uses it:
// decoding one frame into a [Message] that keeps the exact bytes received,
// encoding requests and responses, newline framing ([LineReader]),
// text/event-stream parsing ([SSEReader]), and the one-pass JSON scanner the
// hot paths share: [Valid] and [ValidLine] (json.Valid, faster), [Members]
// and [Elements] (the raw members of an object or elements of an array,
// checked in the same pass), and the Skip functions a hand-written decoder
// builds on.
//
// The package is pure: it takes []byte and io.Reader, starts no goroutines
// and imports nothing that touches the operating system, so it compiles to
// WebAssembly.
//
// Decoding never fails. A frame that is not valid JSON-RPC becomes a
// [Message] of [KindInvalid] whose Err says why, and whose other fields hold
// whatever could be read (an id, a method), so that a caller can still
// correlate it or report it. Ids keep their JSON type and exact bytes: the
// string id "1" and the number 1 are different ids.
//
//	m := jsonrpc.Decode([]byte(`{"jsonrpc":"2.0","id":7,"result":{}}`))
//	if m.Kind == jsonrpc.KindResult && m.ID.Equal(jsonrpc.IntID(7)) {
//		// m.Raw holds the frame exactly as received
//	}
package jsonrpc
