package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	boardcmd "github.com/mcpward/mcpward/internal/cli/board"
	"github.com/mcpward/mcpward/internal/cli/check"
	"github.com/mcpward/mcpward/internal/cli/ci"
	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	compatcmd "github.com/mcpward/mcpward/internal/cli/compat"
	"github.com/mcpward/mcpward/internal/cli/demo"
	diffcmd "github.com/mcpward/mcpward/internal/cli/diff"
	fixturecmd "github.com/mcpward/mcpward/internal/cli/fixture"
	"github.com/mcpward/mcpward/internal/cli/fuzzcmd"
	"github.com/mcpward/mcpward/internal/cli/initcmd"
	"github.com/mcpward/mcpward/internal/cli/inspect"
	migratecmd "github.com/mcpward/mcpward/internal/cli/migrate"
	proxycmd "github.com/mcpward/mcpward/internal/cli/proxy"
	"github.com/mcpward/mcpward/internal/cli/record"
	remotecmd "github.com/mcpward/mcpward/internal/cli/remote"
	"github.com/mcpward/mcpward/internal/cli/report"
	rulescmd "github.com/mcpward/mcpward/internal/cli/rules"
	scancmd "github.com/mcpward/mcpward/internal/cli/scan"
	servecmd "github.com/mcpward/mcpward/internal/cli/serve"
	"github.com/mcpward/mcpward/internal/cli/sessions"
	sitecmd "github.com/mcpward/mcpward/internal/cli/site"
	trustcmd "github.com/mcpward/mcpward/internal/cli/trust"
	"github.com/mcpward/mcpward/internal/cli/ui"
	wrapcmd "github.com/mcpward/mcpward/internal/cli/wrap"
	"github.com/mcpward/mcpward/internal/fault"
)

// addCommands registers every verb. Each verb is its own package.
func addCommands(root *cobra.Command, f *cmdutil.Factory) {
	root.AddCommand(
		demo.NewCmdDemo(f, nil),
		inspect.NewCmdInspect(f, nil),
		initcmd.NewCmdInit(f, nil),
		record.NewCmdRecord(f, nil),
		check.NewCmdCheck(f, nil),
		ci.NewCmdCI(f, func(f *cmdutil.Factory) *cobra.Command { return check.NewCmdCheck(f, nil) }),
		diffcmd.NewCmdDiff(f, nil),
		scancmd.NewCmdScan(f, nil),
		fuzzcmd.NewCmdFuzz(f, nil),
		fixturecmd.NewCmdFixture(f),
		report.NewCmdReport(f, nil),
		compatcmd.NewCmdCompat(f, nil),
		rulescmd.NewCmdRules(f, nil),
		boardcmd.NewCmdBoard(f, nil),
		proxycmd.NewCmdProxy(f, nil),
		sessions.NewCmdSessions(f),
		wrapcmd.NewCmdWrap(f, nil),
		wrapcmd.NewCmdUnwrap(f, nil),
		ui.NewCmdUI(f, nil),
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
