package jsonrpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/mcpward/mcpward/internal/jsonx"
)

// An ID is a JSON-RPC request id. It keeps its JSON type (number or string)
// and the exact bytes it had on the wire. The zero ID means "absent";
// [NullID] is an id that was present and null (allowed only in an error
// response to a message whose id could not be read).
//
// IDs are comparable with == on their exact bytes; use [ID.Equal] to compare
// meaning (a string id written with escapes equals the same string written
// plainly).
type ID struct {
	raw string // exact JSON bytes; "" when absent
	key string // canonical form, see String
}

// IntID returns the number id n.
func IntID(n int64) ID {
	s := strconv.FormatInt(n, 10)
	return ID{raw: s, key: s}
}

// StringID returns the string id s.
func StringID(s string) ID {
	b := marshalString(s)
	return ID{raw: b, key: b}
}

// NullID returns the null id, used in an error response to a message whose
// id could not be determined.
func NullID() ID { return ID{raw: "null", key: "null"} }

// ParseID reads an id from its JSON bytes. It accepts a string, a number or
// null, with surrounding whitespace trimmed; anything else is an error.
func ParseID(raw []byte) (ID, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ID{}, errors.New("empty id")
	}
	switch c := raw[0]; {
	case c == '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return ID{}, fmt.Errorf("id %.40s: %w", raw, err)
		}
		return ID{raw: string(raw), key: marshalString(s)}, nil
	case c == '-' || (c >= '0' && c <= '9'):
		var n json.Number
		if err := json.Unmarshal(raw, &n); err != nil {
			return ID{}, fmt.Errorf("id %.40s: %w", raw, err)
		}
		return ID{raw: string(raw), key: string(raw)}, nil
	case c == 'n' && string(raw) == "null":
		return NullID(), nil
	}
	return ID{}, fmt.Errorf("id %.40s is not a string or a number", raw)
}

// IsZero reports whether the id is absent.
func (id ID) IsZero() bool { return id.raw == "" }

// IsNull reports whether the id was present and null.
func (id ID) IsNull() bool { return id.raw == "null" }

// IsString reports whether the id is a JSON string.
func (id ID) IsString() bool { return len(id.raw) > 0 && id.raw[0] == '"' }

// Raw returns the id's exact bytes as on the wire, or nil when absent.
func (id ID) Raw() json.RawMessage {
	if id.raw == "" {
		return nil
	}
	return json.RawMessage(id.raw)
}

// String returns a canonical display form, usable as a map key: a number as
// written (7, 1.0), a string quoted in a canonical JSON encoding ("abc"),
// null, or "" when absent.
func (id ID) String() string { return id.key }

// Equal reports whether two ids are the same, keeping types apart: 1 and "1"
// differ. Numbers are compared as written, so 1 and 1.0 differ too; strings
// are compared by value.
func (id ID) Equal(o ID) bool { return id.key == o.key }

// MarshalJSON implements json.Marshaler. The absent id encodes as null.
func (id ID) MarshalJSON() ([]byte, error) {
	if id.raw == "" {
		return []byte("null"), nil
	}
	return []byte(id.raw), nil
}

// UnmarshalJSON implements json.Unmarshaler; see [ParseID].
func (id *ID) UnmarshalJSON(b []byte) error {
	v, err := ParseID(b)
	if err != nil {
		return err
	}
	*id = v
	return nil
}

func marshalString(s string) string {
	b, _ := jsonx.Marshal(s) // a string always encodes
	return string(b)
}
