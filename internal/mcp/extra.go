package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// Extra holds the members of a JSON object that its Go struct does not
// name, keyed by member name, with their raw bytes. Servers add fields the
// schema does not define (and later revisions add fields older code does not
// know); a contract tester must not lose them, so the shapes of this package
// keep them here and write them back when marshalled.
type Extra map[string]json.RawMessage

// unmarshalObject decodes a JSON object into the struct pointed to by v,
// matching member names to json tags exactly. encoding/json matches names
// case-insensitively, which would let {"NAME":…} fill Name; for a protocol
// checker the wire spelling is the contract, so a member spelled differently
// lands in the returned Extra instead.
//
// v must point to a struct type without an UnmarshalJSON method (callers
// pass a pointer to a local alias type).
func unmarshalObject(data []byte, v any) (Extra, error) {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(data, &members); err != nil {
		return nil, err
	}
	if members == nil {
		// JSON null: leave the value as it is, like encoding/json does.
		return nil, nil
	}
	rv := reflect.ValueOf(v).Elem()
	rt := rv.Type()
	claimed := make(map[string]bool, rt.NumField())
	for i := 0; i < rt.NumField(); i++ {
		f := rt.Field(i)
		name, ok := jsonName(f)
		if !ok {
			continue
		}
		claimed[name] = true
		raw, ok := members[name]
		if !ok {
			continue
		}
		if err := json.Unmarshal(raw, rv.Field(i).Addr().Interface()); err != nil {
			return nil, fmt.Errorf("member %q: %w", name, err)
		}
	}
	var extra Extra
	for k, raw := range members {
		if claimed[k] {
			continue
		}
		if extra == nil {
			extra = make(Extra)
		}
		extra[k] = raw
	}
	return extra, nil
}

// marshalObject encodes v (a struct value of an alias type) and appends the
// extra members in name order. Members the struct writes win over extras
// with the same name, so an Extra can never produce duplicate keys.
func marshalObject(v any, extra Extra) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	if len(extra) == 0 {
		return b, nil
	}
	rt := reflect.TypeOf(v)
	claimed := make(map[string]bool, rt.NumField())
	for i := 0; i < rt.NumField(); i++ {
		if name, ok := jsonName(rt.Field(i)); ok {
			claimed[name] = true
		}
	}
	keys := make([]string, 0, len(extra))
	for k := range extra {
		if !claimed[k] {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return b, nil
	}
	slices.Sort(keys)
	var buf bytes.Buffer
	buf.Write(b[:len(b)-1]) // drop the closing brace
	first := len(b) == 2    // "{}"
	for _, k := range keys {
		if !first {
			buf.WriteByte(',')
		}
		first = false
		kb, err := json.Marshal(k)
		if err != nil {
			return nil, err
		}
		buf.Write(kb)
		buf.WriteByte(':')
		raw := extra[k]
		if len(raw) == 0 || !json.Valid(raw) {
			return nil, fmt.Errorf("extra member %q: invalid JSON", k)
		}
		buf.Write(raw)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// jsonName returns the member name of a struct field, and false for fields
// encoding/json skips.
func jsonName(f reflect.StructField) (string, bool) {
	if !f.IsExported() {
		return "", false
	}
	tag := f.Tag.Get("json")
	if tag == "-" {
		return "", false
	}
	name, _, _ := strings.Cut(tag, ",")
	if name == "" {
		name = f.Name
	}
	return name, true
}
