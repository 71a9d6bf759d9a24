package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/cli/boardcmd"
	"github.com/mcpward/mcpward/internal/cli/checkcmd"
	"github.com/mcpward/mcpward/internal/cli/cicmd"
	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/cli/compatcmd"
	"github.com/mcpward/mcpward/internal/cli/democmd"
	"github.com/mcpward/mcpward/internal/cli/diffcmd"
	"github.com/mcpward/mcpward/internal/cli/fixturecmd"
	"github.com/mcpward/mcpward/internal/cli/fuzzcmd"
	"github.com/mcpward/mcpward/internal/cli/initcmd"
	"github.com/mcpward/mcpward/internal/cli/inspectcmd"
	"github.com/mcpward/mcpward/internal/cli/migratecmd"
	"github.com/mcpward/mcpward/internal/cli/proxycmd"
	"github.com/mcpward/mcpward/internal/cli/recordcmd"
	"github.com/mcpward/mcpward/internal/cli/remotecmd"
	"github.com/mcpward/mcpward/internal/cli/reportcmd"
	"github.com/mcpward/mcpward/internal/cli/rulescmd"
	"github.com/mcpward/mcpward/internal/cli/scancmd"
	"github.com/mcpward/mcpward/internal/cli/servecmd"
	"github.com/mcpward/mcpward/internal/cli/sessionscmd"
	"github.com/mcpward/mcpward/internal/cli/sitecmd"
	"github.com/mcpward/mcpward/internal/cli/trustcmd"
	"github.com/mcpward/mcpward/internal/cli/uicmd"
	"github.com/mcpward/mcpward/internal/cli/wrapcmd"
	"github.com/mcpward/mcpward/internal/fault"
)

// addCommands registers every verb. Each verb is its own package.
func addCommands(root *cobra.Command, f *cmdutil.Factory) {
	root.AddCommand(
		democmd.NewCmdDemo(f, nil),
		inspectcmd.NewCmdInspect(f, nil),
		initcmd.NewCmdInit(f, nil),
		recordcmd.NewCmdRecord(f, nil),
		checkcmd.NewCmdCheck(f, nil),
		cicmd.NewCmdCI(f, func(f *cmdutil.Factory) *cobra.Command { return checkcmd.NewCmdCheck(f, nil) }),
		diffcmd.NewCmdDiff(f, nil),
		scancmd.NewCmdScan(f, nil),
		fuzzcmd.NewCmdFuzz(f, nil),
		fixturecmd.NewCmdFixture(f),
		reportcmd.NewCmdReport(f, nil),
		compatcmd.NewCmdCompat(f, nil),
		rulescmd.NewCmdRules(f, nil),
		boardcmd.NewCmdBoard(f, nil),
		proxycmd.NewCmdProxy(f, nil),
		sessionscmd.NewCmdSessions(f),
		wrapcmd.NewCmdWrap(f, nil),
		wrapcmd.NewCmdUnwrap(f, nil),
		uicmd.NewCmdUI(f, nil),
		remotecmd.NewCmdRemote(f, nil),
		remotecmd.NewCmdHubPath(f),
		migratecmd.NewCmdMigrate(f, nil),
		servecmd.NewCmdServe(f, nil),
		sitecmd.NewCmdSite(f, nil),
		trustcmd.NewCmdTrust(f),
	)
	rejectUnknownSubcommands(root)
}

// rejectUnknownSubcommands makes a command group ('mcpward sessions',
// 'mcpward fixture') fail on a word that is none of its subcommands,
// with suggestions, instead of printing its help and exiting 0: a typo
// in a script must not pass for success. Alone, a group prints its help.
func rejectUnknownSubcommands(cmd *cobra.Command) {
	for _, c := range cmd.Commands() {
		rejectUnknownSubcommands(c)
	}
	if cmd == cmd.Root() || !cmd.HasSubCommands() || cmd.Runnable() {
		return
	}
	cmd.Args = cobra.ArbitraryArgs
	cmd.RunE = func(c *cobra.Command, args []string) error {
		if len(args) == 0 {
			return c.Help()
		}
		msg := fmt.Sprintf("unknown command %q for %q", args[0], c.CommandPath())
		if s := c.SuggestionsFor(args[0]); len(s) > 0 {
			msg += fmt.Sprintf(" (did you mean %s?)", strings.Join(s, ", "))
		}
		return fault.WithHint(cmdutil.FlagErrorf("%s", msg), fmt.Sprintf("run '%s --help' for usage", c.CommandPath()))
	}
}
