package cli

import (
	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
)

// addCommands registers every verb. Each verb is its own package.
func addCommands(root *cobra.Command, f *cmdutil.Factory) {
}
