package traffic

import (
	"encoding/json"
	"slices"
	"strings"
)

type schemaFinding struct{ rule, msg string }

// schemaFindings walks a tool's inputSchema and outputSchema for the
// observational findings (mcpsnoop §3.3): a non-default dialect, external
// and local $ref, composition keywords, untyped properties. Nothing is
// resolved or fetched; each kind is reported once per schema.
func schemaFindings(input, tool json.RawMessage) []schemaFinding {
	var t struct {
		OutputSchema json.RawMessage `json:"outputSchema"`
	}
	_ = json.Unmarshal(tool, &t)
	var out []schemaFinding
	for _, s := range []struct {
		name string
		raw  json.RawMessage
	}{{"inputSchema", input}, {"outputSchema", t.OutputSchema}} {
		var v any
		if len(s.raw) == 0 || json.Unmarshal(s.raw, &v) != nil {
			continue
		}
		kinds := map[string]string{}
		walk(v, s.name, kinds, nil, 0)
		if obj, ok := v.(map[string]any); ok {
			if d, ok := obj["$schema"].(string); ok && strings.TrimSuffix(d, "#") != "https://json-schema.org/draft/2020-12/schema" {
				kinds["message.schema_dialect"] = s.name + " declares $schema " + d
			}
		}
		keys := make([]string, 0, len(kinds))
		for k := range kinds {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			out = append(out, schemaFinding{k, kinds[k]})
		}
	}
	return out
}

var subschemaKeys = []string{"items", "additionalProperties", "if", "then", "else", "contains", "propertyNames", "not"}
var mapKeys = []string{"properties", "$defs", "definitions", "patternProperties", "dependentSchemas"}
var listKeys = []string{"prefixItems", "oneOf", "anyOf", "allOf"}

// walk records each finding kind once in kinds; labels, when not nil,
// also gets the SCHEMA column's label of each kind (composition keywords
// apart).
func walk(v any, at string, kinds map[string]string, labels map[string]bool, depth int) {
	obj, ok := v.(map[string]any)
	if !ok || depth > 64 {
		return
	}
	if ref, ok := obj["$ref"].(string); ok {
		if strings.HasPrefix(ref, "#") {
			setOnce(kinds, "message.schema_ref", at+" uses $ref "+ref)
			label(labels, "ref")
		} else {
			setOnce(kinds, "message.schema_external_ref", at+" refers to another document: $ref "+ref)
			label(labels, "ext ref")
		}
	}
	for _, k := range []string{"oneOf", "anyOf", "allOf", "not"} {
		if _, ok := obj[k]; ok {
			setOnce(kinds, "message.schema_composition", at+" uses "+k)
			label(labels, k)
		}
	}
	for _, k := range subschemaKeys {
		if s, ok := obj[k]; ok {
			walk(s, at+"."+k, kinds, labels, depth+1)
		}
	}
	for _, k := range listKeys {
		if l, ok := obj[k].([]any); ok {
			for _, s := range l {
				walk(s, at+"."+k, kinds, labels, depth+1)
			}
		}
	}
	for _, k := range mapKeys {
		m, ok := obj[k].(map[string]any)
		if !ok {
			continue
		}
		names := make([]string, 0, len(m))
		for n := range m {
			names = append(names, n)
		}
		slices.Sort(names)
		for _, n := range names {
			if k == "properties" && untyped(m[n]) {
				setOnce(kinds, "message.schema_untyped_property", at+".properties."+n+" has no type")
				label(labels, "untyped")
			}
			walk(m[n], at+"."+k+"."+n, kinds, labels, depth+1)
		}
	}
}

func untyped(v any) bool {
	obj, ok := v.(map[string]any)
	if !ok {
		return false // true/false schemas are typed enough
	}
	for _, k := range []string{"type", "$ref", "oneOf", "anyOf", "allOf", "not", "enum", "const"} {
		if _, ok := obj[k]; ok {
			return false
		}
	}
	return true
}

func setOnce(m map[string]string, k, v string) {
	if _, ok := m[k]; !ok {
		m[k] = v
	}
}

func label(labels map[string]bool, l string) {
	if labels != nil {
		labels[l] = true
	}
}

// schemaLabelOrder is the SCHEMA column's headline order (mcpsnoop §3.3):
// the worst kind first.
var schemaLabelOrder = []string{"no root", "dialect", "ext ref", "oneOf", "anyOf", "allOf", "not", "ref", "untyped"}

// SchemaLabel is the SCHEMA column of a tool summary for one raw tool
// definition (a member of a tools/list result): the headline kind of what
// its inputSchema and outputSchema hold ("no root" for an inputSchema that
// is not an object schema of type "object", "dialect", "ext ref", "oneOf",
// "anyOf", "allOf", "not", "ref", "untyped"), with "+" appended when more
// than one kind is present, and "" for a plain schema. Nothing is
// resolved or fetched.
func SchemaLabel(tool json.RawMessage) string {
	var t struct {
		InputSchema  json.RawMessage `json:"inputSchema"`
		OutputSchema json.RawMessage `json:"outputSchema"`
	}
	if json.Unmarshal(tool, &t) != nil {
		return ""
	}
	labels := map[string]bool{}
	if inputSchemaProblem(t.InputSchema) != "" {
		labels["no root"] = true
	}
	for _, raw := range []json.RawMessage{t.InputSchema, t.OutputSchema} {
		var v any
		if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
			continue
		}
		walk(v, "", map[string]string{}, labels, 0)
		if obj, ok := v.(map[string]any); ok {
			if d, ok := obj["$schema"].(string); ok && strings.TrimSuffix(d, "#") != "https://json-schema.org/draft/2020-12/schema" {
				labels["dialect"] = true
			}
		}
	}
	for _, l := range schemaLabelOrder {
		if labels[l] {
			if len(labels) > 1 {
				return l + "+"
			}
			return l
		}
	}
	return ""
}
