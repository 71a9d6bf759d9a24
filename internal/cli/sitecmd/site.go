// Package sitecmd implements `mcpward site --out DIR`: write the static
// site (the engine page, where mcpward's core runs in the browser on files
// the user drops, the rule catalogue and the board pages). The work is in
// internal/site.
package sitecmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/site"
	"github.com/mcpward/mcpward/internal/site/enginebuild"
)

// SiteOptions are the inputs of `mcpward site`.
type SiteOptions struct {
	IO      *iostreams.IOStreams
	Version string
	Now     func() time.Time
	Environ func() []string
	Getwd   func() (string, error)

	Out    string
	Boards []string
	// Engine is a folder with a prebuilt engine (engine.wasm or
	// engine.wasm.gz, and wasm_exec.js).
	Engine string
	// Source is an mcpward source tree to build the engine from.
	// Neither set: the engine embedded in mcpward.
	Source string
}

// NewCmdSite builds `mcpward site`.
func NewCmdSite(f *cmdutil.Factory, runF func(context.Context, *SiteOptions) error) *cobra.Command {
	opts := &SiteOptions{IO: f.IOStreams, Version: f.Version, Now: f.Now, Environ: f.Environ, Getwd: f.Getwd}
	cmd := &cobra.Command{
		Use:   "site --out DIR",
		Short: "Write the static site: the in-browser engine, the rules and the board",
		Long: `Write a static site into DIR that needs no server of its own (any static host,
GitHub Pages, or 'python3 -m http.server -d DIR' serves it):

  demo.html    one click: the engine records two fixture servers built into
               it (clean@v1, drift-breaking@v2) and diffs them, offline
  engine.html  drop or paste two snapshot files to see their tiered diff, a
               session log to check it against the traffic rules, or a saved
               Result to read it; mcpward's core, compiled to WebAssembly, runs
               in the browser and nothing is sent anywhere
  rules.html   the rule catalogue, one anchor per rule id
  board/       the board pages of the --board files, newest first

The engine is embedded in mcpward (built from the same sources), so no Go
toolchain or source checkout is needed. --source DIR compiles it instead
from an mcpward source tree with the go command (GOOS=js GOARCH=wasm go
build); --engine DIR takes another prebuilt engine.

Exit codes: 0 written, 4 unusable input (a board file, an --engine folder
without an engine, --source without Go or without the source).`,
		Example: `  mcpward site --out _site
  mcpward site --out _site --board boards/2026-11-30.json
  python3 -m http.server -d _site   # then open http://127.0.0.1:8000/engine.html`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.Out == "" {
				return cmdutil.FlagErrorf("--out DIR is required")
			}
			if opts.Engine != "" && opts.Source != "" {
				return cmdutil.FlagErrorf("--engine and --source exclude each other: a prebuilt engine is not built from a source")
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return siteRun(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Out, "out", "", "output `dir`ectory")
	fl.StringArrayVar(&opts.Boards, "board", nil, "board `file` to publish ('mcpward board run' writes them; repeatable)")
	fl.StringVar(&opts.Engine, "engine", "", "use the prebuilt engine in `dir` (engine.wasm or engine.wasm.gz, and wasm_exec.js) instead of the embedded one")
	fl.StringVar(&opts.Source, "source", "", "build the engine from the mcpward source tree at or above `dir` (default: the engine embedded in mcpward)")
	return cmd
}

func siteRun(ctx context.Context, opts *SiteOptions) error {
	if fi, err := os.Stat(opts.Out); err == nil && !fi.IsDir() {
		return fault.Input(fmt.Errorf("--out %s is not a directory", opts.Out))
	}
	var boards []site.Board
	for _, path := range opts.Boards {
		b, err := os.ReadFile(path)
		if err != nil {
			return fault.Input(fmt.Errorf("read board %s: %w", path, fault.WithoutPath(err)))
		}
		boards = append(boards, site.Board{Name: path, Data: b})
	}
	eng, err := engine(ctx, opts)
	if err != nil {
		return err
	}
	files, err := site.Write(opts.Out, &site.Options{Version: opts.Version, Now: opts.Now, Engine: eng, Boards: boards})
	if err != nil {
		return err
	}
	size := 0
	for _, f := range files {
		if f.Path == "engine.wasm.gz" {
			size = f.Size
		}
	}
	fmt.Fprintf(opts.IO.ErrOut, "site: %d files -> %s (engine %s compressed, %s uncompressed)\n",
		len(files), opts.Out, mb(size), mb(len(eng.Wasm)))
	fmt.Fprintf(opts.IO.ErrOut, "serve it with: python3 -m http.server -d %s (then open http://127.0.0.1:8000/demo.html, or engine.html for your own files)\n", opts.Out)
	return nil
}

func engine(ctx context.Context, opts *SiteOptions) (*enginebuild.Engine, error) {
	switch {
	case opts.Engine != "":
		return enginebuild.ReadEngine(opts.Engine)
	case opts.Source == "":
		return site.Embedded()
	}
	dir := opts.Source
	if !filepath.IsAbs(dir) {
		wd, err := opts.Getwd()
		if err != nil {
			return nil, fmt.Errorf("working directory: %w", err)
		}
		dir = filepath.Join(wd, dir)
	}
	fmt.Fprintf(opts.IO.ErrOut, "site: compiling the engine (GOOS=js GOARCH=wasm go build %s) …\n", enginebuild.EnginePackage)
	eng, err := enginebuild.BuildEngine(ctx, enginebuild.BuildOptions{Dir: dir, Env: opts.Environ()})
	switch {
	case errors.Is(err, enginebuild.ErrNoGo):
		return nil, fault.WithHint(err, "install Go to compile the engine from source, or leave out --source to use the engine embedded in mcpward")
	case errors.Is(err, enginebuild.ErrNoSource):
		return nil, fault.WithHint(err, "name a checkout of "+enginebuild.Module+" with --source DIR, or leave out --source to use the engine embedded in mcpward")
	}
	return eng, err
}

func mb(n int) string {
	return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
}
