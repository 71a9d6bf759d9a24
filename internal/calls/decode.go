package calls

import (
	"bytes"
	"unicode/utf8"

	"github.com/mcpward/mcpward/internal/jsonrpc"
)

// decodeMessage is jsonrpc.Decode(raw), faster for the frames a log is
// made of. jsonrpc.Decode unmarshals the whole frame into a map (two full
// passes of encoding/json over a tool's result); the fast path here scans
// it once (jsonrpc.Members) and copies params and result out as they are.
// It takes only the frames it reads exactly as jsonrpc.Decode does: one
// object with "jsonrpc":"2.0", a request, notification or result with
// members of the right types, no member name written with escapes and no
// duplicate of a member it reads. Everything else (errors, batches,
// invalid frames) goes to jsonrpc.Decode. FuzzDecodeMessage checks the two
// agree.
//
// The better home for this is jsonrpc.Decode itself; until then the call
// store, which decodes every frame of a log, uses it.
func decodeMessage(raw []byte) jsonrpc.Message {
	if m, ok := fastMessage(raw); ok {
		return m
	}
	return jsonrpc.Decode(raw)
}

func fastMessage(raw []byte) (jsonrpc.Message, bool) {
	m := jsonrpc.Message{Raw: raw}
	var seen uint8
	const (
		sVersion = 1 << iota
		sID
		sMethod
		sParams
		sResult
	)
	ok := jsonrpc.Members(raw, func(name, value []byte) bool {
		var bit uint8
		switch string(name) {
		case "jsonrpc":
			if string(value) != `"2.0"` {
				return false
			}
			bit = sVersion
		case "id":
			id, err := jsonrpc.ParseID(value)
			if err != nil {
				return false
			}
			bit, m.ID = sID, id
		case "method":
			s := value[1:max(len(value)-1, 1)]
			if value[0] != '"' || bytes.IndexByte(s, '\\') >= 0 || !utf8.Valid(s) {
				return false
			}
			bit, m.Method = sMethod, string(s)
		case "params":
			if value[0] != '{' && value[0] != '[' {
				return false
			}
			bit, m.Params = sParams, bytes.Clone(value)
		case "result":
			bit, m.Result = sResult, bytes.Clone(value)
		case "error":
			return false
		default:
			// A map lookup matches names exactly, but after decoding
			// escapes: "\u0069d" is "id".
			return bytes.IndexByte(name, '\\') < 0
		}
		if seen&bit != 0 {
			return false
		}
		seen |= bit
		return true
	})
	if !ok || seen&sVersion == 0 {
		return jsonrpc.Message{}, false
	}
	hasID := seen&sID != 0
	switch {
	case seen&sMethod != 0 && seen&sResult != 0:
		return jsonrpc.Message{}, false
	case seen&sMethod != 0 && hasID:
		m.Kind = jsonrpc.KindRequest
	case seen&sMethod != 0:
		m.Kind = jsonrpc.KindNotification
	case seen&sResult != 0 && hasID:
		m.Kind = jsonrpc.KindResult
	default:
		return jsonrpc.Message{}, false
	}
	if hasID && m.ID.IsNull() {
		return jsonrpc.Message{}, false // invalid on a request and on a result
	}
	return m, true
}
