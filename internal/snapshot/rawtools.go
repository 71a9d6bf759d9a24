package snapshot

import (
	"bytes"
	"fmt"

	"github.com/mcpward/mcpward/internal/jsonrpc"
)

// A RawTool is one tool of a surface read by [UnmarshalLazy]: its name and
// its bytes as they stand in the file, a JSON object already checked to
// be valid and to decode.
type RawTool struct {
	// Name is the tool's name member ("" if it has none; a lazily read
	// surface always has one, sorted and unique, as Unmarshal demands).
	Name string
	// JSON is the tool object's bytes in the file. It must not be
	// modified.
	JSON []byte
}

// Decode returns the tool as [Unmarshal] decodes it. To decode many, use
// a [ToolDecoder].
func (t RawTool) Decode() (Object, error) {
	var d ToolDecoder
	return d.Decode(t)
}

// A ToolDecoder decodes raw tools as [RawTool.Decode] does, sharing the
// strings they repeat (keys, types, enum values) between them. The zero
// value is ready to use; it is not safe for concurrent use.
type ToolDecoder struct {
	strs map[string]string
}

// Decode returns the tool as [Unmarshal] decodes it.
func (d *ToolDecoder) Decode(t RawTool) (Object, error) {
	if d.strs == nil {
		d.strs = make(map[string]string, 64)
	}
	return decodeRawObject(t.JSON, d.strs)
}

type rawTools struct {
	tools []RawTool
}

// RawTools returns the tools of a surface read by [UnmarshalLazy], as they
// stand in the file, in snapshot (name) order; nil when the surface holds
// its tools decoded in Tools (every surface built, converted or read by
// Unmarshal, and a lazily read one after [Surface.DecodeTools]).
func (s *Surface) RawTools() []RawTool {
	if s.raw == nil {
		return nil
	}
	return s.raw.tools
}

// DecodeTools decodes the tools of a surface read by [UnmarshalLazy] into
// Tools, as Unmarshal would have. It does nothing when the tools are
// decoded already.
func (s *Surface) DecodeTools() error {
	if s.raw == nil {
		return nil
	}
	tools, err := s.raw.decode()
	if err != nil {
		return err
	}
	s.Tools, s.raw = tools, nil
	return nil
}

func (r *rawTools) decode() ([]Object, error) {
	strs := make(map[string]string, 256)
	out := make([]Object, len(r.tools))
	for i, t := range r.tools {
		o, err := decodeRawObject(t.JSON, strs)
		if err != nil {
			return nil, err
		}
		out[i] = o
	}
	return out, nil
}

// withTools returns s, or when its tools are held raw a shallow copy with
// them decoded, for the functions that read every tool.
func (s *Surface) withTools() (*Surface, error) {
	if s.raw == nil {
		return s, nil
	}
	c := *s
	if err := c.DecodeTools(); err != nil {
		return nil, err
	}
	return &c, nil
}

func (s *Snapshot) withTools() (*Snapshot, error) {
	if s.Surface.raw == nil {
		return s, nil
	}
	c := *s
	if err := c.Surface.DecodeTools(); err != nil {
		return nil, err
	}
	return &c, nil
}

// decodeRawObject decodes a JSON object held raw. The lazy read only keeps
// objects treeParser decodes (valid JSON, nested at most maxDepth); the
// encoding/json fallback is for safety and builds the same tree.
func decodeRawObject(b []byte, strs map[string]string) (Object, error) {
	p := treeParser{b: b, strs: strs}
	p.ws()
	if p.i < len(p.b) && p.b[p.i] == '{' {
		v, err := p.value()
		if err == nil {
			if p.ws(); p.i == len(p.b) {
				return v.(map[string]any), nil
			}
		}
	}
	o, err := decodeObject(b)
	if err != nil {
		return nil, fmt.Errorf("decode tool held raw: %w", err)
	}
	return o, nil
}

// rawToolList reads the array of tool objects at p.i, checking each and
// keeping it as bytes with its name.
func (p *treeParser) rawToolList() ([]RawTool, error) {
	if !p.eat('[') {
		return nil, errNotFast
	}
	out := []RawTool{}
	p.ws()
	if p.eat(']') {
		return out, nil
	}
	for {
		p.ws()
		start := p.i
		name, err := p.rawTool()
		if err != nil {
			return nil, err
		}
		out = append(out, RawTool{Name: name, JSON: p.b[start:p.i]})
		p.ws()
		if p.eat(',') {
			continue
		}
		if !p.eat(']') {
			return nil, errNotFast
		}
		return out, nil
	}
}

