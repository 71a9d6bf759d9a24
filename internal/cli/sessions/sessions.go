// Package sessions is the `mcpward sessions` command group: offline work on
// recorded session logs. Each verb is its own package; this one only
// registers them.
package sessions

import (
	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	baselinecmd "github.com/mcpward/mcpward/internal/cli/sessions/baseline"
	"github.com/mcpward/mcpward/internal/cli/sessions/check"
	sessdiff "github.com/mcpward/mcpward/internal/cli/sessions/diff"
	exportcmd "github.com/mcpward/mcpward/internal/cli/sessions/export"
	"github.com/mcpward/mcpward/internal/cli/sessions/list"
	"github.com/mcpward/mcpward/internal/cli/sessions/prune"
	replaycmd "github.com/mcpward/mcpward/internal/cli/sessions/replay"
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
		list.NewCmdList(f, nil),
		check.NewCmdCheck(f, nil),
		baselinecmd.NewCmdBaseline(f, nil),
		prune.NewCmdPrune(f, nil),
		exportcmd.NewCmdExport(f, nil),
		sessdiff.NewCmdDiff(f, nil),
		replaycmd.NewCmdReplay(f, nil),
	)
	return cmd
}
