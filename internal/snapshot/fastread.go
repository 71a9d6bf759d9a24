package snapshot

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mcpward/mcpward/internal/jsonrpc"
)

// The fast path of [Unmarshal]. A 5,000-tool snapshot file is about 12 MB,
// and reading it through encoding/json alone scanned it three times (the
// formatVersion check decoded the whole document too) and built every
// schema node with reflection, re-allocating each of the ~1.5 million
// map keys. The fast path decodes the document once, with the entity
// lists (tools, resources, resource templates, prompts) handed to
// parseTree: one pass over bytes the decoder has already checked,
// interned keys and short strings, maps allocated at their final size.
//
// It returns what the strict path returns, or reports failure, and then
// the strict path runs and produces the error: every error, and every
// input it is not sure about, goes the old way.

// wireSnapshot is Snapshot with its surface read through wireSurface: the
// outer field shadows the embedded one, every other field decodes as
// Snapshot's (same names, same case-insensitive matching, same unknown-
// field check).
type wireSnapshot struct {
	Snapshot
	Surface wireSurface `json:"surface"`
}

type wireSurface struct {
	Surface
	Tools             wireObjects `json:"tools"`
	Resources         wireObjects `json:"resources,omitempty"`
	ResourceTemplates wireObjects `json:"resourceTemplates,omitempty"`
	Prompts           wireObjects `json:"prompts,omitempty"`
}

// wireObjects is a list of JSON objects decoded by parseTree.
type wireObjects []Object

var errNotFast = errors.New("not on the fast path")

// UnmarshalJSON accepts an array of objects only; anything else (null, a
// null element, another type) is left to the strict path.
func (w *wireObjects) UnmarshalJSON(b []byte) error {
	p := treeParser{b: b, strs: make(map[string]string, 256)}
	p.ws()
	out, err := p.objects()
	if err != nil {
		return err
	}
	*w = out
	return nil
}

// unmarshalFast decodes b in one pass. ok is false when b must go through
// the strict path (any error, another format version, a failed check).
//
// treeParser reads the whole document, checking that it is valid JSON,
// and decodes the surface's entity lists (most of a large file); the
// rest, with each list replaced by [], goes through encoding/json into
// the typed fields, strictly. A key the decoder would match to a list in
// another spelling (case), or a list given twice, goes the strict way.
//
// With lazyTools, the tools are checked and kept as their bytes (see
// [RawTool]) instead of decoded.
func unmarshalFast(b []byte, lazyTools bool) (*Snapshot, bool) {
	p := treeParser{b: b, strs: make(map[string]string, 256)}
	lists, err := p.document(lazyTools)
	if err != nil {
		return nil, false
	}
	rest := make([]byte, 0, len(b)-lists.size()+8)
	at := 0
	for _, l := range lists.spans() {
		if l == nil {
			continue
		}
		rest = append(rest, b[at:l.start]...)
		if l == lists.digests {
			rest = append(rest, "null"...)
		} else {
			rest = append(rest, "[]"...)
		}
		at = l.end
	}
	rest = append(rest, b[at:]...)
	dec := json.NewDecoder(bytes.NewReader(rest))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	var w wireSnapshot
	if err := dec.Decode(&w); err != nil {
		return nil, false
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, false
	}
	s := w.Snapshot
	if s.FormatVersion != FormatVersion {
		return nil, false
	}
	s.Surface = w.Surface.Surface
	for _, f := range []struct {
		l       *list
		decoded wireObjects
		dst     *[]Object
	}{
		{lists.tools, w.Surface.Tools, &s.Surface.Tools},
		{lists.resources, w.Surface.Resources, &s.Surface.Resources},
		{lists.templates, w.Surface.ResourceTemplates, &s.Surface.ResourceTemplates},
		{lists.prompts, w.Surface.Prompts, &s.Surface.Prompts},
	} {
		if f.l == nil && f.decoded != nil {
			// The decoder found a list the splice did not: a name the two
			// match differently. Not on the fast path.
			return nil, false
		}
		if f.l != nil {
			*f.dst = f.l.items
		}
	}
	if lists.digests != nil {
		if s.EntityDigests != nil {
			return nil, false // the decoder found them under another name
		}
		s.EntityDigests = lists.digests.digests
	}
	if l := lists.tools; l != nil && l.raw != nil {
		if len(l.raw) == 0 {
			s.Surface.Tools = []Object{}
		} else {
			s.Surface.raw = &rawTools{tools: l.raw}
		}
	}
	if err := validate(&s); err != nil {
		return nil, false
	}
	return &s, true
}

