package redact

import (
	"fmt"
	"strconv"
	"strings"
)

// A pathSeg is one step of a compiled path selector.
type pathSeg struct {
	kind segKind
	name string // segName
	idx  int    // segIndex
}

type segKind uint8

const (
	segName    segKind = iota // an object member
	segIndex                  // an array element
	segAny                    // * or [*]: any one member or element
	segDescend                // ..: zero or more steps
)

// A path is a compiled --redact-path selector.
type path []pathSeg

// parsePath compiles a JSONPath-like selector, relative to the JSON-RPC
// message: "params.arguments.password", "$.result.content[*].text",
// "$..token", "params['odd.key']", "result.items[0]". Member names are
// case-sensitive, as in JSONPath.
func parsePath(s string) (path, error) {
	orig := s
	bad := func(why string) (path, error) {
		return nil, fmt.Errorf("redact path %q: %s", orig, why)
	}
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "$") {
		s = s[1:]
	} else if s != "" && s[0] != '.' && s[0] != '[' {
		s = "." + s
	}
	var p path
	for s != "" {
		switch {
		case strings.HasPrefix(s, ".."):
			p = append(p, pathSeg{kind: segDescend})
			s = s[2:]
			if s == "" {
				return bad("ends with ..")
			}
			if s[0] != '[' {
				s = "." + s
			}
		case s[0] == '.':
			s = s[1:]
			n := strings.IndexAny(s, ".[")
			if n < 0 {
				n = len(s)
			}
			name := s[:n]
			s = s[n:]
			switch name {
			case "":
				return bad("empty member name")
			case "*":
				p = append(p, pathSeg{kind: segAny})
			default:
				p = append(p, pathSeg{kind: segName, name: name})
			}
		case s[0] == '[':
			if q := strings.TrimLeft(s[1:], " "); q != "" && (q[0] == '\'' || q[0] == '"') {
				// A quoted name may hold "]" and ".".
				closeAt := strings.IndexByte(q[1:], q[0])
				if closeAt < 0 {
					return bad("unclosed quote")
				}
				name := q[1 : 1+closeAt]
				rest := strings.TrimLeft(q[1+closeAt+1:], " ")
				if !strings.HasPrefix(rest, "]") {
					return bad("expected ] after quoted name")
				}
				p = append(p, pathSeg{kind: segName, name: name})
				s = rest[1:]
				continue
			}
			end := strings.IndexByte(s, ']')
			if end < 0 {
				return bad("unclosed [")
			}
			in := strings.TrimSpace(s[1:end])
			s = s[end+1:]
			if in == "*" {
				p = append(p, pathSeg{kind: segAny})
				continue
			}
			n, err := strconv.Atoi(in)
			if err != nil || n < 0 {
				return bad(fmt.Sprintf("unsupported selector [%s] (use a name, an index, or *)", in))
			}
			p = append(p, pathSeg{kind: segIndex, idx: n})
		default:
			return bad(fmt.Sprintf("unexpected %q", s[:1]))
		}
	}
	if len(p) == 0 {
		return bad("selects the whole message")
	}
	return p, nil
}

// match reports whether the pattern selects exactly the value at the
// current location (stack, outermost first).
// steps is the number of locations p matches, or -1 when p holds a ".."
// (any number).
func (p path) steps() int {
	for _, sg := range p {
		if sg.kind == segDescend {
			return -1
		}
	}
	return len(p)
}

func (p path) match(stack []loc) bool {
	if len(p) == 0 {
		return len(stack) == 0
	}
	switch p[0].kind {
	case segDescend:
		if n := p[1:].steps(); n >= 0 {
			// Without another "..", the rest can match only the last n
			// steps: trying every depth made a deep frame quadratic.
			return len(stack) >= n && p[1:].match(stack[len(stack)-n:])
		}
		for i := 0; i <= len(stack); i++ {
			if p[1:].match(stack[i:]) {
				return true
			}
		}
		return false
	}
	if len(stack) == 0 {
		return false
	}
	l := &stack[0]
	switch p[0].kind {
	case segAny:
	case segName:
		if l.index >= 0 || string(l.key) != p[0].name {
			return false
		}
	case segIndex:
		if l.index != p[0].idx {
			return false
		}
	}
	return p[1:].match(stack[1:])
}
