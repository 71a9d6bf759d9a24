// Package proxy implements `mcpward proxy`: the stdio shim
// (`mcpward proxy -- <cmd…>`, also `mcpward -- <cmd…>`) and the HTTP
// reverse proxy (`mcpward proxy --target URL`), both recording every frame
// to a session log.
package proxy

import (
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/cli/proxyflags"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/feed"
	"github.com/mcpward/mcpward/internal/otlp"
	"github.com/mcpward/mcpward/internal/proxy"
	"github.com/mcpward/mcpward/internal/redact"
	"github.com/mcpward/mcpward/internal/session"
)

// ProxyOptions are the inputs of `mcpward proxy`; the flag set and its
// validation live in proxyflags, which wrap shares.
type ProxyOptions = proxyflags.Options

// defaultListen is the HTTP proxy's listen address: loopback only.
const defaultListen = proxyflags.DefaultListen

// NewCmdProxy builds `mcpward proxy`.
func NewCmdProxy(f *cmdutil.Factory, runF func(context.Context, *ProxyOptions) error) *cobra.Command {
	opts := &ProxyOptions{
		IO: f.IOStreams, Now: f.Now, LookupEnv: f.StateEnv, Environ: f.Environ, Getwd: f.Getwd, Version: f.Version,
	}
	var target string
	cmd := &cobra.Command{
		Use:   "proxy [flags] (-- <server command…> | --target URL)",
		Short: "Relay and record an MCP server's traffic (stdio shim or HTTP reverse proxy)",
		Long: `Sit in the pipe between an MCP client and server and record every frame to a
session log, without changing a byte of what they exchange.

As a stdio shim, put 'mcpward --' (or 'mcpward proxy --') in front of the
server command in your client's config. The server's stderr passes through,
SIGHUP, SIGINT and SIGTERM are forwarded to it and its children, and mcpward
exits with its exit code. The server never outlives mcpward.

As an HTTP reverse proxy, point the client at --listen instead of the
server: every path is forwarded unchanged to the --target origin, responses
(JSON and SSE) are streamed through as they arrive. On a loopback --listen
address it refuses requests whose Host is not a loopback name with its port,
or whose Origin is not on a loopback host (DNS rebinding); --allow-host NAME
admits another name.

Logs go to <state>/sessions/<label>-<id>.jsonl, where <state> is
$MCPWARD_HOME, else $XDG_STATE_HOME/mcpward, else ~/.local/state/mcpward.
The format is documented in docs/session-log.md.`,
		Example: `  mcpward -- npx -y @modelcontextprotocol/server-everything
  mcpward proxy --label weather -- python -m weather_server
  mcpward proxy --target http://127.0.0.1:8080/mcp --listen 127.0.0.1:7000`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := proxyflags.Parse(cmd, args, opts, target); err != nil {
				return err
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return proxyRun(cmd.Context(), opts)
		},
	}
	proxyflags.AddFlags(cmd, opts, &target)
	cmdutil.AddStateDirFlag(cmd, f)
	return cmd
}

func proxyRun(ctx context.Context, opts *ProxyOptions) error {
	if opts.Target != nil {
		return httpRun(ctx, opts)
	}
	return stdioRun(ctx, opts)
}

