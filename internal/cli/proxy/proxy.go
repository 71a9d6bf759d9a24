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
	"net"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/feed"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/otlp"
	"github.com/mcpward/mcpward/internal/proxy"
	"github.com/mcpward/mcpward/internal/redact"
	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/settings"
)

// ProxyOptions are the inputs of `mcpward proxy`.
type ProxyOptions struct {
	IO        *iostreams.IOStreams
	Now       func() time.Time
	LookupEnv func(string) (string, bool)
	Environ   func() []string
	Getwd     func() (string, error)
	Version   string

	// Command is the stdio server's argv (after --).
	Command []string
	// Target is the upstream URL of the HTTP proxy.
	Target      *url.URL
	Listen      string
	AllowRemote bool
	// AllowHosts are the --allow-host names a loopback HTTP proxy accepts
	// in Host and Origin besides loopback ones.
	AllowHosts []string
	TLSCert    string
	TLSKey     string

	Label     string
	TraceFile string
	NoTrace   bool
	// Grace is the time the server gets after a forwarded signal.
	Grace time.Duration

	// Redact is what the session log hides (--redact-*); the relayed bytes
	// are never changed.
	Redact redact.Config
	// ConfigFile is --config-file; ConfigPath the settings file that was
	// applied ("" for none).
	ConfigFile string
	ConfigPath string

	// OTLPEndpoint is the collector spans of completed calls go to;
	// OTLPHeaders the raw --otlp-header K=V flags, OTLPHeader them parsed
	// with ${ENV} expanded.
	OTLPEndpoint string
	OTLPHeaders  []string
	OTLPHeader   map[string]string

	// HubSocket is the live view's socket (default: hub.sock in the state
	// directory); NoFeed turns the live feed off.
	HubSocket string
	NoFeed    bool
}

// defaultListen is the HTTP proxy's listen address: loopback only.
const defaultListen = "127.0.0.1:7000"

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
			if at := cmd.ArgsLenAtDash(); at >= 0 {
				opts.Command = append([]string(nil), args[at:]...)
				args = args[:at]
			}
			if len(args) > 0 {
				return cmdutil.FlagErrorf("unexpected argument %q (the server command goes after --)", args[0])
			}
			if err := opts.applySettings(cmd); err != nil {
				return err
			}
			if err := opts.validate(cmd, target); err != nil {
				return err
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return proxyRun(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&target, "target", "", "upstream `URL` of an HTTP MCP server (HTTP reverse proxy mode)")
	fl.StringVar(&opts.Listen, "listen", defaultListen, "`address` the HTTP proxy listens on")
	fl.BoolVar(&opts.AllowRemote, "allow-remote", false, "allow a --listen address that is not loopback")
	fl.StringArrayVar(&opts.AllowHosts, "allow-host", nil, "accept this host `name` (or name:port) in Host and Origin on a loopback --listen, which refuses other names against DNS rebinding (repeatable)")
	fl.StringVar(&opts.TLSCert, "tls-cert", "", "serve HTTPS with this certificate `file` (needs --tls-key)")
	fl.StringVar(&opts.TLSKey, "tls-key", "", "private key `file` of --tls-cert")
	fl.StringVar(&opts.Label, "label", "", "server label in the log file name (default: derived from the command or target)")
	fl.StringVar(&opts.TraceFile, "trace-file", "", "write the session log to this `file` (appended) instead of the state directory")
	fl.BoolVar(&opts.NoTrace, "no-trace", false, "relay only, record nothing")
	fl.DurationVar(&opts.Grace, "grace", proxy.DefaultGrace, "time the server gets to exit after a forwarded signal before it is killed")
	fl.BoolVar(&opts.Redact.Secrets, "redact-secrets", false, "hide secrets in the log: API keys, tokens, JWTs, credential-named members and arguments")
	fl.StringArrayVar(&opts.Redact.Keys, "redact-key", nil, "hide the values of object members with this `name` (repeatable, case-insensitive)")
	fl.StringArrayVar(&opts.Redact.Values, "redact-value", nil, "hide every match of this `regexp` in the log (repeatable)")
	fl.StringArrayVar(&opts.Redact.Paths, "redact-path", nil, "hide the value at this `path` of each message, e.g. params.arguments.pin or $..token (repeatable)")
	fl.StringVar(&opts.OTLPEndpoint, "otlp-endpoint", "", "send a span per completed call to this OTLP/HTTP collector `URL` (e.g. http://127.0.0.1:4318)")
	fl.StringArrayVar(&opts.OTLPHeaders, "otlp-header", nil, "`K=V` header for the OTLP collector, ${ENV} expanded (repeatable)")
	fl.StringVar(&opts.HubSocket, "hub-socket", "", "stream records live to the 'mcpward ui' hub at this socket `path` (default: hub.sock in the state directory)")
	fl.BoolVar(&opts.NoFeed, "no-feed", false, "do not stream records to a running 'mcpward ui' (the log is written all the same)")
	fl.StringVar(&opts.ConfigFile, "config", "", "read defaults from this settings `file` instead of ./.mcpward.toml or ~/.config/mcpward/config.toml")
	// --config-file is the name this flag had; kept, hidden, for scripts.
	fl.StringVar(&opts.ConfigFile, "config-file", "", "alias of --config")
	_ = fl.MarkHidden("config-file")
	cmdutil.AddStateDirFlag(cmd, f)
	return cmd
}

