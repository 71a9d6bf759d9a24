// Package mcpsnoop converts the session logs of mcpsnoop to mcpward's
// session records, in memory, one line at a time. It does no I/O: the
// reader (internal/sessionlog) hands it lines and gets records back.
//
// An mcpsnoop log is JSON Lines, one envelope per observed frame:
//
//	{"session_id":"server.py-4242-0a1b2c3d4e5f","server_label":"server.py","seq":2,
//	 "ts":"2026-08-01T12:00:00.5Z","direction":"c2s","transport":"stdio","raw":{"jsonrpc":"2.0",…}}
//
// The frame bytes are kept exactly: a `raw` value is sliced out of the line,
// never decoded and re-encoded (a raw that is a base64 string of a JSON
// message, as a Go []byte field would write it, is decoded), and a `text`
// string becomes the frame's bytes. The first record of a stdio run, direction `meta` with
// raw={"command":[…],"cwd":"…"}, becomes a start record (info argv, cwd),
// which is what replay and the tool baselines read. The routing headers
// (mcp_method, mcp_name, mcp_protocol_version, mcp_param_headers) become
// the record's headers; a header mcpsnoop redacted marks the record
// redacted. HTTP request/response pairs are given an exchange id from
// conn_id (mcpsnoop's proxy spoke HTTP/1.1, so a connection carries one
// exchange at a time). What has no mcpward member (conn_id, batch, and any
// member this package does not know) is kept verbatim in the record's info
// under "mcpsnoop", so nothing is dropped.
//
//	d := mcpsnoop.NewDecoder()
//	rec, err := d.Decode(line) // err: the line is not an mcpsnoop record
package mcpsnoop

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mcpward/mcpward/internal/jsonrpc"
	"github.com/mcpward/mcpward/internal/session"
)

// Sniff reports whether head, the start of a file (it may end anywhere,
// and blank lines may come first), is an mcpsnoop session log: its first
// record has a "session_id" member and no "v" (mcpward's records start
// with "v"). Only the members before the cut are looked at.
func Sniff(head []byte) bool {
	head = bytes.TrimLeft(head, " \t\r\n")
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		head = head[:i]
	}
	found := false
	jsonrpc.Members(head, func(name, _ []byte) bool {
		switch string(name) {
		case "session_id":
			found = true
		case "v", "session":
			found = false
			return false
		}
		return true
	})
	if !found && len(head) > 0 && head[0] == '{' {
		// The first member's value may be cut by the end of head (a
		// big first frame): look at the first member name alone.
		found = bytes.HasPrefix(bytes.TrimLeft(head[1:], " \t"), []byte(`"session_id"`))
	}
	return found
}

// A Decoder converts the lines of one mcpsnoop log, in file order (it
// pairs HTTP requests with their responses across lines). It is not safe
// for concurrent use.
type Decoder struct {
	session, label string // last seen, shared by the next records

	// exchange numbers per session; conns maps a session's connection to
	// its current exchange.
	next  map[string]uint64
	conns map[connKey]*conn
}

type connKey struct{ session, conn string }

type conn struct {
	exchange uint64
	// lastC2S: the previous record on this connection was a request
	// (batch elements of one request then share its exchange).
	lastC2S, lastBatch bool
}

// NewDecoder returns a Decoder for one log.
func NewDecoder() *Decoder {
	return &Decoder{next: map[string]uint64{}, conns: map[connKey]*conn{}}
}

// memberNames are the members mcpsnoop writes (§1.3), for the duplicate
// check.
var memberNames = [...]string{"session_id", "server_label", "seq", "ts", "direction", "transport", "raw", "text",
	"mcp_method", "mcp_name", "mcp_protocol_version", "mcp_param_headers", "batch", "conn_id", "truncated",
	"redacted", "status", "auth_challenge"}

