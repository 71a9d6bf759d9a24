package snapshot

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// setKeys are schema keywords whose array value is a set: order carries no
// meaning, so the digest form sorts them.
var setKeys = map[string]bool{"required": true, "enum": true, "type": true}

// CanonicalSchema returns a copy of a JSON Schema tree with every
// `required`, `enum` and `type` array sorted by the JCS form of its items,
// at every depth. Other arrays (oneOf, items tuples…) keep their order.
func CanonicalSchema(v any) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = CanonicalSchema(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			if arr, ok := e.([]any); ok && setKeys[k] {
				out[k] = sortSet(arr)
				continue
			}
			if k == "properties" || k == "patternProperties" || k == "$defs" || k == "definitions" {
				// A property named "required" is a schema, not a set.
				if m, ok := e.(map[string]any); ok {
					pm := make(map[string]any, len(m))
					for pk, pv := range m {
						pm[pk] = CanonicalSchema(pv)
					}
					out[k] = pm
					continue
				}
			}
			out[k] = CanonicalSchema(e)
		}
		return out
	default:
		return v
	}
}

func sortSet(arr []any) []any {
	type kv struct {
		k string
		v any
	}
	tmp := make([]kv, len(arr))
	for i, e := range arr {
		tmp[i] = kv{JCSString(e), CanonicalSchema(e)}
	}
	slices.SortStableFunc(tmp, func(a, b kv) int { return strings.Compare(a.k, b.k) })
	out := make([]any, len(arr))
	for i, e := range tmp {
		out[i] = e.v
	}
	return out
}

// CanonicalTool is the digest form of one tool.
func CanonicalTool(t Object) Object {
	out := make(Object, len(t))
	for k, v := range t {
		switch k {
		case "inputSchema", "outputSchema":
			out[k] = CanonicalSchema(v)
		default:
			out[k] = v
		}
	}
	return out
}

// CanonicalPrompt is the digest form of one prompt: arguments sorted by
// name (the stored form keeps declared order), argument schemas canonical.
func CanonicalPrompt(p Object) Object {
	out := make(Object, len(p))
	for k, v := range p {
		out[k] = v
	}
	if args, ok := p["arguments"].([]any); ok {
		sorted := make([]any, len(args))
		for i, a := range args {
			sorted[i] = CanonicalSchema(a)
		}
		slices.SortStableFunc(sorted, func(a, b any) int {
			am, _ := a.(map[string]any)
			bm, _ := b.(map[string]any)
			return strings.Compare(Str(am, "name"), Str(bm, "name"))
		})
		out["arguments"] = sorted
	}
	return out
}

func canonicalManifestTool(mt ManifestTool) Object {
	o := Object{"tool": mt.Tool}
	if mt.Description != "" {
		o["description"] = mt.Description
	}
	if len(mt.Operations) > 0 {
		ops := slices.Clone(mt.Operations)
		slices.Sort(ops)
		arr := make([]any, len(ops))
		for i, op := range ops {
			arr[i] = op
		}
		o["operations"] = arr
	}
	return o
}

// CanonicalSurface returns the digest form of a surface as a tree.
func CanonicalSurface(s *Surface) (any, error) {
	s, err := s.withTools()
	if err != nil {
		return nil, err
	}
	tree, err := toTree(s)
	if err != nil {
		return nil, err
	}
	m := tree.(map[string]any)
	tools := make([]any, 0, len(s.Tools))
	for _, t := range s.Tools {
		tools = append(tools, CanonicalTool(t))
	}
	m["tools"] = tools
	if len(s.Prompts) > 0 {
		ps := make([]any, 0, len(s.Prompts))
		for _, p := range s.Prompts {
			ps = append(ps, CanonicalPrompt(p))
		}
		m["prompts"] = ps
	}
	if s.Manifest != nil {
		mts := make([]any, 0, len(s.Manifest.Tools))
		for _, mt := range s.Manifest.Tools {
			mts = append(mts, canonicalManifestTool(mt))
		}
		m["manifest"] = map[string]any{"uri": s.Manifest.URI, "tools": mts}
	}
	for _, k := range []string{"toolsList", "resourcesList", "resourceTemplatesList", "promptsList"} {
		if li, ok := m[k].(map[string]any); ok {
			delete(li, "pages")
		}
	}
	return m, nil
}

