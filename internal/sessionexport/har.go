package sessionexport

import (
	"io"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpward/mcpward/internal/calls"
	"github.com/mcpward/mcpward/internal/plural"
	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/sessionexport/har"
)

// A harSink writes one HAR entry per call, in the order calls settle (HAR
// viewers sort by startedDateTime). HTTP calls carry the recorded method,
// URL, headers and status; stdio calls become a synthetic
// POST mcp+stdio://<label>/ with the JSON-RPC frames as bodies.
type harSink struct {
	w *har.Writer
}

func newHARSink(w io.Writer, version string) *harSink {
	if version == "" {
		version = "dev"
	}
	return &harSink{w: har.NewWriter(w, har.Creator{Name: "mcpward", Version: version})}
}

func (s *harSink) frame(*frameInfo) error { return nil }

func (s *harSink) item(it *item) error {
	if it.Call == nil {
		return nil // HAR has entries for exchanges only
	}
	return s.w.Entry(harEntry(it))
}

func harEntry(it *item) *har.Entry {
	c := it.Call
	var req, resp *frameInfo
	for _, f := range it.Frames {
		switch {
		case req == nil && f.Kind == calls.KindRequest && f.Rec.Dir == c.Dir:
			req = f
		case f.Kind == calls.KindResponse || f.Kind == calls.KindTransport:
			resp = f
		}
	}
	label := c.Session
	transport := session.Stdio
	target := ""
	if it.Session != nil {
		label, transport, target = it.Session.Label, it.Session.Transport, it.Session.Target
	}
	e := &har.Entry{Pageref: c.Session, StartedDateTime: c.Start.UTC().Format(har.TimeFormat),
		Time: har.Millis(c.Duration()), Timings: har.NewTimings(c.Duration())}
	e.Comment = "JSON-RPC " + c.Method
	if c.Name != "" {
		e.Comment += " " + c.Name
	}
	e.Comment += " id " + c.ID + ": " + c.State.String()
	if c.Dir == session.ServerToClient {
		e.Comment += " (server to client request)"
	}
	e.Request = har.Request{Method: "POST", HTTPVersion: "HTTP/1.1", HeadersSize: -1, BodySize: -1}
	e.Response = har.Response{HTTPVersion: "HTTP/1.1", HeadersSize: -1, BodySize: -1,
		Content: har.Content{MimeType: "application/json"}}
	if transport == session.HTTP && req != nil && req.Rec.Method != "" {
		e.Request.Method = req.Rec.Method
		e.Request.URL = httpURL(target, req.Rec.Path, hostOf(req.Rec.Header), label)
		e.Request.Headers = harHeaders(req.Rec.Header)
		if u, err := url.Parse(e.Request.URL); err == nil {
			for k, vs := range u.Query() {
				for _, v := range vs {
					e.Request.QueryString = append(e.Request.QueryString, har.Header{Name: k, Value: v})
				}
			}
			slices.SortFunc(e.Request.QueryString, func(a, b har.Header) int { return strings.Compare(a.Name, b.Name) })
		}
	} else {
		u := url.URL{Scheme: "mcp+stdio", Host: label, Path: "/"}
		if transport == session.HTTP {
			u = url.URL{Scheme: "mcp+http", Host: label, Path: "/"}
		}
		e.Request.URL = u.String()
		e.Request.Headers = []har.Header{{Name: "Content-Type", Value: "application/json"}}
	}
	if req != nil {
		body := req.body()
		e.Request.PostData = &har.PostData{MimeType: mime(req.Rec, "application/json"), Text: strings.ToValidUTF8(string(body), "\uFFFD")}
		e.Request.BodySize = int64(len(body))
		if req.Batch {
			e.Request.PostData.Comment = batchComment(req.Index)
		}
	}
	if resp == nil {
		e.Response.StatusText = c.State.String()
		return e
	}
	r := resp.Rec
	e.Response.Status = 200
	if r.Status != 0 {
		e.Response.Status = r.Status
		e.Response.Headers = harHeaders(r.Header)
		if r.AuthChallenge != "" && !hasHeader(e.Response.Headers, "WWW-Authenticate") {
			e.Response.Headers = append(e.Response.Headers, har.Header{Name: "WWW-Authenticate", Value: r.AuthChallenge})
		}
	}
	e.Response.StatusText = har.StatusText(e.Response.Status)
	e.Response.Content.MimeType = mime(r, "application/json")
	if r.SSE {
		e.Response.Content.Comment = "one server-sent event of the response stream"
	}
	switch {
	case r.HasFrame && resp.Batch:
		e.Response.Content.Text = strings.ToValidUTF8(string(resp.Elem), "\uFFFD")
		e.Response.Content.Size = int64(len(resp.Elem))
		e.Response.BodySize = int64(len(resp.Elem))
		e.Response.Content.Comment = batchComment(resp.Index)
	case r.HasFrame:
		e.Response.Content.Text = strings.ToValidUTF8(string(r.Frame), "\uFFFD")
		e.Response.Content.Size = max(r.Size, int64(len(r.Frame)))
		e.Response.BodySize = int64(len(r.Frame))
		if r.Truncated {
			e.Response.Content.Comment = "truncated by the recording cap"
		}
	}
	return e
}