// applySettings loads the settings file and sets the flags the user did
// not set from it: flags win. A repeatable flag given on the command line
// replaces the file's values for it.
func (o *ProxyOptions) applySettings(cmd *cobra.Command) error {
	cwd := ""
	if o.Getwd != nil {
		cwd, _ = o.Getwd()
	}
	file, err := settings.Load(o.ConfigFile, cwd, o.LookupEnv)
	if err != nil {
		return err
	}
	o.ConfigPath = file.Path
	fl := cmd.Flags()
	// --trace-file on the command line overrides the file's no-trace and
	// --no-trace its trace-file: they are one setting.
	outputSet := fl.Changed("trace-file") || fl.Changed("no-trace")
	for _, fv := range file.Flags() {
		f := fl.Lookup(fv.Flag)
		if f == nil || f.Changed || (outputSet && (fv.Flag == "trace-file" || fv.Flag == "no-trace")) {
			continue
		}
		if err := f.Value.Set(fv.Value); err != nil {
			return fault.Input(fmt.Errorf("config %s: %s: %w", file.Path, fv.Flag, err))
		}
	}
	return nil
}

func (o *ProxyOptions) validate(cmd *cobra.Command, target string) error {
	switch {
	case len(o.Command) > 0 && target != "":
		return cmdutil.FlagErrorf("give either a server command after -- or --target, not both")
	case len(o.Command) == 0 && target == "":
		return cmdutil.FlagErrorf("no server: give a command after -- or --target URL")
	case o.NoTrace && o.TraceFile != "":
		return cmdutil.FlagErrorf("--no-trace and --trace-file contradict each other")
	case (o.TLSCert == "") != (o.TLSKey == ""):
		return cmdutil.FlagErrorf("--tls-cert and --tls-key go together")
	case o.Grace <= 0:
		return cmdutil.FlagErrorf("--grace must be positive, got %s", o.Grace)
	}
	if o.Label != "" {
		if err := session.CheckLabel(o.Label); err != nil {
			return cmdutil.FlagErrorf("--label: %v", err)
		}
	}
	if _, err := redact.New(o.Redact); err != nil {
		return cmdutil.FlagErrorf("--redact-*: %v", err)
	}
	if err := o.validateOTLP(); err != nil {
		return err
	}
	if target == "" {
		for _, name := range []string{"listen", "allow-remote", "allow-host", "tls-cert", "tls-key"} {
			if cmd.Flags().Changed(name) {
				return cmdutil.FlagErrorf("--%s applies only to the HTTP proxy (--target)", name)
			}
		}
		return nil
	}
	u, err := url.Parse(target)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return cmdutil.FlagErrorf("--target must be an http:// or https:// URL, got %q", target)
	}
	o.Target = u
	if err := checkListen(o.Listen, o.AllowRemote); err != nil {
		return err
	}
	return checkAllowHosts(o.AllowHosts)
}

