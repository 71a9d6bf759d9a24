package redact

import (
	"bytes"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/mcpward/mcpward/internal/jsonrpc"
)

// maxDepth bounds nesting; a deeper frame is treated as text (its values
// still go through the detectors, as bytes).
const maxDepth = 10000

// A loc is one step of the location of the value being scanned.
type loc struct {
	key   []byte // member name (decoded); nil for an element
	index int    // element index; -1 for a member
}

// A mode says how to read the object or array being scanned.
type mode uint8

const (
	modeData      mode = iota // ordinary data: every rule applies
	modeSchema                // a JSON Schema of a listed tool: its structure is kept
	modeSchemaMap             // an object whose members are schemas (properties, $defs)
)

// An edit replaces data[start:end] with repl.
type edit struct {
	start, end int
	repl       []byte
}

// argvState follows an array of strings read as an argument vector.
type argvState struct {
	flagPending bool // the previous element was "--token": hide this one
}

// A scanner makes one tokenizing pass over a JSON value, validating it and
// collecting the edits that hide secrets. It never builds a tree: memory is
// the location stack and the edits.
type scanner struct {
	r     *Redactor
	data  []byte
	pos   int
	depth int
	stack []loc
	edits []edit
	// extra are the schema-derived paths for this frame (a tools/call of a
	// tool with secret arguments).
	extra []path
	// detMask: built-in detectors whose literals occur in the frame's raw
	// bytes. A string with escapes is checked again on its decoded form.
	detMask uint64
	// keyText: a key rule's name occurs in the frame, so strings are
	// scanned as text for "name=value" and "name": "value" too.
	keyText bool
	// quiet > 0 while skipping a value that is hidden whole.
	quiet int
	// collect, if set, receives each hidden value (for header scrubbing).
	collect *[]string
	keyBuf  []byte
	// Schema learning from a tools/list result (see learn.go).
	toolLen int // len(stack) at the tool object being scanned; 0: none
	tool    learnedTool
	learned []learnedTool
}

func (s *scanner) reset(r *Redactor, data []byte) {
	s.r, s.data, s.pos, s.depth = r, data, 0, 0
	s.stack, s.edits, s.extra = s.stack[:0], nil, nil
	s.quiet, s.collect, s.keyText = 0, nil, false
	s.toolLen, s.tool, s.learned = 0, learnedTool{}, nil
}

func (s *scanner) ws() { s.pos = jsonrpc.SkipSpace(s.data, s.pos) }

// document scans one JSON value surrounded by optional whitespace, up to
// the end of s.data. It reports whether the bytes are valid JSON.
func (s *scanner) document() bool {
	if !s.value(modeData, nil) {
		return false
	}
	s.ws()
	return s.pos == len(s.data)
}

func (s *scanner) value(m mode, av *argvState) bool {
	s.ws()
	if s.pos >= len(s.data) {
		return false
	}
	if s.quiet == 0 && len(s.stack) > 0 {
		if hide, byKey := s.hides(m); hide {
			return s.hideValue(byKey)
		}
	}
	switch c := s.data[s.pos]; {
	case c == '{':
		return s.object(m)
	case c == '[':
		return s.array(m)
	case c == '"':
		start := s.pos
		esc, ok := s.str()
		if !ok {
			return false
		}
		s.stringValue(start, s.pos, esc, m, av)
		return true
	case c == '-' || ('0' <= c && c <= '9'):
		start := s.pos
		if !s.number() {
			return false
		}
		s.numberValue(start, s.pos)
		if av != nil {
			av.flagPending = false
		}
		return true
	case c == 't':
		return s.lit("true", av)
	case c == 'f':
		return s.lit("false", av)
	case c == 'n':
		return s.lit("null", av)
	}
	return false
}

// hideValue skips the value at s.pos and replaces it by the placeholder,
// unless there is nothing to hide (null, "", and for the key rule true
// and false, which only say whether a credential is set).
func (s *scanner) hideValue(byKey bool) bool {
	start := s.pos
	c := s.data[start]
	s.quiet++
	ok := s.value(modeData, nil)
	s.quiet--
	if !ok {
		return false
	}
	switch {
	case c == 'n', c == '"' && s.pos-start == 2, byKey && (c == 't' || c == 'f'):
		return true
	}
	s.edits = append(s.edits, edit{start, s.pos, placeholderJSON})
	return true
}

// hides decides whether the value at the current location is hidden whole.
func (s *scanner) hides(m mode) (hide, byKey bool) {
	top := &s.stack[len(s.stack)-1]
	if top.index < 0 && m == modeData && s.r.keyHit(top.key, &s.keyBuf) {
		return true, true
	}
	for _, p := range s.r.paths {
		if p.match(s.stack) {
			return true, false
		}
	}
	for _, p := range s.extra {
		if p.match(s.stack) {
			return true, false
		}
	}
	return false, false
}

