package snapshot

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"

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
	strs  map[string]string
	spans *spanTable // reused by DecodePair
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
	if d.strs == nil {
		d.strs = make(map[string]string, 64)
	}
	if d.spans == nil {
		d.spans = &spanTable{objs: map[uintptr][2]int{}}
	}
	d.spans.reset()
	p := treeParser{b: old.JSON, strs: d.strs, spans: d.spans}
	p.ws()
	var o Object
	if p.i < len(p.b) && p.b[p.i] == '{' {
		if v, err := p.value(); err == nil {
			if p.ws(); p.i == len(p.b) {
				o = v.(map[string]any)
			}
		}
	}
	if o == nil {
		o, err := d.Decode(old)
		if err != nil {
			return nil, nil, err
		}
		n, err := d.Decode(new)
		return o, n, err
	}
	q := treeParser{b: new.JSON, strs: d.strs}
	if q.ws(); q.i < len(q.b) && q.b[q.i] == '{' {
		if n, err := q.objectLike(o, old.JSON, d.spans); err == nil {
			if q.ws(); q.i == len(q.b) {
				return o, n, nil
			}
		}
	}
	n, err := d.Decode(new)
	return o, n, err
}

// A spanTable says where the members of each object decoded from one
// input are: objs maps an object (its map's pointer) to its range of
// members, in input order.
type spanTable struct {
	objs    map[uintptr][2]int
	members []memberSpan
}

type memberSpan struct {
	k          string
	start, end int
}

func (t *spanTable) reset() {
	clear(t.objs)
	t.members = t.members[:0]
}

func (t *spanTable) add(m map[string]any, pairs []pair) {
	lo := len(t.members)
	for _, kv := range pairs {
		t.members = append(t.members, memberSpan{kv.k, kv.start, kv.end})
	}
	t.objs[reflect.ValueOf(m).Pointer()] = [2]int{lo, len(t.members)}
}

// find returns the span of the last member k of the object m, or nil.
func (t *spanTable) find(m map[string]any, k string) *memberSpan {
	r, ok := t.objs[reflect.ValueOf(m).Pointer()]
	if !ok {
		return nil
	}
	for i := r[1] - 1; i >= r[0]; i-- {
		if t.members[i].k == k {
			return &t.members[i]
		}
	}
	return nil
}

// objectLike reads the object at p.i as object does, taking from ref (an
// object decoded from old, with its spans) each member whose bytes are
// equal, and reading an object member that differs the same way.
func (p *treeParser) objectLike(ref map[string]any, old []byte, spans *spanTable) (map[string]any, error) {
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
			s := spans.find(ref, k)
			switch {
			case s != nil && sameValueAt(p.b, p.i, old[s.start:s.end]):
				v, p.i = ref[k], p.i+s.end-s.start
			case s != nil && p.i < len(p.b) && p.b[p.i] == '{' && isMap(ref[k]):
				if v, err = p.objectLike(ref[k].(map[string]any), old, spans); err != nil {
					return nil, err
				}
			default:
				if v, err = p.value(); err != nil {
					return nil, err
				}
			}
			p.pairs = append(p.pairs, pair{k: k, v: v})
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

// sameValueAt reports whether the JSON value at b[i:] is v, a whole value
// (b holds valid JSON there): its bytes start b[i:], and v is not a number
// that goes on in b ("1" in "12").
func sameValueAt(b []byte, i int, v []byte) bool {
	if len(v) == 0 || len(b)-i < len(v) || !bytes.Equal(b[i:i+len(v)], v) {
		return false
	}
	switch v[0] {
	case '{', '[', '"', 't', 'f', 'n':
		return true
	}
	end := i + len(v)
	return end == len(b) || !strings.ContainsRune("0123456789.eE+-", rune(b[end]))
}

func isMap(v any) bool {
	_, ok := v.(map[string]any)
	return ok
}