// envelope holds the members of one line; raw values are slices of the line.
type envelope struct {
	sessionID, label, ts, direction, transport string
	seq                                        uint64
	hasSeq                                     bool

	raw     []byte
	text    string
	hasText bool

	mcpMethod, mcpName, mcpVersion string
	paramHeaders                   []byte
	status                         int
	authChallenge, connID          string
	batch, truncated, redacted     bool

	// extra holds the members kept in info.mcpsnoop, in line order.
	extra [][2][]byte
}

// Decode converts one line (without its line terminator) to a record. An
// error says why the line is not an mcpsnoop record; the reader reports it
// with the line number and goes on.
func (d *Decoder) Decode(line []byte) (*session.Record, error) {
	var e envelope
	var seen uint32 // known members seen (bit i: memberNames[i])
	var derr error
	ok := jsonrpc.Members(line, func(name, value []byte) bool {
		key := string(name) // no allocation: compared and switched on only
		dup := false
		if i := slices.Index(memberNames[:], key); i >= 0 {
			dup, seen = seen&(1<<i) != 0, seen|1<<i
		} else {
			for _, m := range e.extra {
				dup = dup || string(m[0]) == key
			}
		}
		if dup {
			derr = fmt.Errorf("duplicate member %q", key)
			return false
		}
		if string(value) == "null" {
			return true // absent, as encoding/json reads it
		}
		if err := e.member(key, value); err != nil {
			derr = err
			return false
		}
		return true
	})
	if derr != nil {
		return nil, derr
	}
	if !ok {
		return nil, errors.New("not a JSON object")
	}
	switch {
	case e.sessionID == "":
		return nil, errors.New(`missing "session_id"`)
	case !e.hasSeq:
		return nil, errors.New(`missing "seq"`)
	case e.direction == "":
		return nil, errors.New(`missing "direction"`)
	}
	ts, err := time.Parse(time.RFC3339Nano, e.ts)
	if err != nil {
		return nil, fmt.Errorf(`bad "ts": %w`, err)
	}
	// Consecutive records share their session id and label strings.
	if e.sessionID != d.session {
		d.session = e.sessionID
	}
	if e.label != d.label {
		d.label = e.label
	}
	r := &session.Record{
		V: session.Version, Session: d.session, Label: d.label, Seq: e.seq, Time: ts,
		Dir: session.Direction(e.direction), Transport: session.Transport(e.transport),
		Status: e.status, AuthChallenge: e.authChallenge, Truncated: e.truncated, Redacted: e.redacted,
	}
	if r.Dir == session.Meta {
		return d.meta(r, &e)
	}
	switch {
	case e.raw != nil:
		r.Frame = bytes.Clone(e.raw)
		r.RawFrame = r.Frame
		r.HasFrame = true
		if b, ok := base64Frame(e.raw); ok {
			r.Frame, r.RawFrame = b, b
			e.extra = append(e.extra, [2][]byte{[]byte("raw_encoding"), []byte(`"base64"`)})
		}
		if e.hasText {
			// Never written by mcpsnoop (raw xor text): keep it anyway.
			e.extra = append(e.extra, [2][]byte{[]byte("text"), quote(e.text)})
		}
	case e.hasText:
		r.Frame = []byte(e.text)
		r.HasFrame = true
		if t := bytes.TrimSpace(r.Frame); len(t) > 0 && json.Valid(t) {
			r.RawFrame = t
		}
	}
	if r.HasFrame {
		r.Size = int64(len(r.Frame))
	}
	d.headers(r, &e)
	if r.Transport == session.HTTP && r.Dir == session.ClientToServer && r.HasFrame {
		r.Method = "POST" // mcpsnoop recorded the bodies of POST requests only
	}
	if r.Transport == session.HTTP && e.connID != "" && (r.Dir == session.ClientToServer || r.Dir == session.ServerToClient) {
		r.Exchange = d.exchange(r, &e)
	}
	r.Info = info(e.extra)
	return r, nil
}