// checkListen refuses a non-loopback listen address unless allowed: a
// recording proxy open to the network would hand anyone a way to the server
// and a copy of its traffic.
func checkListen(addr string, allowRemote bool) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || port == "" {
		return cmdutil.FlagErrorf("--listen must be host:port, got %q", addr)
	}
	if allowRemote || host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return cmdutil.FlagErrorf("--listen %s is not a loopback address; add --allow-remote to listen on the network", addr)
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
	lg, path, err := openLog(opts, label)
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
	if lg != nil {
		rec = lg
	}
	// The root context is cancelled by the same signals; they are forwarded
	// from sigs instead, so the server gets SIGINT as SIGINT.
	st, runErr := proxy.RunStdio(context.WithoutCancel(ctx), &proxy.StdioOptions{
		Command: opts.Command, Env: opts.Environ(), Cwd: cwd,
		Stdin: opts.IO.In, Stdout: opts.IO.Out, Stderr: opts.IO.ErrOut,
		Recorder: rec, Signals: sigs, Grace: opts.Grace, Now: opts.Now, Version: opts.Version,
	})
	if lg != nil {
		if err := lg.Close(); err != nil {
			fmt.Fprintf(opts.IO.ErrOut, "mcpward: %v (log %s is incomplete)\n", err, path)
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
	sink *feed.Sink
	warn io.Writer
}

// Close flushes the log, then the exporter (whose failures are reported
// on warn: they do not make the log incomplete), then closes the file.
func (l *logFile) Close() error {
	err := l.Log.Close()
	if l.sink != nil {
		// The log holds every record; the hub re-reads what the feed missed.
		_ = l.sink.Close()
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

// openLog opens the session log: --trace-file, or a new file in the state
// directory. With --no-trace it returns a Log that writes nothing if the
// OTLP exporter needs one, else nil.
func openLog(opts *ProxyOptions, label string) (*logFile, string, error) {
	if opts.NoTrace && opts.OTLPEndpoint == "" {
		return nil, "", nil
	}
	id, err := session.NewID(opts.Now(), rand.Reader)
	if err != nil {
		return nil, "", err
	}
	// Frames lost to a full disk are news at once, not only at exit.
	lo := &proxy.LogOptions{Session: id, Label: label, Now: opts.Now, Warn: opts.IO.ErrOut}
	red, err := redact.New(opts.Redact)
	if err != nil {
		return nil, "", fault.Input(err)
	}
	if red.Enabled() {
		filter, httpFields := proxy.RedactFilter(red), proxy.RedactHTTPFilter(red)
		lo.Filter = func(r *session.Record) { filter(r); httpFields(r) }
	}
	lf := &logFile{warn: opts.IO.ErrOut}
	if opts.OTLPEndpoint != "" {
		if lf.exp, err = newExporter(opts); err != nil {
			return nil, "", err
		}
		lo.Export = lf.exp.Observe
	}
	path := ""
	var w io.Writer
	if !opts.NoTrace {
		f, p, err := createLogFile(opts, label, id)
		if err != nil {
			if lf.exp != nil {
				_ = lf.exp.Close(context.Background())
			}
			return nil, "", err
		}
		lf.f, w, path = f, f, p
		lf.sink = openFeed(opts, id, label, p)
		if lf.sink != nil {
			sink := lf.sink
			lo.FeedLine = func(r *session.Record, line [][]byte) { sink.Line(r.Seq, line...) }
		}
	}
	lf.Log = proxy.NewLog(w, lo)
	return lf, path, nil
}

// openFeed starts the live feed to a running 'mcpward ui' hub. The feed
// never blocks the relay: without a hub it keeps a bounded buffer and the
// hub, once started, re-reads what it missed from the log at logPath. A
// socket path the OS cannot use is a note on stderr, not an error.
func openFeed(opts *ProxyOptions, id, label, logPath string) *feed.Sink {
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
	if abs, err := filepath.Abs(logPath); err == nil {
		logPath = abs
	}
	return feed.New(&feed.Options{Socket: sock, Session: id, Label: label, Log: logPath, PID: os.Getpid()})
}

func createLogFile(opts *ProxyOptions, label, id string) (*os.File, string, error) {
	path := opts.TraceFile
	flags := os.O_WRONLY | os.O_CREATE | os.O_APPEND
	if path == "" {
		dir, err := session.StateDir(opts.LookupEnv)
		if err != nil {
			return nil, "", cmdutil.WithHint(fault.Input(err), "use --trace-file PATH or --no-trace")
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
