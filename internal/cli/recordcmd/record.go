// Package recordcmd implements `mcpward record [target]`: observe a server's
// surface and write it, canonical and atomically, as
// <snapshotDir>/<target>.snapshot.json. Incomplete evidence writes nothing
// and exits 2: missing evidence is never "no change".
package recordcmd

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/addrguard"
	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/cli/fleetrun"
	"github.com/mcpward/mcpward/internal/config"
	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/contract"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/plural"
	"github.com/mcpward/mcpward/internal/probe"
	"github.com/mcpward/mcpward/internal/result"
)

// RecordOptions are the inputs of `mcpward record`.
type RecordOptions struct {
	IO      *iostreams.IOStreams
	Env     connect.Env
	Now     func() time.Time
	Version string

	// Name is the target name ("" : the config's only target).
	Name string
	// All records every target of the config; Names (two or more)
	// records those: in parallel (Jobs at a time, each bounded by
	// TargetTimeout), as check --all checks them.
	Names []string
	Fleet fleetrun.Flags
	// ConfigPath is the config file ("" : mcpward.json in the working
	// directory).
	ConfigPath string
	// Dir overrides the snapshot directory.
	Dir string
	// Target, when set, records a server named on the command line without
	// a config (Name is then required).
	Target     cmdutil.TargetFlags
	TimeoutSet bool
	// RecordedAt pins the snapshot's time (zero: now).
	RecordedAt time.Time
	// StrictNet refuses a URL target that resolves to a non-public address
	// and dials only the address checked (snapgauge's --strict-net).
	StrictNet bool
	// Resolve looks up a host for StrictNet (nil: the system resolver).
	Resolve addrguard.Resolver
}

// NewCmdRecord builds `mcpward record`.
func NewCmdRecord(f *cmdutil.Factory, runF func(context.Context, *RecordOptions) error) *cobra.Command {
	opts := &RecordOptions{
		IO:      f.IOStreams,
		Env:     connect.Env{Environ: f.Environ, LookupEnv: f.LookupEnv},
		Now:     f.Now,
		Version: f.Version,
	}
	var recordedAt string
	cmd := &cobra.Command{
		Use:   "record [target]",
		Short: "Record a server's surface as <snapshotDir>/<target>.snapshot.json",
		Long: `Observe a server (discover or initialize, every list to its end, tools/list
three times for order stability, the declared probes) and write its snapshot,
canonical and atomically, for the repository to keep.

Without target flags, the target comes from mcpward.json (or --config): a name,
or the only target. With --fixture, --url or -- <command…>, no config is read,
a target NAME is required and the snapshot goes to --dir (default .mcpward).

If anything could not be observed, nothing is written and the command exits 2:
missing evidence is never "no change".

--all records every target of the config (several NAMEs record those), --jobs
at a time, each bounded by --target-timeout, as 'check --all' checks them: one
line per target in config order, and one exit code, the worst of the targets'
(5 > 4 > 2 > 0). A target that fails or hangs does not stop the others; only
the targets observed completely get a snapshot.

--strict-net refuses a URL whose host resolves to a loopback, private,
link-local or other non-public address (exit 2, nothing sent), and dials only
the address it checked, so a second DNS answer cannot redirect the recording.`,
		Example: `  mcpward record                       # the only target in mcpward.json
  mcpward record weather --config ci/mcpward.json
  mcpward record --all --jobs 8         # every target of mcpward.json
  mcpward record demo --fixture clean@v1 --dir /tmp/mcpward-demo
  mcpward record local -- node server.js`,
		// Several NAMEs are a fleet run (FleetFlags.Validate).
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			args = opts.Target.SetCommand(cmd, args)
			switch {
			case len(args) == 1:
				opts.Name = args[0]
			case len(args) > 1:
				opts.Names = args
			}
			if err := opts.Fleet.Validate(cmd, args, opts.Target.Set()); err != nil {
				return err
			}
			opts.TimeoutSet = cmd.Flags().Changed("timeout")
			if err := validate(opts); err != nil {
				return err
			}
			if recordedAt != "" {
				t, err := cmdutil.ParseRecordedAt(recordedAt)
				if err != nil {
					return err
				}
				opts.RecordedAt = t
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			if opts.Fleet.All || len(opts.Names) > 1 {
				return fleetRun(cmd.Context(), opts)
			}
			return recordRun(cmd.Context(), opts)
		},
	}
	cmdutil.AddTargetFlags(cmd, &opts.Target)
	fleetrun.AddFlags(cmd, &opts.Fleet)
	fl := cmd.Flags()
	fl.StringVar(&opts.ConfigPath, "config", "", "config `file` (default mcpward.json)")
	fl.StringVar(&opts.Dir, "dir", "", "snapshot `dir`ectory (default: the config's snapshotDir, or .mcpward)")
	fl.StringVar(&recordedAt, "recorded-at", "", "pin the recorded time (RFC 3339), for byte-identical snapshots in tests")
	fl.BoolVar(&opts.StrictNet, "strict-net", false, cmdutil.StrictNetUsage)
	return cmd
}

func validate(opts *RecordOptions) error {
	if opts.Name != "" && !config.ValidTargetName(opts.Name) {
		return cmdutil.FlagErrorf("target name %q is not allowed (letters, digits and . _ @ - only: it becomes a file name)", opts.Name)
	}
	if opts.Target.Set() {
		if opts.Name == "" {
			return cmdutil.FlagErrorf("name the snapshot: mcpward record NAME --fixture/--url/-- <command…>")
		}
		if opts.ConfigPath != "" {
			return cmdutil.FlagErrorf("--config and a target given by flags exclude each other")
		}
		return opts.Target.Validate()
	}
	// Flags that only shape a command-line target.
	if opts.Target.Shaped() {
		return cmdutil.FlagErrorf("target flags need a target: --fixture NAME, --url URL or -- <command…>")
	}
	if opts.Target.Timeout <= 0 {
		return cmdutil.FlagErrorf("--timeout must be positive, got %s", opts.Target.Timeout)
	}
	return nil
}

