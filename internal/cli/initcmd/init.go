// Package initcmd implements `mcpward init`: connect to a server, list its
// tools and write mcpward.json with one seeded probe per tool, ready for
// review and `mcpward record`. (The package is not called init because
// init is reserved.)
package initcmd

import (
	"context"
	"encoding/json"
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
	"github.com/mcpward/mcpward/internal/client"
	"github.com/mcpward/mcpward/internal/config"
	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/contract"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/heuristic"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/mcp"
	"github.com/mcpward/mcpward/internal/plural"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/snapshot"
	"github.com/mcpward/mcpward/internal/transport"
)

// InitOptions are the inputs of `mcpward init`.
type InitOptions struct {
	IO      *iostreams.IOStreams
	Env     connect.Env
	Now     func() time.Time
	Version string

	URL     string
	Command string
	// Args are the stdio command's arguments (--args is split on spaces).
	Args    []string
	Fixture string
	// Headers are written to the config as given (${VAR} kept) and
	// interpolated only to connect now.
	Headers    map[string]string
	Target     string
	ConfigPath string
	Force      bool
	Timeout    time.Duration
}

// NewCmdInit builds `mcpward init`.
func NewCmdInit(f *cmdutil.Factory, runF func(context.Context, *InitOptions) error) *cobra.Command {
	opts := &InitOptions{
		IO:      f.IOStreams,
		Env:     connect.Env{Environ: f.Environ, LookupEnv: f.LookupEnv},
		Now:     f.Now,
		Version: f.Version,
	}
	var (
		args    string
		headers []string
	)
	cmd := &cobra.Command{
		Use:   "init (--url URL | --command CMD [--args \"A B\"] | --fixture NAME)",
		Short: "Write mcpward.json for a server, with one seeded probe per tool",
		Long: `Connect to the server, list its tools, and write mcpward.json with one target
and one probe per tool. A seeded probe passes only the tool's required
arguments, each with a placeholder (the first enum value, the minimum or 1, true,
[], {}, or "example"): review them before recording, since record and check
call every enabled probe.

A probe is enabled only where both facts agree that the tool only reads: the
server declares readOnlyHint: true, and nothing in the tool's name or words
writes, deletes, sends or executes (mcpward's heuristic). Every other tool gets
a probe with "enabled": false and a "reason" (a tool that merely looks read-only
by its words: "looks read-only; the server does not say so: check and enable");
set "enabled": true to call it. init says for every tool why.

Nothing is written if the server cannot be fully listed. An existing config is
kept unless --force is given.`,
		Example: `  mcpward init --url http://127.0.0.1:8080/mcp --header 'Authorization=Bearer ${TOKEN}'
  mcpward init --command node --args "server.js --stdio" --target notes
  mcpward init --fixture clean@v1`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			n := 0
			for _, set := range []bool{opts.URL != "", opts.Command != "", opts.Fixture != ""} {
				if set {
					n++
				}
			}
			if n != 1 {
				return cmdutil.FlagErrorf("use exactly one of --url, --command and --fixture")
			}
			if args != "" {
				if opts.Command == "" {
					return cmdutil.FlagErrorf("--args needs --command")
				}
				opts.Args = strings.Fields(args)
			}
			if len(headers) > 0 {
				if opts.URL == "" {
					return cmdutil.FlagErrorf("--header applies only to --url")
				}
				opts.Headers = map[string]string{}
				for _, kv := range headers {
					k, v, err := transport.ParseHeaderFlag(kv)
					if err != nil {
						return cmdutil.FlagErrorWrap(fmt.Errorf("--header %q: %w", kv, err))
					}
					opts.Headers[k] = v
				}
			}
			if !config.ValidTargetName(opts.Target) {
				return cmdutil.FlagErrorf("--target %q is not allowed (letters, digits and . _ @ - only: it becomes a file name)", opts.Target)
			}
			if opts.Timeout <= 0 {
				return cmdutil.FlagErrorf("--timeout must be positive, got %s", opts.Timeout)
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return initRun(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.URL, "url", "", "Streamable HTTP (or legacy HTTP+SSE) endpoint")
	fl.StringVar(&opts.Command, "command", "", "stdio server `command`")
	fl.StringVar(&args, "args", "", "the command's arguments, space-separated")
	fl.StringVar(&opts.Fixture, "fixture", "", "an embedded fixture server")
	fl.StringArrayVar(&headers, "header", nil, "HTTP header `K=V` for --url (write ${VAR}, not the secret; repeatable)")
	fl.StringVar(&opts.Target, "target", "server", "target `name` (the snapshot file stem)")
	fl.StringVar(&opts.ConfigPath, "config", config.FileName, "config `file` to write")
	fl.BoolVar(&opts.Force, "force", false, "overwrite an existing config")
	cmdutil.TimeoutVar(fl, &opts.Timeout, "timeout", client.DefaultRequestTimeout, "per-request timeout")
	_ = cmd.RegisterFlagCompletionFunc("fixture", cmdutil.FixtureNames)
	return cmd
}

func initRun(ctx context.Context, opts *InitOptions) error {
	if err := cmdutil.CheckOutputPath("config", opts.ConfigPath); err != nil {
		return err
	}
	if !opts.Force {
		if _, err := os.Stat(opts.ConfigPath); err == nil {
			return fault.WithHint(fault.Input(fmt.Errorf("%s already exists", opts.ConfigPath)), "use --force to overwrite it")
		} else if !errors.Is(err, fs.ErrNotExist) {
			return fault.Input(fmt.Errorf("check %s: %w", opts.ConfigPath, err))
		}
	}
	ct := &config.Target{Fixture: opts.Fixture, URL: opts.URL, Command: opts.Command, Args: opts.Args, Headers: opts.Headers, Probes: []config.Probe{}}
	if opts.Timeout != client.DefaultRequestTimeout {
		ct.TimeoutMs = opts.Timeout.Milliseconds()
	}
	// Validate what will be written with the same strict parser that will
	// read it back.
	probe := &config.File{Targets: map[string]*config.Target{opts.Target: ct}}
	b, err := config.Marshal(probe)
	if err != nil {
		return err
	}
	if _, err := config.Parse(b); err != nil {
		return cmdutil.FlagErrorWrap(err)
	}
	t, err := contract.FromConfig(filepath.Dir(opts.ConfigPath), opts.Target, ct, opts.Env.LookupEnv)
	if err != nil {
		return err
	}
	for _, w := range t.Warnings {
		fmt.Fprintf(opts.IO.ErrOut, "warning: %s\n", w)
	}
	if t.Spec.Timeout == 0 {
		t.Spec.Timeout = opts.Timeout
	}
	progress := cmdutil.NewProgress(opts.IO)
	defer progress.Stop()
	obs, err := contract.Observe(ctx, t, &contract.ObserveOptions{Version: opts.Version, Now: opts.Now, Env: opts.Env, Progress: progress.Show})
	progress.Stop()
	if err != nil {
		return err
	}
	if !obs.Complete() {
		contract.WriteProblems(opts.IO.ErrOut, obs)
		return &cmdutil.VerdictError{Code: result.Incomplete, Reason: fmt.Sprintf("missing evidence is never 'no change': %s not written", opts.ConfigPath)}
	}
	ct.Probes = SeedProbes(obs.Snapshot.Surface.Tools)
	out := &config.File{SnapshotDir: config.DefaultSnapshotDir, Targets: map[string]*config.Target{opts.Target: ct}}
	b, err = config.Marshal(out)
	if err != nil {
		return err
	}
	if err := contract.WriteFileAtomic(opts.ConfigPath, b, 0o644); err != nil {
		return fault.Input(fmt.Errorf("write %s: %w", opts.ConfigPath, err))
	}
	disabled := 0
	for _, p := range ct.Probes {
		if !p.IsEnabled() {
			disabled++
		}
	}
	seeded := plural.Count(len(ct.Probes), "probe") + " seeded"
	if disabled > 0 {
		seeded += fmt.Sprintf(", %d disabled", disabled)
	}
	fmt.Fprintf(opts.IO.Out, "wrote %s (target %s: %s, %s)\n", opts.ConfigPath, opts.Target, plural.Count(len(obs.Snapshot.Surface.Tools), "tool"), seeded)
	for _, t := range obs.Snapshot.Surface.Tools {
		name := snapshot.Str(t, "name")
		if name == "" {
			continue
		}
		ok, why := probeDecision(name, t)
		state := "disabled"
		if ok {
			state = "enabled "
		} else {
			why = strings.TrimPrefix(why, name+" ")
			why = strings.TrimPrefix(why, name+": ")
		}
		fmt.Fprintf(opts.IO.ErrOut, "  %s %s: %s\n", state, name, why)
	}
	fmt.Fprintf(opts.IO.ErrOut, "next: review the seeded probe arguments, then run 'mcpward record %s'\n", opts.Target)
	return nil
}

// SeedProbes returns one shape probe per tool, in tool-name order, whose
// arguments hold only the required properties, each with a placeholder
// (snapgauge §2): the first enum value; the minimum (else 1) for integer
// and number; true; []; {}; otherwise "example".
//
// A probe is enabled only where both facts agree that the tool only reads
// ([probeDecision]): the server declares readOnlyHint: true and its name
// and words hold no write, delete, send or execute signal. Every other
// tool gets a probe written with "enabled": false and a "reason": record
// and check would otherwise call it on every CI run, and turning it on is
// an edit a reviewer makes on purpose.
func SeedProbes(tools []snapshot.Object) []config.Probe {
	out := make([]config.Probe, 0, len(tools))
	for _, t := range tools {
		name := snapshot.Str(t, "name")
		if name == "" {
			continue
		}
		args := map[string]any{}
		schema, _ := t["inputSchema"].(map[string]any)
		props, _ := schema["properties"].(map[string]any)
		req, _ := schema["required"].([]any)
		for _, r := range req {
			p, ok := r.(string)
			if !ok {
				continue
			}
			ps, _ := props[p].(map[string]any)
			args[p] = placeholder(ps)
		}
		b, err := json.Marshal(args)
		if err != nil {
			b = []byte("{}")
		}
		pr := config.Probe{ID: name, Tool: name, Arguments: b, Capture: snapshot.CaptureShape}
		if ok, why := probeDecision(name, t); !ok {
			off := false
			pr.Enabled = &off
			pr.Reason = why
		}
		out = append(out, pr)
	}
	slices.SortStableFunc(out, func(a, b config.Probe) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// Reasons init writes beside each probe, enabled or not.
const (
	whyEnabled       = "enabled: the server declares readOnlyHint: true and nothing in its name or description writes, deletes, sends or executes"
	whyLooksReadOnly = "looks read-only; the server does not say so: check and enable"
	enableHint       = "check the arguments, then set \"enabled\": true to call it on every record and check"
)

// probeDecision says whether the tool's probe is enabled and why. A probe
// is enabled only where both facts agree that the tool only reads: the
// server declares readOnlyHint: true, and the heuristic finds no write,
// delete, send or execute signal in its name or words (heuristic.OnlyReads,
// the one rule fuzz follows too). Everything else is written disabled
// with the reason, for a reviewer to decide.
func probeDecision(name string, t snapshot.Object) (bool, string) {
	ann := toolAnnotations(t)
	desc := snapshot.Str(t, "description")
	declaredRead := ann != nil && ann.ReadOnlyHint != nil && *ann.ReadOnlyHint
	ok, action, verb, where := heuristic.OnlyReads(name, desc, ann, t["inputSchema"])
	inSchema := ""
	if where == heuristic.WhereInput {
		// A mode or option that changes state ("mode": list | delete).
		inSchema = " in its " + where
	} else {
		where = "name or description"
	}
	l := heuristic.ClassifyDefinition(name, desc, ann, t["inputSchema"])
	switch {
	case ok:
		return true, whyEnabled
	case declaredRead:
		return false, fmt.Sprintf("%s: the server declares readOnlyHint: true, but its words read as %s (%q%s, heuristic): %s", name, action.Reads(), verb, inSchema, enableHint)
	case action != heuristic.ActionNone:
		return false, fmt.Sprintf("%s reads as %s (%q in its %s, heuristic); the server does not declare it read-only: %s", name, action.Reads(), verb, where, enableHint)
	case l.Heuristic == heuristic.Read:
		return false, fmt.Sprintf("%s %s (%q, heuristic)", name, whyLooksReadOnly, l.Word)
	case ann != nil && ann.ReadOnlyHint != nil:
		return false, fmt.Sprintf("%s: its annotations declare readOnlyHint: false: %s", name, enableHint)
	default:
		return false, fmt.Sprintf("%s: nothing in its name, description or annotations says it only reads: %s", name, enableHint)
	}
}

// toolAnnotations reads a tool's annotations, nil when absent or not an
// object of the expected shape.
func toolAnnotations(t snapshot.Object) *mcp.ToolAnnotations {
	raw, ok := t["annotations"]
	if !ok {
		return nil
	}
	b, err := json.Marshal(raw)
	if err != nil {
		return nil
	}
	var a mcp.ToolAnnotations
	if json.Unmarshal(b, &a) != nil {
		return nil
	}
	return &a
}

func placeholder(s map[string]any) any {
	if enum, ok := s["enum"].([]any); ok && len(enum) > 0 {
		return enum[0]
	}
	switch firstType(s["type"]) {
	case "integer", "number":
		if m, ok := s["minimum"]; ok {
			if n, ok := m.(json.Number); ok {
				return n
			}
			if f, ok := m.(float64); ok {
				return f
			}
		}
		return 1
	case "boolean":
		return true
	case "array":
		return []any{}
	case "object":
		return map[string]any{}
	}
	return "example"
}

// firstType reads "type", which may be a list: its first non-null entry.
func firstType(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case []any:
		for _, e := range t {
			if s, ok := e.(string); ok && s != "null" {
				return s
			}
		}
	}
	return ""
}
