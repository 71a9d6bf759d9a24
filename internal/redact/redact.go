package redact

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// A Config selects what a Redactor hides. The zero Config hides nothing
// but credential headers (see [Redactor.Header]).
type Config struct {
	// Secrets turns on the built-in detectors (--redact-secrets).
	Secrets bool
	// Keys are object member names whose values are hidden, compared
	// ignoring case (--redact-key). An entry may hold several names
	// separated by commas.
	Keys []string
	// Values are regular expressions (Go syntax); every match inside a
	// string is hidden (--redact-value).
	Values []string
	// Paths are JSONPath-like selectors of values to hide
	// (--redact-path): params.arguments.password, result.content[*].text,
	// $..token.
	Paths []string
}

// A Redactor hides secrets in frames, headers and argument vectors. It is
// safe for concurrent use. It learns tool schemas from the tools/list
// results it sees (Frame observes them itself; ObserveTools feeds one
// explicitly) to hide the arguments a tool declares secret.
type Redactor struct {
	secrets bool
	keys    map[string]bool // lowercased
	keyList []textKey       // the same, for the text scanner
	// pathKeys are the last member names of the path rules: in text that
	// is not one JSON value (a truncated copy, a log line) a path cannot
	// be followed, so the text scanner hides every value under that name.
	pathKeys []textKey
	argKeys  map[string]bool // lowercased, '-' → '_': names as flags
	values   []*regexp.Regexp
	paths    []path
	dets     []*detector // built-in detectors (Secrets only)
	active   bool
	// sessionKey keys the session id pseudonyms (Secrets only).
	sessionKey [16]byte

	mu    sync.RWMutex
	tools map[string]toolSecrets // tool name → secret argument paths
	// paramHeaders are the lowercased Mcp-Param-* names bound to secret
	// arguments by some tool's x-mcp-header.
	paramHeaders map[string]bool
	// learnedKeys are the names of the secret arguments of all tools, for
	// the text scanner (which cannot tell which tool a truncated call is
	// for). Replaced whole on each learn, never changed in place.
	learnedKeys []textKey
}

// New compiles cfg. Bad regular expressions and paths are errors that name
// the offending value.
func New(cfg Config) (*Redactor, error) {
	r := &Redactor{
		secrets:      cfg.Secrets,
		keys:         map[string]bool{},
		argKeys:      map[string]bool{},
		tools:        map[string]toolSecrets{},
		paramHeaders: map[string]bool{},
	}
	for _, entry := range cfg.Keys {
		for k := range strings.SplitSeq(entry, ",") {
			k = strings.TrimSpace(k)
			if k == "" {
				continue
			}
			lk := strings.ToLower(k)
			if !r.keys[lk] {
				r.keyList = append(r.keyList, newTextKey(lk))
			}
			r.keys[lk] = true
			r.argKeys[strings.ReplaceAll(lk, "-", "_")] = true
		}
	}
	for _, v := range cfg.Values {
		re, err := regexp.Compile(v)
		if err != nil {
			return nil, fmt.Errorf("redact value %q: %w", v, err)
		}
		if re.MatchString("") {
			return nil, fmt.Errorf("redact value %q: matches the empty string", v)
		}
		r.values = append(r.values, re)
	}
	for _, p := range cfg.Paths {
		cp, err := parsePath(p)
		if err != nil {
			return nil, err
		}
		r.paths = append(r.paths, cp)
		if last := cp[len(cp)-1]; last.kind == segName {
			r.pathKeys = append(r.pathKeys, newTextKey(strings.ToLower(last.name)))
		}
	}
	if cfg.Secrets {
		r.dets = builtinDetectors()
		r.sessionKey = newSessionKey()
	}
	r.active = cfg.Secrets || len(r.keys) > 0 || len(r.values) > 0 || len(r.paths) > 0
	return r, nil
}

// Enabled reports whether any rule is configured. A Redactor that is not
// enabled returns every frame unchanged.
func (r *Redactor) Enabled() bool { return r != nil && r.active }

// keyHit reports whether a member name is hidden by the key rule.
func (r *Redactor) keyHit(name []byte, buf *[]byte) bool {
	if len(r.keys) > 0 {
		*buf = lowerASCII(*buf, name)
		if r.keys[string(*buf)] {
			return true
		}
	}
	if r.secrets {
		*buf = normName(*buf, name)
		return isSecretName(*buf)
	}
	return false
}