// base64Frame decodes a raw member that holds the frame as a base64
// string (a []byte field in Go's encoding/json) rather than as the JSON
// value itself: a string that is strict standard base64 of a JSON object
// or array. A frame that really was such a string is not JSON-RPC, and
// would be recorded as what it decodes to only if it were base64 of JSON,
// which no MCP peer sends.
func base64Frame(raw []byte) ([]byte, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return nil, false
	}
	var s string
	if json.Unmarshal(raw, &s) != nil || len(s) < 4 {
		return nil, false
	}
	b, err := base64.StdEncoding.Strict().DecodeString(s)
	if err != nil {
		return nil, false
	}
	if t := bytes.TrimSpace(b); len(t) == 0 || (t[0] != '{' && t[0] != '[') || !jsonrpc.Valid(t) {
		return nil, false
	}
	return b, true
}

// member reads one member of the envelope.
func (e *envelope) member(key string, v []byte) error {
	str := func(dst *string) error {
		if len(v) == 0 || v[0] != '"' {
			return fmt.Errorf("%q is not a string", key)
		}
		if bytes.IndexByte(v, '\\') < 0 && utf8.Valid(v) {
			*dst = string(v[1 : len(v)-1]) // no escape: the bytes are the string
			return nil
		}
		return json.Unmarshal(v, dst)
	}
	boolean := func(dst *bool) error {
		switch string(v) {
		case "true":
			*dst = true
		case "false":
			*dst = false
		default:
			return fmt.Errorf("%q is not a boolean", key)
		}
		return nil
	}
	var err error
	switch key {
	case "session_id":
		err = str(&e.sessionID)
	case "server_label":
		err = str(&e.label)
	case "seq":
		e.hasSeq = true
		if n, perr := strconv.ParseUint(string(v), 10, 64); perr == nil && v[0] != '0' || string(v) == "0" {
			e.seq = n
		} else {
			err = json.Unmarshal(v, &e.seq)
		}
	case "ts":
		err = str(&e.ts)
	case "direction":
		err = str(&e.direction)
	case "transport":
		err = str(&e.transport)
	case "raw":
		e.raw = v
	case "text":
		e.hasText = true
		err = str(&e.text)
	case "mcp_method":
		err = str(&e.mcpMethod)
	case "mcp_name":
		err = str(&e.mcpName)
	case "mcp_protocol_version":
		err = str(&e.mcpVersion)
	case "mcp_param_headers":
		if v[0] != '[' {
			return fmt.Errorf("%q is not an array", key)
		}
		e.paramHeaders = v
	case "status":
		err = json.Unmarshal(v, &e.status)
	case "auth_challenge":
		err = str(&e.authChallenge)
	case "truncated":
		err = boolean(&e.truncated)
	case "redacted":
		err = boolean(&e.redacted)
	case "batch":
		err = boolean(&e.batch)
		e.extra = append(e.extra, [2][]byte{[]byte(key), v})
	case "conn_id":
		err = str(&e.connID)
		e.extra = append(e.extra, [2][]byte{[]byte(key), v})
	default:
		// A member of a newer mcpsnoop, or one added by hand: kept.
		e.extra = append(e.extra, [2][]byte{[]byte(key), v})
	}
	if err != nil {
		var ute *json.UnmarshalTypeError
		if errors.As(err, &ute) {
			return fmt.Errorf("%q is not a %s", key, ute.Type)
		}
		return fmt.Errorf("%q: %w", key, err)
	}
	return nil
}

