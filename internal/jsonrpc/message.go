package jsonrpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// Kind says what a decoded frame is. It is mcpward's one frame kind: the
// live hub classifies recorded lines with it too (see [KindStderr]).
type Kind int

// The kinds of frame. A frame with a method and an id is a request, with a
// method and no id a notification; without a method it is a response
// carrying either a result or an error. A top-level JSON array is a batch
// (legal only in revision 2025-03-26; judging that is not this package's
// business).
const (
	KindInvalid Kind = iota
	KindRequest
	KindNotification
	KindResult
	KindError
	KindBatch

	// KindStderr, KindMeta and KindTransport classify a recorded line that
	// carries no frame: a server's stderr line, mcpward's own record
	// (start, exit, lost) and an HTTP exchange without a JSON-RPC body (a
	// GET, a 202, a 502). Decode never returns them; readers of a session
	// log do.
	KindStderr
	KindMeta
	KindTransport
)

var kindNames = [...]string{"invalid", "request", "notification", "result", "error", "batch", "stderr", "meta", "transport"}

// String returns the kind's lowercase name.
func (k Kind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// An ErrorObject is the error member of a JSON-RPC error response.
type ErrorObject struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// Error implements error, so that a caller may return the object as is.
func (e *ErrorObject) Error() string {
	return fmt.Sprintf("json-rpc error %d: %s", e.Code, e.Message)
}

// A Message is one decoded frame. Raw is what was received; the other
// fields are a reading of it and are never re-encoded by this package.
type Message struct {
	// Raw is the exact bytes of the frame as given to Decode (no trailing
	// newline). For a top-level message it is the slice passed to Decode,
	// not a copy; each batch element has its own copy of its bytes.
	Raw []byte

	Kind   Kind
	ID     ID
	Method string
	Params json.RawMessage
	Result json.RawMessage
	Error  *ErrorObject

	// Batch holds the elements of a KindBatch frame, each decoded on its own.
	Batch []Message

	// Err says why the frame is KindInvalid; nil otherwise. The other
	// fields then hold whatever could be read, so that an invalid reply
	// with a readable id can still be matched to its request.
	Err error
}

// IsResponse reports whether m is a valid result or error response.
func (m Message) IsResponse() bool { return m.Kind == KindResult || m.Kind == KindError }

// IsRequest reports whether m is a request or a notification.
func (m Message) IsRequest() bool { return m.Kind == KindRequest || m.Kind == KindNotification }

// Errors describing why a frame is KindInvalid. Decode wraps them with
// detail; test with errors.Is.
var (
	ErrNotJSON        = errors.New("not JSON")
	ErrNotObject      = errors.New("not a JSON object")
	ErrVersion        = errors.New(`jsonrpc member is not "2.0"`)
	ErrShape          = errors.New("not a request, notification or response")
	ErrBadID          = errors.New("bad id")
	ErrBadMethod      = errors.New("method is not a string")
	ErrBadParams      = errors.New("params is not an object or an array")
	ErrBadErrorObject = errors.New("bad error object")
	ErrEmptyBatch     = errors.New("empty batch")
)

// Decode reads one frame. It never fails and never panics: a frame that is
// not a valid JSON-RPC 2.0 message is returned with Kind KindInvalid and Err
// set. Leading and trailing JSON whitespace is allowed.
//
// The returned Message's Raw is raw itself, not a copy, so the caller must
// not modify or reuse raw afterwards. Params, Result and Error.Data are
// copies.
//
// The frames of a session (a request, a notification, a result, an error
// response, a batch of those) are read in one pass (decodeFast); anything
// unusual goes to the reference decoder on encoding/json (decodeStd), so
// that the result is always decodeStd's. FuzzDecodeFast checks they agree.
func Decode(raw []byte) Message {
	if m, ok := decodeFast(raw); ok {
		return m
	}
	return decodeStd(raw)
}

// decodeStd is Decode on encoding/json: two passes over the frame (a map of
// its members, then each member), and the reference for decodeFast.
func decodeStd(raw []byte) Message {
	m := Message{Raw: raw}
	trimmed := bytes.TrimLeft(raw, " \t\r\n")
	if len(trimmed) == 0 {
		m.Err = fmt.Errorf("%w: empty frame", ErrNotJSON)
		return m
	}
	switch trimmed[0] {
	case '[':
		decodeBatch(&m)
	case '{':
		decodeObject(&m)
	default:
		if json.Valid(raw) {
			m.Err = fmt.Errorf("%w: a JSON %s", ErrNotObject, jsonType(trimmed[0]))
		} else {
			m.Err = fmt.Errorf("%w: %s", ErrNotJSON, syntaxError(raw))
		}
	}
	return m
}

func decodeBatch(m *Message) {
	var elems []json.RawMessage
	if err := json.Unmarshal(m.Raw, &elems); err != nil {
		m.Err = fmt.Errorf("%w: %s", ErrNotJSON, syntaxError(m.Raw))
		return
	}
	if len(elems) == 0 {
		m.Err = ErrEmptyBatch
		return
	}
	m.Kind = KindBatch
	m.Batch = make([]Message, len(elems))
	for i, e := range elems {
		// Only objects are valid elements; a nested array is not a batch.
		if t := bytes.TrimLeft(e, " \t\r\n"); len(t) > 0 && t[0] == '[' {
			m.Batch[i] = Message{Raw: e, Err: fmt.Errorf("%w: a JSON array inside a batch", ErrNotObject)}
			continue
		}
		m.Batch[i] = decodeStd(e)
	}
}

func decodeObject(m *Message) {
	// A map, not a struct: encoding/json matches struct fields without
	// regard to case, and "Method" is not "method".
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(m.Raw, &obj); err != nil {
		m.Err = fmt.Errorf("%w: %s", ErrNotJSON, syntaxError(m.Raw))
		return
	}
	var errs []error
	if v, ok := obj["jsonrpc"]; !ok {
		errs = append(errs, fmt.Errorf("%w: missing", ErrVersion))
	} else if string(v) != `"2.0"` {
		var s string
		if json.Unmarshal(v, &s) != nil || s != "2.0" {
			errs = append(errs, fmt.Errorf("%w: %.40s", ErrVersion, v))
		}
	}

	idRaw, hasID := obj["id"]
	if hasID {
		id, err := ParseID(idRaw)
		if err != nil {
			errs = append(errs, fmt.Errorf("%w: %v", ErrBadID, err))
		} else {
			m.ID = id
		}
	}
	methodRaw, hasMethod := obj["method"]
	if hasMethod {
		if err := json.Unmarshal(methodRaw, &m.Method); err != nil || bytes.Equal(bytes.TrimSpace(methodRaw), []byte("null")) {
			errs = append(errs, ErrBadMethod)
		}
	}
	if p, ok := obj["params"]; ok {
		m.Params = p
		if t := bytes.TrimSpace(p); len(t) == 0 || (t[0] != '{' && t[0] != '[') {
			errs = append(errs, ErrBadParams)
		}
	}
	result, hasResult := obj["result"]
	if hasResult {
		m.Result = result
	}
	errRaw, hasError := obj["error"]
	if hasError {
		eo, err := decodeErrorObject(errRaw)
		if err != nil {
			errs = append(errs, err)
		}
		m.Error = eo
	}

	switch {
	case hasMethod && (hasResult || hasError):
		errs = append(errs, fmt.Errorf("%w: has a method and a %s", ErrShape, pick(hasResult, "result", "error")))
	case hasMethod && hasID:
		m.Kind = KindRequest
		if m.ID.IsNull() {
			errs = append(errs, fmt.Errorf("%w: null id on a request", ErrBadID))
		}
	case hasMethod:
		m.Kind = KindNotification
	case hasResult && hasError:
		errs = append(errs, fmt.Errorf("%w: has both result and error", ErrShape))
	case hasResult || hasError:
		m.Kind = KindResult
		if hasError {
			m.Kind = KindError
		}
		switch {
		case !hasID:
			errs = append(errs, fmt.Errorf("%w: missing on a response", ErrBadID))
		case m.ID.IsNull() && hasResult:
			errs = append(errs, fmt.Errorf("%w: null id on a result", ErrBadID))
		}
	default:
		errs = append(errs, fmt.Errorf("%w: no method, result or error", ErrShape))
	}
	if len(errs) > 0 {
		m.Kind = KindInvalid
		m.Err = errors.Join(errs...)
	}
}

func decodeErrorObject(raw json.RawMessage) (*ErrorObject, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return nil, fmt.Errorf("%w: not an object", ErrBadErrorObject)
	}
	eo := &ErrorObject{Data: obj["data"]}
	var errs []error
	if c, ok := obj["code"]; !ok {
		errs = append(errs, fmt.Errorf("%w: missing code", ErrBadErrorObject))
	} else if n, err := strconv.ParseInt(string(bytes.TrimSpace(c)), 10, 64); err != nil {
		errs = append(errs, fmt.Errorf("%w: code %.40s is not an integer", ErrBadErrorObject, c))
	} else {
		eo.Code = n
	}
	if msg, ok := obj["message"]; !ok {
		errs = append(errs, fmt.Errorf("%w: missing message", ErrBadErrorObject))
	} else if err := json.Unmarshal(msg, &eo.Message); err != nil || bytes.Equal(bytes.TrimSpace(msg), []byte("null")) {
		errs = append(errs, fmt.Errorf("%w: message is not a string", ErrBadErrorObject))
	}
	return eo, errors.Join(errs...)
}

func pick(cond bool, a, b string) string {
	if cond {
		return a
	}
	return b
}

func jsonType(c byte) string {
	switch {
	case c == '"':
		return "string"
	case c == 't' || c == 'f':
		return "boolean"
	case c == 'n':
		return "null"
	}
	return "number"
}

// syntaxError describes where raw stops being JSON, in one short phrase.
func syntaxError(raw []byte) string {
	var v any
	err := json.Unmarshal(raw, &v)
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("%s at byte %d", se.Error(), se.Offset)
	}
	if err != nil {
		return err.Error()
	}
	return "invalid JSON"
}
