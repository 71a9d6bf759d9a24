package cli

import (
	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/cli/check"
	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/cli/demo"
	diffcmd "github.com/mcpward/mcpward/internal/cli/diff"
	fixturecmd "github.com/mcpward/mcpward/internal/cli/fixture"
	"github.com/mcpward/mcpward/internal/cli/initcmd"
	"github.com/mcpward/mcpward/internal/cli/inspect"
	"github.com/mcpward/mcpward/internal/cli/record"
	"github.com/mcpward/mcpward/internal/cli/report"
)

// addCommands registers every verb. Each verb is its own package.
func addCommands(root *cobra.Command, f *cmdutil.Factory) {
	root.AddCommand(
		demo.NewCmdDemo(f, nil),
		inspect.NewCmdInspect(f, nil),
		initcmd.NewCmdInit(f, nil),
		record.NewCmdRecord(f, nil),
		check.NewCmdCheck(f, nil),
		diffcmd.NewCmdDiff(f, nil),
		fixturecmd.NewCmdFixture(f),
		report.NewCmdReport(f, nil),
	)
}