// meta converts a meta record: the stdio start record (argv, cwd) or, for
// any other payload, a note carrying it.
func (d *Decoder) meta(r *session.Record, e *envelope) (*session.Record, error) {
	var command, cwd []byte
	var rest [][2][]byte
	isObject := e.raw != nil && jsonrpc.Members(e.raw, func(name, value []byte) bool {
		switch string(name) {
		case "command":
			command = value
		case "cwd":
			cwd = value
		default:
			rest = append(rest, [2][]byte{name, value})
		}
		return true
	})
	if !isObject || command == nil {
		r.Kind = session.KindNote
		extra := e.extra
		if e.raw != nil {
			extra = append([][2][]byte{{[]byte("raw"), e.raw}}, extra...)
		}
		if e.hasText {
			extra = append(extra, [2][]byte{[]byte("text"), quote(e.text)})
		}
		r.Info = info(extra)
		return r, nil
	}
	r.Kind = session.KindStart
	b := append([]byte(`{"argv":`), command...)
	if cwd != nil {
		b = append(append(b, `,"cwd":`...), cwd...)
	}
	for _, m := range rest {
		b = append(append(append(append(b, ',', '"'), m[0]...), '"', ':'), m[1]...)
	}
	if in := info(e.extra); in != nil {
		b = append(append(b, `,"mcpsnoop":`...), in[len(`{"mcpsnoop":`):len(in)-1]...)
	}
	r.Info = append(b, '}')
	return r, nil
}

// headers turns the routing headers into the record's headers (canonical
// names, as mcpward records them).
func (d *Decoder) headers(r *session.Record, e *envelope) {
	h := map[string][]string{}
	if e.mcpMethod != "" {
		h["Mcp-Method"] = []string{e.mcpMethod}
	}
	if e.mcpName != "" {
		h["Mcp-Name"] = []string{e.mcpName}
	}
	if e.mcpVersion != "" {
		h["Mcp-Protocol-Version"] = []string{e.mcpVersion}
	}
	if e.paramHeaders != nil {
		jsonrpc.Elements(e.paramHeaders, func(v []byte) bool {
			var p struct {
				Name     string `json:"name"`
				Value    string `json:"value"`
				Redacted bool   `json:"redacted"`
			}
			if json.Unmarshal(v, &p) != nil || p.Name == "" {
				return true
			}
			name := canonical(p.Name)
			h[name] = append(h[name], p.Value)
			if p.Redacted {
				// mcpward marks the record: its "[REDACTED]" is not what
				// the client sent, so the header checks skip it.
				r.Redacted = true
			}
			return true
		})
	}
	if len(h) > 0 {
		r.Header = h
	}
}

// exchange gives an HTTP record the exchange of its connection: a request
// opens a new one (the elements of one batch share it), a response
// belongs to the connection's current one.
func (d *Decoder) exchange(r *session.Record, e *envelope) uint64 {
	k := connKey{r.Session, e.connID}
	c := d.conns[k]
	if r.Dir == session.ClientToServer {
		if c == nil || !(c.lastC2S && c.lastBatch && e.batch) {
			d.next[r.Session]++
			if c == nil {
				if len(d.conns) >= maxConns {
					clear(d.conns) // bounded; a later response then goes unpaired
				}
				c = &conn{}
				d.conns[k] = c
			}
			c.exchange = d.next[r.Session]
		}
		c.lastC2S, c.lastBatch = true, e.batch
		return c.exchange
	}
	if c == nil {
		return 0
	}
	c.lastC2S = false
	return c.exchange
}

// maxConns bounds the connections a Decoder remembers.
const maxConns = 1 << 16

// info builds {"mcpsnoop":{…}} from the kept members, values verbatim, or
// nil when there are none.
func info(extra [][2][]byte) json.RawMessage {
	if len(extra) == 0 {
		return nil
	}
	b := []byte(`{"mcpsnoop":{`)
	for i, m := range extra {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(append(append(append(b, '"'), m[0]...), '"', ':'), m[1]...)
	}
	return append(b, '}', '}')
}

func quote(s string) []byte { return jsonrpc.AppendString(nil, s) }

// canonical is the canonical MIME form of a header name (what
// net/textproto.CanonicalMIMEHeaderKey returns for a valid name):
// "mcp-param-city" → "Mcp-Param-City".
func canonical(name string) string {
	b := []byte(strings.ToLower(name))
	up := true
	for i, c := range b {
		if up && 'a' <= c && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
		up = c == '-'
	}
	return string(b)
}
