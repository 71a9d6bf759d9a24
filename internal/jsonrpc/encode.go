package jsonrpc

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcpward/mcpward/internal/jsonx"
)

// The encoders build compact frames with members in a fixed order
// (jsonrpc, id, method, params / result / error) and no trailing newline.
// HTML characters are not escaped: "<" stays "<" on the wire.

type requestFrame struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params,omitempty"`
}

type resultFrame struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
}

type errorFrame struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   errorBody       `json:"error"`
}

type errorBody struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// EncodeRequest returns a request frame. params may be any value that
// encoding/json accepts, including a json.RawMessage; nil (or an empty
// RawMessage) omits the params member. id must not be absent or null.
func EncodeRequest(id ID, method string, params any) ([]byte, error) {
	if id.IsZero() || id.IsNull() {
		return nil, fmt.Errorf("encode request %s: a request needs a string or number id", method)
	}
	p, err := marshalOptional(params)
	if err != nil {
		return nil, fmt.Errorf("encode request %s params: %w", method, err)
	}
	return jsonx.Marshal(requestFrame{JSONRPC: "2.0", ID: id.Raw(), Method: method, Params: p})
}

// EncodeNotification returns a notification frame; params as for
// [EncodeRequest].
func EncodeNotification(method string, params any) ([]byte, error) {
	p, err := marshalOptional(params)
	if err != nil {
		return nil, fmt.Errorf("encode notification %s params: %w", method, err)
	}
	return jsonx.Marshal(requestFrame{JSONRPC: "2.0", Method: method, Params: p})
}

// EncodeResult returns a result response frame. A nil result encodes as
// null; pass struct{}{} or json.RawMessage("{}") for an empty object.
func EncodeResult(id ID, result any) ([]byte, error) {
	if id.IsZero() || id.IsNull() {
		return nil, errors.New("encode result: a result needs a string or number id")
	}
	r, err := marshalOptional(result)
	if err != nil {
		return nil, fmt.Errorf("encode result: %w", err)
	}
	if r == nil {
		r = json.RawMessage("null")
	}
	return jsonx.Marshal(resultFrame{JSONRPC: "2.0", ID: id.Raw(), Result: r})
}

// EncodeError returns an error response frame. The absent id encodes as
// null (for replies to frames whose id could not be read); a nil data
// omits the data member.
func EncodeError(id ID, code int64, message string, data any) ([]byte, error) {
	d, err := marshalOptional(data)
	if err != nil {
		return nil, fmt.Errorf("encode error data: %w", err)
	}
	idRaw := id.Raw()
	if idRaw == nil {
		idRaw = json.RawMessage("null")
	}
	return jsonx.Marshal(errorFrame{JSONRPC: "2.0", ID: idRaw, Error: errorBody{Code: code, Message: message, Data: d}})
}

func marshalOptional(v any) (json.RawMessage, error) {
	switch x := v.(type) {
	case nil:
		return nil, nil
	case json.RawMessage:
		if len(x) == 0 {
			return nil, nil
		}
		if !json.Valid(x) {
			return nil, errors.New("raw value is not valid JSON")
		}
		return x, nil
	}
	b, err := jsonx.Marshal(v)
	if err != nil {
		return nil, err
	}
	return b, nil
}
