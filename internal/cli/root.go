package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/cli/proxycmd"
	"github.com/mcpward/mcpward/internal/cli/versioncmd"
	"github.com/mcpward/mcpward/internal/fault"
)

// NewCmdRoot builds the whole command tree.
func NewCmdRoot(f *cmdutil.Factory) *cobra.Command {
	root := newRoot(f)
	addCommands(root, f)
	return root
}

// newCmdRootFor builds the command tree an invocation needs. The stdio
// shim ('mcpward proxy …', which 'mcpward -- <cmd…>' becomes) is started
// by a client once per server and the client waits for it: it gets the
// root and the proxy command only, which parse and behave exactly as in
// the whole tree (the proxy command has no subcommands and the root no
// persistent flags), without building the other thirty commands first.
func newCmdRootFor(f *cmdutil.Factory, args []string) *cobra.Command {
	if len(args) == 0 || args[0] != "proxy" {
		return NewCmdRoot(f)
	}
	root := newRoot(f)
	root.AddCommand(proxycmd.NewCmdProxy(f, nil))
	return root
}

// newRoot is the root command without its subcommands.
func newRoot(f *cmdutil.Factory) *cobra.Command {
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
	root.SetFlagErrorFunc(cmdutil.FlagValueError)
	root.SetHelpCommand(newCmdHelp())
	root.AddCommand(versioncmd.NewCmdVersion(f, nil))
	return root
}

// newCmdHelp replaces cobra's help command, which prints "Unknown help
// topic" and the root usage and exits 0 for a topic that does not exist:
// a typo in a script must not pass for success.
func newCmdHelp() *cobra.Command {
	return &cobra.Command{
		Use:   "help [command]",
		Short: "Help about any command",
		Long:  "Help provides help for any command in the application.\nSimply type mcpward help [path to command] for full details.",
		ValidArgsFunction: func(c *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
			cmd, _, err := c.Root().Find(args)
			if err != nil {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			var out []cobra.Completion
			for _, sub := range cmd.Commands() {
				if sub.IsAvailableCommand() && strings.HasPrefix(sub.Name(), toComplete) {
					out = append(out, cobra.CompletionWithDesc(sub.Name(), sub.Short))
				}
			}
			return out, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(c *cobra.Command, args []string) error {
			cmd, rest, err := c.Root().Find(args)
			if err != nil || cmd == nil || len(rest) > 0 {
				topic := strings.Join(args, " ")
				msg := fmt.Sprintf("unknown help topic %q", topic)
				parent := c.Root()
				if cmd != nil && err == nil {
					parent = cmd
				}
				word := args[len(args)-1]
				if len(rest) > 0 {
					word = rest[0]
				}
				if s := parent.SuggestionsFor(word); len(s) > 0 {
					msg += fmt.Sprintf(" (did you mean %s?)", strings.Join(s, ", "))
				}
				return fault.WithHint(cmdutil.FlagErrorf("%s", msg), fmt.Sprintf("run '%s --help' for the commands", parent.CommandPath()))
			}
			return cmd.Help()
		},
	}
}
