package redact

import (
	"bytes"
	"strings"
)

// A learnedTool is what one tools/list entry says about secret arguments.
type learnedTool struct {
	name    string
	rawName []byte // the name's string token, while scanning
	paths   toolSecrets
	headers []string
}

// objKind says what an object means to schema learning.
type objKind uint8

const (
	objNone objKind = iota
	objTool         // an entry of a tools/list result
	objProp         // a property schema inside the entry's inputSchema
)

// propFlags are the keywords of a property schema that mark it secret.
type propFlags struct {
	secret bool
	header string
}

// atTool reports whether the object being scanned is an entry of a
// tools/list result: the location is tools[i] or result.tools[i].
func (s *scanner) atTool() bool {
	st := s.stack
	switch len(st) {
	case 2:
		return st[1].index >= 0 && string(st[0].key) == "tools"
	case 3:
		return st[2].index >= 0 && string(st[1].key) == "tools" && string(st[0].key) == "result"
	}
	return false
}

// objectKind classifies the object about to be scanned in mode m.
func (s *scanner) objectKind(m mode) objKind {
	if m == modeData && s.atTool() {
		return objTool
	}
	if m != modeSchema || s.toolLen == 0 {
		return objNone
	}
	// tool.inputSchema(.properties.NAME)+ : static paths only, the ones
	// x-mcp-header may bind.
	st, base := s.stack, s.toolLen
	n := len(st) - base
	if n < 3 || n%2 == 0 || string(st[base].key) != "inputSchema" {
		return objNone
	}
	for i := base + 1; i < len(st); i += 2 {
		if string(st[i].key) != "properties" || st[i].index >= 0 {
			return objNone
		}
	}
	return objProp
}

// member notes one member of a tool entry or property schema; val is the
// member's raw value.
func (s *scanner) member(kind objKind, prop *propFlags, key, val []byte) {
	isStr := len(val) > 0 && val[0] == '"'
	switch kind {
	case objTool:
		if string(key) == "name" && isStr {
			s.tool.rawName = val
		}
	case objProp:
		switch string(key) {
		case "format":
			if string(val) == `"password"` {
				prop.secret = true
			}
		case "writeOnly":
			if string(val) == "true" {
				prop.secret = true
			}
		case "x-mcp-header":
			if isStr {
				prop.header = string(decode(val, true, nil))
			}
		}
	}
}

// endObject finishes a tool entry or property schema.
func (s *scanner) endObject(kind objKind, prop *propFlags) {
	switch kind {
	case objTool:
		// A tool without secrets is remembered only to forget what an
		// older schema said, so a clean list allocates nothing per tool.
		if raw := s.tool.rawName; raw != nil {
			name := decode(raw, bytes.IndexByte(raw, '\\') >= 0, nil)
			if len(s.tool.paths) > 0 || s.r.knows(name) {
				s.tool.name, s.tool.rawName = string(name), nil
				s.learned = append(s.learned, s.tool)
			}
		}
		s.toolLen, s.tool = 0, learnedTool{}
	case objProp:
		var buf [64]byte
		name := s.stack[len(s.stack)-1].key
		secret := prop.secret || isSecretName(normName(buf[:0], name)) ||
			(prop.header != "" && isSecretName(normName(buf[:0], []byte(prop.header))))
		if !secret {
			return
		}
		p := path{{kind: segName, name: "params"}, {kind: segName, name: "arguments"}}
		for i := s.toolLen + 2; i < len(s.stack); i += 2 {
			p = append(p, pathSeg{kind: segName, name: string(s.stack[i].key)})
		}
		s.tool.paths = append(s.tool.paths, p)
		if prop.header != "" {
			s.tool.headers = append(s.tool.headers, prop.header)
		}
	}
}

// knows reports whether the tool has secret arguments on record.
func (r *Redactor) knows(name []byte) bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	_, ok := r.tools[string(name)]
	return ok
}

// learn records what a tools/list result said: a tool's latest schema
// replaces what was known of it.
func (r *Redactor) learn(tools []learnedTool) {
	if len(tools) == 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, t := range tools {
		if len(t.paths) == 0 {
			delete(r.tools, t.name)
			continue
		}
		r.tools[t.name] = t.paths
		for _, h := range t.headers {
			r.paramHeaders[strings.ToLower(h)] = true
		}
	}
	seen := map[string]bool{}
	var keys []textKey
	for _, paths := range r.tools {
		for _, p := range paths {
			if n := strings.ToLower(p[len(p)-1].name); !seen[n] {
				seen[n] = true
				keys = append(keys, newTextKey(n))
			}
		}
	}
	r.learnedKeys = keys
}
