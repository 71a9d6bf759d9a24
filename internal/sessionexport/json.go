package sessionexport

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/mcpward/mcpward/internal/calls"
	"github.com/mcpward/mcpward/internal/jsonx"
)

// FormatName and FormatVersion identify the JSON export document (also
// embedded in the HTML report).
const (
	FormatName    = "mcpward.sessions.export"
	FormatVersion = 1
)

// A jsonSink streams the JSON export: a header, one entry per call or
// loose frame as they settle, then sessions with summaries, findings and
// problems. Frames are spliced in as recorded, never re-encoded.
type jsonSink struct {
	w       *bufio.Writer
	header  docHeader
	started bool
	n       int
	buf     []byte
}

type docHeader struct {
	Format   string `json:"format"`
	Version  int    `json:"version"`
	Tool     string `json:"tool"`
	MCPWard  string `json:"mcpwardVersion,omitempty"`
	Source   string `json:"source"`
	Session  string `json:"session,omitempty"`
	Redacted bool   `json:"redaction"`
	// Checked: the traffic rules ran (--check), so "findings" is their
	// answer; without it "findings" is empty because nothing was asked.
	Checked bool `json:"checked,omitempty"`
}

func newJSONSink(w io.Writer, h docHeader) *jsonSink {
	return &jsonSink{w: bufio.NewWriterSize(w, 64<<10), header: h}
}

func (s *jsonSink) start() error {
	if s.started {
		return nil
	}
	s.started = true
	b, err := jsonx.Marshal(s.header)
	if err != nil {
		return err
	}
	s.w.Write(b[:len(b)-1])
	_, err = s.w.WriteString(`,"entries":[`)
	return err
}

func (s *jsonSink) frame(*frameInfo) error { return s.start() }

func (s *jsonSink) item(it *item) error {
	if err := s.start(); err != nil {
		return err
	}
	b := s.buf[:0]
	if s.n > 0 {
		b = append(b, ',')
	}
	b = append(b, '\n')
	s.n++
	if it.Call == nil {
		b = appendFrame(b, it.Frames[0], "frame")
	} else {
		var err error
		if b, err = appendCall(b, it); err != nil {
			return err
		}
	}
	s.buf = b
	_, err := s.w.Write(b)
	return err
}

// callEntry is the call part of an entry (frames are appended by hand).
type callEntry struct {
	Type string `json:"type"`
	*calls.Call
	Label      string  `json:"label,omitempty"`
	DurationMs float64 `json:"durationMs"`
}

func appendCall(b []byte, it *item) ([]byte, error) {
	ce := callEntry{Type: "call", Call: it.Call, DurationMs: ms(it.Call.Duration())}
	if it.Session != nil {
		ce.Label = it.Session.Label
	}
	mb, err := jsonx.Marshal(ce)
	if err != nil {
		return b, err
	}
	b = append(b, mb[:len(mb)-1]...)
	b = append(b, `,"frames":[`...)
	for i, f := range it.Frames {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendFrame(b, f, "")
	}
	return append(b, "]}"...), nil
}

type sessionEntry struct {
	*calls.Session
	Summary calls.Summary `json:"summary"`
}

