// Package recording is the pipeline a proxy records through: the session
// log (proxy.Log) with its typed sinks, each optional, decorating it as
// go-sdk's LoggingTransport decorates a transport:
//
//   - redaction (a *redact.Redactor), run on the log's writer goroutine on
//     each record before it is encoded, never on the relay path;
//   - the log file ([File]), opened on a goroutine beside the server's
//     start, so a client's first bytes wait for it and not for the disk;
//   - the live feed to a 'mcpward ui' hub ([Feed]), started once the file
//     exists and fed the lines as written;
//   - the live OTLP exporter (a *otlppush.Exporter), fed each record after
//     the feed.
//
// Both proxies (the stdio shim and the HTTP reverse proxy) open it with
// [Open]; the CLI only resolves where each sink goes.
package recording

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/mcpward/mcpward/internal/feed"
	"github.com/mcpward/mcpward/internal/otlppush"
	"github.com/mcpward/mcpward/internal/proxy"
	"github.com/mcpward/mcpward/internal/redact"
	"github.com/mcpward/mcpward/internal/session"
)

// OTLPCloseGrace bounds how long Close waits for the last spans to reach
// the collector.
const OTLPCloseGrace = 5 * time.Second

// A File is the session log file. Open creates it (the path is the one
// written, for messages and the feed); an error is the recording's, and
// the stdio shim stops the server on it.
type File struct {
	Open func() (*os.File, string, error)
}

// A Feed is the live feed of the recording to the hub listening on
// Socket. It never blocks the relay: without a hub it keeps a bounded
// buffer, and the hub, once started, re-reads what it missed from the log.
type Feed struct {
	Socket string
	// PID is the recording process's, which the hub shows.
	PID int
}

// Options are a recording's session and sinks; a nil sink is not used.
type Options struct {
	// Session and Label are written into every record.
	Session, Label string
	// Now stamps records the relay left without a time.
	Now func() time.Time
	// Warn is told at once when records are being lost (the disk is full)
	// and when the OTLP exporter fails at the end.
	Warn io.Writer

	// Redact hides what the session log must not hold (nil or disabled:
	// nothing).
	Redact *redact.Redactor
	// File is the session log file (nil with --no-trace: the log writes
	// nothing, for the exporter alone).
	File *File
	// Feed needs a File: the hub reads the log it names.
	Feed *Feed
	// OTLP is the live exporter.
	OTLP *otlppush.Exporter
}

// A Recording is a proxy.Log (the Recorder the relays write to) with its
// sinks.
type Recording struct {
	*proxy.Log
	exp  *otlppush.Exporter
	warn io.Writer
	// file is the log file being opened (nil without a File).
	file *pendingFile
}

// Open starts the recording. The file is opened, and the feed started, on
// a goroutine: [Recording.Wait] returns the outcome.
func Open(opts *Options) *Recording {
	lo := &proxy.LogOptions{Session: opts.Session, Label: opts.Label, Now: opts.Now, Warn: opts.Warn}
	if opts.Redact != nil && opts.Redact.Enabled() {
		filter, httpFields := proxy.RedactFilter(opts.Redact), proxy.RedactHTTPFilter(opts.Redact)
		lo.Filter = func(r *session.Record) { filter(r); httpFields(r) }
	}
	rec := &Recording{exp: opts.OTLP, warn: opts.Warn}
	if opts.OTLP != nil {
		lo.Export = opts.OTLP.Observe
	}
	var w io.Writer
	if opts.File != nil {
		pf := &pendingFile{ready: make(chan struct{})}
		go func() {
			defer close(pf.ready)
			if pf.f, pf.path, pf.err = opts.File.Open(); pf.err == nil && opts.Feed != nil {
				pf.sink = opts.Feed.start(opts.Session, opts.Label, pf.path)
			}
		}()
		rec.file, w = pf, pf
		// Frames lost to an unopened file are not news: the open's error is.
		lo.Warn = &openedWriter{w: opts.Warn, p: pf}
		if opts.Feed != nil {
			lo.FeedLine = func(r *session.Record, line [][]byte) {
				if pf.wait() == nil && pf.sink != nil {
					pf.sink.Line(r.Seq, line...)
				}
			}
		}
	}
	rec.Log = proxy.NewLog(w, lo)
	return rec
}

