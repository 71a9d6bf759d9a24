package redact

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"strings"
)

// credentialHeaders are hidden by every Redactor, configured or not: a
// session log never holds a credential header's value.
var credentialHeaders = map[string]bool{
	"authorization": true, "proxy-authorization": true, "cookie": true,
	"set-cookie": true, "x-api-key": true, "api-key": true, "x-auth-token": true,
}

const paramPrefix = "mcp-param-"

// sessionHeader is the Streamable HTTP session id. Whoever holds it speaks
// in the session (a request with it is served as the client that
// initialised), so it is a bearer credential for the session's lifetime:
// --redact-secrets replaces it by a pseudonym (see sessionPseudonym).
const sessionHeader = "mcp-session-id"

// pseudonymPrefix starts every session id pseudonym: "[REDACTED:" and 8
// hex digits of a keyed hash, then "]".
const pseudonymPrefix = "[REDACTED:"

// sessionPseudonym returns the pseudonym of a session id: the same id
// gives the same pseudonym for the life of the Redactor (one recording, one
// export), so a log still tells its sessions apart and a client that
// resends the id still matches, but the id cannot be read back or tried
// against the server. The hash is keyed with a random key chosen in New.
func (r *Redactor) sessionPseudonym(id string) (string, bool) {
	if strings.HasPrefix(id, pseudonymPrefix) {
		return id, false // already one (a log recorded with --redact-secrets)
	}
	m := hmac.New(sha256.New, r.sessionKey[:])
	m.Write([]byte(id))
	return pseudonymPrefix + hex.EncodeToString(m.Sum(nil)[:4]) + "]", true
}

// Header returns the value to record for one HTTP header. Authorization and
// Proxy-Authorization keep their scheme ("Bearer [REDACTED]"); Cookie,
// Set-Cookie and API-key headers are hidden whole; these apply even when no
// rule is configured. With Secrets, Mcp-Session-Id is replaced by a
// pseudonym ("[REDACTED:1a2b3c4d]", see sessionPseudonym). An Mcp-Param-{Name} header is hidden when Name is a
// key (dashes read as underscores), a tool binds it to a secret argument
// (x-mcp-header), or its value (Base64 sentinel decoded) matches a value
// rule or detector. Other headers get the value detectors.
func (r *Redactor) Header(name, value string) (string, bool) {
	lname := strings.ToLower(name)
	if credentialHeaders[lname] {
		if value == "" {
			return value, false
		}
		if lname == "authorization" || lname == "proxy-authorization" {
			if scheme, rest, ok := strings.Cut(value, " "); ok && strings.TrimSpace(rest) != "" {
				return scheme + " " + Placeholder, true
			}
		}
		return Placeholder, value != Placeholder
	}
	if !r.Enabled() || value == "" {
		return value, false
	}
	if lname == sessionHeader && r.secrets {
		return r.sessionPseudonym(value)
	}
	if param, ok := strings.CutPrefix(lname, paramPrefix); ok {
		r.mu.RLock()
		bound := r.paramHeaders[param]
		r.mu.RUnlock()
		if bound || r.flagHit([]byte(param)) {
			return Placeholder, true
		}
		dec := []byte(decodeSentinel(value))
		if _, hit := r.scrubText(dec, nil); hit {
			return Placeholder, true
		}
		return value, false
	}
	var buf []byte
	if r.keyHit([]byte(lname), &buf) || r.keyHit([]byte(strings.TrimPrefix(lname, "x-")), &buf) {
		// X-Ssn with --redact-key ssn, X-Csrf-Token with --redact-secrets.
		return Placeholder, value != Placeholder
	}
	return r.Text(value)
}

// Text returns s with what the value detectors find hidden, and the values
// of hidden names in it (`ssn=…` in a query string or a form body,
// `"ssn": "…"` in a line of JSON that does not parse). It is for text kept
// outside a frame: a URL, an error message.
func (r *Redactor) Text(s string) (string, bool) {
	if !r.Enabled() || s == "" {
		return s, false
	}
	if out, hit := r.scrubText([]byte(s), nil); hit {
		return string(out), true
	}
	return s, false
}

