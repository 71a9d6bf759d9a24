package wrap

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// A node is a JSON value in a document, by byte offsets. Objects keep
// their members in order, arrays their elements.
type node struct {
	kind       byte // '{', '[', '"', or 'v' (number, true, false, null)
	start, end int
	members    []member
	elems      []*node
}

// A member is one "key": value pair of an object.
type member struct {
	key      string
	keyStart int
	val      *node
}

// get returns the value of key, and whether the key is duplicated.
func (n *node) get(key string) (v *node, dup bool) {
	for i := range n.members {
		if n.members[i].key == key {
			if v != nil {
				return v, true
			}
			v = n.members[i].val
		}
	}
	return v, false
}

func (n *node) index(key string) int {
	for i := range n.members {
		if n.members[i].key == key {
			return i
		}
	}
	return -1
}

// str returns the value of a string node.
func (n *node) str(doc []byte) (string, bool) {
	if n == nil || n.kind != '"' {
		return "", false
	}
	var s string
	if json.Unmarshal(doc[n.start:n.end], &s) != nil {
		return "", false
	}
	return s, true
}

// A SyntaxError says where a config file stops being JSON (or JSONC).
type SyntaxError struct {
	Line, Col int
	Msg       string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Col, e.Msg)
}

const maxDepth = 1000

// parser reads JSON with the JSONC extensions VS Code allows (// and /* */
// comments, trailing commas), which are also tolerated in the other
// clients' files.
type parser struct {
	doc   []byte
	pos   int
	depth int
}

// parse parses a whole document.
func parse(doc []byte) (*node, error) {
	p := &parser{doc: doc}
	if len(doc) >= 3 && string(doc[:3]) == "\xef\xbb\xbf" {
		p.pos = 3
	}
	if err := p.ws(); err != nil {
		return nil, err
	}
	if p.pos == len(doc) {
		return nil, p.errf("empty file")
	}
	n, err := p.value()
	if err != nil {
		return nil, err
	}
	if err := p.ws(); err != nil {
		return nil, err
	}
	if p.pos != len(doc) {
		return nil, p.errf("unexpected %q after the document", doc[p.pos])
	}
	return n, nil
}

func (p *parser) errf(format string, args ...any) error {
	line, col := 1, 1
	for _, c := range p.doc[:min(p.pos, len(p.doc))] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return &SyntaxError{Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

var errEOF = errors.New("unexpected end of file")

func (p *parser) ws() error {
	for p.pos < len(p.doc) {
		switch c := p.doc[p.pos]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			p.pos++
		case c == '/' && p.pos+1 < len(p.doc) && p.doc[p.pos+1] == '/':
			for p.pos < len(p.doc) && p.doc[p.pos] != '\n' {
				p.pos++
			}
		case c == '/' && p.pos+1 < len(p.doc) && p.doc[p.pos+1] == '*':
			end := indexFrom(p.doc, p.pos+2, "*/")
			if end < 0 {
				return p.errf("unterminated comment")
			}
			p.pos = end + 2
		default:
			return nil
		}
	}
	return nil
}

func indexFrom(b []byte, from int, s string) int {
	for i := from; i+len(s) <= len(b); i++ {
		if string(b[i:i+len(s)]) == s {
			return i
		}
	}
	return -1
}

func (p *parser) value() (*node, error) {
	if p.pos >= len(p.doc) {
		return nil, p.errf("%v", errEOF)
	}
	switch c := p.doc[p.pos]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		start := p.pos
		if err := p.str(); err != nil {
			return nil, err
		}
		return &node{kind: '"', start: start, end: p.pos}, nil
	case c == '-' || c >= '0' && c <= '9' || c == 't' || c == 'f' || c == 'n':
		start := p.pos
		for p.pos < len(p.doc) && (isWordByte(p.doc[p.pos])) {
			p.pos++
		}
		tok := string(p.doc[start:p.pos])
		if tok != "true" && tok != "false" && tok != "null" {
			if _, err := strconv.ParseFloat(tok, 64); err != nil && !errors.Is(err, strconv.ErrRange) {
				p.pos = start
				return nil, p.errf("invalid value %q", tok)
			}
		}
		return &node{kind: 'v', start: start, end: p.pos}, nil
	default:
		return nil, p.errf("unexpected %q", c)
	}
}

func isWordByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '+' || c == '.'
}

func (p *parser) str() error {
	i := p.pos + 1
	for i < len(p.doc) {
		switch c := p.doc[i]; {
		case c == '"':
			p.pos = i + 1
			return nil
		case c == '\\':
			i += 2
		case c < 0x20:
			p.pos = i
			return p.errf("control character in string")
		default:
			i++
		}
	}
	p.pos = len(p.doc)
	return p.errf("unterminated string")
}

func (p *parser) object() (*node, error) {
	n := &node{kind: '{', start: p.pos}
	p.pos++
	if p.depth++; p.depth > maxDepth {
		return nil, p.errf("nested too deeply")
	}
	defer func() { p.depth-- }()
	for {
		if err := p.ws(); err != nil {
			return nil, err
		}
		if p.pos >= len(p.doc) {
			return nil, p.errf("%v", errEOF)
		}
		if p.doc[p.pos] == '}' {
			p.pos++
			n.end = p.pos
			return n, nil
		}
		if len(n.members) > 0 {
			if p.doc[p.pos] != ',' {
				return nil, p.errf("expected , or } but found %q", p.doc[p.pos])
			}
			p.pos++
			if err := p.ws(); err != nil {
				return nil, err
			}
			if p.pos < len(p.doc) && p.doc[p.pos] == '}' { // trailing comma
				p.pos++
				n.end = p.pos
				return n, nil
			}
		}
		if p.pos >= len(p.doc) || p.doc[p.pos] != '"' {
			return nil, p.errf("expected a member name")
		}
		ks := p.pos
		if err := p.str(); err != nil {
			return nil, err
		}
		key, ok := (&node{kind: '"', start: ks, end: p.pos}).str(p.doc)
		if !ok {
			return nil, p.errf("invalid member name")
		}
		if err := p.ws(); err != nil {
			return nil, err
		}
		if p.pos >= len(p.doc) || p.doc[p.pos] != ':' {
			return nil, p.errf("expected : after %q", key)
		}
		p.pos++
		if err := p.ws(); err != nil {
			return nil, err
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		n.members = append(n.members, member{key: key, keyStart: ks, val: v})
	}
}

func (p *parser) array() (*node, error) {
	n := &node{kind: '[', start: p.pos}
	p.pos++
	if p.depth++; p.depth > maxDepth {
		return nil, p.errf("nested too deeply")
	}
	defer func() { p.depth-- }()
	for {
		if err := p.ws(); err != nil {
			return nil, err
		}
		if p.pos >= len(p.doc) {
			return nil, p.errf("%v", errEOF)
		}
		if p.doc[p.pos] == ']' {
			p.pos++
			n.end = p.pos
			return n, nil
		}
		if len(n.elems) > 0 {
			if p.doc[p.pos] != ',' {
				return nil, p.errf("expected , or ] but found %q", p.doc[p.pos])
			}
			p.pos++
			if err := p.ws(); err != nil {
				return nil, err
			}
			if p.pos < len(p.doc) && p.doc[p.pos] == ']' {
				p.pos++
				n.end = p.pos
				return n, nil
			}
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		n.elems = append(n.elems, v)
	}
}