func stdioRun(ctx context.Context, opts *ProxyOptions) error {
	label := opts.Label
	if label == "" {
		label = session.DeriveLabel(opts.Command)
	}
	lg, err := startLog(opts, label)
	if err != nil {
		return err
	}
	if opts.ConfigPath != "" {
		// A file in the working directory changes what is recorded: say so.
		fmt.Fprintf(opts.IO.ErrOut, "mcpward: settings from %s\n", opts.ConfigPath)
	}
	// A client that closes our stdout must not kill us by SIGPIPE before
	// the server is told and reaped: the write then fails and is handled.
	signal.Ignore(syscall.SIGPIPE)
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, proxy.ShimSignals...)
	defer signal.Stop(sigs)
	cwd, _ := opts.Getwd()
	var rec proxy.Recorder
	stdin := opts.IO.In
	if lg != nil {
		rec = lg
	}
	if pf := lg.pendingFile(); pf != nil {
		// The log file is being opened while the server starts. The
		// client's bytes wait for it; if it cannot be opened, the server
		// gets none of them, is stopped, and the shim fails as it did
		// when it opened the log first.
		stdin = &gatedReader{r: stdin, p: pf}
		go func() {
			if pf.wait() != nil {
				select {
				case sigs <- syscall.SIGTERM:
				default:
				}
			}
		}()
	}
	// The root context is cancelled by the same signals; they are forwarded
	// from sigs instead, so the server gets SIGINT as SIGINT.
	st, runErr := proxy.RunStdio(context.WithoutCancel(ctx), &proxy.StdioOptions{
		Command: opts.Command, Env: opts.Environ(), Cwd: cwd,
		Stdin: stdin, Stdout: opts.IO.Out, Stderr: opts.IO.ErrOut,
		Recorder: rec, Signals: sigs, Subreap: true, Grace: opts.Grace, Now: opts.Now, Version: opts.Version,
	})
	if lg != nil {
		err := lg.Close()
		if pf := lg.pendingFile(); pf != nil && pf.wait() != nil {
			return pf.wait()
		}
		if err != nil {
			fmt.Fprintf(opts.IO.ErrOut, "mcpward: %v (log %s is incomplete)\n", err, lg.path())
		}
	}
	if runErr != nil {
		return runErr
	}
	if st.Code == 0 {
		return nil
	}
	return &cmdutil.VerdictError{Code: st.Code}
}

// logFile is a Log, the file under it (nil with --no-trace) and the live
// OTLP exporter fed by it (nil without --otlp-endpoint).
type logFile struct {
	*proxy.Log
	f    io.Closer
	exp  *otlp.Exporter
	warn io.Writer
	// file is the log file being opened (nil with --no-trace).
	file *pendingFile
}

// pendingFile returns the log file being opened, or nil.
func (l *logFile) pendingFile() *pendingFile {
	if l == nil {
		return nil
	}
	return l.file
}

// path is the log file's path ("" with --no-trace).
func (l *logFile) path() string {
	if l.file == nil || l.file.wait() != nil {
		return ""
	}
	return l.file.path
}

// Close flushes the log, then the exporter (whose failures are reported
// on warn: they do not make the log incomplete), then closes the file.
func (l *logFile) Close() error {
	err := l.Log.Close()
	if l.file != nil && l.file.wait() == nil && l.file.sink != nil {
		// The log holds every record; the hub re-reads what the feed missed.
		_ = l.file.sink.Close()
	}
	if l.exp != nil {
		ctx, cancel := context.WithTimeout(context.Background(), otlpCloseGrace)
		if xerr := l.exp.Close(ctx); xerr != nil {
			fmt.Fprintf(l.warn, "mcpward: %v\n", xerr)
		}
		cancel()
	}
	if l.f == nil {
		return err
	}
	if cerr := l.f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("close session log: %w", cerr)
	}
	return err
}

// openLog opens the session log (startLog) and waits for the file: the
// HTTP proxy, which no client waits for at start, fails before listening
// if it cannot record. It returns the file's path ("" with --no-trace).
func openLog(opts *ProxyOptions, label string) (*logFile, string, error) {
	lg, err := startLog(opts, label)
	if err != nil || lg.pendingFile() == nil {
		return lg, "", err
	}
	if err := lg.file.wait(); err != nil {
		_ = lg.Close()
		return nil, "", err
	}
	return lg, lg.file.path, nil
}