// batchComment says that a body is one element of a JSON-RPC batch: the
// entry carries that element, not the whole batch once per element.
func batchComment(i int) string {
	return "element " + strconv.Itoa(i) + " of a JSON-RPC batch (the body holds this element only)"
}

func hasHeader(hs []har.Header, name string) bool {
	for _, h := range hs {
		if strings.EqualFold(h.Name, name) {
			return true
		}
	}
	return false
}

func mime(r *session.Record, def string) string {
	if v, ok := r.Header["Content-Type"]; ok && len(v) > 0 {
		return v[0]
	}
	return def
}

// httpURL joins the upstream origin with the recorded path and query.
// Without a recorded target (mcpsnoop's logs have none), the host is the
// request's Host header, else the label when it is a host name (mcpsnoop
// labelled an HTTP session with the target's host:port), else "unknown".
func httpURL(target, path string, hosts ...string) string {
	u, err := url.Parse(target)
	if err != nil || u.Host == "" {
		u = &url.URL{Scheme: "http", Host: "unknown"}
		for _, h := range hosts {
			if validHost(h) {
				u.Host = h
				break
			}
		}
	}
	out := url.URL{Scheme: u.Scheme, Host: u.Host}
	if p, err := url.Parse(path); err == nil && path != "" {
		out.Path, out.RawPath, out.RawQuery = p.Path, p.RawPath, p.RawQuery
	} else {
		out.Path = u.Path
	}
	return out.String()
}

// hostOf is the Host header of a recorded request, or "".
func hostOf(h map[string][]string) string {
	for k, v := range h {
		if strings.EqualFold(k, "Host") && len(v) > 0 {
			return v[0]
		}
	}
	return ""
}

// validHost reports whether h is a host or host:port a URL can carry as
// it is (letters, digits, '-', '.', '_', one port).
func validHost(h string) bool {
	if h == "" || len(h) > 255 {
		return false
	}
	name, port, hasPort := strings.Cut(h, ":")
	if name == "" || strings.HasPrefix(name, "-") || strings.HasPrefix(name, ".") {
		return false
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.' || r == '_') {
			return false
		}
	}
	if hasPort {
		if port == "" || len(port) > 5 {
			return false
		}
		for _, r := range port {
			if r < '0' || r > '9' {
				return false
			}
		}
	}
	return true
}

func harHeaders(h map[string][]string) []har.Header {
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var out []har.Header
	for _, k := range keys {
		for _, v := range h[k] {
			out = append(out, har.Header{Name: k, Value: v})
		}
	}
	return out
}

func (s *harSink) finish(e *ending) error {
	var pages []har.Page
	for _, ss := range e.Sessions {
		title := ss.Label + " (" + string(ss.Transport) + ")"
		if ss.ServerName != "" {
			title = ss.ServerName + " " + ss.ServerVersion + " via " + title
		}
		// The session's counts as every surface gives them (calls.Session).
		pages = append(pages, har.Page{StartedDateTime: ss.Start.UTC().Format(har.TimeFormat), ID: ss.ID, Title: title,
			PageTimings: har.PageTimings{OnContentLoad: -1, OnLoad: -1},
			Comment:     plural.Count(ss.Frames, "frame") + ", " + plural.Count(ss.Calls, "call") + ", " + plural.Count(ss.Errors, "error")})
	}
	return s.w.Close(pages)
}
