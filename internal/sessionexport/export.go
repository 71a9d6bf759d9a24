// Package sessionexport is the session export engine: one session log (or
// one session of it) as JSON, a self-contained HTML report, a text
// transcript, HAR 1.2 or OTLP JSON, in a single pass over the log's
// records. `mcpward sessions export` and the live view's export both use
// it, so they write the same documents. It does no I/O: the caller reads
// the log (internal/sessionlog) into [Exporter.Add] and owns the output
// file.
//
//	x, err := sessionexport.New(w, &sessionexport.Options{Format: "har", Log: path})
//	problems, skipped, err := sessionlog.Read(path, x.Add)
//	err = x.Finish(problems, skipped)
package sessionexport

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"

	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/plural"
	"github.com/mcpward/mcpward/internal/redact"
	"github.com/mcpward/mcpward/internal/report"
	"github.com/mcpward/mcpward/internal/session"
)

// Formats lists the export formats: the registry's formats of `mcpward
// sessions export`, json (the default) first.
var Formats = report.FormatNames("sessions export")

// CheckFormat returns the registry's unknown-format error unless format is
// one of Formats.
func CheckFormat(format string) error {
	if !slices.Contains(Formats, format) {
		return report.UnknownFormat(format, Formats)
	}
	return nil
}

// Options are what an export writes.
type Options struct {
	// Format is one of Formats.
	Format string
	// SessionID, when set, exports only the session with this id (or id
	// prefix).
	SessionID string
	// Version is mcpward's version, stamped into the document.
	Version string
	// Check runs the traffic rules and includes their findings.
	Check bool
	// Redactor hides secrets while reading (nil hides nothing).
	Redactor *redact.Redactor
	// Log is the path of the log being exported: the document's source
	// (its base name) and the name in messages.
	Log string
	// Warn is told of every skipped log line ("mcpward: warning: …");
	// nil discards.
	Warn io.Writer
}

// An Exporter writes one export document to its writer.
type Exporter struct {
	opts *Options
	col  *collector
}

// New starts an export into w.
func New(w io.Writer, opts *Options) (*Exporter, error) {
	s, err := newSink(opts, w)
	if err != nil {
		return nil, err
	}
	return &Exporter{opts: opts, col: newCollector(s, opts.SessionID, opts.Redactor, opts.Check)}, nil
}

// Add takes one record of the log, in file order, with its line.
func (x *Exporter) Add(rec *session.Record, line int) { x.col.add(rec, line) }

// Finish writes the end of the document, listing the log lines the reader
// skipped (problems, and how many in all) and warning about each; with a
// SessionID that matched nothing it is an input error.
func (x *Exporter) Finish(problems []session.LineError, skipped int) error {
	path := x.opts.Log
	var ps []string
	for _, p := range problems {
		ps = append(ps, lineProblem(path, p))
	}
	if skipped > len(problems) {
		ps = append(ps, fmt.Sprintf("%s: %d more %s skipped", path, skipped-len(problems), plural.Of(skipped-len(problems), "line", "lines")))
	}
	if x.opts.Warn != nil {
		for _, p := range ps {
			fmt.Fprintf(x.opts.Warn, "mcpward: warning: %s\n", p)
		}
	}
	if x.opts.SessionID != "" && len(x.col.store.Sessions()) == 0 {
		return fault.Input(fmt.Errorf("no session %q in %s", x.opts.SessionID, path))
	}
	return x.col.finish(ps)
}

func newSink(opts *Options, w io.Writer) (sink, error) {
	h := docHeader{Format: FormatName, Version: FormatVersion, Tool: "mcpward", MCPWard: opts.Version,
		Source: filepath.Base(opts.Log), Session: opts.SessionID, Redacted: opts.Redactor.Enabled(), Checked: opts.Check}
	switch opts.Format {
	case "json":
		return newJSONSink(w, h), nil
	case "text":
		return newTextSink(w, opts.Log), nil
	case "html":
		return newHTMLSink(w, h)
	case "har":
		return newHARSink(w, opts.Version), nil
	case "otlp":
		return newOTLPSink(w, opts.Version)
	}
	return nil, report.UnknownFormat(opts.Format, Formats)
}
