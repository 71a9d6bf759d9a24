package proxy

import (
	"bytes"
	"slices"
)

// sseEvent is one recorded server-sent event.
type sseEvent struct {
	event, id string
	data      []byte
	hasData   bool
	size      int64 // of the whole data; len(data) is less when capped
}

// sseSplitter parses a text/event-stream as its bytes arrive, the way
// jsonrpc.SSEReader does (WHATWG: CRLF, LF or CR line ends, a leading BOM
// skipped, comments, fields event, data and id; an id holding NUL is
// ignored), and returns each event when its blank line arrives. Events
// with no event type, id or data (comments, retry) are not returned.
//
// Every byte is looked at once: a line's field is known from its first
// bytes, and a data value is appended to the event's data as it arrives
// (up to max bytes; the rest only counted), so an event that spans many
// reads costs no more than one that arrives whole: each byte of data is
// copied twice (into a piece as it arrives, into the event at its end).
type sseSplitter struct {
	max int

	// The stream.
	bom     int  // bytes of a leading BOM seen so far
	bomDone bool // the stream's start has been checked for a BOM
	cr      bool // the last line ended in CR (a following LF belongs to it)

	// The line being read.
	state   lineState
	name    [5]byte // the field name ("retry" is the longest known)
	nameLen int     // bytes in name; -1 if the name is no known field's
	field   sseField
	val     []byte // the value of an event, id or retry field

	// The event being assembled.
	ev     sseEvent
	idSet  bool
	pieces [][]byte // the data kept so far (ev.data is set at the end)
	kept   int      // bytes in pieces
}

type lineState uint8

const (
	lineStart  lineState = iota // nothing of the line read yet
	inName                      // reading the field name
	valueStart                  // after the colon (an optional space follows)
	inValue                     // reading the value
	skipLine                    // a comment or a field of no interest
)

type sseField uint8

const (
	fieldOther sseField = iota
	fieldEvent
	fieldData
	fieldID
)

const sseBOM = "\xef\xbb\xbf"

func (s *sseSplitter) feed(chunk []byte) []sseEvent {
	var out []sseEvent
	for len(chunk) > 0 {
		if s.cr {
			s.cr = false
			if chunk[0] == '\n' {
				chunk = chunk[1:]
				continue
			}
		}
		if !s.bomDone {
			if chunk[0] == sseBOM[s.bom] {
				s.bom++
				s.bomDone = s.bom == len(sseBOM)
				chunk = chunk[1:]
				continue
			}
			s.endBOM()
		}
		j := lineEnd(chunk)
		if j < 0 {
			s.text(chunk)
			break
		}
		s.text(chunk[:j])
		s.cr = chunk[j] == '\r'
		chunk = chunk[j+1:]
		if s.endLine() {
			if e, ok := s.dispatch(); ok {
				out = append(out, e)
			}
		}
	}
	return out
}

// finish returns the event left unterminated at the end of the stream,
// if any.
func (s *sseSplitter) finish() []sseEvent {
	s.endBOM()
	if s.state != lineStart {
		s.endLine()
	}
	if e, ok := s.dispatch(); ok {
		return []sseEvent{e}
	}
	return nil
}

// endBOM ends the check for a leading BOM: bytes that began like one but
// were not are line text.
func (s *sseSplitter) endBOM() {
	if !s.bomDone {
		s.bomDone = true
		s.text([]byte(sseBOM[:s.bom]))
	}
}

// lineEnd returns the index of the first CR or LF in b, or -1. It uses
// IndexByte, which is vectorised, rather than IndexAny, which is not.
func lineEnd(b []byte) int {
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		return bytes.IndexByte(b, '\r')
	}
	if j := bytes.IndexByte(b[:i], '\r'); j >= 0 {
		return j
	}
	return i
}