func (s *jsonSink) finish(e *ending) error {
	if err := s.start(); err != nil {
		return err
	}
	s.w.WriteString("\n],\"sessions\":[")
	for i, ss := range e.Sessions {
		if i > 0 {
			s.w.WriteByte(',')
		}
		b, err := jsonx.Marshal(sessionEntry{Session: ss, Summary: ss.Summary()})
		if err != nil {
			return err
		}
		s.w.Write(b)
	}
	s.w.WriteString("],\"findings\":")
	fs := e.Findings
	if fs == nil {
		fs = nil
	}
	b, err := jsonx.Marshal(orEmpty(fs))
	if err != nil {
		return err
	}
	s.w.Write(b)
	s.w.WriteString(",\"findingsDropped\":")
	s.w.WriteString(strconv.Itoa(e.FindingsDropped))
	s.w.WriteString(",\"problems\":")
	b, err = jsonx.Marshal(orEmpty(e.Problems))
	if err != nil {
		return err
	}
	s.w.Write(b)
	s.w.WriteString("}\n")
	return s.w.Flush()
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// appendFrame appends one frame object. typ is "frame" for a loose frame
// entry and "" inside a call.
func appendFrame(b []byte, f *frameInfo, typ string) []byte {
	r := f.Rec
	b = append(b, '{')
	if typ != "" {
		b = append(b, `"type":`...)
		b = appendStr(b, typ)
		b = append(b, ',')
	}
	b = append(b, `"session":`...)
	b = appendStr(b, r.Session)
	b = append(b, `,"seq":`...)
	b = strconv.AppendUint(b, r.Seq, 10)
	if f.Line > 0 {
		b = append(b, `,"line":`...)
		b = strconv.AppendInt(b, int64(f.Line), 10)
	}
	b = append(b, `,"ts":"`...)
	b = r.Time.UTC().AppendFormat(b, time.RFC3339Nano)
	b = append(b, '"')
	b = member(b, "dir", string(r.Dir))
	b = member(b, "transport", string(r.Transport))
	b = member(b, "kind", f.Kind.String())
	b = member(b, "method", f.Method)
	b = member(b, "id", f.ID)
	if f.Call != nil {
		b = member(b, "callId", f.Call.ID)
		b = member(b, "tool", f.Call.Name)
		b = member(b, "status", f.Call.State.String())
		b = member(b, "taskId", f.Call.TaskID)
		b = member(b, "taskStatus", f.Call.TaskStatus)
	}
	if f.Batch {
		b = append(b, `,"batchIndex":`...)
		b = strconv.AppendInt(b, int64(f.Index), 10)
	}
	b = member(b, "metaKind", r.Kind)
	if r.Exchange != 0 {
		b = append(b, `,"exchange":`...)
		b = strconv.AppendUint(b, r.Exchange, 10)
	}
	b = member(b, "httpMethod", r.Method)
	b = member(b, "path", r.Path)
	if r.Status != 0 {
		b = append(b, `,"httpStatus":`...)
		b = strconv.AppendInt(b, int64(r.Status), 10)
	}
	b = member(b, "mcpSessionId", r.MCPSessionID)
	b = member(b, "authChallenge", r.AuthChallenge)
	if len(r.Header) > 0 {
		b = append(b, `,"header":{`...)
		keys := make([]string, 0, len(r.Header))
		for k := range r.Header {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendStr(b, k)
			b = append(b, ":["...)
			for j, v := range r.Header[k] {
				if j > 0 {
					b = append(b, ',')
				}
				b = appendStr(b, v)
			}
			b = append(b, ']')
		}
		b = append(b, '}')
	}
	if r.SSE {
		b = append(b, `,"sse":{"event":`...)
		b = appendStr(b, r.SSEEvent)
		b = append(b, `,"id":`...)
		b = appendStr(b, r.SSEID)
		b = append(b, '}')
	}
	b = member(b, "error", r.Error)
	if r.Truncated {
		b = append(b, `,"truncated":true`...)
	}
	if f.Redacted {
		b = append(b, `,"redacted":true`...)
	}
	if len(f.Findings) > 0 {
		b = append(b, `,"findings":[`...)
		for i, id := range f.Findings {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendStr(b, id)
		}
		b = append(b, ']')
	}
	if len(r.Info) > 0 && json.Valid(r.Info) {
		b = append(b, `,"info":`...)
		b = append(b, bytes.TrimSpace(r.Info)...)
	}
	switch {
	case r.HasFrame && f.Batch:
		// A batch element: its own bytes, which decoded as JSON.
		b = append(b, `,"size":`...)
		b = strconv.AppendInt(b, int64(len(f.Elem)), 10)
		if bytes.ContainsAny(f.Elem, "\n\r") {
			b = append(b, `,"frameText":`...)
			b = appendStr(b, string(f.Elem))
		} else {
			b = append(b, `,"frame":`...)
			b = append(b, f.Elem...)
		}
	case r.HasFrame:
		b = append(b, `,"size":`...)
		b = strconv.AppendInt(b, max(r.Size, int64(len(r.Frame))), 10)
		switch {
		case r.RawFrame != nil && !bytes.ContainsAny(r.RawFrame, "\n\r"):
			b = append(b, `,"frame":`...)
			b = append(b, r.RawFrame...)
		case utf8.Valid(r.Frame):
			b = append(b, `,"frameText":`...)
			b = appendStr(b, string(r.Frame))
		default:
			b = append(b, `,"frameBase64":"`...)
			b = base64.StdEncoding.AppendEncode(b, r.Frame)
			b = append(b, '"')
		}
	}
	return append(b, '}')
}

// member appends ,"name":"v" unless v is empty.
func member(b []byte, name, v string) []byte {
	if v == "" {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':')
	return appendStr(b, v)
}

const hexDigits = "0123456789abcdef"

// appendStr appends s as a JSON string, without HTML escaping. Invalid
// UTF-8 becomes U+FFFD.
func appendStr(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, `\ufffd`...)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}