// flagHit reports whether a flag or variable name (dashes stripped) is a
// key.
func (r *Redactor) flagHit(name []byte) bool {
	if len(name) == 0 {
		return false
	}
	var buf [64]byte
	if len(r.argKeys) > 0 {
		b := lowerASCII(buf[:0], name)
		for i, c := range b {
			if c == '-' {
				b[i] = '_'
			}
		}
		if r.argKeys[string(b)] {
			return true
		}
	}
	return r.secrets && isSecretName(normName(buf[:0], name))
}

// A span is a secret's byte range [start, end) in some text.
type span struct{ start, end int }

// argvSpan applies the argument-vector rules to one element: "--token=abc"
// and "TOKEN=abc" give the span of their value, and "--token" (no "=")
// asks for the next element to be hidden (flag).
func (r *Redactor) argvSpan(el []byte) (sp span, ok, flag bool) {
	if !r.secrets && len(r.argKeys) == 0 {
		return span{}, false, false
	}
	name := el
	dashed := false
	for len(name) > 0 && name[0] == '-' {
		name = name[1:]
		dashed = true
	}
	eq := bytes.IndexByte(name, '=')
	if eq < 0 {
		return span{}, false, dashed && r.flagHit(name)
	}
	if !dashed && !isVarName(name[:eq]) {
		return span{}, false, false
	}
	val := name[eq+1:]
	if len(val) == 0 || !r.flagHit(name[:eq]) {
		return span{}, false, false
	}
	return span{len(el) - len(val), len(el)}, true, false
}

