// Package scancmd implements `mcpward scan`: the offline, deterministic
// scan of what servers offer a model (internal/scan), on a live target, a
// snapshot file, or every server of the MCP client configs wrap knows. It
// never calls a tool.
package scancmd

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/config"
	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/contract"
	"github.com/mcpward/mcpward/internal/diff"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/rules"
	"github.com/mcpward/mcpward/internal/scan"
	"github.com/mcpward/mcpward/internal/snapshot"
	"github.com/mcpward/mcpward/internal/wrap"
)

// ScanOptions are the inputs of `mcpward scan`.
type ScanOptions struct {
	IO      *iostreams.IOStreams
	Env     connect.Env
	WrapEnv wrap.Env
	Version string

	// Name is a config target name or a snapshot file.
	Name       string
	ConfigPath string
	Target     cmdutil.TargetFlags
	TimeoutSet bool
	// Client is a client name or "all".
	Client    string
	Snapshots string
	// Baseline is a stored snapshot to diff the scanned surface against
	// (a rug pull), with the diff's rules.
	Baseline string
	FailOn   string
	Format   string
}

// NewCmdScan builds `mcpward scan`.
func NewCmdScan(f *cmdutil.Factory, runF func(context.Context, *ScanOptions) error) *cobra.Command {
	opts := &ScanOptions{IO: f.IOStreams, Env: connect.Env{Environ: f.Environ, LookupEnv: f.LookupEnv}, Version: f.Version}
	cmd := &cobra.Command{
		Use:   "scan [target | SNAPSHOT.json | --client NAME|all]",
		Short: "Scan what servers offer a model: hidden instructions, invisible text, shadowing, toxic flows, secrets",
		Long: `Scan tool definitions for what a model reads and a reviewer may not see:
instructions to the model in any text field (descriptions, titles, parameter
descriptions, defaults, enums), secrecy, injection markers, requests for private
data, invisible text (tag characters, zero-width and bidi controls, content
after long whitespace), homoglyph names, secrets in descriptions and defaults;
across the servers of one client config, duplicate tool names, descriptions that
name another server's tool, and toxic flows (untrusted source, private data and
an outbound sink in one agent; info, so --fail-on info selects it).

The scan is deterministic, offline and uses no model. It never calls a tool.
Its input is a live target (a config target name, --fixture, --url or --
<command…>), a snapshot file (any format diff reads), or --client NAME|all:
every server of the MCP client configs wrap knows (claude-desktop, claude-code,
cursor, vscode), each started as the client would (stdio) after the list is
printed, or read from DIR/<server>.snapshot.json with --snapshots DIR.

Exit codes: 0 nothing at or above the gate, 1 findings at or above the gate,
2 a server could not be started, reached or fully listed, 4 usage or an
unreadable input. docs/scan.md says what the scanner cannot see.`,
		Example: `  mcpward scan --client all
  mcpward scan --client cursor --snapshots .mcpward
  mcpward scan .mcpward/weather.snapshot.json --format sarif > scan.sarif
  mcpward scan --fixture clean@v1
  mcpward scan --fixture poisoned@v1 --baseline .mcpward/notes.snapshot.json
  mcpward scan --client claude-desktop --fail-on info   # toxic flows gate too`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			args = opts.Target.SetCommand(cmd, args)
			if len(args) > 1 {
				return cmdutil.FlagErrorf("scan takes one target or snapshot file, got %d", len(args))
			}
			if len(args) == 1 {
				opts.Name = args[0]
			}
			if opts.Client != "" && (opts.Name != "" || opts.Target.Set()) {
				return cmdutil.FlagErrorf("--client and a target exclude each other")
			}
			if opts.Client != "" && opts.Client != "all" && !slices.Contains(wrap.Clients, opts.Client) {
				return cmdutil.FlagErrorf("unknown --client %q (use all, %s)", opts.Client, strings.Join(wrap.Clients, ", "))
			}
			if opts.Baseline != "" && opts.Client != "" {
				return cmdutil.FlagErrorf("--baseline goes with one target or snapshot, not --client")
			}
			if opts.Snapshots != "" && opts.Client == "" {
				return cmdutil.FlagErrorf("--snapshots goes with --client")
			}
			if _, err := gate(opts.FailOn); err != nil {
				return err
			}
			if opts.Target.Set() {
				if err := opts.Target.Validate(); err != nil {
					return err
				}
			}
			opts.TimeoutSet = cmd.Flags().Changed("timeout")
			opts.WrapEnv = wrap.UserEnv(f.Getenv, f.Getwd, f.LookupEnv)
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return scanRun(cmd.Context(), opts)
		},
	}
	cmdutil.AddTargetFlags(cmd, &opts.Target)
	fl := cmd.Flags()
	fl.StringVar(&opts.ConfigPath, "config", "", "config `file` (default mcpward.json)")
	fl.StringVar(&opts.Client, "client", "", "scan every server of this MCP client's config: "+strings.Join(wrap.Clients, ", ")+" or all")
	fl.StringVar(&opts.Snapshots, "snapshots", "", "with --client, read each server from `dir`/<server>.snapshot.json instead of starting it")
	fl.StringVar(&opts.Baseline, "baseline", "", "also diff against this stored `snapshot` (a rug pull, recognised across a rename): the diff's findings, as check and diff report them")
	fl.StringVar(&opts.FailOn, "fail-on", "risky", "gate: risky, info (toxic flows too), or a rule id (risky findings and that rule)")
	cmdutil.AddFormatFlags(cmd, &opts.Format, "check")
	_ = cmd.RegisterFlagCompletionFunc("client", cobra.FixedCompletions(append([]string{"all"}, wrap.Clients...), cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// gate returns whether a finding counts against the --fail-on gate.
func gate(failOn string) (func(scan.Finding) bool, error) {
	switch failOn {
	case "risky":
		return func(f scan.Finding) bool { return f.Level != rules.Info }, nil
	case "info":
		return func(scan.Finding) bool { return true }, nil
	}
	if slices.Contains(scan.RuleIDs(), failOn) {
		return func(f scan.Finding) bool { return f.Level != rules.Info || f.Rule == failOn }, nil
	}
	return nil, cmdutil.FlagErrorf("unknown --fail-on %q (use risky, info or a scan rule id: %s)", failOn, strings.Join(scan.RuleIDs(), ", "))
}

// A scanned set is the servers of one config (or one server alone), where
// their definitions were read, and what could not be read.
type scanned struct {
	label    string // the client, or "" for one target
	file     string // the file findings point at
	servers  []scan.Server
	problems []string
}

func scanRun(ctx context.Context, opts *ScanOptions) error {
	var sets []scanned
	var targetRef *result.Target
	var cur *snapshot.Snapshot
	switch {
	case opts.Client != "":
		s, err := clientSets(ctx, opts)
		if err != nil {
			return err
		}
		sets = s
	case opts.Name != "" && !opts.Target.Set() && isFile(opts.Name):
		snap, err := readSnapshot(ctx, opts.Name)
		if err != nil {
			return err
		}
		cur = snap
		name := strings.TrimSuffix(filepath.Base(opts.Name), ".snapshot.json")
		sets = []scanned{{file: opts.Name, servers: []scan.Server{surfaceServer(name, snap)}, problems: snapshotProblems(name, snap)}}
	default:
		name := opts.Name
		if name == "" && opts.Target.Set() {
			name = "scan"
		}
		rt, err := contract.Resolve(name, opts.ConfigPath, "", &opts.Target, opts.TimeoutSet, opts.Env.LookupEnv, opts.IO.ErrOut)
		if err != nil {
			return err
		}
		fmt.Fprintf(opts.IO.ErrOut, "scanning %s: listing its tools (no tool is called)\n", rt.Name)
		snap, problems := observe(ctx, opts, rt.Target)
		cur = snap
		targetRef = result.TargetOf(snapshot.TargetInfo{Name: rt.Name})
		sets = []scanned{{servers: []scan.Server{surfaceServer(rt.Name, snap)}, problems: problems}}
	}
	r := buildResult(opts, sets, targetRef)
	if opts.Baseline != "" {
		old, err := readSnapshot(ctx, opts.Baseline)
		if err != nil {
			return err
		}
		addDrift(r, opts, old, cur)
	}
	if err := contract.Render(opts.IO, opts.Format, r); err != nil {
		return err
	}
	return cmdutil.Verdict(r.ExitCode)
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

func snapshotProblems(name string, snap *snapshot.Snapshot) []string {
	if snap.Observation.Status == snapshot.StatusOK {
		return nil
	}
	return []string{fmt.Sprintf("%s: the snapshot is %s, not complete evidence", name, snap.Observation.Status)}
}

// observe starts one target and lists its surface.
func observe(ctx context.Context, opts *ScanOptions, t *contract.Target) (*snapshot.Snapshot, []string) {
	obs, err := contract.Observe(ctx, t, &contract.ObserveOptions{Version: opts.Version, Env: opts.Env, Now: time.Now})
	if err != nil {
		return nil, []string{err.Error()}
	}
	return obs.Snapshot, obs.Problems
}

// addDrift adds the diff of the baseline against the scanned surface to
// r: the findings diff and check give for the same pair (diff.Diff, so a
// rename is tool.renamed), breaking and risky ones counting against the
// gate as scan's risky findings do.
func addDrift(r *result.Result, opts *ScanOptions, old, cur *snapshot.Snapshot) {
	if cur == nil {
		return // nothing was read: the evidence problems say so
	}
	fs := diff.Diff(old, cur)
	for _, f := range fs {
		rf := result.Finding{Finding: f, Location: &result.Location{File: opts.Baseline, JSONPath: f.Subject}}
		if f.Tier >= diff.Risky || opts.FailOn == "info" || opts.FailOn == f.RuleID {
			r.Gate.Failed = true
		}
		r.Findings = append(r.Findings, rf)
	}
	r.Summary.Summary = diff.Summarize(fs)
	r.ExitCode = result.Decide(result.Outcome{Incomplete: !r.Evidence.Complete, Drift: r.Gate.Failed})
}

// clientSets reads the client configs, prints the servers it will start,
// and lists each one's tools (or reads its snapshot).
func clientSets(ctx context.Context, opts *ScanOptions) ([]scanned, error) {
	clients := []string{opts.Client}
	if opts.Client == "all" {
		clients = wrap.Clients
	}
	var out []scanned
	for _, c := range clients {
		path, tg, err := wrap.Locate(c, wrap.ScopeUser, "", opts.WrapEnv)
		if err != nil {
			return nil, cmdutil.FlagErrorWrap(err)
		}
		doc, err := os.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			if opts.Client != "all" {
				return nil, fault.Input(fmt.Errorf("%s: no config at %s", c, path))
			}
			fmt.Fprintf(opts.IO.ErrOut, "%s: no config at %s\n", c, path)
			continue
		}
		if err != nil {
			return nil, fault.Input(err)
		}
		launches, err := wrap.Launches(doc, tg)
		if err != nil {
			return nil, fault.Input(fmt.Errorf("%s: %w", path, err))
		}
		set := scanned{label: c, file: path}
		verb := "will start"
		if opts.Snapshots != "" {
			verb = "will read from " + opts.Snapshots
		}
		fmt.Fprintf(opts.IO.ErrOut, "%s (%s): %d server(s), %s (no tool is called):\n", c, path, len(launches), verb)
		for _, l := range launches {
			if l.Remote {
				fmt.Fprintf(opts.IO.ErrOut, "  %s: remote, not scanned\n", l.Name)
				continue
			}
			fmt.Fprintf(opts.IO.ErrOut, "  %s: %s\n", l.Name, strings.Join(append([]string{l.Command}, l.Args...), " "))
		}
		for _, l := range launches {
			if l.Remote {
				set.problems = append(set.problems, fmt.Sprintf("%s/%s: a remote server; scan it by URL (mcpward scan --url …)", c, l.Name))
				continue
			}
			snap, problems := launchSurface(ctx, opts, l)
			for _, p := range problems {
				set.problems = append(set.problems, c+"/"+l.Name+": "+p)
			}
			set.servers = append(set.servers, surfaceServer(l.Name, snap))
		}
		out = append(out, set)
	}
	if len(out) == 0 {
		return nil, fault.Input(fmt.Errorf("no MCP client config found (looked for %s)", strings.Join(clients, ", ")))
	}
	return out, nil
}

// launchSurface reads one client server's surface: from its snapshot
// with --snapshots, else by starting it as the client would.
func launchSurface(ctx context.Context, opts *ScanOptions, l wrap.Launch) (*snapshot.Snapshot, []string) {
	if opts.Snapshots != "" {
		p := filepath.Join(opts.Snapshots, l.Name+".snapshot.json")
		snap, err := readSnapshot(ctx, p)
		if err != nil {
			return nil, []string{err.Error()}
		}
		return snap, snapshotProblems(p, snap)
	}
	entry := &config.Target{Command: l.Command, Args: l.Args, Env: config.EnvOf(l.Env)}
	t, err := contract.FromEntry(l.Name, entry, &connect.Source{Timeout: opts.Target.Timeout})
	if err != nil {
		return nil, []string{err.Error()}
	}
	return observe(ctx, opts, t)
}

// surfaceServer is what a snapshot offers a model (nil: nothing read).
func surfaceServer(name string, snap *snapshot.Snapshot) scan.Server {
	if snap == nil {
		return scan.Server{Name: name}
	}
	s := &snap.Surface
	return scan.Server{Name: name, Tools: s.Tools, Prompts: s.Prompts, Resources: s.Resources, ResourceTemplates: s.ResourceTemplates}
}

// buildResult turns the findings into the usual Result.
func buildResult(opts *ScanOptions, sets []scanned, t *result.Target) *result.Result {
	counts, _ := gate(opts.FailOn)
	r := &result.Result{SchemaVersion: result.SchemaVersion, Tool: "mcpward", Version: opts.Version, Command: "scan", Target: t,
		Findings: []result.Finding{}, Gate: result.Gate{FailOn: opts.FailOn}, Evidence: result.Evidence{Complete: true}}
	failed := false
	for _, s := range sets {
		for _, f := range scan.Config(s.servers) {
			rule := rules.MustLookup(f.Rule)
			rf := result.RuleFinding{RuleID: f.Rule, Level: rule.Level, Class: rule.Class, Subject: subject(s.label, f),
				Message: message(f), Spec: rule.Cite()}
			if s.file != "" {
				rf.Location = &result.Location{File: s.file, JSONPath: jsonPath(f)}
			}
			if counts(f) {
				failed = true
				rf.Gated = true
			}
			switch rule.Class {
			case rules.Risky:
				r.Summary.RiskyRules++
			case rules.Violation:
				r.Summary.Violations++
			}
			r.Violations = append(r.Violations, rf)
		}
		r.Evidence.Problems = append(r.Evidence.Problems, s.problems...)
	}
	if len(r.Evidence.Problems) > 0 {
		r.Evidence.Complete = false
		r.Evidence.Status = snapshot.StatusPartial
	}
	r.Gate.Failed = failed
	r.ExitCode = result.Decide(result.Outcome{Incomplete: !r.Evidence.Complete, Drift: failed})
	return r
}

// kindLabel names what a finding is on when it is not a tool.
var kindLabel = map[string]string{scan.KindPrompt: "prompt ", scan.KindResource: "resource ", scan.KindResourceTemplate: "resource template "}

func subject(client string, f scan.Finding) string {
	s := kindLabel[f.Kind] + f.Qualified()
	if f.Rule == scan.RuleToxicFlow {
		s = "config"
	}
	if f.Field != "" && f.Rule != scan.RuleDuplicateName {
		s += " " + f.Field
	}
	if client != "" {
		s = client + ": " + s
	}
	return s
}

func message(f scan.Finding) string {
	if f.Evidence == "" {
		return f.Message
	}
	return f.Message + ": " + f.Evidence
}

// jsonPath points a finding into the scanned file (a snapshot's tools
// are under surface.tools, by name).
func jsonPath(f scan.Finding) string {
	if f.Tool == "" || f.Rule == scan.RuleDuplicateName {
		return ""
	}
	list, key := "tools", "name"
	switch f.Kind {
	case scan.KindPrompt:
		list = "prompts"
	case scan.KindResource:
		list, key = "resources", "uri"
	case scan.KindResourceTemplate:
		list, key = "resourceTemplates", "uriTemplate"
	}
	p := "$.surface." + list + "[?(@." + key + "==" + fmt.Sprintf("%q", f.Tool) + ")]"
	if f.Field != "" {
		p += "." + f.Field
	}
	return p
}

// readSnapshot reads a snapshot in any format diff reads, tools decoded.
func readSnapshot(ctx context.Context, path string) (*snapshot.Snapshot, error) {
	s, err := contract.ReadSnapshotLazyContext(ctx, path, false)
	if err != nil {
		return nil, err
	}
	if err := s.Surface.DecodeTools(); err != nil {
		return nil, fault.Input(fmt.Errorf("snapshot %s: %w", path, err))
	}
	return s, nil
}
