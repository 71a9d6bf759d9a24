// Package cicmd implements `mcpward ci [target]`: `mcpward check` with the
// GitHub reporter (workflow annotations, then the text report in a
// collapsed group), the command snapgauge users ran in CI. Everything
// else, flags, exit codes and the gate, is check's.
package cicmd

import (
	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
)

// NewCmdCI builds `mcpward ci` from the check command newCheck builds
// (the root passes check.NewCmdCheck; a command package does not import
// another), with --format github as its default. Unlike snapgauge's ci, a
// target's own failOn still applies when --fail-on is not given
// (snapgauge passed risky explicitly and so ignored it).
func NewCmdCI(f *cmdutil.Factory, newCheck func(*cmdutil.Factory) *cobra.Command) *cobra.Command {
	cmd := newCheck(f)
	cmd.Use = "ci [target | SNAPSHOT.json]"
	cmd.Short = "check with GitHub annotations (check --format github)"
	cmd.Long = `Run 'mcpward check' and print its result for GitHub Actions: one workflow
annotation per finding (error for breaking findings and protocol violations,
warning for risky ones, notice otherwise), then the full text report in a
collapsed log group.

It is 'mcpward check --format github', the command snapgauge users know as
'snapgauge ci'. Every flag of check applies (another --format too), and so do
its exit codes: 0 clean, 1 drift at or above the gate, 2 evidence incomplete,
3 a protocol violation, 4 usage/config/unusable snapshot.`
	cmd.Example = `  mcpward ci
  mcpward ci weather --fail-on breaking
  mcpward ci --config ci/mcpward.json --timeout 20000`
	if fl := cmd.Flags().Lookup("format"); fl != nil {
		_ = fl.Value.Set("github")
		fl.DefValue = "github"
	}
	return cmd
}
