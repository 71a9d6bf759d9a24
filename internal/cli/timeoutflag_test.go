package cli

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/mcpward/mcpward/internal/iostreams"
)

// Every timeout flag (--timeout, --check-timeout, --target-timeout…) is
// cmdutil.TimeoutVar's: it takes a Go duration or, as snapgauge's did, a
// bare number of milliseconds.
func TestTimeoutFlags(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	root := NewCmdRoot(testFactory(ios))
	seen := map[string]bool{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if f.Name != "timeout" && !strings.HasSuffix(f.Name, "-timeout") {
				return
			}
			seen[strings.TrimPrefix(c.CommandPath()+" --"+f.Name, "mcpward ")] = true
			if err := f.Value.Set("1500"); err != nil || f.Value.String() != "1.5s" {
				t.Errorf("%s --%s 1500: %v, value %s; want 1.5s (milliseconds, through cmdutil.TimeoutVar)", c.CommandPath(), f.Name, err, f.Value)
			}
			if err := f.Value.Set("2m"); err != nil || f.Value.String() != "2m0s" {
				t.Errorf("%s --%s 2m: %v, value %s", c.CommandPath(), f.Name, err, f.Value)
			}
		})
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(root)
	// The walk reaches the flags it is meant to check.
	for _, want := range []string{"sessions replay --timeout", "record --timeout", "check --target-timeout", "serve --check-timeout"} {
		if !seen[want] {
			t.Errorf("no flag %q in the command tree", want)
		}
	}
}