// rawTool checks the object at p.i (valid JSON, nested at most maxDepth as
// treeParser allows) and moves past it, returning its name: the last
// "name" member, "" when that is not a string or there is none.
func (p *treeParser) rawTool() (string, error) {
	start := p.i
	if p.i >= len(p.b) || p.b[p.i] != '{' {
		return "", errNotFast
	}
	name := ""
	err := p.members(func(key string) error {
		p.ws()
		if key == "name" && p.i < len(p.b) && p.b[p.i] == '"' {
			var err error
			name, err = p.string()
			return err
		}
		if key == "name" {
			name = ""
		}
		return p.skip(2)
	})
	if err != nil {
		return "", err
	}
	// A value nested d deep takes 2d bytes: only a long tool can be too
	// deep for treeParser.
	if p.i-start > 2*maxDepth && nesting(p.b[start:p.i]) > maxDepth {
		return "", errNotFast
	}
	return name, nil
}

// nesting returns how deep the containers of valid JSON b nest.
func nesting(b []byte) int {
	depth, most := 0, 0
	for i := 0; i < len(b); {
		switch b[i] {
		case '"':
			if i = jsonrpc.SkipString(b, i); i < 0 {
				return len(b) // not valid: too deep for the fast path anyway
			}
			continue
		case '{', '[':
			if depth++; depth > most {
				most = depth
			}
		case '}', ']':
			depth--
		}
		i++
	}
	return most
}

// DecodePair decodes the two sides of a tool whose bytes differ, as
// Decode does each, but the new side's tree shares with the old side's
// every member (at any depth, through objects) whose bytes are equal: a
// changed tool usually changes a few of its parts, and a diff only reads
// the trees.
func (d *ToolDecoder) DecodePair(old, new RawTool) (Object, Object, error) {
	o, err := d.Decode(old)
	if err != nil {
		return nil, nil, err
	}
	if d.strs == nil {
		d.strs = make(map[string]string, 64)
	}
	p := treeParser{b: new.JSON, strs: d.strs}
	if p.ws(); p.i < len(p.b) && p.b[p.i] == '{' {
		if n, err := p.objectLike(o, old.JSON); err == nil {
			if p.ws(); p.i == len(p.b) {
				return o, n, nil
			}
		}
	}
	n, err := d.Decode(new)
	return o, n, err
}

// objectLike reads the object at p.i as object does, taking from ref (the
// tree of the JSON object refRaw) each member whose bytes are equal.
func (p *treeParser) objectLike(ref map[string]any, refRaw []byte) (map[string]any, error) {
	spans := memberSpans(refRaw)
	if spans == nil {
		v, err := p.object()
		if err != nil {
			return nil, err
		}
		return v.(map[string]any), nil
	}
	if p.depth++; p.depth > maxDepth {
		return nil, errNotFast
	}
	defer func() { p.depth-- }()
	p.i++ // {
	base := len(p.pairs)
	p.ws()
	if !p.eat('}') {
		for {
			p.ws()
			if p.i >= len(p.b) || p.b[p.i] != '"' {
				return nil, errNotFast
			}
			k, err := p.string()
			if err != nil {
				return nil, err
			}
			p.ws()
			if !p.eat(':') {
				return nil, errNotFast
			}
			p.ws()
			var v any
			span, inRef := spans[k]
			end := -1
			if inRef {
				end = jsonrpc.SkipValue(p.b, p.i)
			}
			switch {
			case end >= 0 && bytes.Equal(p.b[p.i:end], refRaw[span[0]:span[1]]):
				v, p.i = ref[k], end
			case end >= 0 && p.b[p.i] == '{' && isMap(ref[k]):
				if v, err = p.objectLike(ref[k].(map[string]any), refRaw[span[0]:span[1]]); err != nil {
					return nil, err
				}
			default:
				if v, err = p.value(); err != nil {
					return nil, err
				}
			}
			p.pairs = append(p.pairs, pair{k, v})
			p.ws()
			if p.eat(',') {
				continue
			}
			if !p.eat('}') {
				return nil, errNotFast
			}
			break
		}
	}
	m := make(map[string]any, len(p.pairs)-base)
	for _, kv := range p.pairs[base:] {
		m[kv.k] = kv.v
	}
	clear(p.pairs[base:])
	p.pairs = p.pairs[:base]
	return m, nil
}

// memberSpans returns where each member's value is in the JSON object b
// (the last of a repeated key), or nil if b is not one.
func memberSpans(b []byte) map[string][2]int {
	p := treeParser{b: b}
	p.ws()
	spans := map[string][2]int{}
	err := p.members(func(key string) error {
		p.ws()
		start := p.i
		if err := p.skip(1); err != nil {
			return err
		}
		spans[key] = [2]int{start, p.i}
		return nil
	})
	if err != nil {
		return nil
	}
	return spans
}

func isMap(v any) bool {
	_, ok := v.(map[string]any)
	return ok
}
