// Package sessionscmd is the `mcpward sessions` command group: offline work on
// recorded session logs. Each verb is its own package; this one only
// registers them.
package sessionscmd

import (
	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/cli/sessionscmd/sessbaselinecmd"
	"github.com/mcpward/mcpward/internal/cli/sessionscmd/sesscheckcmd"
	"github.com/mcpward/mcpward/internal/cli/sessionscmd/sessdiffcmd"
	"github.com/mcpward/mcpward/internal/cli/sessionscmd/sessexportcmd"
	"github.com/mcpward/mcpward/internal/cli/sessionscmd/sesslistcmd"
	"github.com/mcpward/mcpward/internal/cli/sessionscmd/sessprunecmd"
	"github.com/mcpward/mcpward/internal/cli/sessionscmd/sessreplaycmd"
)

// NewCmdSessions builds the `sessions` group.
func NewCmdSessions(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "sessions <command>",
		Short: "Work with recorded session logs (list, check, baseline, export, diff, replay, prune)",
		Long: `Recorded session logs live in <state>/sessions (the state directory is
$MCPWARD_HOME, else $XDG_STATE_HOME/mcpward, else ~/.local/state/mcpward).`,
	}
	cmd.AddCommand(
		sesslistcmd.NewCmdList(f, nil),
		sesscheckcmd.NewCmdCheck(f, nil),
		sessbaselinecmd.NewCmdBaseline(f, nil),
		sessprunecmd.NewCmdPrune(f, nil),
		sessexportcmd.NewCmdExport(f, nil),
		sessdiffcmd.NewCmdDiff(f, nil),
		sessreplaycmd.NewCmdReplay(f, nil),
	)
	return cmd
}