// A list is one entity list of the surface: where its value is in the
// document and what it holds.
type list struct {
	start, end int
	items      []Object
	raw        []RawTool         // the tools, when read lazily
	digests    map[string]string // entityDigests, which is no list
}

// surfaceLists are the surface's entity lists, and the entity digests:
// the parts of a file that grow with the surface, read without
// encoding/json.
type surfaceLists struct {
	tools, resources, templates, prompts *list
	digests                              *list
}

func (l *surfaceLists) spans() []*list {
	// In document order, for the splice.
	out := []*list{l.tools, l.resources, l.templates, l.prompts, l.digests}
	slices.SortFunc(out, func(a, b *list) int {
		switch {
		case a == nil && b == nil:
			return 0
		case a == nil:
			return -1
		case b == nil:
			return 1
		}
		return a.start - b.start
	})
	return out
}

func (l *surfaceLists) size() int {
	n := 0
	for _, x := range l.spans() {
		if x != nil {
			n += x.end - x.start
		}
	}
	return n
}

// maxDepth is below encoding/json's nesting limit (10000), so that what
// it would refuse goes the strict way.
const maxDepth = 5000

// document reads the whole document: a JSON object, nothing but white
// space after it.
func (p *treeParser) document(lazyTools bool) (*surfaceLists, error) {
	var lists surfaceLists
	p.ws()
	seenSurface := false
	err := p.members(func(key string) error {
		if strings.EqualFold(key, "entityDigests") {
			if key != "entityDigests" || lists.digests != nil {
				return errNotFast
			}
			if p.ws(); p.i < len(p.b) && p.b[p.i] == '{' {
				l := &list{start: p.i}
				m, err := p.digests()
				if err != nil {
					return err
				}
				l.end, l.digests = p.i, m
				lists.digests = l
				return nil
			}
		}
		if !strings.EqualFold(key, "surface") {
			if !snapshotKey(key) {
				// The decoder would refuse it: another tool's snapshot
				// (or a corrupt one) need not be scanned to its end.
				return errNotFast
			}
			return p.skip(1)
		}
		if key != "surface" || seenSurface {
			return errNotFast
		}
		seenSurface = true
		p.ws()
		return p.members(func(key string) error {
			// encoding/json matches names as strings.EqualFold does
			// (Unicode folding: "toolſ" is "tools").
			var dst **list
			switch {
			case strings.EqualFold(key, "tools"):
				dst = &lists.tools
			case strings.EqualFold(key, "resources"):
				dst = &lists.resources
			case strings.EqualFold(key, "resourceTemplates"):
				dst = &lists.templates
			case strings.EqualFold(key, "prompts"):
				dst = &lists.prompts
			default:
				return p.skip(2)
			}
			if *dst != nil || (key != "tools" && key != "resources" && key != "resourceTemplates" && key != "prompts") {
				return errNotFast
			}
			p.ws()
			l := &list{start: p.i}
			if lazyTools && dst == &lists.tools {
				raw, err := p.rawToolList()
				if err != nil {
					return err
				}
				l.end, l.raw = p.i, raw
				*dst = l
				return nil
			}
			items, err := p.objects()
			if err != nil {
				return err
			}
			l.end, l.items = p.i, items
			*dst = l
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	p.ws()
	if p.i != len(p.b) {
		return nil, errNotFast
	}
	return &lists, nil
}

// digests reads the object of entity digests at p.i: string values only
// (anything else goes the strict way), the last of a repeated key.
func (p *treeParser) digests() (map[string]string, error) {
	strs := p.strs
	p.strs = nil // thousands of distinct keys: not worth interning
	defer func() { p.strs = strs }()
	m := map[string]string{}
	err := p.members(func(key string) error {
		if p.ws(); p.i >= len(p.b) || p.b[p.i] != '"' {
			return errNotFast
		}
		v, err := p.string()
		m[key] = v
		return err
	})
	return m, err
}

// snapshotKeys are the top-level names Snapshot decodes.
var snapshotKeys = []string{"formatVersion", "mcpwardVersion", "rulesetVersion", "probeSpecHash",
	"observation", "surface", "surfaceDigest", "entityDigests"}

// snapshotKey reports whether encoding/json matches key to a field of
// Snapshot (names match as strings.EqualFold does).
func snapshotKey(key string) bool {
	for _, k := range snapshotKeys {
		if strings.EqualFold(key, k) {
			return true
		}
	}
	return false
}

// members reads an object at p.i, calling member with p.i at each value
// (after the colon); member must read the value.
func (p *treeParser) members(member func(key string) error) error {
	if !p.eat('{') {
		return errNotFast
	}
	p.ws()
	if p.eat('}') {
		return nil
	}
	for {
		p.ws()
		if p.i >= len(p.b) || p.b[p.i] != '"' {
			return errNotFast
		}
		k, err := p.string()
		if err != nil {
			return err
		}
		p.ws()
		if !p.eat(':') {
			return errNotFast
		}
		if err := member(k); err != nil {
			return err
		}
		p.ws()
		if p.eat(',') {
			continue
		}
		if !p.eat('}') {
			return errNotFast
		}
		return nil
	}
}

// objects reads an array of objects at p.i.
func (p *treeParser) objects() ([]Object, error) {
	out := []Object{}
	err := p.elements(func() error {
		if p.i >= len(p.b) || p.b[p.i] != '{' {
			return errNotFast
		}
		m, err := p.object(nil, nil, nil)
		if err != nil {
			return err
		}
		out = append(out, m)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// elements reads an array at p.i, calling element with p.i at each
// element (after white space); element must read it.
func (p *treeParser) elements(element func() error) error {
	if !p.eat('[') {
		return errNotFast
	}
	p.ws()
	if p.eat(']') {
		return nil
	}
	for {
		p.ws()
		if err := element(); err != nil {
			return err
		}
		p.ws()
		if p.eat(',') {
			continue
		}
		if !p.eat(']') {
			return errNotFast
		}
		return nil
	}
}

// skip checks the value at p.i and moves past it, building nothing
// (jsonrpc's scanner, which the relay validates frames with). depth is the
// nesting of the value: the scanner's own limit covers what is below it.
func (p *treeParser) skip(depth int) error {
	if depth > maxDepth {
		return errNotFast
	}
	p.ws()
	end := -1
	if p.i < len(p.b) {
		end = jsonrpc.SkipValue(p.b, p.i)
	}
	if end < 0 {
		return errNotFast
	}
	p.i = end
	return nil
}

// treeParser decodes JSON that encoding/json has already validated into
// the tree form encoding/json builds with UseNumber (map[string]any,
// []any, json.Number, string, bool, nil; empty arrays non-nil). Strings
// with escapes or bytes outside ASCII that are not plain UTF-8 are
// unquoted by encoding/json itself, so every string is the same.
type treeParser struct {
	b     []byte
	i     int
	strs  map[string]string // interned keys and short values
	pairs []pair            // object members being read, all depths
	elems []any             // array elements being read, all depths
	depth int               // nesting of the value being read
	spans *spanTable        // when set, where each object's members are
}

type pair struct {
	k          string
	v          any
	start, end int // where v is in the input
}

// maxIntern bounds the strings kept in the intern table: keys and short
// values (types, formats, enum values) repeat across thousands of tools.
const maxIntern = 32

func (p *treeParser) ws() { p.i = jsonrpc.SkipSpace(p.b, p.i) }

func (p *treeParser) eat(c byte) bool {
	if p.i < len(p.b) && p.b[p.i] == c {
		p.i++
		return true
	}
	return false
}

func (p *treeParser) lit(s string, v any) (any, error) {
	if !bytes.HasPrefix(p.b[p.i:], []byte(s)) {
		return nil, errNotFast
	}
	p.i += len(s)
	return v, nil
}

func (p *treeParser) value() (any, error) {
	p.ws()
	if p.i >= len(p.b) {
		return nil, errNotFast
	}
	switch p.b[p.i] {
	case '{':
		m, err := p.object(nil, nil, nil)
		if err != nil {
			return nil, err
		}
		return m, nil
	case '[':
		return p.array()
	case '"':
		return p.str()
	}
	return p.scalar()
}

// scalar reads a literal or a number (by the JSON grammar) at p.i.
func (p *treeParser) scalar() (any, error) {
	if p.i >= len(p.b) {
		return nil, errNotFast
	}
	switch p.b[p.i] {
	case 't':
		return p.lit("true", true)
	case 'f':
		return p.lit("false", false)
	case 'n':
		return p.lit("null", nil)
	}
	start, end := p.i, jsonrpc.SkipNumber(p.b, p.i)
	if end < 0 {
		return nil, errNotFast
	}
	p.i = end
	return json.Number(p.intern(p.b[start:p.i])), nil
}

// object reads the object at p.i. With ref (an object decoded from old,
// with its spans, see [ToolDecoder.DecodePair]) it takes from ref each
// member whose bytes are equal, and reads an object member that differs
// the same way; with ref nil it reads every member.
func (p *treeParser) object(ref map[string]any, old []byte, spans *spanTable) (map[string]any, error) {
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
			start := p.i
			var v any
			var s *memberSpan
			if ref != nil {
				s = spans.find(ref, k)
			}
			switch {
			case s != nil && sameValueAt(p.b, p.i, old[s.start:s.end]):
				v, p.i = ref[k], p.i+s.end-s.start
			case s != nil && p.i < len(p.b) && p.b[p.i] == '{' && isMap(ref[k]):
				if v, err = p.object(ref[k].(map[string]any), old, spans); err != nil {
					return nil, err
				}
			default:
				if v, err = p.value(); err != nil {
					return nil, err
				}
			}
			p.pairs = append(p.pairs, pair{k, v, start, p.i})
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
		m[kv.k] = kv.v // a repeated key: the last wins, as in encoding/json
	}
	if p.spans != nil {
		p.spans.add(m, p.pairs[base:])
	}
	clear(p.pairs[base:])
	p.pairs = p.pairs[:base]
	return m, nil
}

func (p *treeParser) array() (any, error) {
	if p.depth++; p.depth > maxDepth {
		return nil, errNotFast
	}
	defer func() { p.depth-- }()
	p.i++ // [
	base := len(p.elems)
	p.ws()
	if !p.eat(']') {
		for {
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			p.elems = append(p.elems, v)
			p.ws()
			if p.eat(',') {
				continue
			}
			if !p.eat(']') {
				return nil, errNotFast
			}
			break
		}
	}
	out := make([]any, len(p.elems)-base)
	copy(out, p.elems[base:])
	clear(p.elems[base:])
	p.elems = p.elems[:base]
	return out, nil
}

// str reads a string literal at p.i as a tree value.
func (p *treeParser) str() (any, error) {
	s, err := p.string()
	if err != nil {
		return nil, err
	}
	return s, nil
}

// string reads a string literal at p.i. Keys are read with it, not str:
// a string put in an interface is one more allocation.
func (p *treeParser) string() (string, error) {
	start, end := p.i, jsonrpc.SkipString(p.b, p.i)
	if end < 0 {
		return "", errNotFast
	}
	p.i = end
	raw := p.b[start+1 : end-1]
	if bytes.IndexByte(raw, '\\') >= 0 || !utf8.Valid(raw) {
		var s string
		if err := json.Unmarshal(p.b[start:end], &s); err != nil {
			return "", errNotFast
		}
		return s, nil
	}
	return p.intern(raw), nil
}

// intern returns b as a string, the same one for the same short bytes
// (with a nil table, always a new one).
func (p *treeParser) intern(b []byte) string {
	if len(b) > maxIntern || p.strs == nil {
		return string(b)
	}
	if s, ok := p.strs[string(b)]; ok {
		return s
	}
	s := string(b)
	p.strs[s] = s
	return s
}
