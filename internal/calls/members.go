package calls

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"sync"

	"github.com/mcpward/mcpward/internal/jsonrpc"
)

// A memberDecoder is json.Unmarshal for the wire structs of this package
// (wireParams, wireResult), without decoding what they do not name: a
// result's content or a call's arguments are scanned once (jsonrpc.Members)
// and only the members the struct has are handed to encoding/json. Those
// are small, so a 1 MB tool result costs one validation pass instead of
// encoding/json's two full passes, three times per response.
//
// It reads only what it is sure to read as json.Unmarshal would: a member
// name written with escapes or in another case (encoding/json matches
// names case-insensitively), a duplicate name, or a member that does not
// decode makes decode return false, and the caller falls back to
// json.Unmarshal. FuzzMemberDecoder checks the two agree.
type memberDecoder struct {
	names  []string // wire name of each field, by field index ("" to skip)
	folded [][]byte // the names as bytes, for the case-folding test
}

func newMemberDecoder(t reflect.Type) *memberDecoder {
	d := &memberDecoder{names: make([]string, t.NumField())}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "-" || name == "" {
			continue
		}
		d.names[i] = name
		d.folded = append(d.folded, []byte(name))
	}
	return d
}

// decode fills *w (a pointer to the struct type d was made for, zero on
// entry) from the JSON object raw. On false *w may be partly filled.
func (d *memberDecoder) decode(raw []byte, w any) bool {
	v := reflect.ValueOf(w).Elem()
	var seen uint64
	return jsonrpc.Members(raw, func(name, value []byte) bool {
		for i, n := range d.names {
			if n == "" || string(name) != n {
				continue
			}
			if seen&(1<<i) != 0 {
				return false
			}
			seen |= 1 << i
			return json.Unmarshal(value, v.Field(i).Addr().Interface()) == nil
		}
		if bytes.IndexByte(name, '\\') >= 0 {
			return false
		}
		for _, n := range d.folded {
			if bytes.EqualFold(name, n) {
				return false
			}
		}
		return true // a member the struct does not have: skipped
	})
}

var (
	paramsDecoder = sync.OnceValue(func() *memberDecoder { return newMemberDecoder(reflect.TypeFor[wireParams]()) })
	resultDecoder = sync.OnceValue(func() *memberDecoder { return newMemberDecoder(reflect.TypeFor[wireResult]()) })
)

// unmarshalParams is json.Unmarshal(raw, w) through paramsDecoder.
func unmarshalParams(raw []byte, w *wireParams) error {
	if paramsDecoder().decode(raw, w) {
		return nil
	}
	*w = wireParams{}
	return json.Unmarshal(raw, w)
}

// unmarshalResult is json.Unmarshal(raw, w) through resultDecoder.
func unmarshalResult(raw []byte, w *wireResult) error {
	if resultDecoder().decode(raw, w) {
		return nil
	}
	*w = wireResult{}
	return json.Unmarshal(raw, w)
}
