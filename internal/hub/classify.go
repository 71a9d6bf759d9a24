package hub

import (
	"bytes"
	"encoding/json"
	"time"
	"unicode/utf8"

	"github.com/mcpward/mcpward/internal/jsonrpc"
	"github.com/mcpward/mcpward/internal/session"
)

// FrameInfo is what the hub keeps about every record, also after the
// record's bytes were evicted from memory (they stay in the log).
type FrameInfo struct {
	Seq    uint64
	Time   time.Time
	Dir    session.Direction
	Kind   jsonrpc.Kind // KindInvalid for a line that is not JSON-RPC
	Method string       // request or notification method; first element's for a batch
	// ID is the raw JSON id (at most maxIDLen bytes kept).
	ID     string
	Size   int64 // frame size in bytes
	Status int   // HTTP status of a response record
}

// A Peer names a client or server as it introduced itself.
type Peer struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

const maxIDLen = 64

// classified is a FrameInfo plus what the session counters and the peer
// names need; computed before the hub lock is taken.
type classified struct {
	info                                            FrameInfo
	requests, notifications, results, errors, other int
	client, server                                  *Peer
}

type wireMsg struct {
	ID     json.RawMessage `json:"id"`
	Method *string         `json:"method"`
	Error  json.RawMessage `json:"error"`
}

type wirePeers struct {
	Params *struct {
		ClientInfo *Peer `json:"clientInfo"`
		Meta       *struct {
			ClientInfo *Peer `json:"io.modelcontextprotocol/clientInfo"`
		} `json:"_meta"`
	} `json:"params"`
	Result *struct {
		ServerInfo *Peer `json:"serverInfo"`
		Meta       *struct {
			ServerInfo *Peer `json:"io.modelcontextprotocol/serverInfo"`
		} `json:"_meta"`
	} `json:"result"`
}

var (
	clientInfoKey = []byte(`clientInfo"`)
	serverInfoKey = []byte(`serverInfo"`)
)

// classify turns one record into its FrameInfo, counter increments and
// peer names.
//
// It reads frames with its own scanner (scanMsg, falling back to
// encoding/json), not with jsonrpc.Decode, and is laxer than Decode on
// purpose: it wants no "jsonrpc": "2.0", matches member names without
// regard to case where encoding/json does, and reads an "error": null
// answer as a result. The live counters show traffic as it went by;
// whether a frame breaks the spec is for the rules, which read the same
// log through calls and jsonrpc.Decode. It also reads only id, method and
// error, never params or a result, which keeps it cheap on the relay's
// path. The kind it gives is jsonrpc's, so both readers name kinds alike.
func classify(rec *session.Record) classified {
	c := classified{info: FrameInfo{
		Seq: rec.Seq, Time: rec.Time, Dir: rec.Dir, Size: max(rec.Size, int64(len(rec.Frame))), Status: rec.Status,
	}}
	switch {
	case rec.Dir == session.Stderr:
		c.info.Kind = jsonrpc.KindStderr
		return c
	case rec.Dir == session.Meta:
		c.info.Kind = jsonrpc.KindMeta
		return c
	case !rec.HasFrame:
		c.info.Kind = jsonrpc.KindTransport
		if rec.Status >= 400 {
			c.errors++
		}
		return c
	case rec.RawFrame == nil:
		c.info.Kind, c.other = jsonrpc.KindInvalid, 1
		return c
	}
	raw := rec.RawFrame
	if raw[0] == '[' {
		elems, ok := scanBatch(raw)
		if !ok && json.Unmarshal(raw, &elems) != nil {
			c.info.Kind, c.other = jsonrpc.KindInvalid, 1
			return c
		}
		c.info.Kind = jsonrpc.KindBatch
		for i := range elems {
			c.count(&elems[i])
		}
		if len(elems) > 0 && elems[0].Method != nil {
			c.info.Method = *elems[0].Method
		}
		return c
	}
	m, ok := scanMsg(raw)
	if !ok {
		m = wireMsg{}
	}
	if !ok && json.Unmarshal(raw, &m) != nil {
		c.info.Kind, c.other = jsonrpc.KindInvalid, 1
		return c
	}
	c.info.Kind = c.count(&m)
	if m.Method != nil {
		c.info.Method = *m.Method
	}
	if len(m.ID) > 0 && !bytes.Equal(m.ID, []byte("null")) || c.info.Kind == jsonrpc.KindResult || c.info.Kind == jsonrpc.KindError {
		id := m.ID
		if len(id) > maxIDLen {
			id = id[:maxIDLen]
		}
		c.info.ID = string(id)
	}
	c.peers(rec, raw)
	return c
}

