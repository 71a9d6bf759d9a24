// Package uicmd implements `mcpward ui`: the live terminal view of every
// recorded session, fed by the hub (live proxies over the state
// directory's socket, and the session logs).
package uicmd

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/hub"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/migrate/mcpsnoopfiles"
	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/settings"
	"github.com/mcpward/mcpward/internal/tui"
	"github.com/mcpward/mcpward/internal/tui/common"
	"github.com/mcpward/mcpward/internal/tui/hubsource"
)

// UIOptions are the inputs of `mcpward ui`.
type UIOptions struct {
	IO        *iostreams.IOStreams
	Version   string
	LookupEnv func(string) (string, bool)
	Environ   func() []string
	History   int
	StateDir  string
	Theme     string
	// NoColor is set by NO_COLOR or when stdout has colour off.
	NoColor bool
	// Intro is a line shown under the header (demo --ui says what plays).
	Intro string
	// Files are session logs to open instead of the hub's live view.
	Files []string
	// NoTofu: the live view records no baseline on first sight (--no-tofu,
	// or no-tofu = true in .mcpward.toml). Logs opened as Files never get
	// one.
	NoTofu bool
	// Live is set by the live view over the hub (not for Files): only it
	// records first-seen baselines.
	Live bool
}

// NewCmdUI builds `mcpward ui`.
func NewCmdUI(f *cmdutil.Factory, runF func(context.Context, *UIOptions) error) *cobra.Command {
	opts := &UIOptions{IO: f.IOStreams, Version: f.Version, LookupEnv: f.StateEnv, Environ: f.Environ}
	cmd := &cobra.Command{
		Use:   "ui [LOG…]",
		Short: "Live view of recorded sessions",
		Long: `Show every session recorded by mcpward proxy: live over the state directory's
socket, and from the newest --history session logs (0 reads all). Logs created or
grown later are picked up too.

With LOG files, show the sessions in them instead (mcpward's logs or
mcpsnoop's, as mcpsnoop open did): read once, nothing live.

Sessions whose tools drifted from their server's baseline are marked "! label".
Live, a server seen for the first time gets its complete tool list recorded
as its baseline (trust on first use; --no-tofu, or no-tofu = true in
.mcpward.toml, turns that off). LOG files are only read against baselines.

Keys: enter opens, / filters (tool:, method:, id:, dir:, kind:, status:), : runs
a command (it lists them), ? lists every key. q on the sessions page, or
ctrl+c anywhere, quits.`,
		Example: `  mcpward ui
  mcpward ui --history 0 --theme light
  mcpward ui ~/.local/state/mcpsnoop/sessions/server.py-4242-0a1b2c3d4e5f.jsonl`,
		RunE: func(cmd *cobra.Command, args []string) error {
			for _, a := range args {
				if a == "-" {
					return cmdutil.FlagErrorf("the view reads its keys from stdin: give the log as a file, not -")
				}
			}
			if len(args) > 0 {
				opts.Files = args
			}
			if opts.History < 0 {
				return cmdutil.FlagErrorf("--history must be 0 (all) or more")
			}
			switch opts.Theme {
			case "dark", "light", "auto":
			default:
				return cmdutil.FlagErrorf("--theme must be dark, light or auto")
			}
			if v, ok := lookup(opts.LookupEnv, "NO_COLOR"); ok && v != "" {
				opts.NoColor = true
			}
			if !cmd.Flags().Changed("no-tofu") {
				cwd := ""
				if f.Getwd != nil {
					cwd, _ = f.Getwd()
				}
				file, err := settings.Load("", cwd, f.LookupEnv, mcpsnoopfiles.Settings)
				if err != nil {
					return err
				}
				opts.NoTofu = file.NoTofu != nil && *file.NoTofu
			}
			if opts.StateDir == "" {
				dir, err := session.StateDir(opts.LookupEnv)
				if err != nil {
					return err
				}
				opts.StateDir = dir
			}
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			if runF != nil {
				return runF(ctx, opts)
			}
			return uiRun(ctx, opts)
		},
	}
	cmd.Flags().IntVar(&opts.History, "history", 20, "how many of the newest session logs to read at start (0: all)")
	cmdutil.AddStateDirFlag(cmd, f)
	cmd.Flags().StringVar(&opts.Theme, "theme", "auto", "colour theme: dark, light or auto")
	cmd.Flags().BoolVar(&opts.NoTofu, "no-tofu", false, "record no tool baseline when a server is first seen (trust on first use)")
	_ = cmd.RegisterFlagCompletionFunc("theme", cobra.FixedCompletions([]string{"dark", "light", "auto"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

func lookup(f func(string) (string, bool), k string) (string, bool) {
	if f == nil {
		return "", false
	}
	return f(k)
}

// modelOptions are the root model's options: the sources, the state
// directory's baselines, and the theme.
func modelOptions(ctx context.Context, opts *UIOptions, src common.Source, replayer common.Replayer, exporter common.Exporter) tui.Options {
	return tui.Options{
		Source:    src,
		Replayer:  replayer,
		Exporter:  exporter,
		Baseline:  baselineLoader(opts.StateDir),
		Trust:     truster(opts),
		StateDir:  opts.StateDir,
		Dark:      opts.Theme != "light",
		AutoTheme: opts.Theme == "auto",
		NoColor:   opts.NoColor,
		Version:   opts.Version,
		Context:   ctx,
		Intro:     opts.Intro,
	}
}

// baselineLoader reads the baselines `mcpward sessions baseline` records
// under the state directory; nil (no drift marks) without one.
func baselineLoader(stateDir string) common.BaselineLoader { return tui.BaselinesIn(stateDir) }

// truster records first-seen baselines for the live view (not for files)
// unless --no-tofu; nil otherwise.
func truster(opts *UIOptions) common.BaselineTruster {
	if !opts.Live || opts.NoTofu {
		return nil
	}
	return tui.TrustIn(opts.StateDir, time.Now)
}

func uiRun(ctx context.Context, opts *UIOptions) error {
	if len(opts.Files) > 0 {
		return filesRun(ctx, opts)
	}
	opts.Live = true
	if err := tui.NeedTerminal(opts.IO); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	h, err := hub.New(ctx, hub.Options{StateDir: opts.StateDir, History: opts.History})
	if errors.Is(err, hub.ErrHubRunning) {
		// Another `mcpward ui` (or `mcpward serve`) has the socket: follow
		// the session logs, which every proxy writes, instead, as serve
		// does. Sessions show up as their logs grow rather than frame by
		// frame from the socket.
		note := "another hub has the socket" + hub.HolderOf(err) + ": following the session logs instead"
		fmt.Fprintf(opts.IO.ErrOut, "mcpward ui: %s\n", note)
		if opts.Intro == "" {
			opts.Intro = note
		}
		h, err = hub.New(ctx, hub.Options{StateDir: opts.StateDir, History: opts.History, Socket: hub.NoSocket})
	}
	if err != nil {
		return fmt.Errorf("start the live view: %w", err)
	}
	defer h.Close()
	logs := hubLogs(h)
	return Run(ctx, opts, hubsource.New(h), logReplayer{logOf: logs, version: opts.Version, environ: opts.Environ}, logExporter{logOf: logs, version: opts.Version})
}

// Run shows the live view over src until the user quits (tui.Run with
// the command's model options). Sessions are marked against the
// baselines in the state directory, which the view only reads.
func Run(ctx context.Context, opts *UIOptions, src common.Source, replayer common.Replayer, exporter common.Exporter) error {
	return tui.Run(ctx, modelOptions(ctx, opts, src, replayer, exporter), opts.IO)
}
