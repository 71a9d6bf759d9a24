// Package inspectcmd implements `mcpward inspect`: a human view of one
// server's surface (era, versions, capabilities, cache hints, tools with
// heuristic read/write/destructive labels, resources, templates, prompts,
// manifest operations), or with --json the snapshot itself.
package inspectcmd

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/atomicfile"
	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/client"
	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/mcp"
	"github.com/mcpward/mcpward/internal/probe"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/snapshot"
	"github.com/mcpward/mcpward/internal/transport"
)

// InspectOptions are the inputs of `mcpward inspect`.
type InspectOptions struct {
	IO      *iostreams.IOStreams
	Env     connect.Env
	Now     func() time.Time
	Version string

	Target    cmdutil.TargetFlags
	JSON      bool
	NoSignals bool
	// Save also writes the snapshot (as --json prints it) to this file,
	// even when the observation failed.
	Save string
	// Quiet never shows the server's stderr; Verbose always does, also
	// after a successful run. The stderr is captured and analysed either
	// way.
	Quiet, Verbose bool
	// Era forces "modern" or "legacy" instead of detecting it.
	Era string
	// Capabilities is the ClientCapabilities object to declare (nil: {}).
	Capabilities json.RawMessage
}

// NewCmdInspect builds `mcpward inspect`.
func NewCmdInspect(f *cmdutil.Factory, runF func(context.Context, *InspectOptions) error) *cobra.Command {
	var capsFlag string
	opts := &InspectOptions{
		IO:      f.IOStreams,
		Env:     connect.Env{Environ: f.Environ, LookupEnv: f.LookupEnv},
		Now:     f.Now,
		Version: f.Version,
	}
	cmd := &cobra.Command{
		Use:   "inspect (--fixture NAME | --url URL | -- <command…>)",
		Short: "Show a server's surface: era, capabilities, tools, resources, prompts",
		Long: `Connect to one MCP server, detect its era (modern 2026-07-28 or a legacy
revision), enumerate every list to its end, and print what a client sees.

Tool labels (read, write, destructive) are heuristics from names, descriptions
and the server's own annotations: shown, never trusted. A section that could
not be enumerated is reported as such, and the command then exits 2.

A server command given as one quoted string ("uv run server.py") is split
like a shell would split it.

With --json the output is the snapshot mcpward would record, plus the
heuristic labels and signals as notes of kind "heuristic" (never diffed). A
server that fails to start still gives a snapshot of what was seen, whose
status says why (auth_required when its stderr asks for credentials,
timeout, startup_error). --save FILE writes the same snapshot to a file.

The server's stderr is shown when it fails (its last lines); --verbose shows
it after a successful run too, --quiet never.`,
		Example: `  mcpward inspect --fixture clean@v1
  mcpward inspect --url http://127.0.0.1:8080/mcp --header "Authorization=Bearer \${TOKEN}"
  mcpward inspect --isolate-home -- npx -y @modelcontextprotocol/server-everything
  mcpward inspect --json -- ./my-server > surface.json
  mcpward inspect --save surface.json "uv run server.py"`,
		RunE: func(cmd *cobra.Command, args []string) error {
			rest := opts.Target.SetCommand(cmd, args)
			switch {
			case len(rest) == 1 && len(opts.Target.Command) == 0 && strings.ContainsAny(rest[0], " \t"):
				// mcp-surfaceprint's form: the whole command as one
				// quoted argument, split like a shell would.
				opts.Target.Command = rest
			case len(rest) > 0:
				return cmdutil.FlagErrorf("unexpected argument %q (a server command goes after --)", rest[0])
			}
			if err := opts.Target.Validate(); err != nil {
				return err
			}
			if !opts.Target.Set() {
				return cmdutil.FlagErrorf("no target: use --fixture NAME, --url URL or -- <command…>")
			}
			if _, err := cmdutil.ParseEra(opts.Era); err != nil {
				return err
			}
			caps, err := cmdutil.JSONObjectFlag("--capabilities", capsFlag)
			if err != nil {
				return err
			}
			opts.Capabilities = caps
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return inspectRun(cmd.Context(), opts)
		},
	}
	cmdutil.AddTargetFlags(cmd, &opts.Target)
	cmdutil.AddJSONFlags(cmd, &opts.JSON, "inspect")
	cmd.Flags().BoolVar(&opts.NoSignals, "no-signals", false, "hide heuristic signals (prompt-injection phrases and the like)")
	cmdutil.AddEraFlag(cmd, &opts.Era)
	cmd.Flags().StringVar(&capsFlag, "capabilities", "{}", "ClientCapabilities `JSON` to declare (servers list different tools for different clients)")
	cmd.Flags().StringVar(&opts.Save, "save", "", "also write the snapshot to `file` (written even when the server fails)")
	cmd.Flags().BoolVarP(&opts.Quiet, "quiet", "q", false, "never show the server's stderr, nor progress")
	cmd.Flags().BoolVarP(&opts.Verbose, "verbose", "v", false, "show the server's stderr, also after a successful run")
	cmd.MarkFlagsMutuallyExclusive("quiet", "verbose")
	return cmd
}

