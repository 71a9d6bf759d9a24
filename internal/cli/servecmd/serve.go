// Package servecmd implements `mcpward serve`: the local web app over the
// state directory's sessions (live from the hub), the repository's
// snapshots, saved results and the board; with --public, the live check
// of a public server URL.
package servecmd

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/cli/proxyflags"
	"github.com/mcpward/mcpward/internal/config"
	"github.com/mcpward/mcpward/internal/contract"
	"github.com/mcpward/mcpward/internal/hub"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/serve"
	"github.com/mcpward/mcpward/internal/session"
)

// DefaultListen is where the app listens: loopback only.
const DefaultListen = "127.0.0.1:7333"

// ServeOptions are the inputs of `mcpward serve`.
type ServeOptions struct {
	IO        *iostreams.IOStreams
	Version   string
	Now       func() time.Time
	LookupEnv func(string) (string, bool)

	Listen      string
	AllowRemote bool
	AllowHosts  []string
	StateDir    string
	History     int
	ConfigPath  string
	Dir         string
	Results     []string
	Board       string
	Public      bool
	NoToken     bool

	CheckTimeout     time.Duration
	CheckConcurrency int
	// AllowLoopback is the hidden test flag: the check's address policy
	// admits loopback and http://.
	AllowLoopback bool
	// Ready, when set, is told the app's URL once it listens (tests).
	Ready func(url string)
}

// NewCmdServe builds `mcpward serve`.
func NewCmdServe(f *cmdutil.Factory, runF func(context.Context, *ServeOptions) error) *cobra.Command {
	opts := &ServeOptions{IO: f.IOStreams, Version: f.Version, Now: f.Now, LookupEnv: f.StateEnv}
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Local web app: live sessions, snapshots and their diff, compat results, the board",
		Long: `Serve a read-only web app on 127.0.0.1: the sessions of the state directory,
live as proxies feed them (the hub of 'mcpward ui'; when another hub owns the
socket, the app follows the session logs instead), with the session report's
filter language; the snapshots of this repository (mcpward.json's snapshotDir)
and a diff of any two, worded as 'mcpward diff' words it; saved results
('mcpward compat --json > FILE.json') with the verdict grid; and the board.
Everything is embedded in the binary: nothing is fetched from elsewhere.

The app answers only GET and HEAD, refuses a Host or Origin that is not its
own (DNS rebinding) and listens on loopback; a --listen address that is not
loopback needs --allow-remote, and a public name in front of it --allow-host.
The URL it prints carries an access token (kept in a cookie once opened):
the loopback port is open to every user of the machine, the sessions are not.

With --public the app shows only the board and the live check: POST /api/check
runs the board's read-only probes (no tools/call, no credentials) on a public
https:// URL, under the board's address policy (the name is resolved once and
must be public; no redirects), with per-client and global rate limits, a cap
on checks at once, a time limit per check and a short result cache. A client
is its network (the /24 of an IPv4 address, the /64 of an IPv6 one): it runs
one check at once, and its checks hold slots for at most 3 minutes in any 10;
a check stops when its client leaves. The sessions, snapshots and results of
this machine are not served then.`,
		Example: `  mcpward serve                          # then open the URL it prints
  mcpward serve --listen 127.0.0.1:0     # any free port (printed)
  mcpward serve --results out/ --board boards/
  mcpward serve --public --listen 0.0.0.0:8080 --allow-remote --allow-host check.example.com`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := proxyflags.CheckListen(opts.Listen, opts.AllowRemote); err != nil {
				return err
			}
			if err := proxyflags.CheckAllowHosts(opts.AllowHosts); err != nil {
				return err
			}
			if opts.History < 0 {
				return cmdutil.FlagErrorf("--history must be 0 (all) or more")
			}
			if opts.CheckConcurrency < 1 {
				return cmdutil.FlagErrorf("--check-concurrency must be 1 or more")
			}
			if opts.CheckTimeout <= 0 {
				return cmdutil.FlagErrorf("--check-timeout must be positive")
			}
			if !opts.Public && cmd.Flags().Changed("check-concurrency") {
				return cmdutil.FlagErrorf("--check-concurrency applies to --public only")
			}
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			if runF != nil {
				return runF(ctx, opts)
			}
			return serveRun(ctx, opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Listen, "listen", DefaultListen, "`address` to listen on (port 0: any free port)")
	fl.BoolVar(&opts.AllowRemote, "allow-remote", false, "allow a --listen address that is not loopback")
	fl.StringArrayVar(&opts.AllowHosts, "allow-host", nil, "also accept this host `name` (or name:port) in Host and Origin, e.g. a reverse proxy's public name (repeatable)")
	fl.IntVar(&opts.History, "history", 100, "how many of the newest session logs to read at start (0: all)")
	cmdutil.AddStateDirFlag(cmd, f)
	fl.StringVar(&opts.ConfigPath, "config", "", "config `file` whose snapshotDir is shown (default mcpward.json)")
	fl.StringVar(&opts.Dir, "dir", "", "snapshot `dir`ectory (default: the config's snapshotDir, or .mcpward)")
	fl.StringArrayVar(&opts.Results, "results", nil, "`dir`ectory of saved results (*.json) to list (repeatable; default: the snapshot directory and .)")
	fl.StringVar(&opts.Board, "board", "", "board `file` (board run writes them), or a directory whose newest <date>.json is shown (default: boards/ when it has one)")
	fl.BoolVar(&opts.Public, "public", false, "serve the live check (POST /api/check) and the board only")
	fl.BoolVar(&opts.NoToken, "no-token", false, "serve without the access token (every user of this machine can then read the sessions)")
	cmdutil.TimeoutVar(fl, &opts.CheckTimeout, "check-timeout", serve.DefaultCheckTimeout, "time limit of one live check")
	fl.IntVar(&opts.CheckConcurrency, "check-concurrency", serve.DefaultConcurrency, "live checks running at once; more are refused (503)")
	fl.BoolVar(&opts.AllowLoopback, "allow-loopback-for-tests", false, "let the check's address policy accept loopback (tests only)")
	_ = fl.MarkHidden("allow-loopback-for-tests")
	return cmd
}