func (f *Feed) start(id, label, logPath string) *feed.Sink {
	if abs, err := filepath.Abs(logPath); err == nil {
		logPath = abs
	}
	return feed.New(&feed.Options{Socket: f.Socket, Session: id, Label: label, Log: logPath, PID: f.PID})
}

// Wait waits for the log file to be open and returns why it could not be
// (nil without a File).
func (r *Recording) Wait() error {
	if r == nil || r.file == nil {
		return nil
	}
	return r.file.wait()
}

// HasFile reports whether the recording writes a file.
func (r *Recording) HasFile() bool { return r != nil && r.file != nil }

// Path is the log file's path ("" without a file, or one that could not
// be opened).
func (r *Recording) Path() string {
	if r.Wait() != nil || r.file == nil {
		return ""
	}
	return r.file.path
}

// Gate holds the bytes of in back until the log file is open; if it
// cannot be, the reader sees end of file (the server gets none of the
// client's bytes). Without a file it returns in.
func (r *Recording) Gate(in io.Reader) io.Reader {
	if !r.HasFile() {
		return in
	}
	return &gatedReader{r: in, p: r.file}
}

// Close flushes the log, then closes the feed (the log holds every
// record; the hub re-reads what the feed missed), then the exporter
// (whose failures are reported on Warn: they do not make the log
// incomplete), then the file.
func (r *Recording) Close() error {
	err := r.Log.Close()
	if r.file != nil && r.file.wait() == nil && r.file.sink != nil {
		_ = r.file.sink.Close()
	}
	if r.exp != nil {
		ctx, cancel := context.WithTimeout(context.Background(), OTLPCloseGrace)
		if xerr := r.exp.Close(ctx); xerr != nil {
			fmt.Fprintf(r.warn, "mcpward: %v\n", xerr)
		}
		cancel()
	}
	if r.file == nil {
		return err
	}
	if cerr := r.file.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("close session log: %w", cerr)
	}
	return err
}

// A pendingFile is the session log file while it is being opened. A client
// starts the shim once per server and waits for the server's first answer:
// making the state directory and creating the file (a journaled create
// costs a millisecond here) run beside the server's start instead of
// before it. The Log's writer goroutine and the client's first bytes
// (gatedReader) wait for the open; the relay does not, its frames queue in
// the Log as they do behind a slow disk, so the log still gets every
// frame. It forwards what the Log uses of an *os.File (Write, and Seek and
// Truncate to cut a torn line).
type pendingFile struct {
	ready chan struct{} // closed when the fields below are set
	f     *os.File
	path  string
	sink  *feed.Sink // the live feed, started once the file exists
	err   error
}

func (p *pendingFile) wait() error {
	<-p.ready
	return p.err
}

func (p *pendingFile) Write(b []byte) (int, error) {
	if err := p.wait(); err != nil {
		return 0, err
	}
	return p.f.Write(b)
}

func (p *pendingFile) Seek(offset int64, whence int) (int64, error) {
	if err := p.wait(); err != nil {
		return 0, err
	}
	return p.f.Seek(offset, whence)
}

func (p *pendingFile) Truncate(size int64) error {
	if err := p.wait(); err != nil {
		return err
	}
	return p.f.Truncate(size)
}

func (p *pendingFile) Close() error {
	if p.wait() != nil {
		return nil
	}
	return p.f.Close()
}

// gatedReader holds the client's bytes back until the log file is open;
// if it cannot be, the server reads end of file.
type gatedReader struct {
	r io.Reader
	p *pendingFile // nil once open
}

func (g *gatedReader) Read(b []byte) (int, error) {
	if g.p != nil {
		if g.p.wait() != nil {
			return 0, io.EOF
		}
		g.p = nil
	}
	return g.r.Read(b)
}

// Ungate implements proxy.GatedReader: a relay that splices reads the
// file under the gate itself, after the same wait.
func (g *gatedReader) Ungate() (io.Reader, func() error) {
	p := g.p
	return g.r, func() error {
		if p == nil {
			return nil
		}
		return p.wait()
	}
}

// openedWriter writes to w once the log file is open, and nothing if it
// could not be opened.
type openedWriter struct {
	w io.Writer
	p *pendingFile
}

func (o *openedWriter) Write(b []byte) (int, error) {
	if o.p.wait() != nil {
		return len(b), nil
	}
	return o.w.Write(b)
}