// scanMsg reads the members wireMsg has from the object raw without
// encoding/json (jsonrpc.Members skips params and results). It returns
// false for whatever it cannot read exactly as json.Unmarshal would: not an
// object, a duplicate or case-folded member name, a method that is not a
// plain string; classify then falls back to json.Unmarshal.
func scanMsg(raw []byte) (m wireMsg, ok bool) {
	var seen uint8
	ok = jsonrpc.Members(raw, func(name, value []byte) bool {
		var bit uint8
		switch string(name) {
		case "id":
			bit, m.ID = 1, value
		case "error":
			bit, m.Error = 2, value
		case "method":
			bit = 4
			s, plain := plainString(value)
			if !plain {
				return false
			}
			m.Method = &s
		default:
			return bytes.IndexByte(name, '\\') < 0 && !bytes.EqualFold(name, []byte("id")) && !bytes.EqualFold(name, []byte("error")) &&
				!bytes.EqualFold(name, []byte("method"))
		}
		if seen&bit != 0 {
			return false
		}
		seen |= bit
		return true
	})
	return m, ok
}

// scanBatch is scanMsg for each element of a batch.
func scanBatch(raw []byte) (elems []wireMsg, ok bool) {
	elems = []wireMsg{}
	ok = jsonrpc.Elements(raw, func(v []byte) bool {
		m, ok := scanMsg(v)
		elems = append(elems, m)
		return ok
	})
	if !ok {
		return nil, false
	}
	return elems, true
}

// plainString returns the JSON string v without its quotes if it has no
// escape and is valid UTF-8.
func plainString(v []byte) (string, bool) {
	if len(v) < 2 || v[0] != '"' || bytes.IndexByte(v, '\\') >= 0 || !utf8.Valid(v) {
		return "", false
	}
	return string(v[1 : len(v)-1]), true
}

// count adds one message to the counters and returns its kind.
func (c *classified) count(m *wireMsg) jsonrpc.Kind {
	hasID := len(m.ID) > 0
	switch {
	case m.Method != nil && hasID:
		c.requests++
		return jsonrpc.KindRequest
	case m.Method != nil:
		c.notifications++
		return jsonrpc.KindNotification
	case len(m.Error) > 0 && !bytes.Equal(m.Error, []byte("null")):
		c.errors++
		return jsonrpc.KindError
	case hasID:
		c.results++
		return jsonrpc.KindResult
	}
	c.other++
	return jsonrpc.KindInvalid
}

// peers reads clientInfo from an initialize request (or a 2026-07-28
// request's _meta) and serverInfo from a result. The substring test keeps
// the second decode off all other frames.
func (c *classified) peers(rec *session.Record, raw []byte) {
	hasClient := rec.Dir == session.ClientToServer && c.info.Kind == jsonrpc.KindRequest && bytes.Contains(raw, clientInfoKey)
	hasServer := rec.Dir == session.ServerToClient && c.info.Kind == jsonrpc.KindResult && bytes.Contains(raw, serverInfoKey)
	if !hasClient && !hasServer {
		return
	}
	var w wirePeers
	if json.Unmarshal(raw, &w) != nil {
		return
	}
	if p := w.Params; hasClient && p != nil {
		switch {
		case p.ClientInfo != nil:
			c.client = p.ClientInfo
		case p.Meta != nil && p.Meta.ClientInfo != nil:
			c.client = p.Meta.ClientInfo
		}
	}
	if r := w.Result; hasServer && r != nil {
		switch {
		case r.ServerInfo != nil:
			c.server = r.ServerInfo
		case r.Meta != nil && r.Meta.ServerInfo != nil:
			c.server = r.Meta.ServerInfo
		}
	}
}

// An interner shares method strings between summaries: a session has
// millions of frames and a few dozen methods. It is used under the hub
// lock.
type interner struct{ m map[string]string }

const maxInterned = 4096

func (in *interner) intern(s string) string {
	if v, ok := in.m[s]; ok {
		return v
	}
	if len(in.m) < maxInterned {
		in.m[s] = s
	}
	return s
}
