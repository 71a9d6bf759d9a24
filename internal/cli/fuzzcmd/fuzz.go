// Package fuzzcmd implements `mcpward fuzz`: does a server survive a
// hostile or sloppy client? It prints the plan (the cases, and which tools
// tools/call may reach), runs each case on a fresh process or connection
// (internal/fuzzrun), and reports the findings as a Result, each with the
// minimised frames that trigger it; --save writes them as replay files
// and --replay runs one again.
package fuzzcmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/atomicfile"
	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/config"
	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/contract"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/fleet"
	"github.com/mcpward/mcpward/internal/fuzz"
	"github.com/mcpward/mcpward/internal/fuzzrun"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/mcp"
)

// Options are the inputs of `mcpward fuzz`.
type Options struct {
	IO      *iostreams.IOStreams
	Env     connect.Env
	Version string

	Target     cmdutil.TargetFlags
	Name       string
	ConfigPath string
	TimeoutSet bool
	Era        string

	Seed        uint64
	Cases       int
	Duration    time.Duration
	CaseTimeout time.Duration
	AllowTools  []string
	DryRun      bool
	Replay      string
	Save        string
	Format      string
	FailOn      string
	Verbose     bool
}

// NewCmdFuzz builds `mcpward fuzz`.
func NewCmdFuzz(f *cmdutil.Factory, runF func(context.Context, *Options) error) *cobra.Command {
	opts := &Options{IO: f.IOStreams, Env: connect.Env{Environ: f.Environ, LookupEnv: f.LookupEnv}, Version: f.Version}
	cmd := &cobra.Command{
		Use:   "fuzz [NAME | --fixture NAME | --url URL | -- <command…>]",
		Short: "Does the server survive a hostile or sloppy client? Malformed frames, broken arguments, crash / hang / zombie / wrong error",
		Long: `Send a server what a hostile or sloppy client sends, each case on a fresh
process (stdio) or connection (HTTP) after the era's handshake: malformed and
truncated JSON, invalid UTF-8, duplicate keys, batches, a missing or wrong
jsonrpc member, ids of every type and size, unknown methods, notifications with
ids, cancellation of unknown ids, params of the wrong type, a missing or partial
_meta envelope, headers that disagree with the body (HTTP), very long lines, and
tool arguments generated from each tool's input schema and then broken. After
each case one well-formed request shows whether the server survived.

Safety: tools/call goes only to tools that both facts call read-only
(readOnlyHint: true, and no write, delete, send or execute signal in the name
or words) and whose openWorldHint is false; --allow-tool NAME calls another
with a warning. The plan is printed (to stderr) before anything is sent;
--dry-run prints only the plan.

Findings are rules of the catalogue (mcpward rules fuzz.crash): a crash, a hang
(confirmed by a retry that waits 4x longer, at least 3s), a zombie, a changed id and, at
2025-03-26, an unanswered batch are violations (exit 3); a wrong error code or
invalid arguments run as if valid are risky (exit 1 at the default gate). Every
finding carries its frames, minimised; --save DIR writes each as a replay file
(txtar) that --replay FILE runs again.

Exit codes: 3 for a violation, 1 for a risky finding at the gate (--fail-on
risky, the default; violation: only violations fail; info: any finding), 2 when
the server cannot be reached or a case could not be run, 4 for a usage error.`,
		Example: `  mcpward fuzz --dry-run -- ./my-server
  mcpward fuzz --seed 7 --cases 200 -- node build/index.js
  mcpward fuzz --url http://127.0.0.1:8080/mcp --duration 2m --save fuzz-cases
  mcpward fuzz --replay fuzz-cases/fuzz.crash-1.txtar -- ./my-server
  mcpward fuzz --fixture demo-weather --format sarif > fuzz.sarif`,
		RunE: func(cmd *cobra.Command, args []string) error {
			rest := opts.Target.SetCommand(cmd, args)
			opts.TimeoutSet = cmd.Flags().Changed("timeout")
			if err := opts.Target.Validate(); err != nil {
				return err
			}
			switch {
			case len(rest) > 1:
				return cmdutil.FlagErrorf("fuzz takes one target, got %d names", len(rest))
			case opts.Target.Set() && len(rest) > 0:
				return cmdutil.FlagErrorf("unexpected argument %q: name a config target, or give the server with --fixture, --url or -- <command…>, not both", rest[0])
			case opts.Target.Set() && opts.ConfigPath != "":
				return cmdutil.FlagErrorf("--config and a target given by flags exclude each other")
			case len(rest) == 1 && !config.ValidTargetName(rest[0]):
				return cmdutil.FlagErrorf("target name %q is not allowed (letters, digits and . _ @ - only)", rest[0])
			}
			if len(rest) == 1 {
				opts.Name = rest[0]
			}
			if _, err := cmdutil.ParseEra(opts.Era); err != nil {
				return err
			}
			if opts.Cases < 0 {
				return cmdutil.FlagErrorf("--cases must be 0 (every fixed case and 32 random ones) or more, got %d", opts.Cases)
			}
			if opts.Duration < 0 || opts.CaseTimeout < 0 {
				return cmdutil.FlagErrorf("--duration and --case-timeout must not be negative")
			}
			switch opts.FailOn {
			case "violation", "risky", "info":
			default:
				return cmdutil.FlagErrorf("unknown --fail-on %q (use violation, risky or info)", opts.FailOn)
			}
			if opts.Replay != "" && opts.DryRun {
				return cmdutil.FlagErrorf("--replay and --dry-run exclude each other")
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return run(cmd.Context(), opts)
		},
	}
	cmdutil.AddTargetFlags(cmd, &opts.Target)
	fl := cmd.Flags()
	fl.Uint64Var(&opts.Seed, "seed", 1, "seed of the random cases (the same seed, the same cases)")
	fl.IntVar(&opts.Cases, "cases", 0, "number of cases: the fixed ones first, interleaved by group, then random ones (0: every fixed case and 32 random)")
	fl.DurationVar(&opts.Duration, "duration", 0, "stop starting cases after this long (0: run them all)")
	cmdutil.TimeoutVar(fl, &opts.CaseTimeout, "case-timeout", 0, "how long a frame waits for its answer (0: 10x the median answer time, at least 1s, at most --timeout)")
	fl.StringArrayVar(&opts.AllowTools, "allow-tool", nil, "call `TOOL` with generated arguments although the safety rule excludes it (repeatable; warns)")
	fl.BoolVar(&opts.DryRun, "dry-run", false, "print the plan (cases and tools) and send no case")
	fl.StringVar(&opts.Replay, "replay", "", "run the saved case in `FILE` (a txtar replay file written by --save) instead of generating cases")
	fl.StringVar(&opts.Save, "save", "", "write each finding's case as a replay file into `DIR`")
	fl.StringVar(&opts.FailOn, "fail-on", "risky", "gate: violation, risky or info")
	fl.BoolVarP(&opts.Verbose, "verbose", "v", false, "print each finding's frames whole (text report)")
	fl.StringVar(&opts.ConfigPath, "config", "", "config `file` NAME is a target of (default mcpward.json)")
	cmdutil.AddEraFlag(cmd, &opts.Era)
	cmdutil.AddFormatFlags(cmd, &opts.Format, "fuzz")
	_ = cmd.MarkFlagDirname("save")
	return cmd
}

// spec resolves the target: the flags, or a config target (the one
// named, or the config's only one).
func spec(opts *Options) (*connect.Spec, error) {
	if opts.Target.Set() {
		return opts.Target.Spec("", opts.Env.LookupEnv)
	}
	path := opts.ConfigPath
	if path == "" {
		path = config.FileName
	}
	cfg, _, err := fleet.LoadConfig(path)
	if err != nil {
		if errors.Is(err, contract.ErrNoConfig) && opts.ConfigPath == "" && opts.Name == "" {
			return nil, cmdutil.FlagErrorf("no target: use --fixture NAME, --url URL or -- <command…>, or name a target of a config (mcpward.json, --config FILE)")
		}
		return nil, err
	}
	name, _, err := cfg.Target(opts.Name)
	if err != nil {
		return nil, fault.Input(fmt.Errorf("config %s: %w", path, err))
	}
	t, err := contract.FromFile(path, cfg, name, opts.Target.ConfigSource(opts.Env.LookupEnv, opts.TimeoutSet), opts.IO.ErrOut)
	if err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	return t.Spec, nil
}

func run(ctx context.Context, opts *Options) error {
	s, err := spec(opts)
	if err != nil {
		return err
	}
	era, _ := cmdutil.ParseEra(opts.Era)
	ro := &fuzzrun.Options{Spec: s, Env: opts.Env, Era: era, Seed: opts.Seed, Cases: opts.Cases, Duration: opts.Duration,
		CaseTimeout: opts.CaseTimeout, AllowTools: opts.AllowTools}
	var saved *fuzz.Saved
	if opts.Replay != "" {
		data, err := os.ReadFile(opts.Replay)
		if err != nil {
			return fault.Input(fmt.Errorf("--replay: %w", err))
		}
		sv, err := fuzz.Decode(data)
		if err != nil {
			return fault.Input(fmt.Errorf("--replay %s: %w", opts.Replay, err))
		}
		saved = &sv
		if era == "" {
			ro.Era = mcp.Era(sv.Era)
		}
		ro.Cases = 1
	}
	progress := cmdutil.NewProgress(opts.IO)
	defer progress.Stop()
	ro.Progress = progress.Show
	progress.Show("connecting")
	plan, err := fuzzrun.Prepare(ctx, ro)
	progress.Stop()
	if err != nil {
		return err
	}
	for _, t := range plan.Tools {
		if t.Allowed {
			fmt.Fprintf(opts.IO.ErrOut, "warning: --allow-tool %s: tools/call goes to %s with generated and broken arguments, although the safety rule excludes it (%s)\n",
				t.Name, t.Name, strings.TrimPrefix(t.Why, "named with --allow-tool, although "))
		}
	}
	for _, a := range opts.AllowTools {
		if !slices.ContainsFunc(plan.Tools, func(t fuzzrun.ToolDecision) bool { return t.Name == a }) {
			fmt.Fprintf(opts.IO.ErrOut, "warning: --allow-tool %s: the server lists no such tool\n", a)
		}
	}
	if saved != nil {
		return replay(ctx, opts, ro, plan, s, *saved)
	}
	if opts.DryRun {
		writePlan(opts.IO.Out, plan, true)
		return nil
	}
	writePlan(opts.IO.ErrOut, plan, false)
	rep, err := fuzzrun.Run(ctx, ro, plan)
	progress.Stop()
	if err != nil {
		return err
	}
	var paths []string
	if opts.Save != "" {
		if paths, err = save(opts, plan, rep); err != nil {
			return err
		}
	}
	res := buildResult(opts, s, plan, rep, paths)
	if err := render(opts, res, rep); err != nil {
		return err
	}
	return cmdutil.Verdict(res.ExitCode)
}

// replay runs one saved case against the target and reports as a run
// of one case.
func replay(ctx context.Context, opts *Options, ro *fuzzrun.Options, plan *fuzzrun.Plan, s *connect.Spec, sv fuzz.Saved) error {
	if sv.Version != "" && sv.Version != plan.Target.Version {
		fmt.Fprintf(opts.IO.ErrOut, "warning: the case was saved at %s; the server speaks %s now\n", sv.Version, plan.Target.Version)
	}
	plan.Cases = []fuzz.Case{sv.Case}
	fs, err := fuzzrun.Replay(ctx, ro, plan, sv.Case)
	if err != nil {
		return fault.Incomplete(fmt.Errorf("replay %s: %w", opts.Replay, err))
	}
	rep := &fuzzrun.Report{Plan: plan, Ran: 1}
	for _, f := range fs {
		rep.Found = append(rep.Found, fuzzrun.Found{Finding: f, Case: sv.Case, Original: sv.Case, Elapsed: time.Since(plan.Started)})
	}
	res := buildResult(opts, s, plan, rep, nil)
	if err := render(opts, res, rep); err != nil {
		return err
	}
	if sv.Rule != "" && !slices.ContainsFunc(fs, func(f fuzz.Finding) bool { return f.Rule == sv.Rule }) {
		fmt.Fprintf(opts.IO.ErrOut, "the saved finding %s no longer reproduces\n", sv.Rule)
	}
	return cmdutil.Verdict(res.ExitCode)
}

// save writes each finding's case as DIR/RULE-N.txtar.
func save(opts *Options, plan *fuzzrun.Plan, rep *fuzzrun.Report) ([]string, error) {
	if err := os.MkdirAll(opts.Save, 0o755); err != nil {
		return nil, fault.Input(fmt.Errorf("--save: %w", err))
	}
	paths := make([]string, len(rep.Found))
	n := map[string]int{}
	for i, f := range rep.Found {
		n[f.Rule]++
		data, err := fuzz.Encode(fuzz.Saved{Case: f.Case, Rule: f.Rule, Message: f.Message, Era: plan.Target.Era, Version: plan.Target.Version, Transport: plan.Target.Transport, Seed: plan.Seed})
		if err != nil {
			fmt.Fprintf(opts.IO.ErrOut, "warning: --save: %s: %v\n", f.Case.Name, err)
			continue
		}
		p := filepath.Join(opts.Save, fmt.Sprintf("%s-%d.txtar", f.Rule, n[f.Rule]))
		if err := atomicfile.Write(p, data, 0o644); err != nil {
			return nil, fmt.Errorf("--save: %w", err)
		}
		paths[i] = p
	}
	return paths, nil
}
