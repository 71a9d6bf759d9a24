package jsonrpc

import (
	"bytes"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// decodeFast is Decode in one pass (Members) for the frames it reads
// exactly as decodeStd does, which unmarshals the whole frame into a map
// (two full passes of encoding/json over a tool's result): one object with
// "jsonrpc":"2.0" and the members of a valid request, notification, result
// or error response, of the right types, with no member name written with
// escapes, no duplicate of a member it reads, and strings (method, error
// message) without escapes; or a batch of such frames. Params, result and
// error data are copied out as they are. For anything else (an invalid
// frame, an escape, a duplicate) it returns false and Decode asks
// decodeStd, so results and error messages are the reference decoder's by
// construction.
func decodeFast(raw []byte) (Message, bool) {
	if i := SkipSpace(raw, 0); i < len(raw) && raw[i] == '[' {
		return fastBatch(raw)
	}
	m := Message{Raw: raw}
	var seen uint8
	const (
		sVersion = 1 << iota
		sID
		sMethod
		sParams
		sResult
		sError
	)
	ok := Members(raw, func(name, value []byte) bool {
		var bit uint8
		switch string(name) {
		case "jsonrpc":
			if string(value) != `"2.0"` {
				return false
			}
			bit = sVersion
		case "id":
			id, err := ParseID(value)
			if err != nil {
				return false
			}
			bit, m.ID = sID, id
		case "method":
			s, ok := plainString(value)
			if !ok {
				return false
			}
			bit, m.Method = sMethod, s
		case "params":
			if value[0] != '{' && value[0] != '[' {
				return false
			}
			bit, m.Params = sParams, bytes.Clone(value)
		case "result":
			bit, m.Result = sResult, bytes.Clone(value)
		case "error":
			eo, ok := fastErrorObject(value)
			if !ok {
				return false
			}
			bit, m.Error = sError, eo
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
		return Message{}, false
	}
	hasID := seen&sID != 0
	hasMethod, hasResult, hasError := seen&sMethod != 0, seen&sResult != 0, seen&sError != 0
	switch {
	case hasMethod && (hasResult || hasError), hasResult && hasError:
		return Message{}, false
	case hasMethod && hasID:
		m.Kind = KindRequest
	case hasMethod:
		m.Kind = KindNotification
	case hasResult && hasID:
		m.Kind = KindResult
	case hasError && hasID:
		m.Kind = KindError
		return m, true // a null id is valid on an error response
	default:
		return Message{}, false
	}
	if hasID && m.ID.IsNull() {
		return Message{}, false // invalid on a request and on a result
	}
	return m, true
}

// fastErrorObject is decodeErrorObject for a valid error object: a code
// that is an integer, a message without escapes, no duplicate or escaped
// name among those it reads.
func fastErrorObject(raw []byte) (*ErrorObject, bool) {
	if raw[0] != '{' {
		return nil, false
	}
	eo := &ErrorObject{}
	var seen uint8
	ok := Members(raw, func(name, value []byte) bool {
		var bit uint8
		switch string(name) {
		case "code":
			n, err := strconv.ParseInt(string(value), 10, 64)
			if err != nil {
				return false
			}
			bit, eo.Code = 1, n
		case "message":
			s, ok := plainString(value)
			if !ok {
				return false
			}
			bit, eo.Message = 2, s
		case "data":
			bit, eo.Data = 4, bytes.Clone(value)
		default:
			return bytes.IndexByte(name, '\\') < 0
		}
		if seen&bit != 0 {
			return false
		}
		seen |= bit
		return true
	})
	return eo, ok && seen&3 == 3
}

// plainString returns the JSON string v without its quotes if it has no
// escape and is valid UTF-8: its bytes are then its value.
func plainString(v []byte) (string, bool) {
	if v[0] != '"' {
		return "", false
	}
	s := v[1 : len(v)-1]
	if bytes.IndexByte(s, '\\') >= 0 || !utf8.Valid(s) {
		return "", false
	}
	return string(s), true
}

// fastBatch is decodeBatch in one pass (Elements), each element through
// Decode.
func fastBatch(raw []byte) (Message, bool) {
	var elems [][]byte
	if !Elements(raw, func(v []byte) bool { elems = append(elems, v); return true }) {
		return Message{}, false
	}
	m := Message{Raw: raw}
	if len(elems) == 0 {
		m.Err = ErrEmptyBatch
		return m, true
	}
	m.Kind = KindBatch
	m.Batch = make([]Message, len(elems))
	for i, v := range elems {
		e := bytes.Clone(v)
		if e[0] == '[' {
			// Only objects are valid elements; a nested array is not a batch.
			m.Batch[i] = Message{Raw: e, Err: fmt.Errorf("%w: a JSON array inside a batch", ErrNotObject)}
			continue
		}
		m.Batch[i] = Decode(e)
	}
	return m, true
}
