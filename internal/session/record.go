package session

import (
	"encoding/base64"
	"encoding/json"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/mcpward/mcpward/internal/jsonrpc"
)

// Version is the format version written in every record's "v" member.
// Readers reject records of a newer version (as corrupt lines, with a reason).
const Version = 1

// A Direction says which way a frame travelled.
type Direction string

// Directions of a record.
const (
	ClientToServer Direction = "c2s"
	ServerToClient Direction = "s2c"
	Stderr         Direction = "stderr"
	// Meta records are written by mcpward itself: session start (argv, cwd,
	// environment variable names), exit, lost frames.
	Meta Direction = "meta"
)

// A Transport names the wire a frame was observed on.
type Transport string

// Transports of a record.
const (
	Stdio Transport = "stdio"
	HTTP  Transport = "http"
)

// Meta record kinds (Record.Kind).
const (
	KindStart = "start" // first record: argv, cwd, env names, target
	KindExit  = "exit"  // the server exited (stdio) or the proxy stopped
	KindLost  = "lost"  // frames that could not be recorded, with counts
	KindNote  = "note"  // anything else mcpward wants on the record
)

// OrderWire is the "order" member of a start record's info written by a
// recorder that numbers frames in the order of the wire: each read is
// numbered before it is forwarded, so a response always has a higher seq
// than its request (issue 22). A log without it (mcpward before 22, or
// mcpsnoop) may hold a response numbered just before its request: its
// relays forwarded a read before numbering it, and the two directions
// raced.
const OrderWire = "wire"

// A Record is one line of a session log. The same type is filled by the
// proxy before encoding (Seq, Session and Label are then assigned by the
// recorder) and by [Reader] after decoding.
type Record struct {
	// V is the format version (Version when written by this package).
	V int
	// Session is the session id ([NewID]); Label the server label.
	Session string
	Label   string
	// Seq is strictly increasing within a session, starting at 1, and is
	// assigned in arrival order on every transport: a gap means frames
	// were lost, and a lost record says how many. In a log whose start
	// record says OrderWire, seq order is the order of the wire.
	Seq uint64
	// Time is when the frame was observed (its last bytes read, before
	// they were relayed).
	Time      time.Time
	Dir       Direction
	Transport Transport

	// Frame is the frame's exact bytes, without the line terminator that
	// ended it on stdio. It may be the first bytes only (Truncated).
	Frame []byte
	// HasFrame tells an empty frame (an empty line) from a record that
	// carries no frame (a GET request, a 202 response, a meta record).
	HasFrame bool
	// RawFrame is set by the reader when Frame is valid JSON: the value
	// itself, without surrounding whitespace, ready to unmarshal.
	RawFrame json.RawMessage
	// NoEOL marks a stdio frame that was not terminated by "\n" (the last
	// bytes before end of stream).
	NoEOL bool
	// Truncated marks a frame larger than the recording cap: Frame holds
	// its first bytes, Size its full length. It was relayed whole.
	Truncated bool
	// Size is the full length of the frame in bytes, as it travelled: a
	// redacted frame keeps its original Size.
	Size int64
	// Redacted marks a record that redaction changed (its frame, its
	// headers or its info): a "[REDACTED]" in it is mcpward's, not the
	// peer's, so checks must not read it as what was sent.
	Redacted bool

	// HTTP exchange: every record of one request/response pair carries the
	// same Exchange id (pairing does not depend on the TCP connection).
	Exchange uint64
	Method   string // request records
	Path     string // request records: path and query as received
	Status   int    // response records
	// Header holds the recorded headers (routing, session, content type,
	// auth challenge; never credentials), names in canonical form.
	Header map[string][]string
	// MCPSessionID is the Mcp-Session-Id of the request or response.
	MCPSessionID string
	// AuthChallenge is WWW-Authenticate of a response, verbatim.
	AuthChallenge string
	// SSE fields of a frame that was one server-sent event.
	SSEEvent string
	SSEID    string
	SSE      bool
	// Error says why an exchange or a stream failed (e.g. 502: target
	// unreachable).
	Error string

	// Kind is set on meta records (KindStart, KindExit, KindLost, KindNote).
	Kind string
	// Info is the meta record's payload, a JSON object.
	Info json.RawMessage
}

