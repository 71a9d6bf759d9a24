// Package inspect implements `mcpward inspect`: a human view of one
// server's surface (era, versions, capabilities, cache hints, tools with
// heuristic read/write/destructive labels, resources, templates, prompts,
// manifest operations), or with --json the snapshot itself.
package inspect

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/client"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/mcp"
	"github.com/mcpward/mcpward/internal/probe"
	"github.com/mcpward/mcpward/internal/snapshot"
	"github.com/mcpward/mcpward/internal/target"
)

// InspectOptions are the inputs of `mcpward inspect`.
type InspectOptions struct {
	IO      *iostreams.IOStreams
	Env     target.Env
	Now     func() time.Time
	Version string

	Target    cmdutil.TargetFlags
	JSON      bool
	NoSignals bool
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
		Env:     target.Env{Environ: f.Environ, LookupEnv: f.LookupEnv},
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

With --json the output is the snapshot mcpward would record.`,
		Example: `  mcpward inspect --fixture clean@v1
  mcpward inspect --url http://127.0.0.1:8080/mcp --header "Authorization=Bearer \${TOKEN}"
  mcpward inspect --isolate-home -- npx -y @modelcontextprotocol/server-everything
  mcpward inspect --json -- ./my-server > surface.json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			rest := opts.Target.SetCommand(cmd, args)
			if len(rest) > 0 {
				return cmdutil.FlagErrorf("unexpected argument %q (a server command goes after --)", rest[0])
			}
			if err := opts.Target.Validate(); err != nil {
				return err
			}
			if !opts.Target.Set() {
				return cmdutil.FlagErrorf("no target: use --fixture NAME, --url URL or -- <command…>")
			}
			switch opts.Era {
			case "", "modern", "legacy":
			default:
				return cmdutil.FlagErrorf("--era must be modern or legacy, got %q", opts.Era)
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
	cmd.Flags().StringVar(&opts.Era, "era", "", "force the era (modern or legacy) instead of detecting it")
	cmd.Flags().StringVar(&capsFlag, "capabilities", "{}", "ClientCapabilities `JSON` to declare (servers list different tools for different clients)")
	return cmd
}

func inspectRun(ctx context.Context, opts *InspectOptions) error {
	spec, err := opts.Target.Spec("", opts.Env.LookupEnv)
	if err != nil {
		return err
	}
	progress := cmdutil.NewProgress(opts.IO)
	defer progress.Stop()
	progress.Show("connecting")
	sess, err := target.Connect(ctx, spec, opts.Env, &client.Options{
		ClientInfo:     mcp.Implementation{Name: "mcpward", Version: opts.Version},
		Capabilities:   opts.Capabilities,
		Era:            mcp.Era(opts.Era),
		RequestTimeout: spec.Timeout,
	})
	if err != nil {
		return err
	}
	defer sess.Close()
	ev, err := probe.Observe(ctx, sess, &probe.Options{
		Now:          opts.Now,
		DualEraCheck: true,
		Progress:     progress.Show,
	})
	if err != nil {
		return err
	}
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
	if opts.JSON {
		b, err := snapshot.Marshal(snap)
		if err != nil {
			return err
		}
		if _, err := opts.IO.Out.Write(b); err != nil {
			return err
		}
	} else if err := render(opts.IO, snap, !opts.NoSignals); err != nil {
		return err
	}
	if snap.Observation.Status != snapshot.StatusOK {
		return &cmdutil.VerdictError{Code: cmdutil.ExitIncomplete, Reason: incompleteReason(snap)}
	}
	return nil
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

func describe(s *target.Spec) string {
	switch {
	case s.Fixture != "":
		return "fixture " + s.Fixture
	case s.URL != "":
		return s.URL
	}
	return s.Command[0]
}
