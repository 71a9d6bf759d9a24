// Package boardcmd implements `mcpward board run` and `mcpward board render`:
// probe a roster of public servers read-only and render the board page.
package boardcmd

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/atomicfile"
	engine "github.com/mcpward/mcpward/internal/board"
	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/plural"
	"github.com/mcpward/mcpward/internal/report"
)

// BoardOptions are the inputs of `mcpward board run|render`.
type BoardOptions struct {
	IO      *iostreams.IOStreams
	Now     func() time.Time
	Version string

	Input         string // roster (run) or board JSON (render)
	Out           string
	Timeout       time.Duration
	AllowLoopback bool
}

// NewCmdBoard builds `mcpward board` with its run and render verbs.
func NewCmdBoard(f *cmdutil.Factory, runF func(context.Context, string, *BoardOptions) error) *cobra.Command {
	cmd := &cobra.Command{Use: "board", Short: "Probe a roster of public servers read-only and render the board page"}
	mk := func(verb, use, short string) *cobra.Command {
		opts := &BoardOptions{IO: f.IOStreams, Now: f.Now, Version: f.Version}
		c := &cobra.Command{
			Use: use, Short: short, Args: cobra.ExactArgs(1),
			RunE: func(c *cobra.Command, args []string) error {
				opts.Input = args[0]
				if opts.Out == "" {
					return cmdutil.FlagErrorf("--out DIR is required")
				}
				if runF != nil {
					return runF(c.Context(), verb, opts)
				}
				if verb == "run" {
					return runRun(c.Context(), opts)
				}
				return renderRun(opts)
			},
		}
		c.Flags().StringVar(&opts.Out, "out", "", "output `dir`ectory")
		if verb == "run" {
			cmdutil.TimeoutVar(c.Flags(), &opts.Timeout, "timeout", 10*time.Second, "per-request timeout")
			c.Flags().BoolVar(&opts.AllowLoopback, "allow-loopback-for-tests", false, "let the address policy accept loopback (tests only)")
			_ = c.Flags().MarkHidden("allow-loopback-for-tests")
		}
		return c
	}
	run := mk("run", "run ROSTER --out DIR", "Probe every roster server (no tools/call, no credentials) and write DIR/<date>.json")
	run.Long = `Probe every server of a roster read-only (lists, discovery and the transport
rules; never tools/call, never credentials) and write the day's results to
DIR/<date>.json, for 'mcpward board render'.

The roster is a JSON file of named servers; unknown keys are errors and every
URL must be https:// (addresses are resolved once and must be public):

  {"targets": {
    "weather": {"url": "https://mcp.example.com/mcp", "protocolVersion": "2025-11-25",
                "notes": "vendor-hosted", "reportedAt": "2026-11-02T00:00:00Z"}
  }}

reportedAt and publishedAt drive the disclosure embargo: the detail of a
MUST-level finding is published only when the roster gives both, at least 7
days apart (reported to the server's owner, then published); until then the
board withholds it.

A server whose host resolves to a loopback, private or other non-public
address is not contacted: its row says "refused: non-public address", with no
findings and no reproduce command. The board workflow reads boards/roster.json.`
	run.Example = `  mcpward board run roster.json --out board/
  mcpward board run roster.json --out board/ --timeout 30s`
	render := mk("render", "render BOARD.json --out DIR", "Write DIR/index.html (self-contained) and DIR/board.json")
	render.Example = `  mcpward board render board/2026-11-30.json --out site/`
	cmd.AddCommand(run, render)
	return cmd
}

func runRun(ctx context.Context, opts *BoardOptions) error {
	b, err := os.ReadFile(opts.Input)
	if err != nil {
		return cmdutil.FlagErrorWrap(fmt.Errorf("read roster %s: %w", opts.Input, err))
	}
	roster, err := engine.ParseRoster(b, opts.AllowLoopback)
	if err != nil {
		return cmdutil.FlagErrorWrap(fmt.Errorf("%s: %w", opts.Input, err))
	}
	progress := cmdutil.NewProgress(opts.IO)
	defer progress.Stop()
	bd := engine.RunBoard(ctx, roster, engine.Options{Now: opts.Now, Version: opts.Version, Timeout: opts.Timeout, AllowLoopback: opts.AllowLoopback, Progress: progress.Show})
	progress.Stop()
	var buf bytes.Buffer
	if err := report.WriteJSON(&buf, bd); err != nil {
		return err
	}
	if err := os.MkdirAll(opts.Out, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", opts.Out, err)
	}
	path := filepath.Join(opts.Out, bd.Date+".json")
	if err := atomicfile.Write(path, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write board %s: %w", path, err)
	}
	fmt.Fprintf(opts.IO.ErrOut, "board: %s -> %s\n", plural.Count(len(bd.Rows), "server"), path)
	return nil
}

func renderRun(opts *BoardOptions) error {
	b, err := os.ReadFile(opts.Input)
	if err != nil {
		return cmdutil.FlagErrorWrap(fmt.Errorf("read board %s: %w", opts.Input, err))
	}
	bd, err := engine.ReadBoard(b)
	if err != nil {
		return cmdutil.FlagErrorWrap(fmt.Errorf("%s: %w", opts.Input, err))
	}
	var html, js bytes.Buffer
	if err := engine.Render(&html, bd, opts.Now()); err != nil {
		return err
	}
	if err := report.WriteJSON(&js, bd); err != nil {
		return err
	}
	if err := os.MkdirAll(opts.Out, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", opts.Out, err)
	}
	for name, data := range map[string][]byte{"index.html": html.Bytes(), "board.json": js.Bytes()} {
		if err := atomicfile.Write(filepath.Join(opts.Out, name), data, 0o644); err != nil {
			return fmt.Errorf("write %s: %w", name, err)
		}
	}
	fmt.Fprintf(opts.IO.ErrOut, "board: rendered %s -> %s\n", plural.Count(len(bd.Rows), "row"), filepath.Join(opts.Out, "index.html"))
	return nil
}
