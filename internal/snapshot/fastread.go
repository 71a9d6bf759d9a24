package snapshot

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"unicode/utf8"
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
	if !p.eat('[') {
		return errNotFast
	}
	out := []Object{}
	p.ws()
	if p.eat(']') {
		*w = out
		return nil
	}
	for {
		p.ws()
		if p.i >= len(p.b) || p.b[p.i] != '{' {
			return errNotFast
		}
		v, err := p.value()
		if err != nil {
			return err
		}
		out = append(out, v.(map[string]any))
		p.ws()
		if p.eat(',') {
			continue
		}
		if !p.eat(']') {
			return errNotFast
		}
		break
	}
	*w = out
	return nil
}

// unmarshalFast decodes b in one pass. ok is false when b must go through
// the strict path (any error, another format version, a failed check).
func unmarshalFast(b []byte) (*Snapshot, bool) {
	dec := json.NewDecoder(bytes.NewReader(b))
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
	s.Surface.Tools = w.Surface.Tools
	s.Surface.Resources = w.Surface.Resources
	s.Surface.ResourceTemplates = w.Surface.ResourceTemplates
	s.Surface.Prompts = w.Surface.Prompts
	if err := validate(&s); err != nil {
		return nil, false
	}
	return &s, true
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
}

type pair struct {
	k string
	v any
}

// maxIntern bounds the strings kept in the intern table: keys and short
// values (types, formats, enum values) repeat across thousands of tools.
const maxIntern = 32

func (p *treeParser) ws() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

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
	switch c := p.b[p.i]; c {
	case '{':
		return p.object()
	case '[':
		return p.array()
	case '"':
		return p.str()
	case 't':
		return p.lit("true", true)
	case 'f':
		return p.lit("false", false)
	case 'n':
		return p.lit("null", nil)
	default:
		start := p.i
		for p.i < len(p.b) {
			switch p.b[p.i] {
			case '-', '+', '.', 'e', 'E', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
				p.i++
				continue
			}
			break
		}
		if p.i == start {
			return nil, errNotFast
		}
		return json.Number(p.intern(p.b[start:p.i])), nil
	}
}

func (p *treeParser) object() (any, error) {
	p.i++ // {
	base := len(p.pairs)
	p.ws()
	if !p.eat('}') {
		for {
			p.ws()
			if p.i >= len(p.b) || p.b[p.i] != '"' {
				return nil, errNotFast
			}
			k, err := p.str()
			if err != nil {
				return nil, err
			}
			p.ws()
			if !p.eat(':') {
				return nil, errNotFast
			}
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			p.pairs = append(p.pairs, pair{k.(string), v})
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
	clear(p.pairs[base:])
	p.pairs = p.pairs[:base]
	return m, nil
}

func (p *treeParser) array() (any, error) {
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

// str reads a string literal at p.i.
func (p *treeParser) str() (any, error) {
	start := p.i
	p.i++ // "
	plain := true
	for {
		if p.i >= len(p.b) {
			return nil, errNotFast
		}
		c := p.b[p.i]
		if c == '"' {
			break
		}
		if c == '\\' {
			plain = false
			p.i += 2
			continue
		}
		if c < 0x20 {
			return nil, errNotFast
		}
		if c >= utf8.RuneSelf {
			plain = false
		}
		p.i++
	}
	raw := p.b[start+1 : p.i]
	p.i++ // closing quote
	if !plain && (bytes.IndexByte(raw, '\\') >= 0 || !utf8.Valid(raw)) {
		var s string
		if err := json.Unmarshal(p.b[start:p.i], &s); err != nil {
			return nil, errNotFast
		}
		return s, nil
	}
	return p.intern(raw), nil
}

// intern returns b as a string, the same one for the same short bytes.
func (p *treeParser) intern(b []byte) string {
	if len(b) > maxIntern {
		return string(b)
	}
	if s, ok := p.strs[string(b)]; ok {
		return s
	}
	s := string(b)
	p.strs[s] = s
	return s
}
