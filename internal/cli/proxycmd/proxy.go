// Package proxycmd implements `mcpward proxy`: the stdio shim
// (`mcpward proxy -- <cmd…>`, also `mcpward -- <cmd…>`) and the HTTP
// reverse proxy (`mcpward proxy --target URL`), both recording every frame
// to a session log.
package proxycmd

import (
	"context"
	"crypto/rand"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/cli/proxyflags"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/feed"
	"github.com/mcpward/mcpward/internal/proxy"
	"github.com/mcpward/mcpward/internal/recording"
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
	if lg.HasFile() {
		// The log file is being opened while the server starts. The
		// client's bytes wait for it; if it cannot be opened, the server
		// gets none of them, is stopped, and the shim fails as it did
		// when it opened the log first.
		stdin = lg.Gate(stdin)
		go func() {
			if lg.Wait() != nil {
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
		if werr := lg.Wait(); werr != nil {
			return werr
		}
		if err != nil {
			fmt.Fprintf(opts.IO.ErrOut, "mcpward: %v (log %s is incomplete)\n", err, lg.Path())
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

// openLog opens the session log (startLog) and waits for the file: the
// HTTP proxy, which no client waits for at start, fails before listening
// if it cannot record. It returns the file's path ("" with --no-trace).
func openLog(opts *ProxyOptions, label string) (*recording.Recording, string, error) {
	lg, err := startLog(opts, label)
	if err != nil || !lg.HasFile() {
		return lg, "", err
	}
	if err := lg.Wait(); err != nil {
		_ = lg.Close()
		return nil, "", err
	}
	return lg, lg.Path(), nil
}

// startLog resolves the sinks of the recording and opens it: the log file
// (--trace-file, or a new file in the state directory), the redaction
// (--redact-*), the live feed and the OTLP exporter (--otlp-endpoint). The
// file is opened, and the live feed started, on a goroutine; an error
// doing so is the recording's (Wait). With --no-trace it returns a
// recording that writes nothing if the OTLP exporter needs one, else nil.
func startLog(opts *ProxyOptions, label string) (*recording.Recording, error) {
	if opts.NoTrace && opts.OTLPEndpoint == "" {
		return nil, nil
	}
	id, err := session.NewID(opts.Now(), rand.Reader)
	if err != nil {
		return nil, err
	}
	red, err := redact.New(opts.Redact)
	if err != nil {
		return nil, fault.Input(err)
	}
	ro := &recording.Options{Session: id, Label: label, Now: opts.Now, Warn: opts.IO.ErrOut, Redact: red}
	if opts.OTLPEndpoint != "" {
		if ro.OTLP, err = newExporter(opts); err != nil {
			return nil, err
		}
	}
	if !opts.NoTrace {
		ro.File = &recording.File{Open: func() (*os.File, string, error) { return createLogFile(opts, label, id) }}
		ro.Feed = openFeed(opts)
	}
	return recording.Open(ro), nil
}

// openFeed returns the live feed to a running 'mcpward ui' hub, or nil
// for no feed. A socket path the OS cannot use is a note on stderr, not an
// error.
func openFeed(opts *ProxyOptions) *recording.Feed {
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
	return &recording.Feed{Socket: sock, PID: os.Getpid()}
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