func inspectRun(ctx context.Context, opts *InspectOptions) error {
	spec, err := opts.Target.Spec("", opts.Env.LookupEnv)
	if err != nil {
		return err
	}
	progress := cmdutil.NewProgress(opts.IO)
	defer progress.Stop()
	show := progress.Show
	if opts.Quiet {
		show = func(string) {}
	}
	era, _ := cmdutil.ParseEra(opts.Era) // validated by RunE
	show("connecting")
	sess, err := connect.Connect(ctx, spec, opts.Env, &client.Options{
		ClientInfo:     mcp.Implementation{Name: "mcpward", Version: opts.Version},
		Capabilities:   opts.Capabilities,
		Era:            era,
		RequestTimeout: spec.Timeout,
	})
	if err != nil {
		progress.Stop()
		return failed(opts, spec, err)
	}
	defer sess.Close()
	ev, err := probe.Observe(ctx, sess, &probe.Options{
		Now:          opts.Now,
		DualEraCheck: true,
		Progress:     show,
	})
	if err != nil {
		return err
	}
	local := localNote(opts.Target, sess.Conn)
	if err := sess.Close(); err != nil {
		return fmt.Errorf("close %s: %w", describe(spec), err)
	}
	if sess.Stderr != nil {
		ev.Stderr = string(sess.Stderr())
	}
	snap, err := snapshot.Build(ev, &snapshot.BuildOptions{MCPWardVersion: opts.Version})
	if err != nil {
		return fmt.Errorf("build snapshot: %w", err)
	}
	progress.Stop()
	if err := output(opts, snap, local); err != nil {
		return err
	}
	if opts.Verbose {
		fmt.Fprint(opts.IO.ErrOut, transport.StderrBlock([]byte(ev.Stderr), verboseLines))
	}
	if snap.Observation.Status != snapshot.StatusOK {
		return &cmdutil.VerdictError{Code: result.Incomplete, Reason: incompleteReason(snap)}
	}
	return nil
}

// verboseLines bounds --verbose's stderr block (the transport keeps the
// first and last bytes of a larger stream).
const verboseLines = 1000

// output writes the snapshot as --json, --save and the human view ask.
func output(opts *InspectOptions, snap *snapshot.Snapshot, local localLine) error {
	var data []byte
	if opts.JSON || opts.Save != "" {
		withHeuristics(snap, !opts.NoSignals)
		b, err := snapshot.Marshal(snap)
		if err != nil {
			return err
		}
		data = b
	}
	if opts.Save != "" {
		if err := atomicfile.Write(opts.Save, data, 0o644); err != nil {
			return fault.Input(fmt.Errorf("--save %s: %w", opts.Save, fault.WithoutPath(err)))
		}
		fmt.Fprintf(opts.IO.ErrOut, "saved the snapshot to %s\n", opts.Save)
	}
	if opts.JSON {
		_, err := opts.IO.Out.Write(data)
		return err
	}
	if snap.Surface.Discover == nil {
		// The server never answered: the error says so, there is no
		// surface to show.
		return nil
	}
	return render(opts.IO, snap, !opts.NoSignals, local)
}

// Lines of the human view about a local server command (mcp-surfaceprint's
// caution, which its users expect above the surface).
const (
	cautionLocal = "the server runs locally and is not sandboxed; --isolate-home keeps it out of your real HOME"
	isolatedAt   = "HOME and the XDG folders pointed at %s (fresh, removed afterwards; not a sandbox)"
)

// A localLine is the human view's line about a local server command.
type localLine struct{ label, text string }

// localNote is the line of a server command: where HOME went with
// --isolate-home (the started process's connection says, as
// connect.Resolve asked for it), else the caution that the server is not
// sandboxed. The zero value for a URL or a fixture, which run no local
// command.
func localNote(tf cmdutil.TargetFlags, conn any) localLine {
	if len(tf.Command) == 0 {
		return localLine{}
	}
	if h, ok := conn.(interface{ IsolatedHome() string }); ok && h.IsolatedHome() != "" {
		return localLine{"home", fmt.Sprintf(isolatedAt, h.IsolatedHome())}
	}
	return localLine{"caution", cautionLocal}
}

// incompleteReason says in one line which sections were not enumerated.
func incompleteReason(s *snapshot.Snapshot) string {
	reason := "surface incomplete (" + s.Observation.Status + ")"
	for _, sec := range sections(s) {
		if sec.cov.Error != nil {
			reason += fmt.Sprintf(": %s: %s", sec.name, sec.cov.Error.Message)
			break
		}
	}
	return reason
}

func describe(s *connect.Spec) string {
	switch {
	case s.Fixture != "":
		return "fixture " + s.Fixture
	case s.URL != "":
		return s.URL
	}
	return s.Command[0]
}
