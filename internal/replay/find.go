package replay

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/mcpward/mcpward/internal/jsonrpc"
	"github.com/mcpward/mcpward/internal/session"
)

// ErrNotFound: the log holds no such request.
var ErrNotFound = errors.New("no such request in the log")

// A Recorded call: the request as it travelled and what came back.
type Recorded struct {
	Session   string
	Label     string
	Transport session.Transport
	// Command, Cwd and EnvNames come from the stdio start record; Target
	// is the upstream URL of an HTTP session.
	Command  []string
	Cwd      string
	EnvNames []string
	Target   string

	Method string
	ID     jsonrpc.ID
	Seq    uint64
	Line   int
	// Request is the exact request frame; Params its params member.
	Request []byte
	Params  json.RawMessage
	// Header holds the recorded request headers (HTTP).
	Header map[string][]string
	// Redacted: the log hid secrets in this frame, so the replay sends
	// the placeholders, not the original values.
	Redacted bool
	// Response is the recorded response frame (nil when none was
	// recorded); Status its HTTP status.
	Response []byte
	Status   int
}

// A Selector names the request: by JSON-RPC id (raw JSON, or a bare
// string id without its quotes) or by the seq of its record. Session
// narrows to one session id (prefix).
type Selector struct {
	ID      string
	Seq     uint64
	Session string
}

// Find reads a session log and returns the first client request matching
// sel, with its response (the first response with the same id in the same
// session after it).
func Find(r io.Reader, sel Selector) (*Recorded, error) {
	sr := session.NewReader(r)
	starts := map[string]*Recorded{}
	var rc *Recorded
	line := 0
	for {
		rec, err := sr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		line++
		if sel.Session != "" && !strings.HasPrefix(rec.Session, sel.Session) {
			continue
		}
		if rec.Dir == session.Meta && rec.Kind == session.KindStart {
			st := &Recorded{}
			var info struct {
				Argv     []string `json:"argv"`
				Cwd      string   `json:"cwd"`
				EnvNames []string `json:"envNames"`
				Target   string   `json:"target"`
			}
			if json.Unmarshal(rec.Info, &info) == nil {
				st.Command, st.Cwd, st.EnvNames, st.Target = info.Argv, info.Cwd, info.EnvNames, info.Target
			}
			starts[rec.Session] = st
			continue
		}
		if !rec.HasFrame || len(bytes.TrimSpace(rec.Frame)) == 0 {
			continue
		}
		msg := jsonrpc.Decode(bytes.TrimSpace(rec.Frame))
		if rc == nil {
			if rec.Dir != session.ClientToServer || msg.Method == "" || msg.ID.IsZero() {
				continue
			}
			if !matches(sel, rec, msg) {
				continue
			}
			rc = &Recorded{Session: rec.Session, Label: rec.Label, Transport: rec.Transport,
				Method: msg.Method, ID: msg.ID, Seq: rec.Seq, Line: line,
				Request: bytes.TrimSpace(rec.Frame), Params: msg.Params, Header: rec.Header, Redacted: rec.Redacted}
			if st, ok := starts[rec.Session]; ok {
				rc.Command, rc.Cwd, rc.EnvNames, rc.Target = st.Command, st.Cwd, st.EnvNames, st.Target
			}
			continue
		}
		if rec.Session == rc.Session && rec.Dir == session.ServerToClient && msg.IsResponse() && msg.ID.Equal(rc.ID) {
			rc.Response, rc.Status = bytes.TrimSpace(rec.Frame), rec.Status
			break
		}
	}
	if rc == nil {
		what := "seq " + strconv.FormatUint(sel.Seq, 10)
		if sel.ID != "" {
			what = "id " + sel.ID
		}
		return nil, fmt.Errorf("%w: a client request with %s", ErrNotFound, what)
	}
	return rc, nil
}

func matches(sel Selector, rec *session.Record, msg jsonrpc.Message) bool {
	if sel.Seq != 0 {
		return rec.Seq == sel.Seq
	}
	raw := string(msg.ID.Raw())
	return raw == sel.ID || raw == strconv.Quote(sel.ID)
}
