package redact

import "bytes"

// Lines redacts the consecutive lines of one stream, each kept as its own
// frame (a server's stderr, one record a line). A pretty-printer may put a
// member's value on the line after its name (`"password":` then
// `    "hunter2"`): the name's line alone shows nothing to hide and the
// value's line alone no name, so Lines remembers that a line ended with a
// hidden name and its colon and hides the value that starts the next one.
// A Lines is used by one goroutine at a time.
type Lines struct {
	r       *Redactor
	pending bool
}

// Lines returns a redactor of one stream's lines, built on r.
func (r *Redactor) Lines() *Lines { return &Lines{r: r} }

// Frame is [Redactor.Frame] for the next line of the stream.
func (l *Lines) Frame(line []byte) ([]byte, bool) {
	if !l.r.Enabled() {
		return line, false
	}
	pending := l.pending
	l.pending = l.r.dangling(line)
	if !pending {
		return l.r.Frame(line)
	}
	i := skipBlanks(line, 0)
	if !opensValue(line, i) {
		return l.r.Frame(line)
	}
	// The value ends at its quote or bracket (or at the line's end: the
	// rest of an object split over lines is not followed).
	sp, end := textValue(line, i)
	if sp.end <= sp.start {
		return l.r.Frame(line) // "" hides nothing
	}
	repl := placeholder
	if line[i] == '{' || line[i] == '[' {
		repl = placeholderJSON // an object or array becomes the string
	}
	rest, _ := l.r.Frame(line[end:])
	out := make([]byte, 0, len(line)+len(placeholderJSON))
	out = append(append(append(out, line[:sp.start]...), repl...), line[sp.end:end]...)
	return append(out, rest...), true
}

// opensValue reports whether a quoted or composite value starts at b[i]:
// a quote, an escaped quote (\"v\"), a brace or a bracket.
func opensValue(b []byte, i int) bool {
	if q := skipBackslashes(b, i); q > i {
		return q < len(b) && b[q] == '"'
	}
	return i < len(b) && (b[i] == '"' || b[i] == '\'' || b[i] == '{' || b[i] == '[')
}

// dangling reports whether line ends with a hidden name and a colon and
// nothing after them: its value is on the next line.
func (r *Redactor) dangling(line []byte) bool {
	b := bytes.TrimRight(line, " \t\r\n")
	if len(b) < 2 || b[len(b)-1] != ':' {
		return false
	}
	b = bytes.TrimRight(b[:len(b)-1], " \t")
	var name []byte
	if n := len(b); n > 0 && (b[n-1] == '"' || b[n-1] == '\'') {
		q := b[n-1]
		b = bytes.TrimRight(b[:n-1], `\`)
		open := bytes.LastIndexByte(b, q)
		if open < 0 {
			return false
		}
		name = bytes.TrimRight(b[open+1:], `\`)
	} else {
		j := len(b)
		for j > 0 && isKeyByte(b[j-1]) {
			j--
		}
		name = b[j:]
	}
	if len(name) == 0 || len(name) > maxTextKey {
		return false
	}
	var buf [64]byte
	if r.textKeyHit(name, true, buf[:0]) {
		return true
	}
	if !r.secrets {
		return false
	}
	r.mu.RLock()
	learned := r.learnedKeys
	r.mu.RUnlock()
	return textKeyIn(name, learned)
}