func recordRun(ctx context.Context, opts *RecordOptions) error {
	rt, err := contract.Resolve(opts.Name, opts.ConfigPath, opts.Dir, &opts.Target, opts.TimeoutSet, opts.Env.LookupEnv, opts.IO.ErrOut)
	if err != nil {
		return err
	}
	if err := cmdutil.CheckOutputPath("snapshot", rt.Path); err != nil {
		return err
	}
	if opts.StrictNet {
		// Before any probe is announced or sent: a refused target is
		// never contacted.
		pinned, err := contract.StrictNet(ctx, rt.Spec, opts.Resolve, nil)
		if err != nil {
			return err
		}
		if pinned != nil {
			defer pinned.CloseIdleConnections()
		}
	}
	AnnounceProbes(opts.IO.ErrOut, rt.Target)
	progress := cmdutil.NewProgress(opts.IO)
	defer progress.Stop()
	obs, err := observe(ctx, opts, rt, progress.Show)
	progress.Stop()
	if err != nil {
		return err
	}
	if !obs.Complete() {
		return incomplete(opts.IO.ErrOut, obs, "no snapshot written")
	}
	fmt.Fprintln(opts.IO.Out, recordedLine(rt, obs))
	WriteProbeFindings(opts.IO.ErrOut, obs.Findings)
	return nil
}

// observe observes one resolved target and, when the evidence is
// complete, writes its snapshot.
func observe(ctx context.Context, opts *RecordOptions, rt *contract.Resolved, show func(string)) (*contract.Observation, error) {
	obs, err := contract.Observe(ctx, rt.Target, &contract.ObserveOptions{
		Version:  opts.Version,
		Now:      contract.Clock(opts.Now, opts.RecordedAt),
		Env:      opts.Env,
		Progress: show,
	})
	if err != nil || !obs.Complete() {
		return obs, err
	}
	if err := contract.WriteSnapshot(rt.Path, obs.Snapshot); err != nil {
		return nil, fault.Input(err)
	}
	return obs, nil
}

// recordedLine says what was written for a complete observation.
func recordedLine(rt *contract.Resolved, obs *contract.Observation) string {
	s := obs.Snapshot.Surface
	return fmt.Sprintf("recorded %s -> %s (%s, %s, %s)", rt.Name, rt.Path,
		plural.Count(len(s.Tools), "tool"), plural.Count(len(s.Resources), "resource"), plural.Count(len(s.Prompts), "prompt"))
}

// WriteProbeFindings says on w what the recorded probe answers break (the
// rules [contract.Judge] decides from them), so that a violation stored in
// the snapshot is not silent until the next check exits 3 on it.
func WriteProbeFindings(w io.Writer, fs []result.RuleFinding) {
	for _, f := range fs {
		fmt.Fprintf(w, "recorded probe answer: %s %s %s: %s\n", f.Class, f.RuleID, f.Subject, f.Message)
	}
	for _, f := range fs {
		if f.Class == "violation" {
			fmt.Fprintf(w, "warning: the recorded answers hold a violation: 'mcpward check' will exit 3 on it\n")
			return
		}
	}
}

// AnnounceProbes says on w, before anything is called, which tools the
// target's probes will call (tools/call can change a server's data) and
// which disabled probes are skipped. A fixture's probes of tools it does
// not serve (drift-breaking@v2 removed archive_note, and shares its probes
// with clean@v1) are named apart: no tool of the fixture runs for them.
// It prints nothing for a target with neither.
func AnnounceProbes(w io.Writer, t *contract.Target) {
	unserved := t.Unserved()
	var calls, absent []string
	for _, p := range t.Probes {
		name := probeName(p.ID, p.Tool)
		if slices.ContainsFunc(unserved, func(u probe.Probe) bool { return u.ID == p.ID && u.Tool == p.Tool }) {
			absent = append(absent, name)
			continue
		}
		calls = append(calls, name)
	}
	if len(calls) > 0 {
		fmt.Fprintf(w, "will call: %s\n", strings.Join(calls, ", "))
	}
	if len(absent) > 0 {
		fmt.Fprintf(w, "not served by fixture %s (the probe is recorded as failing): %s\n", t.Spec.Fixture, strings.Join(absent, ", "))
	}
	if len(t.Disabled) > 0 {
		names := make([]string, 0, len(t.Disabled))
		for _, p := range t.Disabled {
			names = append(names, probeName(p.ID, p.Tool))
		}
		fmt.Fprintf(w, "not calling (\"enabled\": false): %s\n", strings.Join(names, ", "))
	}
}

// probeName is the tool, with the probe id when it differs.
func probeName(id, tool string) string {
	if id == "" || id == tool {
		return tool
	}
	return fmt.Sprintf("%s (probe %s)", tool, id)
}

// StderrLines is how many of a failed server's last stderr lines are shown.
const StderrLines = contract.StderrLines

// incomplete prints one line per problem, then the last lines the server
// wrote to stderr under a heading, and returns the exit-2 verdict whose
// reason ends with what was (not) done; "authentication required", with a
// hint how to pass credentials, when the server asked for them.
func incomplete(w io.Writer, obs *contract.Observation, done string) error {
	contract.WriteProblems(w, obs)
	reason := "missing evidence is never 'no change': " + done
	if obs.AuthRequired() {
		return contract.AuthRequiredError(reason)
	}
	return &cmdutil.VerdictError{Code: result.Incomplete, Reason: reason, TimedOut: obs.TimedOut()}
}
