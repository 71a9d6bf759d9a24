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
	return decodeRawObject(t.JSON, d.table())
}

// table returns the decoder's intern table, made on first use.
func (d *ToolDecoder) table() map[string]string {
	if d.strs == nil {
		d.strs = make(map[string]string, 64)
	}
	return d.strs
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
	if o, ok := p.wholeObject(nil, nil, nil); ok {
		return o, nil
	}
	o, err := decodeObject(b)
	if err != nil {
		return nil, fmt.Errorf("decode tool held raw: %w", err)
	}
	return o, nil
}

// wholeObject reads p.b as one object (see object for ref, old and
// spans), white space around it allowed; ok is false if it is not one,
// or not on the fast path.
func (p *treeParser) wholeObject(ref map[string]any, old []byte, spans *spanTable) (o map[string]any, ok bool) {
	if p.ws(); p.i >= len(p.b) || p.b[p.i] != '{' {
		return nil, false
	}
	o, err := p.object(ref, old, spans)
	if err != nil {
		return nil, false
	}
	p.ws()
	return o, p.i == len(p.b)
}

// rawToolList reads the array of tool objects at p.i, checking each and
// keeping it as bytes with its name.
func (p *treeParser) rawToolList() ([]RawTool, error) {
	out := []RawTool{}
	err := p.elements(func() error {
		start := p.i
		name, err := p.rawTool()
		if err != nil {
			return err
		}
		out = append(out, RawTool{Name: name, JSON: p.b[start:p.i]})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
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
	if d.spans == nil {
		d.spans = &spanTable{objs: map[uintptr][2]int{}}
	}
	d.spans.reset()
	p := treeParser{b: old.JSON, strs: d.table(), spans: d.spans}
	o, ok := p.wholeObject(nil, nil, nil)
	if !ok {
		o, err := d.Decode(old)
		if err != nil {
			return nil, nil, err
		}
		n, err := d.Decode(new)
		return o, n, err
	}
	q := treeParser{b: new.JSON, strs: d.strs}
	if n, ok := q.wholeObject(o, old.JSON, d.spans); ok {
		return o, n, nil
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