// childMode is the mode of the value of member key in an object read in
// mode m.
func (s *scanner) childMode(m mode, key []byte) mode {
	switch m {
	case modeData:
		// result.tools[i].inputSchema, or tools[i].inputSchema in a bare
		// ListToolsResult.
		if (string(key) == "inputSchema" || string(key) == "outputSchema") && s.atTool() {
			return modeSchema
		}
		return modeData
	case modeSchema:
		switch string(key) {
		case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas":
			return modeSchemaMap
		case "default", "const", "examples", "enum":
			return modeData
		}
		return modeSchema
	}
	return modeSchema
}

func (s *scanner) object(m mode) bool {
	s.pos++
	if s.depth++; s.depth > maxDepth {
		return false
	}
	var kind objKind
	var prop propFlags
	if s.quiet == 0 && s.r.secrets {
		kind = s.objectKind(m)
		if kind == objTool {
			s.toolLen, s.tool = len(s.stack), learnedTool{}
		}
	}
	s.ws()
	if s.pos < len(s.data) && s.data[s.pos] == '}' {
		s.pos++
		s.depth--
		return true
	}
	for {
		s.ws()
		if s.pos >= len(s.data) || s.data[s.pos] != '"' {
			return false
		}
		kstart := s.pos
		esc, ok := s.str()
		if !ok {
			return false
		}
		var key []byte
		if s.quiet == 0 {
			key = s.data[kstart+1 : s.pos-1]
			if esc {
				key = []byte(decodeString(s.data[kstart:s.pos]))
			}
		}
		s.ws()
		if s.pos >= len(s.data) || s.data[s.pos] != ':' {
			return false
		}
		s.pos++
		if s.quiet == 0 {
			child := s.childMode(m, key)
			s.stack = append(s.stack, loc{key: key, index: -1})
			s.ws()
			vstart := s.pos
			ok = s.value(child, nil)
			s.stack = s.stack[:len(s.stack)-1]
			if ok && kind != objNone {
				s.member(kind, &prop, key, s.data[vstart:s.pos])
			}
		} else {
			ok = s.value(m, nil)
		}
		if !ok {
			return false
		}
		s.ws()
		if s.pos >= len(s.data) {
			return false
		}
		switch s.data[s.pos] {
		case ',':
			s.pos++
		case '}':
			s.pos++
			s.depth--
			if kind != objNone {
				s.endObject(kind, &prop)
			}
			return true
		default:
			return false
		}
	}
}

func (s *scanner) array(m mode) bool {
	s.pos++
	if s.depth++; s.depth > maxDepth {
		return false
	}
	s.ws()
	if s.pos < len(s.data) && s.data[s.pos] == ']' {
		s.pos++
		s.depth--
		return true
	}
	elem := m
	if m == modeSchemaMap {
		elem = modeSchema
	}
	var av argvState
	for i := 0; ; i++ {
		var ok bool
		if s.quiet == 0 {
			s.stack = append(s.stack, loc{index: i})
			ok = s.value(elem, &av)
			s.stack = s.stack[:len(s.stack)-1]
		} else {
			ok = s.value(elem, nil)
		}
		if !ok {
			return false
		}
		s.ws()
		if s.pos >= len(s.data) {
			return false
		}
		switch s.data[s.pos] {
		case ',':
			s.pos++
		case ']':
			s.pos++
			s.depth--
			return true
		default:
			return false
		}
	}
}

func (s *scanner) lit(word string, av *argvState) bool {
	if len(s.data)-s.pos < len(word) || string(s.data[s.pos:s.pos+len(word)]) != word {
		return false
	}
	s.pos += len(word)
	if av != nil {
		av.flagPending = false
	}
	return true
}

// str scans a string token starting at its opening quote, validating it
// with the relay's scanner (jsonrpc.SkipString). It reports whether the
// string holds any escape.
func (s *scanner) str() (esc, ok bool) {
	end := jsonrpc.SkipString(s.data, s.pos)
	if end < 0 {
		return false, false
	}
	esc = bytes.IndexByte(s.data[s.pos+1:end-1], '\\') >= 0
	s.pos = end
	return esc, true
}

// number scans a number token with the JSON grammar (jsonrpc.SkipNumber).
func (s *scanner) number() bool {
	end := jsonrpc.SkipNumber(s.data, s.pos)
	if end < 0 {
		return false
	}
	s.pos = end
	return true
}

// numberValue hides a number whose spelling matches a value regexp.
func (s *scanner) numberValue(start, end int) {
	raw := s.data[start:end]
	if s.quiet > 0 {
		if s.collect != nil {
			*s.collect = append(*s.collect, string(raw))
		}
		return
	}
	for _, re := range s.r.values {
		if re.Match(raw) {
			s.edits = append(s.edits, edit{start, end, placeholderJSON})
			s.collected(string(raw))
			return
		}
	}
}

