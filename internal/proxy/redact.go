package proxy

import (
	"github.com/mcpward/mcpward/internal/redact"
	"github.com/mcpward/mcpward/internal/session"
)

// RedactFilter returns a [LogOptions.Filter] that hides what red hides in
// each record before it is encoded, fed or exported. It runs on the Log's
// writer goroutine, never on the relay path: the relayed bytes are never
// changed, only the copy that is kept.
//
// Frames, HTTP headers together with their body (so an Mcp-Param-* header
// does not keep a secret the body lost), the argv and target URL of the
// start record, the request path and the error text are redacted; each
// direction's frames are read as one stream of lines ([redact.Lines]). A frame
// cut at the record cap (Truncated) is redacted as text, so a hidden
// member's value goes even when the JSON around it is incomplete. A record
// that changed is marked Redacted; its Size stays the length that
// travelled.
func RedactFilter(red *redact.Redactor) func(*session.Record) {
	// Each direction's lines are one stream: a value a pretty-printer put
	// on the line after its name is hidden too (redact.Lines).
	lines := map[session.Direction]*redact.Lines{}
	return func(rec *session.Record) {
		var changed bool
		switch {
		case rec.Dir == session.Meta:
			if len(rec.Info) > 0 {
				rec.Info, changed = red.Frame(rec.Info) // argv, target URL
			}
			if rec.Error != "" {
				if e, hit := red.Text(rec.Error); hit {
					rec.Error, changed = e, true
				}
			}
			rec.Redacted = changed
			return
		case rec.Header != nil:
			if rec.Size == 0 {
				rec.Size = int64(len(rec.Frame))
			}
			rec.Header, rec.Frame, changed = red.Message(rec.Header, rec.Frame)
		case len(rec.Frame) > 0:
			if rec.Size == 0 {
				rec.Size = int64(len(rec.Frame))
			}
			l := lines[rec.Dir]
			if l == nil {
				l = red.Lines()
				lines[rec.Dir] = l
			}
			rec.Frame, changed = l.Frame(rec.Frame)
		}
		if rec.Path != "" {
			// A query string may carry a token (?api_key=…, ?ssn=…).
			if p, hit := red.Text(rec.Path); hit {
				rec.Path, changed = p, true
			}
		}
		if rec.Error != "" {
			// An error may quote a URL with its userinfo or query.
			if e, hit := red.Text(rec.Error); hit {
				rec.Error, changed = e, true
			}
		}
		rec.Redacted = changed
	}
}
