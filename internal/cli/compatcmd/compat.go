// Package compatcmd implements `mcpward compat`: the profile matrix plus the
// transport (T), x-mcp-header (X) and degradation (D) rules, with exit 3
// on a violation, 1 on a risky finding, 2 on incomplete evidence.
package compatcmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/cli/fleetrun"
	engine "github.com/mcpward/mcpward/internal/compat"
	"github.com/mcpward/mcpward/internal/config"
	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/contract"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/fleet"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/report"
	"github.com/mcpward/mcpward/internal/report/text"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/rules"
)

// CompatOptions are the inputs of `mcpward compat`.
type CompatOptions struct {
	IO      *iostreams.IOStreams
	Env     connect.Env
	Now     func() time.Time
	Version string

	Target cmdutil.TargetFlags
	// Names are config targets (`compat NAME`, `compat A B`); with
	// Fleet.All every target of the config. ConfigPath is --config.
	Names      []string
	ConfigPath string
	Fleet      fleetrun.Flags
	TimeoutSet bool

	Profiles []string
	// Probes are TOOL or TOOL=ARGS_JSON; a fixture's declared probes are
	// used when none are given.
	Probes   []string
	Format   string
	ReadOnly bool
	// Verbose prints each finding's request and response whole in the
	// text report (otherwise one line each, cut to the terminal).
	Verbose bool
	// Era is --era: modern, legacy or auto (detect).
	Era string
}