func (s *scanner) collected(v string) {
	if s.collect != nil && v != "" {
		*s.collect = append(*s.collect, v)
	}
}

// schemaWords are schema keywords whose string values are structure, not
// data: value detectors leave them alone inside a tool's schema.
var schemaWords = map[string]bool{"type": true, "x-mcp-header": true, "format": true, "$ref": true, "$schema": true, "$id": true}

// stringValue applies the string rules to the string token d[start:end]
// (quotes included). Secrets inside the string are replaced in place, at
// the raw offsets of their bytes, so escapes around them stay as they were.
func (s *scanner) stringValue(start, end int, esc bool, m mode, av *argvState) {
	tok := s.data[start:end]
	if s.quiet > 0 {
		if s.collect != nil {
			s.collected(string(decode(tok, esc, nil)))
		}
		return
	}
	var offs []int
	if esc {
		offs = make([]int, 0, len(tok))
	}
	content := decode(tok, esc, &offs)
	var spans []span
	if av != nil {
		pending := av.flagPending
		av.flagPending = false
		if pending && len(content) > 0 && content[0] != '-' {
			s.edits = append(s.edits, edit{start, end, placeholderJSON})
			s.collected(string(content))
			return
		}
		sp, ok, flag := s.r.argvSpan(content)
		av.flagPending = flag
		if ok {
			spans = append(spans, sp)
		}
	}
	if !(m == modeSchema && len(s.stack) > 0 && schemaWords[string(s.stack[len(s.stack)-1].key)]) {
		// The frame-wide mask says which detectors can match at all; a
		// string with escapes may hide a literal, so it gets its own. Then
		// each string is prefiltered on its own, so one secret in a large
		// frame does not run the regexps over every other string.
		mask := s.detMask
		if esc || mask != 0 {
			mask = activeDetectors(s.r.dets, content)
		}
		spans = s.r.findSecrets(content, mask, spans)
		if s.keyText {
			// A string that holds a query, a form body or JSON text (a
			// tool's text result): a hidden name's value goes too.
			spans = s.r.keySpans(content, false, spans)
		}
	}
	if len(spans) == 0 {
		return
	}
	for _, sp := range mergeSpans(spans) {
		s.collected(string(content[sp.start:sp.end]))
		rs, re := sp.start+1, sp.end+1
		if esc {
			rs, re = rawStart(offs, sp.start), rawEnd(offs, sp.end)
		}
		s.edits = append(s.edits, edit{start + rs, start + re, placeholder})
	}
}

var placeholder = []byte(Placeholder)

// rawStart and rawEnd map a byte range of decoded content to the raw
// token, widened to whole characters (an escape is never cut).
func rawStart(offs []int, i int) int { return offs[i] }

func rawEnd(offs []int, e int) int {
	for e < len(offs)-1 && offs[e] == offs[e-1] {
		e++
	}
	return offs[e]
}

// decode returns the content of a validated string token. Without escapes
// it is a sub-slice of tok. With them it is a new slice, and if offs is
// set, (*offs)[i] is the offset in tok of the escape or byte that produced
// content byte i, with one more entry for the closing quote.
func decode(tok []byte, esc bool, offs *[]int) []byte {
	body := tok[1 : len(tok)-1]
	if !esc {
		return body
	}
	out := make([]byte, 0, len(body))
	mark := func(at, n int) {
		if offs != nil {
			for range n {
				*offs = append(*offs, at)
			}
		}
	}
	for i := 0; i < len(body); {
		c := body[i]
		if c != '\\' {
			out = append(out, c)
			mark(i+1, 1)
			i++
			continue
		}
		at := i + 1
		switch e := body[i+1]; e {
		case 'u':
			r := rune(hex4(body[i+2:]))
			i += 6
			if utf16.IsSurrogate(r) {
				r2 := rune(-1)
				if i+6 <= len(body) && body[i] == '\\' && body[i+1] == 'u' {
					r2 = rune(hex4(body[i+2:]))
				}
				if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
					r = d
					i += 6
				} else {
					r = utf8.RuneError
				}
			}
			n := len(out)
			out = utf8.AppendRune(out, r)
			mark(at, len(out)-n)
		default:
			out = append(out, unescape[e])
			mark(at, 1)
			i += 2
		}
	}
	if offs != nil {
		*offs = append(*offs, len(tok)-1)
	}
	return out
}

var unescape = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

func hex4(b []byte) int {
	v := 0
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		default:
			c -= 'A' - 10
		}
		v = v<<4 | int(c)
	}
	return v
}

// decodeString decodes a validated string token (quotes included).
func decodeString(tok []byte) string { return string(decode(tok, true, nil)) }