// SurfaceDigest returns "sha256:<hex>" over the JCS bytes of the canonical
// surface.
func SurfaceDigest(s *Surface) (string, error) {
	c, err := CanonicalSurface(s)
	if err != nil {
		return "", fmt.Errorf("surface digest: %w", err)
	}
	return digestOf(c)
}

func digestOf(v any) (string, error) {
	b, err := JCS(v)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}

func entityDigests(s *Surface) (map[string]string, error) {
	s, err := s.withTools()
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	add := func(key string, v any) error {
		d, err := digestOf(v)
		if err != nil {
			return fmt.Errorf("digest %s: %w", key, err)
		}
		out[key] = d
		return nil
	}
	for _, t := range s.Tools {
		if err := add("tools/"+Str(t, "name"), CanonicalTool(t)); err != nil {
			return nil, err
		}
	}
	for _, r := range s.Resources {
		if err := add("resources/"+Str(r, "uri"), r); err != nil {
			return nil, err
		}
	}
	for _, r := range s.ResourceTemplates {
		if err := add("resourceTemplates/"+Str(r, "uriTemplate"), r); err != nil {
			return nil, err
		}
	}
	for _, p := range s.Prompts {
		if err := add("prompts/"+Str(p, "name"), CanonicalPrompt(p)); err != nil {
			return nil, err
		}
	}
	if s.Manifest != nil {
		for _, mt := range s.Manifest.Tools {
			if err := add("manifest/"+mt.Tool, canonicalManifestTool(mt)); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// applyVolatile replaces the values selected by dot paths with type tokens.
// The surface goes through its tree form so that selectors reach every
// field; a selector that turns a typed field into a token is an error.
func applyVolatile(s *Surface, selectors []string) error {
	if err := s.DecodeTools(); err != nil {
		return err
	}
	tree, err := toTree(s)
	if err != nil {
		return err
	}
	for _, sel := range selectors {
		path := strings.TrimPrefix(sel, "surface.")
		if path == "" {
			return fmt.Errorf("volatile selector %q is empty", sel)
		}
		tree = replaceAt(tree, strings.Split(path, "."))
	}
	var buf bytes.Buffer
	if err := writeCompact(&buf, tree); err != nil {
		return err
	}
	dec := json.NewDecoder(&buf)
	dec.UseNumber()
	var out Surface
	if err := dec.Decode(&out); err != nil {
		return fmt.Errorf("volatile selectors %q: a selector likely targets a typed snapshot field: %w", selectors, err)
	}
	if out.Tools == nil {
		out.Tools = []Object{}
	}
	*s = out
	return nil
}

var idKeys = []string{"name", "uri", "uriTemplate", "tool"}

func replaceAt(v any, path []string) any {
	if len(path) == 0 {
		return TypeToken(v)
	}
	seg, rest := path[0], path[1:]
	switch x := v.(type) {
	case map[string]any:
		if seg == "*" {
			for k, e := range x {
				x[k] = replaceAt(e, rest)
			}
		} else if e, ok := x[seg]; ok {
			x[seg] = replaceAt(e, rest)
		}
	case []any:
		if seg == "*" {
			for i, e := range x {
				x[i] = replaceAt(e, rest)
			}
		} else if i, err := strconv.Atoi(seg); err == nil {
			if i >= 0 && i < len(x) {
				x[i] = replaceAt(x[i], rest)
			}
		} else {
			for i, e := range x {
				if m, ok := e.(map[string]any); ok && matchesID(m, seg) {
					x[i] = replaceAt(e, rest)
				}
			}
		}
	}
	return v
}

func matchesID(m map[string]any, id string) bool {
	for _, k := range idKeys {
		if s, ok := m[k].(string); ok && s == id {
			return true
		}
	}
	return false
}