// newSessionKey is the key of the session id pseudonyms of one Redactor.
func newSessionKey() (k [16]byte) {
	_, _ = rand.Read(k[:]) // crypto/rand.Read never fails (Go 1.24)
	return k
}

// decodeSentinel decodes an x-mcp-header value in its Base64 form
// ("=?base64?…?="); any other value is returned as is.
func decodeSentinel(v string) string {
	inner, ok := strings.CutPrefix(v, "=?base64?")
	if !ok {
		return v
	}
	inner, ok = strings.CutSuffix(inner, "?=")
	if !ok {
		return v
	}
	b, err := base64.StdEncoding.Strict().DecodeString(inner)
	if err != nil {
		return v
	}
	return string(b)
}

// Message redacts one HTTP message: its body frame and its headers
// together. Beyond Frame and Header, an Mcp-Param-* or Mcp-Name header
// whose (decoded) value was hidden in the body is hidden too, so a secret
// argument does not survive in its routing header. The returned map is
// header itself when no header changed (it is never modified in place);
// redacted reports whether anything changed.
func (r *Redactor) Message(header map[string][]string, frame []byte) (outHeader map[string][]string, outFrame []byte, redacted bool) {
	var hidden []string
	outFrame, redacted = r.frame(frame, &hidden)
	outHeader = header
	var copied map[string]bool // names whose value slice is already a copy
	for name, vals := range header {
		lname := strings.ToLower(name)
		bodyBound := lname == "mcp-name" || strings.HasPrefix(lname, paramPrefix)
		for i, v := range vals {
			nv, changed := r.Header(name, v)
			if !changed && bodyBound && wasHidden(decodeSentinel(v), hidden) {
				nv, changed = Placeholder, true
			}
			if !changed {
				continue
			}
			if copied == nil {
				outHeader = make(map[string][]string, len(header))
				for k, vv := range header {
					outHeader[k] = vv
				}
				copied = map[string]bool{}
			}
			if !copied[name] {
				outHeader[name] = append([]string(nil), vals...)
				copied[name] = true
			}
			outHeader[name][i] = nv
			redacted = true
		}
	}
	return outHeader, outFrame, redacted
}

// wasHidden reports whether v is, or contains, a value hidden in the body.
func wasHidden(v string, hidden []string) bool {
	if v == "" {
		return false
	}
	for _, h := range hidden {
		if h == v || (len(h) >= 4 && strings.Contains(v, h)) {
			return true
		}
	}
	return false
}

// Argv returns argv with secrets hidden: values of credential flags
// ("--token=abc", "--api-key abc"), credential variables ("TOKEN=abc", as
// passed through env(1)), header arguments ("Authorization: Bearer …") and
// whatever the value rules find. argv itself is returned when nothing
// changed; it is never modified.
func (r *Redactor) Argv(argv []string) ([]string, bool) {
	if !r.Enabled() {
		return argv, false
	}
	var out []string
	set := func(i int, v string) {
		if out == nil {
			out = append([]string(nil), argv...)
		}
		out[i] = v
	}
	pending := false
	for i, el := range argv {
		if pending && el != "" && !strings.HasPrefix(el, "-") {
			pending = false
			set(i, Placeholder)
			continue
		}
		b := []byte(el)
		var spans []span
		sp, ok, flag := r.argvSpan(b)
		pending = flag
		if ok {
			spans = append(spans, sp)
		}
		spans = r.findSecrets(b, activeDetectors(r.dets, b), spans)
		spans = mergeSpans(r.keySpans(b, true, spans))
		if len(spans) > 0 {
			set(i, string(replaceSpans(b, spans, nil)))
		}
	}
	if out == nil {
		return argv, false
	}
	return out, true
}
