package cicmd

import (
	"testing"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/iostreams"
)

// fakeCheck stands for check.NewCmdCheck: a command with check's format
// flags that records the format it would render.
func fakeCheck(got *string) func(*cmdutil.Factory) *cobra.Command {
	return func(*cmdutil.Factory) *cobra.Command {
		var format string
		cmd := &cobra.Command{
			Use: "check",
			RunE: func(*cobra.Command, []string) error {
				*got = format
				return nil
			},
		}
		cmdutil.AddFormatFlags(cmd, &format, "check")
		return cmd
	}
}

func TestNewCmdCI(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"default is github", nil, "github"},
		{"another format", []string{"--format", "md"}, "md"},
		{"json", []string{"--json"}, "json"},
		{"snapgauge's --reporter", []string{"--reporter", "text"}, "text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ios, _, _, _ := iostreams.Test()
			var got string
			cmd := NewCmdCI(&cmdutil.Factory{IOStreams: ios}, fakeCheck(&got))
			cmd.SetArgs(tt.args)
			if _, err := cmd.ExecuteC(); err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("ci %v renders %q, want %q", tt.args, got, tt.want)
			}
			if cmd.Name() != "ci" {
				t.Errorf("Name() = %q", cmd.Name())
			}
		})
	}
}
