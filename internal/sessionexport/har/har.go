package har

import (
	"bufio"
	"fmt"
	"io"
	"time"

	"github.com/mcpward/mcpward/internal/jsonx"
)

// Version is the HAR version written.
const Version = "1.2"

// TimeFormat is the ISO 8601 layout of startedDateTime (milliseconds and
// a zone, as browsers write it).
const TimeFormat = "2006-01-02T15:04:05.000Z07:00"

// Creator names the application that wrote the log.
type Creator struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	Comment string `json:"comment,omitempty"`
}

// A Page groups entries (one per recorded session).
type Page struct {
	StartedDateTime string      `json:"startedDateTime"`
	ID              string      `json:"id"`
	Title           string      `json:"title"`
	PageTimings     PageTimings `json:"pageTimings"`
	Comment         string      `json:"comment,omitempty"`
}

// PageTimings are unknown (-1) for MCP sessions.
type PageTimings struct {
	OnContentLoad float64 `json:"onContentLoad"`
	OnLoad        float64 `json:"onLoad"`
}

// An Entry is one request and its response.
type Entry struct {
	Pageref         string   `json:"pageref,omitempty"`
	StartedDateTime string   `json:"startedDateTime"`
	Time            float64  `json:"time"`
	Request         Request  `json:"request"`
	Response        Response `json:"response"`
	Cache           struct{} `json:"cache"`
	Timings         Timings  `json:"timings"`
	Connection      string   `json:"connection,omitempty"`
	Comment         string   `json:"comment,omitempty"`
}

// A Header (or query parameter) is a name and value.
type Header struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// A Cookie is never written (cookies are not recorded) but the arrays are
// required.
type Cookie struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// A Request is the HTTP request (synthetic for stdio).
type Request struct {
	Method      string    `json:"method"`
	URL         string    `json:"url"`
	HTTPVersion string    `json:"httpVersion"`
	Cookies     []Cookie  `json:"cookies"`
	Headers     []Header  `json:"headers"`
	QueryString []Header  `json:"queryString"`
	PostData    *PostData `json:"postData,omitempty"`
	HeadersSize int64     `json:"headersSize"`
	BodySize    int64     `json:"bodySize"`
	Comment     string    `json:"comment,omitempty"`
}

// PostData is a request body.
type PostData struct {
	MimeType string `json:"mimeType"`
	Text     string `json:"text"`
	Comment  string `json:"comment,omitempty"`
}

// A Response is the HTTP response (synthetic for stdio).
type Response struct {
	Status      int      `json:"status"`
	StatusText  string   `json:"statusText"`
	HTTPVersion string   `json:"httpVersion"`
	Cookies     []Cookie `json:"cookies"`
	Headers     []Header `json:"headers"`
	Content     Content  `json:"content"`
	RedirectURL string   `json:"redirectURL"`
	HeadersSize int64    `json:"headersSize"`
	BodySize    int64    `json:"bodySize"`
	Comment     string   `json:"comment,omitempty"`
}

// Content is a response body.
type Content struct {
	Size     int64  `json:"size"`
	MimeType string `json:"mimeType"`
	Text     string `json:"text,omitempty"`
	Encoding string `json:"encoding,omitempty"`
	Comment  string `json:"comment,omitempty"`
}

// Timings in milliseconds; -1 where not applicable.
type Timings struct {
	Blocked float64 `json:"blocked"`
	DNS     float64 `json:"dns"`
	Connect float64 `json:"connect"`
	Send    float64 `json:"send"`
	Wait    float64 `json:"wait"`
	Receive float64 `json:"receive"`
	SSL     float64 `json:"ssl"`
}

// NewTimings returns timings where only wait is known (the time from the
// request frame to the response frame).
func NewTimings(wait time.Duration) Timings {
	return Timings{Blocked: -1, DNS: -1, Connect: -1, SSL: -1, Send: 0, Wait: Millis(wait), Receive: 0}
}

// Millis converts d to milliseconds with microsecond precision.
func Millis(d time.Duration) float64 {
	if d < 0 {
		return 0
	}
	return float64(d.Microseconds()) / 1000
}

// A Writer streams one HAR log.
type Writer struct {
	w       *bufio.Writer
	creator Creator
	n       int
	err     error
	started bool
}

// NewWriter returns a Writer to w.
func NewWriter(w io.Writer, c Creator) *Writer {
	return &Writer{w: bufio.NewWriterSize(w, 64<<10), creator: c}
}

func (w *Writer) start() {
	if w.started || w.err != nil {
		return
	}
	w.started = true
	b, err := jsonx.Marshal(w.creator)
	if err != nil {
		w.err = err
		return
	}
	fmt.Fprintf(w.w, "{\"log\":{\"version\":%q,\"creator\":%s,\"entries\":[", Version, b)
}

// Entry writes one entry. Nil slices are written as empty arrays.
func (w *Writer) Entry(e *Entry) error {
	w.start()
	if w.err != nil {
		return w.err
	}
	fill(&e.Request.Cookies, &e.Request.Headers, &e.Request.QueryString)
	fill(&e.Response.Cookies, &e.Response.Headers, nil)
	b, err := jsonx.Marshal(e)
	if err != nil {
		w.err = fmt.Errorf("har entry: %w", err)
		return w.err
	}
	if w.n > 0 {
		w.w.WriteByte(',')
	}
	w.n++
	w.w.WriteByte('\n')
	_, w.err = w.w.Write(b)
	return w.err
}

func fill(c *[]Cookie, h, q *[]Header) {
	if *c == nil {
		*c = []Cookie{}
	}
	if *h == nil {
		*h = []Header{}
	}
	if q != nil && *q == nil {
		*q = []Header{}
	}
}

// Close writes the pages and ends the document.
func (w *Writer) Close(pages []Page) error {
	w.start()
	if w.err != nil {
		return w.err
	}
	if pages == nil {
		pages = []Page{}
	}
	b, err := jsonx.Marshal(pages)
	if err != nil {
		return err
	}
	w.w.WriteString("\n],\"pages\":")
	w.w.Write(b)
	w.w.WriteString("}}\n")
	return w.w.Flush()
}

// StatusText returns the reason phrase of an HTTP status ("" when
// unknown), without importing net/http.
func StatusText(code int) string {
	return statusText[code]
}

var statusText = map[int]string{
	200: "OK", 201: "Created", 202: "Accepted", 204: "No Content",
	301: "Moved Permanently", 302: "Found", 304: "Not Modified", 307: "Temporary Redirect", 308: "Permanent Redirect",
	400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
	406: "Not Acceptable", 408: "Request Timeout", 409: "Conflict", 410: "Gone", 413: "Content Too Large",
	415: "Unsupported Media Type", 422: "Unprocessable Content", 429: "Too Many Requests",
	500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout",
}