// isVarName reports whether b looks like an environment variable name.
func isVarName(b []byte) bool {
	if len(b) == 0 || '0' <= b[0] && b[0] <= '9' {
		return false
	}
	for _, c := range b {
		if !(c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return true
}

// findSecrets appends to spans what the value detectors find in b: the
// built-in ones in mask, then the user's regexps.
func (r *Redactor) findSecrets(b []byte, mask uint64, spans []span) []span {
	for i, d := range r.dets {
		if mask&(1<<i) != 0 && (d.need == 0 || bytes.IndexByte(b, d.need) >= 0) && d.re.Match(b) {
			spans = matchSpans(b, d, spans)
		}
	}
	for _, re := range r.values {
		if re.Match(b) {
			spans = matchSpans(b, &detector{re: re}, spans)
		}
	}
	return spans
}

// matchSpans appends the secret part of every match of d in b.
func matchSpans(b []byte, d *detector, spans []span) []span {
	for _, m := range d.re.FindAllSubmatchIndex(b, -1) {
		s, e := m[2*d.group], m[2*d.group+1]
		if d.nameGroup > 0 {
			ns, ne := m[2*d.nameGroup], m[2*d.nameGroup+1]
			ok := d.nameOK
			if ok == nil {
				ok = isSecretName
			}
			if ns < 0 || !ok(normName(nil, b[ns:ne])) {
				continue
			}
			if s >= 0 {
				s, e = unquote(b, s, e)
			}
		}
		if s < 0 || s == e || string(b[s:e]) == Placeholder {
			continue
		}
		spans = append(spans, span{s, e})
	}
	return spans
}

// unquote narrows the value b[s:e] to what is inside its quotes, when it
// is quoted ('v', "v", or with escaped quotes: \"v\", \\\"v\\\"): the
// quotes stay, so a JSON document or a quoted log field keeps its shape.
func unquote(b []byte, s, e int) (int, int) {
	v := b[s:e]
	n := 0
	for n < len(v) && v[n] == '\\' {
		n++
	}
	if n >= len(v) || (v[n] != '"' && v[n] != '\'') || len(v) < 2*(n+1) {
		return s, e
	}
	q := v[n]
	if v[len(v)-1] != q {
		return s, e
	}
	for i := len(v) - 1 - n; i < len(v)-1; i++ {
		if v[i] != '\\' {
			return s, e
		}
	}
	return s + n + 1, e - n - 1
}

// mergeSpans sorts spans and joins the ones that overlap or touch.
func mergeSpans(spans []span) []span {
	if len(spans) < 2 {
		return spans
	}
	slices.SortFunc(spans, func(a, b span) int { return a.start - b.start })
	out := spans[:1]
	for _, sp := range spans[1:] {
		last := &out[len(out)-1]
		if sp.start <= last.end {
			last.end = max(last.end, sp.end)
			continue
		}
		out = append(out, sp)
	}
	return out
}

// scrubText returns b with what the value detectors find replaced by the
// placeholder (a new slice), or b itself and false.
func (r *Redactor) scrubText(b []byte, collect *[]string) ([]byte, bool) {
	spans := r.findSecrets(b, activeDetectors(r.dets, b), nil)
	spans = mergeSpans(r.keySpans(b, true, spans))
	if len(spans) == 0 {
		return b, false
	}
	return replaceSpans(b, spans, collect), true
}

// replaceSpans returns a copy of b with each (merged) span replaced by the
// placeholder.
func replaceSpans(b []byte, spans []span, collect *[]string) []byte {
	var out []byte
	last := 0
	for _, sp := range spans {
		if collect != nil {
			*collect = append(*collect, string(b[sp.start:sp.end]))
		}
		out = append(append(out, b[last:sp.start]...), Placeholder...)
		last = sp.end
	}
	return append(out, b[last:]...)
}

var scanners = sync.Pool{New: func() any { return &scanner{} }}

// Frame returns frame with its secrets hidden. When nothing matched it
// returns frame itself (the same slice, not a copy) and false; otherwise a
// new slice in which only the hidden values differ from frame.
//
// A frame that is valid JSON stays valid JSON. Other frames (stderr text, a
// raw SSE body) get the value detectors; lines in them that are JSON, with
// or without an SSE "data:" prefix, are redacted as JSON.
//
// Frame also learns tool schemas from a tools/list result (see
// [Redactor.ObserveTools]), so a later tools/call hides the arguments
// that tool declares secret.
func (r *Redactor) Frame(frame []byte) (out []byte, redacted bool) {
	return r.frame(frame, nil)
}

func (r *Redactor) frame(frame []byte, collect *[]string) ([]byte, bool) {
	if !r.Enabled() || len(frame) == 0 {
		return frame, false
	}
	s := scanners.Get().(*scanner)
	defer func() {
		s.reset(nil, nil)
		scanners.Put(s)
	}()
	s.reset(r, frame)
	s.collect = collect
	s.detMask = activeDetectors(r.dets, frame)
	s.keyText = len(r.keys) > 0 && r.anyKeyIn(frame)
	s.extra = r.callPaths(frame)
	var edits []edit
	if s.document() {
		edits = s.edits
		r.learn(s.learned)
	} else {
		edits = r.textEdits(s, frame)
	}
	if len(edits) == 0 {
		return frame, false
	}
	return applyEdits(frame, edits), true
}

// textEdits redacts a frame that is not one JSON value, line by line:
// JSON lines (also after "data:") as JSON, runs of other lines as text.
func (r *Redactor) textEdits(s *scanner, data []byte) []edit {
	var edits []edit
	spanStart := -1
	flush := func(end int) {
		if spanStart < 0 {
			return
		}
		if res, ok := r.scrubText(data[spanStart:end], s.collect); ok {
			edits = append(edits, edit{spanStart, end, res})
		}
		spanStart = -1
	}
	for ls := 0; ls < len(data); {
		le := bytes.IndexByte(data[ls:], '\n')
		next := len(data)
		if le < 0 {
			le = len(data)
		} else {
			le += ls
			next = le + 1
		}
		if js, ok := jsonPart(data, ls, le); ok {
			collect, keyText := s.collect, s.keyText
			s.reset(r, data[:le])
			s.collect, s.keyText, s.pos = collect, keyText, js
			s.detMask = activeDetectors(r.dets, data[js:le])
			s.extra = r.callPaths(data[js:le])
			if s.value(modeData, nil) {
				// A JSON value, maybe with bytes after it on its line
				// ("{…} trailing"): the value as JSON, the rest as text.
				flush(ls)
				edits = append(edits, s.edits...)
				s.ws()
				if s.pos < le {
					spanStart = s.pos
					flush(le)
				}
				ls = next
				continue
			}
		}
		if spanStart < 0 {
			spanStart = ls
		}
		ls = next
	}
	flush(len(data))
	return edits
}

// jsonPart returns where a JSON value may start in the line data[ls:le]:
// after optional blanks and an optional SSE "data:" field name.
func jsonPart(data []byte, ls, le int) (int, bool) {
	i := ls
	for i < le && (data[i] == ' ' || data[i] == '\t') {
		i++
	}
	if bytes.HasPrefix(data[i:le], []byte("data:")) {
		i += len("data:")
	}
	for i < le && (data[i] == ' ' || data[i] == '\t') {
		i++
	}
	return i, i < le && (data[i] == '{' || data[i] == '[')
}

// applyEdits returns a copy of data with the (ordered, disjoint) edits
// applied.
func applyEdits(data []byte, edits []edit) []byte {
	n := len(data)
	for _, e := range edits {
		n += len(e.repl) - (e.end - e.start)
	}
	out := make([]byte, 0, n)
	last := 0
	for _, e := range edits {
		out = append(out, data[last:e.start]...)
		out = append(out, e.repl...)
		last = e.end
	}
	return append(out, data[last:]...)
}
