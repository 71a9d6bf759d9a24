package cli

import (
	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	versioncmd "github.com/mcpward/mcpward/internal/cli/version"
)

// NewCmdRoot builds the whole command tree.
func NewCmdRoot(f *cmdutil.Factory) *cobra.Command {
	root := &cobra.Command{
		Use:   "mcpward <command> [flags]",
		Short: "Keep MCP servers honest: snapshots, conformance probes and a lossless traffic proxy",
		Long: `mcpward records an MCP server's surface as a committed snapshot and gates CI on a
tiered diff; probes how a server behaves under different clients and judges it
against the protocol; and sits in the pipe between an agent and its servers to
record and check every frame.

Start with 'mcpward demo' for an offline tour on embedded fixture servers.`,
		Example: `  mcpward demo
  mcpward inspect --fixture clean@v1
  mcpward inspect -- npx -y @modelcontextprotocol/server-everything
  mcpward inspect --url http://127.0.0.1:8080/mcp`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       f.Version,
	}
	root.SetVersionTemplate("mcpward {{.Version}}\n")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return cmdutil.FlagValueError(err) })
	root.AddCommand(versioncmd.NewCmdVersion(f, nil))
	addCommands(root, f)
	return root
}