// startLog opens the session log: --trace-file, or a new file in the state
// directory. The file is opened, and the live feed started, on a goroutine
// (see pendingFile); an error doing so is the pendingFile's. With
// --no-trace it returns a Log that writes nothing if the OTLP exporter
// needs one, else nil.
func startLog(opts *ProxyOptions, label string) (*logFile, error) {
	if opts.NoTrace && opts.OTLPEndpoint == "" {
		return nil, nil
	}
	id, err := session.NewID(opts.Now(), rand.Reader)
	if err != nil {
		return nil, err
	}
	// Frames lost to a full disk are news at once, not only at exit.
	lo := &proxy.LogOptions{Session: id, Label: label, Now: opts.Now, Warn: opts.IO.ErrOut}
	red, err := redact.New(opts.Redact)
	if err != nil {
		return nil, fault.Input(err)
	}
	if red.Enabled() {
		filter, httpFields := proxy.RedactFilter(red), proxy.RedactHTTPFilter(red)
		lo.Filter = func(r *session.Record) { filter(r); httpFields(r) }
	}
	lf := &logFile{warn: opts.IO.ErrOut}
	if opts.OTLPEndpoint != "" {
		if lf.exp, err = newExporter(opts); err != nil {
			return nil, err
		}
		lo.Export = lf.exp.Observe
	}
	var w io.Writer
	if !opts.NoTrace {
		pf := &pendingFile{ready: make(chan struct{})}
		startFeed := openFeed(opts, id, label)
		go func() {
			defer close(pf.ready)
			if pf.f, pf.path, pf.err = createLogFile(opts, label, id); pf.err == nil && startFeed != nil {
				pf.sink = startFeed(pf.path)
			}
		}()
		lf.file, lf.f, w = pf, pf, pf
		// Frames lost to an unopened file are not news: the open's error is.
		lo.Warn = &openedWriter{w: opts.IO.ErrOut, p: pf}
		if startFeed != nil {
			lo.FeedLine = func(r *session.Record, line [][]byte) {
				if pf.wait() == nil && pf.sink != nil {
					pf.sink.Line(r.Seq, line...)
				}
			}
		}
	}
	lf.Log = proxy.NewLog(w, lo)
	return lf, nil
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

// openFeed returns the function that starts the live feed to a running
// 'mcpward ui' hub once the log is at logPath, or nil for no feed. The
// feed never blocks the relay: without a hub it keeps a bounded buffer and
// the hub, once started, re-reads what it missed from the log. A socket
// path the OS cannot use is a note on stderr, not an error.
func openFeed(opts *ProxyOptions, id, label string) func(logPath string) *feed.Sink {
	if opts.NoFeed {
		return nil
	}
	sock := opts.HubSocket
	if sock == "" {
		dir, err := session.StateDir(opts.LookupEnv)
		if err != nil {
			return nil
		}
		sock = feed.SocketPath(dir)
	}
	if err := feed.CheckSocketPath(sock); err != nil {
		fmt.Fprintf(opts.IO.ErrOut, "mcpward: live feed off: %v\n", err)
		return nil
	}
	if err := feed.CheckOwner(sock); err != nil {
		fmt.Fprintf(opts.IO.ErrOut, "mcpward: live feed off: %v\n", err)
		return nil
	}
	return func(logPath string) *feed.Sink {
		if abs, err := filepath.Abs(logPath); err == nil {
			logPath = abs
		}
		return feed.New(&feed.Options{Socket: sock, Session: id, Label: label, Log: logPath, PID: os.Getpid()})
	}
}

func createLogFile(opts *ProxyOptions, label, id string) (*os.File, string, error) {
	path := opts.TraceFile
	flags := os.O_WRONLY | os.O_CREATE | os.O_APPEND
	if path == "" {
		dir, err := session.StateDir(opts.LookupEnv)
		if err != nil {
			return nil, "", fault.WithHint(fault.Input(err), "use --trace-file PATH or --no-trace")
		}
		state := session.Layout{Root: dir}
		if err := os.MkdirAll(state.Sessions(), 0o700); err != nil {
			return nil, "", fmt.Errorf("create session directory: %w", err)
		}
		path = state.Log(label, id)
		flags |= os.O_EXCL
	}
	f, err := os.OpenFile(path, flags, 0o600)
	if err != nil {
		return nil, "", fault.Input(fmt.Errorf("open session log: %w", err))
	}
	return f, path, nil
}