// SpliceJSON reports whether frame is stored as a raw JSON value ("frame"):
// it must be valid JSON, start and end with a non-space byte (so the
// reader gets the exact bytes back), hold no line break (so the record
// stays on one line) and be valid UTF-8 (so the line is: json.Valid does
// not check inside strings, and a frame that is not goes to frameBase64).
// One pass of a validator equivalent to json.Valid checks all of it: it is
// the one JSON pass the writer makes.
func SpliceJSON(frame []byte) bool {
	if len(frame) == 0 || isSpace(frame[0]) || isSpace(frame[len(frame)-1]) {
		return false
	}
	return jsonrpc.ValidLine(frame)
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// AppendRecord appends r as one JSON line (with its "\n") to dst. The frame
// is not re-encoded: valid JSON is spliced in verbatim ("frame"), other
// valid UTF-8 becomes a JSON string ("frameText"), anything else base64
// ("frameBase64"). Member order is fixed, so the same record gives the
// same bytes.
func AppendRecord(dst []byte, r *Record) []byte {
	dst, frame := AppendRecordHead(dst, r)
	if frame == nil {
		return dst
	}
	dst = append(dst, frame...)
	return append(dst, "}\n"...)
}

// AppendRecordHead is AppendRecord without the copy of a frame that is
// spliced verbatim: it appends the line up to the frame and returns the
// frame, so the line is dst + frame + "}\n" and a writer can write a big
// frame from its own buffer. frame is nil when the record is complete in
// dst (no frame, or one encoded as frameText or frameBase64).
func AppendRecordHead(dst []byte, r *Record) (out, frame []byte) {
	dst = appendHeadStart(dst, recordVersion(r), r.Session, r.Label)
	dst = appendSeq(dst, r.Seq)
	dst = appendHeadWhen(dst, r.Time, r.Dir, r.Transport)
	return appendHeadRest(dst, r)
}

// A HeadEncoder is AppendRecordHead for a writer that encodes many records
// in a row: it keeps the members that repeat from one record to the next
// (the version, session and label; the time, direction and transport,
// which the lines of one read share) encoded, and copies them. Its output
// is byte for byte AppendRecordHead's. The zero value is ready to use.
type HeadEncoder struct {
	v              int
	session, label string
	start          []byte // {"v":…,"session":…,"label":…
	t              time.Time
	dir            Direction
	transport      Transport
	when           []byte // ,"ts":…,"dir":…,"transport":…
}

// AppendRecordHead is [AppendRecordHead], with e's memory.
func (e *HeadEncoder) AppendRecordHead(dst []byte, r *Record) (out, frame []byte) {
	if v := recordVersion(r); e.start == nil || v != e.v || r.Session != e.session || r.Label != e.label {
		e.v, e.session, e.label = v, r.Session, r.Label
		e.start = appendHeadStart(e.start[:0], v, r.Session, r.Label)
	}
	dst = append(dst, e.start...)
	dst = appendSeq(dst, r.Seq)
	// == and not Equal: the same wall clock in another location or with
	// another monotonic reading is encoded afresh, never wrongly reused.
	if e.when == nil || r.Time != e.t || r.Dir != e.dir || r.Transport != e.transport {
		e.t, e.dir, e.transport = r.Time, r.Dir, r.Transport
		e.when = appendHeadWhen(e.when[:0], r.Time, r.Dir, r.Transport)
	}
	dst = append(dst, e.when...)
	return appendHeadRest(dst, r)
}

func recordVersion(r *Record) int {
	if r.V == 0 {
		return Version
	}
	return r.V
}

func appendHeadStart(dst []byte, v int, session, label string) []byte {
	dst = append(dst, `{"v":`...)
	dst = strconv.AppendInt(dst, int64(v), 10)
	dst = appendStrMember(dst, "session", session)
	return appendStrMember(dst, "label", label)
}

func appendSeq(dst []byte, seq uint64) []byte {
	dst = append(dst, `,"seq":`...)
	return strconv.AppendUint(dst, seq, 10)
}

func appendHeadWhen(dst []byte, t time.Time, dir Direction, transport Transport) []byte {
	dst = append(dst, `,"ts":"`...)
	dst = t.UTC().AppendFormat(dst, time.RFC3339Nano)
	dst = append(dst, '"')
	dst = appendStrMember(dst, "dir", string(dir))
	return appendStrMember(dst, "transport", string(transport))
}

// appendHeadRest appends the members after the transport.
func appendHeadRest(dst []byte, r *Record) (out, frame []byte) {
	if r.Kind != "" {
		dst = appendStrMember(dst, "kind", r.Kind)
	}
	if r.Exchange != 0 {
		dst = append(dst, `,"exchange":`...)
		dst = strconv.AppendUint(dst, r.Exchange, 10)
	}
	if r.Method != "" {
		dst = appendStrMember(dst, "method", r.Method)
	}
	if r.Path != "" {
		dst = appendStrMember(dst, "path", r.Path)
	}
	if r.Status != 0 {
		dst = append(dst, `,"status":`...)
		dst = strconv.AppendInt(dst, int64(r.Status), 10)
	}
	if r.MCPSessionID != "" {
		dst = appendStrMember(dst, "mcpSessionId", r.MCPSessionID)
	}
	if r.AuthChallenge != "" {
		dst = appendStrMember(dst, "authChallenge", r.AuthChallenge)
	}
	if len(r.Header) > 0 {
		dst = appendHeader(dst, r.Header)
	}
	if r.SSE {
		dst = append(dst, `,"sse":{`...)
		dst = jsonrpc.AppendString(append(dst, `"event":`...), r.SSEEvent)
		dst = jsonrpc.AppendString(append(dst, `,"id":`...), r.SSEID)
		dst = append(dst, '}')
	}
	if r.Error != "" {
		dst = appendStrMember(dst, "error", r.Error)
	}
	if r.Redacted {
		dst = append(dst, `,"redacted":true`...)
	}
	if len(r.Info) > 0 && SpliceJSON(r.Info) {
		dst = append(dst, `,"info":`...)
		dst = append(dst, r.Info...)
	}
	if r.HasFrame || len(r.Frame) > 0 {
		size := r.Size
		if size < int64(len(r.Frame)) && !r.Redacted {
			// A redacted frame may have grown ("[REDACTED]" replaced a
			// short secret); Size is what travelled.
			size = int64(len(r.Frame))
		}
		dst = append(dst, `,"size":`...)
		dst = strconv.AppendInt(dst, size, 10)
		if r.Truncated {
			dst = append(dst, `,"truncated":true`...)
		}
		if r.NoEOL {
			dst = append(dst, `,"noEOL":true`...)
		}
		switch {
		case SpliceJSON(r.Frame):
			return append(dst, `,"frame":`...), r.Frame
		case utf8.Valid(r.Frame):
			dst = jsonrpc.AppendString(append(dst, `,"frameText":`...), string(r.Frame))
		default:
			dst = append(dst, `,"frameBase64":"`...)
			dst = base64.StdEncoding.AppendEncode(dst, r.Frame)
			dst = append(dst, '"')
		}
	}
	return append(dst, "}\n"...), nil
}

func appendStrMember(dst []byte, name, v string) []byte {
	dst = append(dst, ',', '"')
	dst = append(dst, name...)
	dst = append(dst, '"', ':')
	return jsonrpc.AppendString(dst, v)
}

func appendHeader(dst []byte, h map[string][]string) []byte {
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	dst = append(dst, `,"header":{`...)
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsonrpc.AppendString(dst, k)
		dst = append(dst, ':', '[')
		for j, v := range h[k] {
			if j > 0 {
				dst = append(dst, ',')
			}
			dst = jsonrpc.AppendString(dst, v)
		}
		dst = append(dst, ']')
	}
	return append(dst, '}')
}

// Bytes returns the frame bytes as they travelled on a stream transport:
// Frame followed by "\n" unless NoEOL. It is nil for a record without a
// frame.
func (r *Record) Bytes() []byte {
	if !r.HasFrame {
		return nil
	}
	if r.NoEOL {
		return r.Frame
	}
	b := make([]byte, 0, len(r.Frame)+1)
	b = append(b, r.Frame...)
	return append(b, '\n')
}