// text takes bytes of the current line (no line end among them).
func (s *sseSplitter) text(b []byte) {
	for len(b) > 0 {
		switch s.state {
		case lineStart:
			if b[0] == ':' {
				s.state = skipLine
				return
			}
			s.state, s.nameLen = inName, 0
		case inName:
			i := bytes.IndexByte(b, ':')
			part := b
			if i >= 0 {
				part = b[:i]
			}
			if s.nameLen >= 0 && s.nameLen+len(part) <= len(s.name) {
				s.nameLen += copy(s.name[s.nameLen:], part)
			} else {
				s.nameLen = -1
			}
			if i < 0 {
				return
			}
			b = b[i+1:]
			s.beginField()
		case valueStart:
			if b[0] == ' ' {
				b = b[1:]
			}
			s.state = inValue
		case inValue:
			if s.field == fieldData {
				s.addData(b)
			} else {
				s.val = appendCapped(s.val, b, s.max)
			}
			return
		case skipLine:
			return
		}
	}
}

// beginField starts the value of the field named so far.
func (s *sseSplitter) beginField() {
	s.field = fieldOther
	if s.nameLen >= 0 {
		switch string(s.name[:s.nameLen]) {
		case "event":
			s.field = fieldEvent
		case "data":
			s.field = fieldData
		case "id":
			s.field = fieldID
		}
	}
	s.val = s.val[:0]
	switch s.field {
	case fieldOther:
		s.state = skipLine
		return
	case fieldData:
		// Data lines are joined with "\n".
		if s.ev.hasData {
			s.addData([]byte{'\n'})
		}
		s.ev.hasData = true
	}
	s.state = valueStart
}

// addData keeps b, up to max bytes of data in all, in pieces: into the
// last piece if it has room, else into a new one, copied without the
// zeroing a preallocated buffer costs. dispatch joins them once.
func (s *sseSplitter) addData(b []byte) {
	s.ev.size += int64(len(b))
	b = b[:min(len(b), max(s.max-s.kept, 0))]
	if len(b) == 0 {
		return
	}
	s.kept += len(b)
	if n := len(s.pieces); n > 0 && cap(s.pieces[n-1])-len(s.pieces[n-1]) >= len(b) {
		s.pieces[n-1] = append(s.pieces[n-1], b...)
		return
	}
	if len(b) < 512 {
		s.pieces = append(s.pieces, append(make([]byte, 0, 512), b...))
		return
	}
	s.pieces = append(s.pieces, append([]byte(nil), b...))
}

// endLine ends the current line and reports whether it was blank (the
// end of an event).
func (s *sseSplitter) endLine() bool {
	state := s.state
	s.state = lineStart
	switch state {
	case lineStart:
		return true
	case inName:
		// A line without a colon is a field name with an empty value.
		s.beginField()
		s.state = lineStart
	}
	switch s.field {
	case fieldEvent:
		s.ev.event = string(s.val)
	case fieldID:
		if bytes.IndexByte(s.val, 0) < 0 {
			s.ev.id, s.idSet = string(s.val), true
		}
	}
	s.field = fieldOther
	return false
}

// dispatch returns the assembled event, if it has anything to record, and
// starts the next.
func (s *sseSplitter) dispatch() (sseEvent, bool) {
	e, hasID, pieces := s.ev, s.idSet, s.pieces
	s.ev, s.idSet, s.pieces, s.kept = sseEvent{}, false, nil, 0
	if !e.hasData && !hasID && e.event == "" {
		return sseEvent{}, false
	}
	switch {
	case len(pieces) == 1:
		e.data = pieces[0]
	case len(pieces) > 1:
		e.data = bytes.Join(pieces, nil) // one allocation, not zeroed
	case e.hasData:
		e.data = []byte{}
	}
	return e, true
}

// appendCapped appends b to dst up to limit bytes in all, doubling the
// capacity when it grows (append grows large slices by a quarter, which
// copies a 1 MiB value about five times over).
func appendCapped(dst, b []byte, limit int) []byte {
	room := limit - len(dst)
	if room <= 0 || len(b) == 0 {
		return dst
	}
	b = b[:min(room, len(b))]
	if need := len(dst) + len(b); need > cap(dst) {
		dst = slices.Grow(dst, min(max(need, 2*cap(dst), 512), limit)-len(dst))
	}
	return append(dst, b...)
}
