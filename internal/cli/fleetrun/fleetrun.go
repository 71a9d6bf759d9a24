// Package fleetrun is what the commands that run over many config targets
// at once (check, compat, record with --all or several NAMEs) share: the
// fleet flags, the plan of targets, the progress line, each target's
// section and the fleet's exit. It keeps internal/cli/cmdutil, which
// every command links, free of the contract and fleet packages.
package fleetrun

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/config"
	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/contract"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/fleet"
	"github.com/mcpward/mcpward/internal/plural"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/syserr"
)

// DefaultTargetTimeout bounds one target of a fleet run (--target-timeout).
const DefaultTargetTimeout = 5 * time.Minute

// Flags are the flags of a command that runs over many config targets
// at once (check, compat): --all, --jobs and --target-timeout.
type Flags struct {
	All           bool
	Jobs          int
	TargetTimeout time.Duration
}

// AddFlags registers the fleet flags on cmd.
func AddFlags(cmd *cobra.Command, ff *Flags) {
	fl := cmd.Flags()
	fl.BoolVar(&ff.All, "all", false, "every target of the config, in parallel, into one report")
	fl.IntVar(&ff.Jobs, "jobs", runtime.NumCPU(), "how many targets run at once with --all or several NAMEs (default: the number of CPUs)")
	cmdutil.TimeoutVar(fl, &ff.TargetTimeout, "target-timeout", DefaultTargetTimeout, "bound on one target's whole run with --all or several NAMEs (a target past it is incomplete, exit 2)")
}

// Validate checks the fleet flags against the positional target names and
// whether a target was given by flags (--fixture, --url, -- <command…>).
func (ff *Flags) Validate(cmd *cobra.Command, names []string, targetFlags bool) error {
	fl := cmd.Flags()
	if ff.Jobs < 1 {
		return cmdutil.FlagErrorf("--jobs must be at least 1, got %d", ff.Jobs)
	}
	if ff.TargetTimeout <= 0 {
		return cmdutil.FlagErrorf("--target-timeout must be positive, got %s", ff.TargetTimeout)
	}
	fleet := ff.All || len(names) > 1
	if !fleet {
		for _, f := range []string{"jobs", "target-timeout"} {
			if fl.Changed(f) {
				return cmdutil.FlagErrorf("--%s applies only to several targets (--all, or two or more NAMEs)", f)
			}
		}
		return nil
	}
	if ff.All && len(names) > 0 {
		return cmdutil.FlagErrorf("--all runs every target of the config: name none (got %q)", names[0])
	}
	if targetFlags {
		return cmdutil.FlagErrorf("several targets come from the config: --fixture, --url and -- <command…> do not apply")
	}
	for i, n := range names {
		if strings.HasSuffix(n, ".json") || !config.ValidTargetName(n) {
			return cmdutil.FlagErrorf("%q is not a target name (letters, digits and . _ @ - only; a SNAPSHOT.json is checked alone)", n)
		}
		if slices.Contains(names[:i], n) {
			return cmdutil.FlagErrorf("target %q is named twice", n)
		}
	}
	return nil
}

// Progress returns a fleet.Options.Progress that shows, on the
// progress line (stderr, only on a terminal), how many of the targets are
// done and which are running.
func Progress(p *cmdutil.Progress, verb string) func(done, total int, running []string) {
	return func(done, total int, running []string) {
		msg := fmt.Sprintf("%s %s: %d done", verb, plural.Count(total, "target"), done)
		if len(running) > 0 {
			const show = 3
			names := strings.Join(running[:min(show, len(running))], ", ")
			if len(running) > show {
				names += fmt.Sprintf(" +%d", len(running)-show)
			}
			msg += ", running " + names
		}
		p.Show(msg)
	}
}

// FailedSection is the fleet section of a target stopped by err before it
// had a verdict, with the code the error has on its own
// ([result.ExitCode], as at the top level: 4 for its config entry or
// snapshot, 2 for a server that could not be reached or a deadline, 5 for
// a bug), its one line and its hint.
func FailedSection(command, version string, t *result.Target, err error) result.Result {
	msg := strings.ReplaceAll(strings.TrimSpace(err.Error()), "\n", " ")
	return result.Failed(command, version, t, result.ExitCode(err, syserr.Refused), msg, fault.HintOf(err))
}

