package html

import (
	"bufio"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"errors"
	"html"
	"io"
	"sync"
	"unicode/utf8"
)

//go:embed filter.js
var filterJS string

//go:embed stream.js
var streamJS string

//go:embed app.js
var appJS string

//go:embed style.css
var styleCSS string

// script is the page's one executable script; its hash is the only one
// the Content-Security-Policy allows.
var script = sync.OnceValue(func() string { return filterJS + "\n" + streamJS + "\n" + appJS })

// DataID is the id of the element holding the JSON export.
const DataID = "mcpward-data"

// FilterJS returns the JavaScript copy of package filter (mwFilter): the
// report inlines it, mcpward serve serves it, tests run it with node.
func FilterJS() string { return filterJS }

// StreamJS returns the report's frame stream (mwStream: the rows, the
// filter box, the JSON view), which needs FilterJS; mcpward serve's
// session page uses it as the report does.
func StreamJS() string { return streamJS }

// StyleCSS returns the report's style sheet, which mcpward serve's pages
// load before their own.
func StyleCSS() string { return styleCSS }

func cspHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

// CSP is the Content-Security-Policy of the report: nothing may be
// fetched, and only the report's own script and style run.
var CSP = sync.OnceValue(func() string {
	return "default-src 'none'; script-src " + cspHash(script()) + "; style-src " + cspHash(styleCSS) +
		"; img-src data:; base-uri 'none'; form-action 'none'"
})

// Options configure a report.
type Options struct {
	// Title is shown in the browser tab (escaped).
	Title string
}

// A Writer writes one report.
type Writer struct {
	w      *bufio.Writer
	data   *escaper
	err    error
	closed bool
}

// NewWriter writes the head of the report and returns a Writer whose Data
// receives the JSON export.
func NewWriter(w io.Writer, opts *Options) *Writer {
	title := "mcpward session report"
	if opts != nil && opts.Title != "" {
		title += ": " + opts.Title
	}
	hw := &Writer{w: bufio.NewWriterSize(w, 64<<10)}
	hw.data = &escaper{w: hw.w}
	hw.put(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="` + html.EscapeString(CSP()) + `">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>` + html.EscapeString(title) + `</title>
<style>` + styleCSS + `</style>
</head>
<body>
<h1 id="title">mcpward session report</h1>
<div id="meta"></div>
<h2>Tools</h2>
<div id="summary"></div>
<h2 id="findings-title" hidden>Findings</h2>
<div id="findings" hidden></div>
<h2>Frames</h2>
<div id="frames"></div>
<script type="application/json" id="` + DataID + `">`)
	return hw
}

func (w *Writer) put(s string) {
	if w.err == nil {
		_, w.err = w.w.WriteString(s)
	}
}

// Data returns the writer the JSON export goes to. Everything written is
// escaped for a script element; it must be one JSON document.
func (w *Writer) Data() io.Writer { return w.data }

// Close ends the data element, writes the script and flushes.
func (w *Writer) Close() error {
	if w.closed {
		return errors.New("html report closed twice")
	}
	w.closed = true
	if w.err != nil {
		return w.err
	}
	if err := w.data.flush(); err != nil {
		return err
	}
	w.put("</script>\n<script>" + script() + "</script>\n</body></html>\n")
	if w.err != nil {
		return w.err
	}
	return w.w.Flush()
}

// An escaper rewrites <, >, &, U+2028 and U+2029 as \u escapes. In a
// valid JSON document these can only occur inside strings, where the
// escape means the same character, so the data is unchanged for
// JSON.parse and inert for the HTML parser. A line separator split across
// writes is held back until its last byte arrives.
type escaper struct {
	w     *bufio.Writer
	carry []byte
}

func (e *escaper) Write(p []byte) (int, error) {
	n := len(p)
	if len(e.carry) > 0 {
		p = append(e.carry, p...)
		e.carry = nil
	}
	start := 0
	for i := 0; i < len(p); i++ {
		var rep string
		switch c := p[i]; c {
		case '<':
			rep = `\u003c`
		case '>':
			rep = `\u003e`
		case '&':
			rep = `\u0026`
		case 0xE2:
			if len(p)-i < 3 {
				if !utf8.FullRune(p[i:]) {
					if _, err := e.w.Write(p[start:i]); err != nil {
						return 0, err
					}
					e.carry = append([]byte(nil), p[i:]...)
					return n, nil
				}
				continue
			}
			if p[i+1] == 0x80 && (p[i+2] == 0xA8 || p[i+2] == 0xA9) {
				rep = `\u2028`
				if p[i+2] == 0xA9 {
					rep = `\u2029`
				}
				if _, err := e.w.Write(p[start:i]); err != nil {
					return 0, err
				}
				if _, err := e.w.WriteString(rep); err != nil {
					return 0, err
				}
				i += 2
				start = i + 1
			}
			continue
		default:
			continue
		}
		if _, err := e.w.Write(p[start:i]); err != nil {
			return 0, err
		}
		if _, err := e.w.WriteString(rep); err != nil {
			return 0, err
		}
		start = i + 1
	}
	_, err := e.w.Write(p[start:])
	if err != nil {
		return 0, err
	}
	return n, nil
}

func (e *escaper) flush() error {
	if len(e.carry) > 0 {
		_, err := e.w.Write(e.carry)
		e.carry = nil
		return err
	}
	return nil
}
