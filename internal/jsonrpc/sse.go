package jsonrpc

import (
	"bytes"
	"io"
	"strconv"
)

// An Event is one server-sent event of a text/event-stream body.
type Event struct {
	// ID is the value of this event's id field (HasID tells whether it
	// had one). See [SSEReader.LastEventID] for the id a browser would
	// resume from.
	ID string
	// Event is the event type as sent; empty when the event had no event
	// field (a browser would call it "message").
	Event string
	// Data is the event's data lines joined with "\n". It may be empty
	// with HasData true: the 2025-11-25 priming event has an id and an
	// empty data field, and must not be decoded as JSON.
	Data []byte
	// Retry is the reconnection time in milliseconds, when HasRetry.
	Retry int

	HasID, HasData, HasRetry bool
}

// An SSEReader parses a text/event-stream per the WHATWG HTML algorithm:
// fields event, data, id and retry; lines starting with ":" are comments;
// lines end in CRLF, LF or CR; a leading byte order mark is skipped; an
// unknown field is ignored; an id containing NUL is ignored.
//
// Two differences from a browser, both so that callers can see what a
// server sent: an event is returned when its block had any known field,
// even without a data field (HasData is then false), where a browser
// dispatches only events with data; and Event.Event is left empty rather
// than defaulted to "message".
//
// As in a browser, an event not terminated by a blank line before the end
// of the stream is not returned by Next; [SSEReader.Pending] exposes it.
//
// An SSEReader reads from the underlying reader only when it needs more
// bytes to finish a line, so an event is returned as soon as its blank line
// arrived, even if the stream stays open. It is not safe for concurrent use.
type SSEReader struct {
	r       io.Reader
	buf     []byte
	start   int // unread bytes are buf[start:]
	err     error
	skipLF  bool // the last line ended in CR; a following LF belongs to it
	bomDone bool

	cur     Event
	curSet  bool // cur has at least one known field
	data    bytes.Buffer
	lastID  string
	scanned int // bytes of buf[start:] already searched for a line end
}

// NewSSEReader returns an SSEReader reading from r.
func NewSSEReader(r io.Reader) *SSEReader {
	return &SSEReader{r: r}
}

// LastEventID returns the last event id set by the stream so far, as a
// browser would send it in Last-Event-ID when resuming.
func (r *SSEReader) LastEventID() string { return r.lastID }

// Pending returns the event being assembled when the stream ended without
// a terminating blank line, and whether there was one. A server that ends
// its body right after "data: …\n" lost that event for a browser; callers
// report it rather than use it.
func (r *SSEReader) Pending() (Event, bool) {
	if !r.curSet {
		return Event{}, false
	}
	return r.finish(), true
}

// Next returns the next event, or io.EOF at the end of the stream, or the
// underlying reader's error.
func (r *SSEReader) Next() (Event, error) {
	for {
		line, err := r.line()
		if err != nil {
			return Event{}, err
		}
		if len(line) == 0 {
			if r.curSet {
				ev := r.finish()
				r.reset()
				return ev, nil
			}
			r.reset()
			continue
		}
		r.field(line)
	}
}

func (r *SSEReader) reset() {
	r.cur = Event{}
	r.curSet = false
	r.data.Reset()
}

func (r *SSEReader) finish() Event {
	ev := r.cur
	if ev.HasData {
		d := r.data.Bytes()
		d = d[:len(d)-1] // each data line appended a "\n"; drop the last
		ev.Data = append(make([]byte, 0, len(d)), d...)
	}
	return ev
}

func (r *SSEReader) field(line []byte) {
	if line[0] == ':' {
		return
	}
	name, value := line, []byte(nil)
	if i := bytes.IndexByte(line, ':'); i >= 0 {
		name, value = line[:i], line[i+1:]
		if len(value) > 0 && value[0] == ' ' {
			value = value[1:]
		}
	}
	switch string(name) {
	case "event":
		r.cur.Event = string(value)
		r.curSet = true
	case "data":
		r.data.Write(value)
		r.data.WriteByte('\n')
		r.cur.HasData = true
		r.curSet = true
	case "id":
		if bytes.IndexByte(value, 0) >= 0 {
			return
		}
		r.cur.ID = string(value)
		r.cur.HasID = true
		r.lastID = r.cur.ID
		r.curSet = true
	case "retry":
		n, ok := digits(value)
		if !ok {
			return
		}
		r.cur.Retry = n
		r.cur.HasRetry = true
		r.curSet = true
	}
}

// digits parses value as ASCII digits only, as the spec requires.
func digits(value []byte) (int, bool) {
	if len(value) == 0 || len(value) > 9 {
		return 0, false
	}
	for _, c := range value {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(string(value))
	return n, err == nil
}

// line returns the next line without its terminator. The slice is valid
// until the next call.
func (r *SSEReader) line() ([]byte, error) {
	for {
		if r.skipLF && r.start < len(r.buf) {
			if r.buf[r.start] == '\n' {
				r.start++
			}
			r.skipLF = false
		}
		rest := r.buf[r.start:]
		if !r.bomDone {
			// Decide as soon as the bytes seen cannot start a BOM, so a
			// short first line on a live stream is not held back.
			const bom = "\xef\xbb\xbf"
			n := min(len(rest), 3)
			switch {
			case string(rest[:n]) != bom[:n]:
				r.bomDone = true
			case n == 3:
				r.bomDone = true
				r.start += 3
				rest = rest[3:]
			case r.err != nil:
				r.bomDone = true
			}
		}
		if r.bomDone {
			if i := bytes.IndexAny(rest[r.scanned:], "\r\n"); i >= 0 {
				i += r.scanned
				line := rest[:i]
				r.start += i + 1
				r.scanned = 0
				r.skipLF = rest[i] == '\r'
				return line, nil
			}
			r.scanned = len(rest)
		}
		if r.err != nil {
			// An unterminated last line still counts as a field (of an
			// event that will not be dispatched, which Pending reports).
			if len(rest) > 0 {
				r.start = len(r.buf)
				r.scanned = 0
				r.field(rest)
			}
			return nil, r.err
		}
		r.fill()
	}
}
func (r *SSEReader) fill() {
	if r.start > 0 {
		n := copy(r.buf, r.buf[r.start:])
		r.buf = r.buf[:n]
		r.start = 0
	}
	if cap(r.buf)-len(r.buf) < 4096 {
		nb := make([]byte, len(r.buf), 2*cap(r.buf)+8192)
		copy(nb, r.buf)
		r.buf = nb
	}
	n, err := r.r.Read(r.buf[len(r.buf):cap(r.buf)])
	r.buf = r.buf[:len(r.buf)+n]
	if err != nil {
		r.err = err
	}
}

// ParseSSE returns the events of a complete text/event-stream body. An
// unterminated last event is dropped, as by [SSEReader.Next]. The error is
// always nil for a byte slice; it is kept for symmetry with SSEReader.
func ParseSSE(body []byte) ([]Event, error) {
	r := NewSSEReader(bytes.NewReader(body))
	var evs []Event
	for {
		ev, err := r.Next()
		if err == io.EOF {
			return evs, nil
		}
		if err != nil {
			return evs, err
		}
		evs = append(evs, ev)
	}
}