// Section is the section of one target of a fleet run: the Result
// its run produced, or what stopped it (an error, --target-timeout,
// Ctrl-C) as a section with the exit code that has. A Result produced
// with complete evidence stands even if the deadline passed as it
// returned.
func Section(command, version string, t *result.Target, state fleet.State, timeout time.Duration, r *result.Result, err error, stack []byte) result.Result {
	complete := err == nil && r != nil && r.Evidence.Complete
	switch {
	case state == fleet.Interrupted && !complete:
		return result.Failed(command, version, t, result.Incomplete, "interrupted before its run finished", "")
	case state == fleet.TimedOut && !complete:
		return result.Failed(command, version, t, result.Incomplete,
			fmt.Sprintf("did not finish within --target-timeout %s", timeout),
			"raise --target-timeout, or find out why the server is this slow")
	case err != nil:
		s := FailedSection(command, version, t, err)
		if len(stack) > 0 {
			s.ExitCode = result.Internal
			s.Error = "internal error: " + s.Error
			s.Hint = "this is a bug in mcpward; please report it with the command you ran"
		}
		return s
	case r == nil:
		return result.Failed(command, version, t, result.Internal, "internal error: the run returned no result", "")
	}
	return *r
}

// Verdict is the exit of a fleet Result that has been rendered, with
// one line on stderr when the code is not a plain verdict: which targets
// could not be judged (4, 5), or which are incomplete (2) and what that
// means for them (notDone: "nothing compared as unchanged").
func Verdict(r *result.Result, notDone string) error {
	var failed, incomplete []string
	for _, s := range r.Targets {
		name := "?"
		if s.Target != nil {
			name = s.Target.Name
		}
		switch s.ExitCode {
		case result.Usage, result.Internal:
			failed = append(failed, name)
		case result.Incomplete:
			incomplete = append(incomplete, name)
		}
	}
	switch r.ExitCode {
	case result.Usage, result.Internal:
		return &cmdutil.VerdictError{Code: r.ExitCode, Reason: fmt.Sprintf("%d of %d targets could not be judged: %s (see the report)",
			len(failed), len(r.Targets), JoinNames(failed))}
	case result.Incomplete:
		return &cmdutil.VerdictError{Code: result.Incomplete, Reason: fmt.Sprintf("missing evidence is never 'no change': %d of %d targets incomplete (%s), %s",
			len(incomplete), len(r.Targets), JoinNames(incomplete), notDone)}
	}
	return cmdutil.Verdict(r.ExitCode)
}

// JoinNames lists up to five names, then how many more.
func JoinNames(names []string) string {
	const show = 5
	if len(names) <= show {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:show], ", ") + fmt.Sprintf(" and %d more", len(names)-show)
}

// Targets loads the config at path and returns the targets a fleet
// run covers: with all, every target in the order the file lists them;
// otherwise names, each of which must be a target of the config. A
// missing config gets [NoConfigHint]'s hint; an unknown name, or --all
// over a config without targets, is an input error (exit 4).
func Targets(path string, all bool, names []string) (*config.File, []string, error) {
	cfg, ordered, err := fleet.LoadConfig(path)
	if err != nil {
		return nil, nil, NoConfigHint(err)
	}
	if !all {
		for _, n := range names {
			if _, _, err := cfg.Target(n); err != nil {
				return nil, nil, fault.Input(fmt.Errorf("config %s: %w", path, err))
			}
		}
		return cfg, names, nil
	}
	if len(ordered) == 0 {
		return nil, nil, fault.Input(fmt.Errorf("config %s: %w: the config has no targets", path, config.ErrNoTarget))
	}
	return cfg, ordered, nil
}

// NoConfigHint attaches to a config error the way to get a config when
// there is none (contract.ErrNoConfig); other errors are returned as they
// are.
func NoConfigHint(err error) error {
	if errors.Is(err, contract.ErrNoConfig) {
		return fault.WithHint(err, "write one with 'mcpward init', or name it with --config FILE")
	}
	return err
}

// A Plan is the targets of a fleet run, resolved in config order:
// each one's contract target and snapshot path, or the error that stopped
// it (a section of its own; the others still run).
type Plan struct {
	Names    []string
	Resolved []*contract.Resolved
	Errs     []error
}

// NewPlan loads the config at configPath ("": mcpward.json) and
// resolves the fleet's targets (Targets) with their snapshots in dir
// ("": the config's snapshotDir), printing config warnings on warn once, in
// order; timeout, when set (--timeout given) and not zero, overrides each
// target's request timeout.
func NewPlan(configPath, dir string, ff *Flags, names []string, timeout time.Duration, set bool, lookup func(string) (string, bool), warn io.Writer) (*Plan, error) {
	if configPath == "" {
		configPath = config.FileName
	}
	cfg, names, err := Targets(configPath, ff.All, names)
	if err != nil {
		return nil, err
	}
	if dir == "" {
		dir = contract.SnapshotDir(configPath, cfg)
	}
	p := &Plan{Names: names, Resolved: make([]*contract.Resolved, len(names)), Errs: make([]error, len(names))}
	for i, n := range names {
		src := connect.Source{Lookup: lookup}
		if set {
			src.Timeout = timeout
		}
		t, err := contract.FromFile(configPath, cfg, n, src, warn)
		if err != nil {
			p.Errs[i] = err
			continue
		}
		p.Resolved[i] = &contract.Resolved{Target: t, Path: contract.SnapshotPath(dir, n)}
	}
	return p, nil
}
