package cli

import (
	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	fixturecmd "github.com/mcpward/mcpward/internal/cli/fixture"
	"github.com/mcpward/mcpward/internal/cli/inspect"
	"github.com/mcpward/mcpward/internal/cli/report"
)

// addCommands registers every verb. Each verb is its own package.
func addCommands(root *cobra.Command, f *cmdutil.Factory) {
	root.AddCommand(
		inspect.NewCmdInspect(f, nil),
		fixturecmd.NewCmdFixture(f),
		report.NewCmdReport(f, nil),
	)
}
