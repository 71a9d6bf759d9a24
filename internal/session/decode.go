package session

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/mcpward/mcpward/internal/jsonrpc"
)

// A decoder reads one record line in one pass, without encoding/json: it
// checks the syntax as it goes (with jsonrpc's scanner), copies the
// frame out as a slice of the line instead of decoding it, and reuses the
// session id and label strings of the previous record. It only handles the
// lines it is sure to read exactly as encoding/json would (the ones
// AppendRecord writes, and most hand-written ones); for anything unusual
// (escaped or case-folded member names, duplicates, nulls, numbers with a
// fraction, a syntax error) it hands the line to decodeStd, so results and
// error messages are those of the reference decoder by construction.
// FuzzDecodeEquivalent checks the two agree on every input.
type decoder struct {
	session, label string // last seen, shared by the next records
}

// Member bits, to reject duplicates (encoding/json lets the last one win;
// the reference decoder handles those lines).
const (
	mV = 1 << iota
	mSession
	mLabel
	mSeq
	mTS
	mDir
	mTransport
	mKind
	mExchange
	mMethod
	mPath
	mStatus
	mMCPSessionID
	mAuthChallenge
	mHeader
	mSSE
	mError
	mRedacted
	mInfo
	mSize
	mTruncated
	mNoEOL
	mFrame
	mFrameText
	mFrameBase64
)

// errFallback is not an error of the line: it sends it to decodeStd.
var errFallback = errors.New("fallback")

func (d *decoder) decode(line []byte) (*Record, error) {
	r, err := d.fast(line)
	if err == errFallback {
		return decodeStd(line)
	}
	return r, err
}