// NewCmdCompat builds `mcpward compat`.
func NewCmdCompat(f *cmdutil.Factory, runF func(context.Context, *CompatOptions) error) *cobra.Command {
	opts := &CompatOptions{IO: f.IOStreams, Env: connect.Env{Environ: f.Environ, LookupEnv: f.LookupEnv}, Now: f.Now, Version: f.Version}
	var profiles string
	cmd := &cobra.Command{
		Use:   "compat (NAME… | --all | --fixture NAME | --url URL | -- <command…>)",
		Short: "Probe a server under client profiles and check the transport, x-mcp-header and degradation rules",
		Long: `Run the conformance rules of the catalogue (mcpward rules) against one server:
its era, every advertised version, stability across fresh connections, cache
hints on every cacheable result, the Streamable HTTP framing rules (or the stdio
rules), x-mcp-header validity, and each probe replayed under every profile with
a verdict per tool and profile (ok, declined-correctly, degraded-reported,
degraded-silent, violation).

A violation is a broken MUST or MUST NOT of the spec, cited in the finding
(mcpward rules ID shows the clause). Whatever could not be evaluated is listed
under "not evaluated": profiles the server cannot be used under, and the
degradation rules when no probe names a tool (compat calls no tool unless
asked).

A NAME is a target of the config (mcpward.json, or --config F): its profiles
(unless --profiles), probes (unless --probe), capabilities and timeoutMs apply.
With no NAME and no server flags, the config's only target is used.
--all runs every target of the config (several NAMEs run those), --jobs at a
time, each bounded by --target-timeout, into one report with a section per
target in config order.

Exit codes: 3 when the server violates a MUST-level rule, 1 for a risky
finding, 2 when the evidence is incomplete (also when none of the requested
profiles could be used: nothing exercised is not a pass), else 0. Over several
targets, the worst of theirs: 5 > 4 > 2 > 3 > 1 > 0.`,
		Example: `  mcpward compat --fixture degrader-honest
  mcpward compat --url http://127.0.0.1:8080/mcp --profiles modern-full,modern-minimal
  mcpward compat --format sarif -- ./my-server > compat.sarif
  mcpward compat weather --config ci/mcpward.json
  mcpward compat --all --jobs 4 --format junit > compat.xml`,
		RunE: func(cmd *cobra.Command, args []string) error {
			rest := opts.Target.SetCommand(cmd, args)
			if err := opts.Fleet.Validate(cmd, rest, opts.Target.Set()); err != nil {
				return err
			}
			opts.Names = rest
			opts.TimeoutSet = cmd.Flags().Changed("timeout")
			if err := opts.Target.Validate(); err != nil {
				return err
			}
			switch {
			case opts.Target.Set() && len(rest) > 0:
				return cmdutil.FlagErrorf("unexpected argument %q: name a config target, or give the server with --fixture, --url or -- <command…>, not both", rest[0])
			case opts.Target.Set() && opts.ConfigPath != "":
				return cmdutil.FlagErrorf("--config and a target given by flags exclude each other")
			}
			for _, n := range rest {
				if !config.ValidTargetName(n) {
					return cmdutil.FlagErrorf("target name %q is not allowed (letters, digits and . _ @ - only)", n)
				}
			}
			if _, err := cmdutil.ParseEra(opts.Era); err != nil {
				return err
			}
			if opts.ReadOnly && len(opts.Probes) > 0 {
				return cmdutil.FlagErrorf("--read-only never sends tools/call, so --probe %s would not run: give one or the other", opts.Probes[0])
			}
			if profiles != "" {
				opts.Profiles = strings.Split(profiles, ",")
				if _, err := rules.ResolveProfiles(opts.Profiles, nil); err != nil {
					return cmdutil.FlagErrorWrap(err)
				}
			}
			for _, p := range opts.Probes {
				if _, err := parseProbe(p); err != nil {
					return cmdutil.FlagErrorWrap(err)
				}
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return compatRun(cmd.Context(), opts)
		},
	}
	cmdutil.AddTargetFlags(cmd, &opts.Target)
	fl := cmd.Flags()
	fl.StringVar(&profiles, "profiles", "", "comma-separated `profiles` (default: every built-in; see mcpward rules)")
	fl.StringArrayVar(&opts.Probes, "probe", nil, "replay tools/call `TOOL[=ARGS_JSON]` under every profile (repeatable; default: a fixture's declared probes)")
	cmdutil.AddFormatFlags(cmd, &opts.Format, "compat")
	fl.BoolVar(&opts.ReadOnly, "read-only", false, "never send tools/call (what the board runs)")
	fl.BoolVarP(&opts.Verbose, "verbose", "v", false, "print each finding's request and response whole (text report; otherwise one line each, cut to the terminal's width)")
	cmdutil.AddEraFlag(cmd, &opts.Era)
	fl.StringVar(&opts.ConfigPath, "config", "", "config `file` the NAMEs are targets of (default mcpward.json)")
	fleetrun.AddFlags(cmd, &opts.Fleet)
	_ = cmd.RegisterFlagCompletionFunc("profiles", cmdutil.CompleteLazyList(cmdutil.ProfileNames))
	return cmd
}

func parseProbe(s string) (engine.Probe, error) {
	tool, a, hasArgs := strings.Cut(s, "=")
	if tool == "" {
		return engine.Probe{}, fmt.Errorf("--probe %q: want TOOL or TOOL=ARGS_JSON", s)
	}
	p := engine.Probe{ID: tool, Tool: tool, Arguments: json.RawMessage(`{}`)}
	if hasArgs {
		var obj map[string]json.RawMessage
		if json.Unmarshal([]byte(a), &obj) != nil || obj == nil {
			return engine.Probe{}, fmt.Errorf("--probe %q: arguments must be a JSON object", s)
		}
		p.Arguments = json.RawMessage(a)
	}
	return p, nil
}

func compatRun(ctx context.Context, opts *CompatOptions) error {
	if opts.Fleet.All || len(opts.Names) > 1 {
		return fleetRun(ctx, opts)
	}
	var (
		job *compatJob
		err error
	)
	if opts.Target.Set() {
		job, err = flagJob(opts)
	} else {
		// A config target: the one named, or the config's only one (as
		// check and snapgauge's compat pick it).
		var name string
		if len(opts.Names) == 1 {
			name = opts.Names[0]
		}
		var cfg *config.File
		cfg, _, err = fleet.LoadConfig(configPath(opts))
		if err != nil {
			if errors.Is(err, contract.ErrNoConfig) && opts.ConfigPath == "" && name == "" {
				return cmdutil.FlagErrorf("no target: use --fixture NAME, --url URL or -- <command…>, or name a target of a config (mcpward.json, --config FILE)")
			}
			return fleetrun.NoConfigHint(err)
		}
		name, _, err = cfg.Target(name)
		if err != nil {
			return fault.Input(fmt.Errorf("config %s: %w", configPath(opts), err))
		}
		job, err = configJob(opts, cfg, name)
	}
	if err != nil {
		return err
	}
	progress := cmdutil.NewProgress(opts.IO)
	defer progress.Stop()
	res, err := job.run(ctx, opts, progress.Show)
	progress.Stop()
	if err != nil {
		return err
	}
	if err := render(opts, res); err != nil {
		return err
	}
	return cmdutil.Verdict(res.ExitCode)
}

// render writes res in opts.Format; text lays out the verdict grid for
// the terminal (a fleet's sections too).
func render(opts *CompatOptions, res *result.Result) error {
	if opts.Format == "text" {
		return text.WriteOptions(opts.IO.Out, res, &text.Options{
			TTY: opts.IO.IsStdoutTTY(), Width: opts.IO.TerminalWidth(), NewTable: newTable, Verbose: opts.Verbose,
		})
	}
	w, _ := report.Lookup(opts.Format)
	return w(opts.IO.Out, res)
}

// newTable lays out compat's verdict grid with the CLI's table printer.
func newTable(w io.Writer, tty bool, width int) text.Table {
	return iostreams.NewTablePrinter(w, tty, width)
}
