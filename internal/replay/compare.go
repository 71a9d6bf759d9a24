package replay

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/mcpward/mcpward/internal/jsonx"
)

// A Change is one difference between the recorded and the replayed
// response, at a JSON path.
type Change struct {
	// Op is "+" (only in the replay), "-" (only in the recording) or "~"
	// (changed).
	Op     string `json:"op"`
	Path   string `json:"path"`
	Before string `json:"before,omitempty"`
	After  string `json:"after,omitempty"`
}

// Compare diffs two JSON documents structurally (member order and
// whitespace do not count; numbers compare by their text after decoding
// with UseNumber). The id member of the top level is ignored. Invalid JSON
// is compared as bytes.
func Compare(recorded, replayed []byte) []Change {
	a, errA := decode(recorded)
	b, errB := decode(replayed)
	if errA != nil || errB != nil {
		if bytes.Equal(bytes.TrimSpace(recorded), bytes.TrimSpace(replayed)) {
			return nil
		}
		return []Change{{Op: "~", Path: "$", Before: short(recorded), After: short(replayed)}}
	}
	if ma, ok := a.(map[string]any); ok {
		delete(ma, "id")
	}
	if mb, ok := b.(map[string]any); ok {
		delete(mb, "id")
	}
	var out []Change
	walk("", a, b, &out)
	return out
}

func decode(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

const maxChanges = 200

func walk(path string, a, b any, out *[]Change) {
	if len(*out) >= maxChanges {
		return
	}
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			break
		}
		keys := make([]string, 0, len(x)+len(y))
		for k := range x {
			keys = append(keys, k)
		}
		for k := range y {
			if _, ok := x[k]; !ok {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			p := member(path, k)
			va, inA := x[k]
			vb, inB := y[k]
			switch {
			case !inA:
				*out = append(*out, Change{Op: "+", Path: p, After: text(vb)})
			case !inB:
				*out = append(*out, Change{Op: "-", Path: p, Before: text(va)})
			default:
				walk(p, va, vb, out)
			}
		}
		return
	case []any:
		y, ok := b.([]any)
		if !ok {
			break
		}
		for i := 0; i < max(len(x), len(y)); i++ {
			p := path + "[" + strconv.Itoa(i) + "]"
			switch {
			case i >= len(x):
				*out = append(*out, Change{Op: "+", Path: p, After: text(y[i])})
			case i >= len(y):
				*out = append(*out, Change{Op: "-", Path: p, Before: text(x[i])})
			default:
				walk(p, x[i], y[i], out)
			}
		}
		return
	}
	if ta, tb := text(a), text(b); ta != tb {
		if path == "" {
			path = "$"
		}
		*out = append(*out, Change{Op: "~", Path: path, Before: ta, After: tb})
	}
}

func member(path, k string) string {
	simple := k != ""
	for _, r := range k {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			simple = false
			break
		}
	}
	if !simple {
		return path + "[" + strconv.Quote(k) + "]"
	}
	if path == "" {
		return k
	}
	return path + "." + k
}

func text(v any) string {
	b, err := jsonx.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return short(b)
}

func short(b []byte) string {
	s := string(bytes.TrimSpace(b))
	if len(s) > 200 {
		return s[:197] + "…"
	}
	return s
}
