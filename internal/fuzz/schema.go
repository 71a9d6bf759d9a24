package fuzz

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// maxToolCases bounds the cases per tool.
const maxToolCases = 12

// schema is a JSON Schema read loosely: what the argument generator uses.
type schema map[string]any

func (s schema) types() []string {
	switch t := s["type"].(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, v := range t {
			if s, ok := v.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

func (s schema) sub(key string) schema {
	m, _ := s[key].(map[string]any)
	return m
}

func (s schema) num(key string) (json.Number, bool) {
	n, ok := s[key].(json.Number)
	return n, ok
}

// valid returns a value that satisfies s as far as the generator reads it
// (type, enum, const, default, bounds, lengths, required properties).
func valid(s schema, depth int) any {
	if s == nil || depth > 6 {
		return "x"
	}
	if v, ok := s["const"]; ok {
		return v
	}
	if e, ok := s["enum"].([]any); ok && len(e) > 0 {
		return e[0]
	}
	if v, ok := s["default"]; ok {
		return v
	}
	for _, k := range []string{"anyOf", "oneOf", "allOf"} {
		if alts, ok := s[k].([]any); ok && len(alts) > 0 {
			if m, ok := alts[0].(map[string]any); ok {
				return valid(m, depth+1)
			}
		}
	}
	t := "string"
	if ts := s.types(); len(ts) > 0 {
		t = ts[0]
		if t == "null" && len(ts) > 1 {
			t = ts[1]
		}
	} else if s["properties"] != nil {
		t = "object"
	}
	switch t {
	case "integer", "number":
		if n, ok := s.num("minimum"); ok {
			return n
		}
		if n, ok := s.num("maximum"); ok {
			return n
		}
		return json.Number("1")
	case "boolean":
		return false
	case "null":
		return nil
	case "array":
		var out []any
		if n, ok := s.num("minItems"); ok {
			k, _ := n.Int64()
			for i := int64(0); i < min(k, 8); i++ {
				out = append(out, valid(s.sub("items"), depth+1))
			}
		}
		if out == nil {
			out = []any{}
		}
		return out
	case "object":
		obj := map[string]any{}
		props := s.sub("properties")
		for _, r := range required(s) {
			ps, _ := props[r].(map[string]any)
			obj[r] = valid(ps, depth+1)
		}
		return obj
	}
	str := "mcpward"
	if n, ok := s.num("minLength"); ok {
		k, _ := n.Int64()
		if k > int64(len(str)) {
			str = strings.Repeat("m", int(min(k, 1<<16)))
		}
	}
	if n, ok := s.num("maxLength"); ok {
		k, _ := n.Int64()
		if k >= 0 && k < int64(len(str)) {
			str = str[:k]
		}
	}
	return str
}

func required(s schema) []string {
	var out []string
	if r, ok := s["required"].([]any); ok {
		for _, v := range r {
			if name, ok := v.(string); ok {
				out = append(out, name)
			}
		}
	}
	return out
}

// wrongValue returns a value of another JSON type than every type s
// allows, and what it is; ok false when s allows any type.
func wrongValue(s schema) (any, string, bool) {
	ts := s.types()
	if len(ts) == 0 {
		return nil, "", false
	}
	has := func(t string) bool { return slices.Contains(ts, t) }
	switch {
	case !has("string"):
		return "mcpward-not-a-" + ts[0], "a string", true
	case !has("number") && !has("integer"):
		return json.Number("12345"), "a number", true
	case !has("object"):
		return map[string]any{"mcpward": true}, "an object", true
	}
	return nil, "", false
}

// toolCases are tools/call cases for one tool: its input schema's
// arguments broken one way at a time (not an object, a required property
// missing, a property of the wrong type, out of range, not in its enum,
// too long, an unknown property where none is allowed), then a huge
// string where a string is accepted.
func toolCases(b *builder, tool Tool) []Case {
	var s schema
	dec := json.NewDecoder(bytes.NewReader(tool.InputSchema))
	dec.UseNumber()
	if dec.Decode(&s) != nil || s == nil {
		s = schema{"type": "object"}
	}
	base, _ := valid(s, 0).(map[string]any)
	if base == nil {
		base = map[string]any{}
	}
	props := s.sub("properties")
	names := make([]string, 0, len(props))
	for k := range props {
		names = append(names, k)
	}
	slices.Sort(names)

	var out []Case
	call := func(kind, note string, args any, invalid bool) {
		if len(out) >= maxToolCases {
			return
		}
		a, err := json.Marshal(args)
		if err != nil {
			return
		}
		id := b.nextID()
		params := `{"name":` + jsonString(tool.Name) + `,"arguments":` + string(a) + `}`
		f := Frame{Bytes: b.request(id, "tools/call", params), Answer: AnswerID, ID: id, Invalid: invalid}
		if invalid {
			f.WantCodes = []int{CodeInvalidParams}
		}
		out = append(out, Case{Name: "tool/" + tool.Name + "/" + kind, Note: tool.Name + ": " + note, Tool: tool.Name, Frames: []Frame{f}})
	}
	with := func(k string, v any) map[string]any {
		m := make(map[string]any, len(base)+1)
		for bk, bv := range base {
			m[bk] = bv
		}
		m[k] = v
		return m
	}

	call("not-object", `arguments is a string, not an object`, "mcpward", true)
	for _, r := range required(s) {
		m := with(r, nil)
		delete(m, r)
		call("missing-required/"+r, fmt.Sprintf("required argument %q left out", r), m, true)
	}
	for _, k := range names {
		ps, _ := props[k].(map[string]any)
		p := schema(ps)
		if v, what, ok := wrongValue(p); ok {
			call("wrong-type/"+k, fmt.Sprintf("argument %q is %s (the schema says %s)", k, what, strings.Join(p.types(), " or ")), with(k, v), true)
		}
		if n, ok := p.num("minimum"); ok {
			if f, err := n.Float64(); err == nil {
				call("below-minimum/"+k, fmt.Sprintf("argument %q below its minimum %s", k, n), with(k, f-1), true)
			}
		}
		if n, ok := p.num("maximum"); ok {
			if f, err := n.Float64(); err == nil {
				call("above-maximum/"+k, fmt.Sprintf("argument %q above its maximum %s", k, n), with(k, f+1), true)
			}
		}
		if e, ok := p["enum"].([]any); ok && len(e) > 0 {
			call("not-in-enum/"+k, fmt.Sprintf("argument %q not one of its enum values", k), with(k, "mcpward-not-in-enum"), true)
		}
		if n, ok := p.num("maxLength"); ok {
			if k2, err := n.Int64(); err == nil && k2 < 1<<16 {
				call("too-long/"+k, fmt.Sprintf("argument %q longer than its maxLength %s", k, n), with(k, strings.Repeat("L", int(k2)+1)), true)
			}
		}
	}
	if ap, ok := s["additionalProperties"].(bool); ok && !ap {
		call("unknown-property", "an argument the schema does not allow (additionalProperties: false)", with("mcpward_unknown", 1), true)
	}
	for _, k := range names {
		ps, _ := props[k].(map[string]any)
		p := schema(ps)
		if (len(p.types()) == 0 || slices.Contains(p.types(), "string")) && p["maxLength"] == nil && p["enum"] == nil {
			call("huge-string/"+k, fmt.Sprintf("argument %q is a 1 MiB string", k), with(k, strings.Repeat("h", 1<<20)), false)
			break
		}
	}
	return out
}