// fast decodes line, or returns errFallback.
func (d *decoder) fast(b []byte) (*Record, error) {
	i := jsonrpc.SkipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil, errFallback
	}
	i = jsonrpc.SkipSpace(b, i+1)
	if i >= len(b) || b[i] != '"' {
		return nil, errFallback // {} and bad syntax alike
	}
	r := &Record{}
	var (
		seen                      uint32
		v                         int64
		ts                        []byte
		frameText, frameB64, info []byte
	)
	for {
		// A member name starts at i.
		kEnd := plainString(b, i)
		if kEnd < 0 {
			return nil, errFallback
		}
		key := b[i+1 : kEnd-1]
		i = jsonrpc.SkipSpace(b, kEnd)
		if i >= len(b) || b[i] != ':' {
			return nil, errFallback
		}
		i = jsonrpc.SkipSpace(b, i+1)
		if i >= len(b) || b[i] == 'n' {
			return nil, errFallback // null leaves a member as it was: rare, and subtle
		}
		bit, end := 0, -1
		switch string(key) {
		case "v":
			bit = mV
			v, end = intValue(b, i)
		case "seq":
			bit = mSeq
			r.Seq, end = uintValue(b, i)
		case "exchange":
			bit = mExchange
			r.Exchange, end = uintValue(b, i)
		case "status":
			bit = mStatus
			var n int64
			if n, end = intValue(b, i); int64(int(n)) != n {
				end = -1 // too big for an int here: encoding/json says so
			}
			r.Status = int(n)
		case "size":
			bit = mSize
			r.Size, end = intValue(b, i)
		case "session":
			bit = mSession
			var s []byte
			if s, end = rawString(b, i); end > 0 {
				if string(s) != d.session {
					d.session = string(s)
				}
				r.Session = d.session
			}
		case "label":
			bit = mLabel
			var s []byte
			if s, end = rawString(b, i); end > 0 {
				if string(s) != d.label {
					d.label = string(s)
				}
				r.Label = d.label
			}
		case "ts":
			bit = mTS
			ts, end = rawString(b, i)
		case "dir":
			bit = mDir
			var s []byte
			if s, end = rawString(b, i); end > 0 {
				r.Dir = direction(s)
			}
		case "transport":
			bit = mTransport
			var s []byte
			if s, end = rawString(b, i); end > 0 {
				switch string(s) {
				case string(Stdio):
					r.Transport = Stdio
				case string(HTTP):
					r.Transport = HTTP
				default:
					r.Transport = Transport(s)
				}
			}
		case "kind":
			bit = mKind
			r.Kind, end = stringValue(b, i)
		case "method":
			bit = mMethod
			r.Method, end = stringValue(b, i)
		case "path":
			bit = mPath
			r.Path, end = stringValue(b, i)
		case "mcpSessionId":
			bit = mMCPSessionID
			r.MCPSessionID, end = stringValue(b, i)
		case "authChallenge":
			bit = mAuthChallenge
			r.AuthChallenge, end = stringValue(b, i)
		case "error":
			bit = mError
			r.Error, end = stringValue(b, i)
		case "header":
			bit = mHeader
			r.Header, end = headerValue(b, i)
		case "sse":
			bit = mSSE
			r.SSEEvent, r.SSEID, end = sseValue(b, i)
			r.SSE = true
		case "redacted":
			bit = mRedacted
			r.Redacted, end = boolValue(b, i)
		case "truncated":
			bit = mTruncated
			r.Truncated, end = boolValue(b, i)
		case "noEOL":
			bit = mNoEOL
			r.NoEOL, end = boolValue(b, i)
		case "info":
			bit = mInfo
			if end = jsonrpc.SkipValue(b, i); end > 0 {
				info = b[i:end]
			}
		case "frame":
			bit = mFrame
			if end = jsonrpc.SkipValue(b, i); end > 0 {
				r.Frame = bytes.Clone(b[i:end])
			}
		case "frameText":
			bit = mFrameText
			if b[i] == '"' {
				end = jsonrpc.SkipString(b, i)
				frameText = b[i:max(end, i)]
			}
		case "frameBase64":
			bit = mFrameBase64
			frameB64, end = rawString(b, i)
		default:
			for _, m := range recordMembers {
				if bytes.EqualFold(key, []byte(m.name)) {
					return nil, errFallback // encoding/json matches names case-insensitively
				}
			}
			end = jsonrpc.SkipValue(b, i) // an unknown member is skipped
		}
		if end < 0 || seen&uint32(bit) != 0 {
			return nil, errFallback
		}
		seen |= uint32(bit)
		i = jsonrpc.SkipSpace(b, end)
		if i >= len(b) {
			return nil, errFallback
		}
		if b[i] == '}' {
			break
		}
		if b[i] != ',' {
			return nil, errFallback
		}
		i = jsonrpc.SkipSpace(b, i+1)
		if i >= len(b) {
			return nil, errFallback
		}
	}
	if jsonrpc.SkipSpace(b, i+1) != len(b) {
		return nil, errFallback
	}

	// encoding/json reports a bad frameText or frameBase64 before any
	// check of decodeStd: decode them first.
	var text, bin []byte
	if frameText != nil {
		var err error
		if text, err = unquoteBytes(frameText); err != nil {
			return nil, errFallback
		}
	}
	if frameB64 != nil {
		bin = make([]byte, base64.StdEncoding.DecodedLen(len(frameB64)))
		n, err := base64.StdEncoding.Decode(bin, frameB64)
		if err != nil {
			return nil, errFallback
		}
		bin = bin[:n]
	}

	// The checks of decodeStd, in its order and with its messages.
	switch {
	case seen&mV == 0:
		return nil, errors.New("missing \"v\"")
	case v < 1 || v > Version:
		return nil, fmt.Errorf("format version %d is not supported (this mcpward reads up to %d)", v, Version)
	case seen&mSeq == 0:
		return nil, errors.New("missing \"seq\"")
	case r.Dir == "":
		return nil, errors.New("missing \"dir\"")
	}
	r.V = int(v)
	t, err := time.Parse(time.RFC3339Nano, string(ts))
	if err != nil {
		return nil, fmt.Errorf("bad \"ts\": %w", err)
	}
	r.Time = t
	if info != nil {
		r.Info = bytes.Clone(info)
	}
	switch frames := seen & (mFrame | mFrameText | mFrameBase64); frames {
	case 0:
	case mFrame:
		r.HasFrame, r.RawFrame = true, r.Frame
	case mFrameText:
		r.HasFrame, r.Frame = true, text
	case mFrameBase64:
		r.HasFrame, r.Frame = true, bin
	default:
		return nil, errors.New("more than one of \"frame\", \"frameText\", \"frameBase64\"")
	}
	if r.HasFrame && r.RawFrame == nil {
		if t := bytes.TrimSpace(r.Frame); len(t) > 0 && jsonrpc.Valid(t) {
			r.RawFrame = t
		}
	}
	return r, nil
}

func direction(s []byte) Direction {
	switch string(s) {
	case string(ClientToServer):
		return ClientToServer
	case string(ServerToClient):
		return ServerToClient
	case string(Stderr):
		return Stderr
	case string(Meta):
		return Meta
	}
	return Direction(s)
}

// plainString returns the index after the JSON string at i if it has no
// escape and is valid UTF-8 (its bytes are then its value), or -1.
func plainString(b []byte, i int) int {
	if i >= len(b) || b[i] != '"' {
		return -1
	}
	end := jsonrpc.SkipString(b, i)
	if end < 0 {
		return -1
	}
	s := b[i+1 : end-1]
	if bytes.IndexByte(s, '\\') >= 0 || !utf8.Valid(s) {
		return -1
	}
	return end
}

// rawString returns the contents of the plain string at i (see
// plainString) and the index after it, or -1.
func rawString(b []byte, i int) ([]byte, int) {
	end := plainString(b, i)
	if end < 0 {
		return nil, -1
	}
	return b[i+1 : end-1], end
}