// snapshotDir is --dir, else the config's snapshotDir, else .mcpward.
func snapshotDir(opts *ServeOptions) (string, error) {
	if opts.Dir != "" {
		return opts.Dir, nil
	}
	path := opts.ConfigPath
	if path == "" {
		p, err := contract.DefaultConfigPath()
		if err != nil {
			return "", err
		}
		path = p
	}
	cfg, err := contract.LoadConfig(path)
	if errors.Is(err, contract.ErrNoConfig) && opts.ConfigPath == "" {
		return config.DefaultSnapshotDir, nil
	}
	if err != nil {
		return "", err
	}
	return contract.SnapshotDir(path, cfg), nil
}

// defaultBoard is boards/ when it holds a board file.
func defaultBoard() string {
	m, _ := filepath.Glob(filepath.Join("boards", "[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9].json"))
	if len(m) > 0 {
		return "boards"
	}
	return ""
}

func serveRun(ctx context.Context, opts *ServeOptions) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	so := &serve.Options{Version: opts.Version, Board: opts.Board, Public: opts.Public, AllowHosts: opts.AllowHosts, Now: opts.Now}
	if so.Board == "" {
		so.Board = defaultBoard()
	} else if _, err := os.Stat(so.Board); err != nil {
		return cmdutil.FlagErrorWrap(fmt.Errorf("--board %s: %w", so.Board, errors.Unwrap(err)))
	}
	if opts.Public {
		so.Check = &serve.CheckOptions{Timeout: opts.CheckTimeout, Concurrency: opts.CheckConcurrency, AllowLoopback: opts.AllowLoopback}
	} else {
		dir, err := snapshotDir(opts)
		if err != nil {
			return err
		}
		so.SnapshotDir = dir
		so.ResultDirs = opts.Results
		if len(so.ResultDirs) == 0 {
			so.ResultDirs = []string{dir, "."}
		}
		if opts.StateDir == "" {
			sd, err := session.StateDir(opts.LookupEnv)
			if err != nil {
				return err
			}
			opts.StateDir = sd
		}
		h, err := hub.New(ctx, hub.Options{StateDir: opts.StateDir, History: opts.History})
		so.HubMode = "socket"
		if errors.Is(err, hub.ErrHubRunning) {
			// `mcpward ui` (or another serve) has the socket: follow the
			// logs, which every proxy writes, instead.
			fmt.Fprintf(opts.IO.ErrOut, "mcpward serve: another hub has the socket%s; following the session logs instead\n", hub.HolderOf(err))
			h, err = hub.New(ctx, hub.Options{StateDir: opts.StateDir, History: opts.History, Socket: hub.NoSocket})
			so.HubMode = "logs"
		}
		if err != nil {
			return fmt.Errorf("start the hub: %w", err)
		}
		defer h.Close()
		so.Hub = h
	}
	if !opts.Public && !opts.NoToken {
		var b [24]byte
		if _, err := rand.Read(b[:]); err != nil {
			return fmt.Errorf("make the access token: %w", err)
		}
		so.Token = base64.RawURLEncoding.EncodeToString(b[:])
	}
	app, err := serve.New(so)
	if err != nil {
		return err
	}
	defer app.Close()

	ln, err := net.Listen("tcp", opts.Listen)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", opts.Listen, err)
	}
	srv := &http.Server{
		Handler:           app,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		BaseContext:       func(net.Listener) context.Context { return ctx },
	}
	url := "http://" + ln.Addr().String() + "/"
	if so.Token != "" {
		url += "?token=" + so.Token
	}
	fmt.Fprintln(opts.IO.Out, url)
	if opts.Ready != nil {
		opts.Ready(url)
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve on %s: %w", ln.Addr(), err)
	case <-ctx.Done():
	}
	cancel()
	sctx, scancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer scancel()
	if err := srv.Shutdown(sctx); err != nil {
		srv.Close()
	}
	<-errc
	return nil
}
