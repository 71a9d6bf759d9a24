// Package fixturecmd implements `mcpward fixture list` and `mcpward fixture
// serve NAME [--http ADDR]`, which run the embedded fixture servers as real
// stdio or HTTP servers.
package fixturecmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/fixture"
	"github.com/mcpward/mcpward/internal/iostreams"
)

// NewCmdFixture builds the `fixture` group.
func NewCmdFixture(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "fixture <command>",
		Short: "Run the embedded fixture MCP servers",
		Long: `Fixtures are small MCP servers built into mcpward: a clean server, its
drifted releases, degraders, legacy servers of every old revision, and servers
that misbehave the way real ones do. The demo and the tests use them; you can
point any MCP client at them too.`,
	}
	cmd.AddCommand(NewCmdList(f, nil), NewCmdServe(f, nil))
	return cmd
}

// ListOptions are the inputs of `fixture list`.
type ListOptions struct {
	IO *iostreams.IOStreams
	// Format is text (a table), json or tsv.
	Format string
}

// NewCmdList builds `fixture list`.
func NewCmdList(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {
	opts := &ListOptions{IO: f.IOStreams}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the embedded fixture servers",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return listRun(opts)
		},
	}
	cmdutil.AddFormatFlags(cmd, &opts.Format, "fixture list")
	return cmd
}

func listRun(opts *ListOptions) error {
	infos := fixture.List()
	if opts.Format == "json" {
		b, err := json.MarshalIndent(infos, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(opts.IO.Out, "%s\n", b)
		return err
	}
	tp := cmdutil.NewTablePrinter(opts.IO, opts.Format)
	tp.CutFirst(3)
	tp.AddHeader("NAME", "ERA", "VERSIONS", "DESCRIPTION")
	for _, in := range infos {
		tp.AddRow(in.Name, in.Era, strings.Join(in.Versions, ","), in.Description)
	}
	return tp.Render()
}

// ServeOptions are the inputs of `fixture serve`.
type ServeOptions struct {
	IO      *iostreams.IOStreams
	Context context.Context
	Name    string
	HTTP    string
}

// NewCmdServe builds `fixture serve`.
func NewCmdServe(f *cmdutil.Factory, runF func(*ServeOptions) error) *cobra.Command {
	opts := &ServeOptions{IO: f.IOStreams}
	cmd := &cobra.Command{
		Use:   "serve NAME [--http ADDR]",
		Short: "Serve one fixture over stdio, or over HTTP on a loopback address",
		Example: `  mcpward fixture serve clean@v1
  mcpward fixture serve clean@v1 --http 127.0.0.1:8080
  mcpward inspect -- mcpward fixture serve drift-breaking@v2`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Name = args[0]
			opts.Context = cmd.Context()
			if opts.HTTP != "" {
				host, _, err := net.SplitHostPort(opts.HTTP)
				if err != nil {
					return cmdutil.FlagErrorf("--http %q: want HOST:PORT, e.g. 127.0.0.1:8080", opts.HTTP)
				}
				if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
					return cmdutil.FlagErrorf("--http %q: fixtures listen on loopback addresses only", opts.HTTP)
				}
			}
			if runF != nil {
				return runF(opts)
			}
			return serveRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.HTTP, "http", "", "listen for Streamable HTTP on `ADDR` (loopback only) instead of stdio")
	cmd.ValidArgsFunction = func(c *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return cmdutil.FixtureNames(c, args, toComplete)
	}
	return cmd
}

func serveRun(opts *ServeOptions) error {
	fx, err := fixture.Lookup(opts.Name)
	if err != nil {
		return err
	}
	ctx := opts.Context
	if opts.HTTP == "" {
		code, err := fx.Serve(ctx, opts.IO.In, opts.IO.Out, opts.IO.ErrOut)
		if err != nil && !errors.Is(err, context.Canceled) {
			return fmt.Errorf("fixture %s: %w", opts.Name, err)
		}
		return cmdutil.Verdict(code)
	}
	ln, err := net.Listen("tcp", opts.HTTP)
	if err != nil {
		// As for proxy --listen: a port in use or out of range is the
		// user's to fix (exit 4), not a bug.
		return fault.Input(fmt.Errorf("listen on %s: %w", opts.HTTP, err))
	}
	srv := &http.Server{Handler: fx.HTTPHandler(), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(opts.IO.ErrOut, "fixture %s listening on http://%s/\n", opts.Name, ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve %s: %w", opts.Name, err)
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
		return nil
	}
}
