package session

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"
)

// MaxLine is the longest line a Reader accepts: a 64 MiB frame in base64
// plus its envelope, with room to spare. Longer lines are skipped and
// reported, and never held in memory whole.
const MaxLine = 128 << 20

// maxProblems bounds the problems a Reader keeps; the rest are counted.
const maxProblems = 100

// A LineError is a line of a session log that could not be read as a
// record. Readers report it and go on with the next line.
type LineError struct {
	Line int // 1-based line number
	// Torn is set for an unterminated last line: a log whose writer was
	// killed mid-line. It is expected after a crash and not a corruption.
	Torn bool
	Err  error
}

func (e *LineError) Error() string {
	if e.Torn {
		return fmt.Sprintf("line %d: torn last line skipped: %v", e.Line, e.Err)
	}
	return fmt.Sprintf("line %d: corrupt record skipped: %v", e.Line, e.Err)
}

func (e *LineError) Unwrap() error { return e.Err }

// A Reader streams the records of a session log. Memory is bounded by the
// longest line (at most MaxLine), not by the size of the log. A line that
// is not a valid record is skipped and reported by Problems; only an error
// of the underlying reader stops it.
type Reader struct {
	br       *bufio.Reader
	line     int
	buf      []byte
	problems []LineError
	skipped  int
	maxLine  int // MaxLine; smaller in tests
	dec      decoder
}

// NewReader returns a Reader of the session log in r.
func NewReader(r io.Reader) *Reader {
	return &Reader{br: bufio.NewReaderSize(r, 64<<10), maxLine: MaxLine}
}

// Next returns the next record, or io.EOF after the last one. Skipped lines
// do not stop it: see Problems.
func (r *Reader) Next() (*Record, error) {
	for {
		line, terminated, tooLong, err := r.readLine()
		if err != nil && len(line) == 0 && !tooLong {
			if err == io.EOF {
				return nil, io.EOF
			}
			return nil, fmt.Errorf("read session log line %d: %w", r.line+1, err)
		}
		r.line++
		switch {
		case tooLong:
			r.report(LineError{Line: r.line, Torn: !terminated, Err: fmt.Errorf("line longer than %d bytes", r.maxLine)})
			continue
		case len(bytes.TrimSpace(line)) == 0:
			continue // blank lines carry nothing
		}
		rec, derr := r.dec.decode(line)
		if derr != nil {
			r.report(LineError{Line: r.line, Torn: !terminated, Err: derr})
			continue
		}
		return rec, nil
	}
}

// Problems returns the lines skipped so far (at most the first 100; see
// Skipped for the count).
func (r *Reader) Problems() []LineError { return r.problems }

// Skipped returns how many lines were skipped so far.
func (r *Reader) Skipped() int { return r.skipped }

func (r *Reader) report(e LineError) {
	r.skipped++
	if len(r.problems) < maxProblems {
		r.problems = append(r.problems, e)
	}
}

// readLine reads one line without its "\n". A line longer than MaxLine is
// consumed and dropped (tooLong). terminated tells whether "\n" was seen.
func (r *Reader) readLine() (line []byte, terminated, tooLong bool, err error) {
	r.buf = r.buf[:0]
	for {
		chunk, e := r.br.ReadSlice('\n')
		if !tooLong {
			if len(r.buf)+len(chunk) > r.maxLine+1 {
				tooLong = true
				r.buf = r.buf[:0]
			} else {
				r.buf = append(r.buf, chunk...)
			}
		}
		switch {
		case e == nil:
			if tooLong {
				return nil, true, true, nil
			}
			return r.buf[:len(r.buf)-1], true, false, nil
		case errors.Is(e, bufio.ErrBufferFull):
			continue
		default:
			if tooLong {
				return nil, false, true, e
			}
			return r.buf, false, false, e
		}
	}
}

// wireRecord is the JSON shape of a line (docs/session-log.md).
type wireRecord struct {
	V             *int                `json:"v"`
	Session       string              `json:"session"`
	Label         string              `json:"label"`
	Seq           *uint64             `json:"seq"`
	TS            string              `json:"ts"`
	Dir           Direction           `json:"dir"`
	Transport     Transport           `json:"transport"`
	Kind          string              `json:"kind"`
	Exchange      uint64              `json:"exchange"`
	Method        string              `json:"method"`
	Path          string              `json:"path"`
	Status        int                 `json:"status"`
	MCPSessionID  string              `json:"mcpSessionId"`
	AuthChallenge string              `json:"authChallenge"`
	Header        map[string][]string `json:"header"`
	SSE           *struct {
		Event string `json:"event"`
		ID    string `json:"id"`
	} `json:"sse"`
	Error       string          `json:"error"`
	Redacted    bool            `json:"redacted"`
	Info        json.RawMessage `json:"info"`
	Size        int64           `json:"size"`
	Truncated   bool            `json:"truncated"`
	NoEOL       bool            `json:"noEOL"`
	Frame       json.RawMessage `json:"frame"`
	FrameText   *string         `json:"frameText"`
	FrameBase64 *[]byte         `json:"frameBase64"`
}

// decodeStd decodes a line with encoding/json: the reference the fast
// decoder (decode.go) is checked against, and its fallback for every line
// it does not handle itself.
func decodeStd(line []byte) (*Record, error) {
	var w wireRecord
	if err := json.Unmarshal(line, &w); err != nil {
		return nil, fmt.Errorf("not a JSON record: %w", err)
	}
	switch {
	case w.V == nil:
		return nil, errors.New("missing \"v\"")
	case *w.V < 1 || *w.V > Version:
		return nil, fmt.Errorf("format version %d is not supported (this mcpward reads up to %d)", *w.V, Version)
	case w.Seq == nil:
		return nil, errors.New("missing \"seq\"")
	case w.Dir == "":
		return nil, errors.New("missing \"dir\"")
	}
	ts, err := time.Parse(time.RFC3339Nano, w.TS)
	if err != nil {
		return nil, fmt.Errorf("bad \"ts\": %w", err)
	}
	r := &Record{
		V: *w.V, Session: w.Session, Label: w.Label, Seq: *w.Seq, Time: ts,
		Dir: w.Dir, Transport: w.Transport, Kind: w.Kind,
		Exchange: w.Exchange, Method: w.Method, Path: w.Path, Status: w.Status,
		MCPSessionID: w.MCPSessionID, AuthChallenge: w.AuthChallenge, Header: w.Header,
		Error: w.Error, Redacted: w.Redacted, Info: w.Info, Size: w.Size, Truncated: w.Truncated, NoEOL: w.NoEOL,
	}
	if w.SSE != nil {
		r.SSE, r.SSEEvent, r.SSEID = true, w.SSE.Event, w.SSE.ID
	}
	n := 0
	if w.Frame != nil {
		n++
		r.Frame, r.HasFrame, r.RawFrame = w.Frame, true, w.Frame
	}
	if w.FrameText != nil {
		n++
		r.Frame, r.HasFrame = []byte(*w.FrameText), true
	}
	if w.FrameBase64 != nil {
		n++
		r.Frame, r.HasFrame = *w.FrameBase64, true
	}
	if n > 1 {
		return nil, errors.New("more than one of \"frame\", \"frameText\", \"frameBase64\"")
	}
	if r.HasFrame && r.RawFrame == nil {
		if t := bytes.TrimSpace(r.Frame); len(t) > 0 && json.Valid(t) {
			r.RawFrame = t
		}
	}
	if r.Frame == nil && r.HasFrame {
		r.Frame = []byte{}
	}
	return r, nil
}