// stringValue returns the string at i, decoding escapes as encoding/json
// does, and the index after it, or -1.
func stringValue(b []byte, i int) (string, int) {
	if end := plainString(b, i); end > 0 {
		return string(b[i+1 : end-1]), end
	}
	if i >= len(b) || b[i] != '"' {
		return "", -1
	}
	end := jsonrpc.SkipString(b, i)
	if end < 0 {
		return "", -1
	}
	var s string
	if json.Unmarshal(b[i:end], &s) != nil {
		return "", -1
	}
	return s, end
}

// unquoteBytes decodes the JSON string q (with its quotes) to bytes.
func unquoteBytes(q []byte) ([]byte, error) {
	s := q[1 : len(q)-1]
	if bytes.IndexByte(s, '\\') < 0 && utf8.Valid(s) {
		return bytes.Clone(s), nil
	}
	var v string
	if err := json.Unmarshal(q, &v); err != nil {
		return nil, err
	}
	return []byte(v), nil
}

// intValue parses the integer at i; a fraction, an exponent or an overflow
// returns -1 (encoding/json reports those, the fallback does too).
func intValue(b []byte, i int) (int64, int) {
	neg := i < len(b) && b[i] == '-'
	j := i
	if neg {
		j++
	}
	u, end := uintValue(b, j)
	if end < 0 || u > 1<<63-1 {
		return 0, -1
	}
	if neg {
		return -int64(u), end
	}
	return int64(u), end
}

// uintValue parses the unsigned integer at i, or returns -1.
func uintValue(b []byte, i int) (uint64, int) {
	if i >= len(b) || !isDigit(b[i]) {
		return 0, -1
	}
	end := jsonrpc.SkipNumber(b, i)
	if end < 0 {
		return 0, -1
	}
	var u uint64
	for _, c := range b[i:end] {
		if !isDigit(c) || u > (1<<64-1)/10 {
			return 0, -1
		}
		d := uint64(c - '0')
		if u*10 > 1<<64-1-d {
			return 0, -1
		}
		u = u*10 + d
	}
	return u, end
}

func boolValue(b []byte, i int) (bool, int) {
	switch {
	case hasLit(b, i, "true"):
		return true, i + 4
	case hasLit(b, i, "false"):
		return false, i + 5
	}
	return false, -1
}

func hasLit(b []byte, i int, lit string) bool {
	return len(b)-i >= len(lit) && string(b[i:i+len(lit)]) == lit
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// headerValue reads an object of arrays of plain strings; anything else
// returns -1.
func headerValue(b []byte, i int) (map[string][]string, int) {
	if b[i] != '{' {
		return nil, -1
	}
	h := map[string][]string{}
	i = jsonrpc.SkipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return h, i + 1
	}
	for {
		k, end := rawString(b, i)
		if end < 0 {
			return nil, -1
		}
		i = jsonrpc.SkipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return nil, -1
		}
		i = jsonrpc.SkipSpace(b, i+1)
		if i >= len(b) || b[i] != '[' {
			return nil, -1
		}
		vals := []string{}
		i = jsonrpc.SkipSpace(b, i+1)
		if i < len(b) && b[i] == ']' {
			i++
		} else {
			for {
				var s string
				if s, end = stringValue(b, i); end < 0 {
					return nil, -1
				}
				vals = append(vals, s)
				i = jsonrpc.SkipSpace(b, end)
				if i >= len(b) {
					return nil, -1
				}
				if b[i] == ']' {
					i++
					break
				}
				if b[i] != ',' {
					return nil, -1
				}
				i = jsonrpc.SkipSpace(b, i+1)
			}
		}
		h[string(k)] = vals
		i = jsonrpc.SkipSpace(b, i)
		if i >= len(b) {
			return nil, -1
		}
		if b[i] == '}' {
			return h, i + 1
		}
		if b[i] != ',' {
			return nil, -1
		}
		i = jsonrpc.SkipSpace(b, i+1)
	}
}

// sseValue reads {"event":…,"id":…} with string values and no other
// member; anything else returns -1.
func sseValue(b []byte, i int) (event, id string, end int) {
	if b[i] != '{' {
		return "", "", -1
	}
	i = jsonrpc.SkipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return "", "", i + 1
	}
	for {
		k, e := rawString(b, i)
		if e < 0 {
			return "", "", -1
		}
		i = jsonrpc.SkipSpace(b, e)
		if i >= len(b) || b[i] != ':' {
			return "", "", -1
		}
		i = jsonrpc.SkipSpace(b, i+1)
		var s string
		if s, e = stringValue(b, i); e < 0 {
			return "", "", -1
		}
		switch string(k) {
		case "event":
			event = s
		case "id":
			id = s
		default:
			return "", "", -1
		}
		i = jsonrpc.SkipSpace(b, e)
		if i >= len(b) {
			return "", "", -1
		}
		if b[i] == '}' {
			return event, id, i + 1
		}
		if b[i] != ',' {
			return "", "", -1
		}
		i = jsonrpc.SkipSpace(b, i+1)
	}
}
