package cli

import (
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/iostreams"
)

// renderers are the commands that render a result: each has the one
// output flag family (--format/-f, hidden --reporter/-T, and --json when
// json is a format).
var renderers = []string{
	"inspect", "check", "diff", "compat", "report", "rules", "version",
	"fixture list", "sessions list", "sessions export", "sessions check",
	"sessions diff", "sessions replay",
}

// stateReaders are the commands that read or write the state directory.
var stateReaders = []string{
	"proxy", "ui", "remote", "hub-path",
	"sessions list", "sessions export", "sessions check", "sessions diff",
	"sessions baseline", "sessions replay", "sessions prune", "serve",
}

func findCmd(t *testing.T, root *cobra.Command, path string) *cobra.Command {
	t.Helper()
	c, rest, err := root.Find(strings.Fields(path))
	if err != nil || len(rest) > 0 || c.CommandPath() != "mcpward "+path {
		t.Fatalf("no command %q", path)
	}
	return c
}

func TestOutputFlagFamily(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	root := NewCmdRoot(testFactory(ios))
	for _, path := range renderers {
		c := findCmd(t, root, path)
		fl := c.Flags()
		f := fl.Lookup("format")
		if f == nil || f.Shorthand != "f" || f.Hidden {
			t.Errorf("%s: no visible --format/-f", path)
			continue
		}
		if r := fl.Lookup("reporter"); r == nil || r.Shorthand != "T" || !r.Hidden {
			t.Errorf("%s: --reporter/-T is not a hidden alias", path)
		}
		if fl.Lookup("json") == nil {
			t.Errorf("%s: no --json", path)
		}
		if _, ok := c.GetFlagCompletionFunc("format"); !ok {
			t.Errorf("%s: --format is not completed", path)
		}
	}
}

func TestStateDirFlag(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	root := NewCmdRoot(testFactory(ios))
	for _, path := range stateReaders {
		if findCmd(t, root, path).Flags().Lookup("state-dir") == nil {
			t.Errorf("%s: no --state-dir", path)
		}
	}
	// No other command claims one.
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		p := strings.TrimPrefix(c.CommandPath(), "mcpward ")
		if c.Flags().Lookup("state-dir") != nil && !slices.Contains(stateReaders, p) {
			t.Errorf("%s has --state-dir but is not listed as reading the state directory", p)
		}
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(root)
}

// One --config: every mcpward config or settings file is named --config
// (wrap's --config names the MCP client's config file it edits).
func TestOneConfigFlag(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	root := NewCmdRoot(testFactory(ios))
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, name := range []string{"config-file", "settings"} {
			if f := c.Flags().Lookup(name); f != nil && !f.Hidden {
				t.Errorf("%s: --%s is shown; the flag is --config", c.CommandPath(), name)
			}
		}
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(root)
	if findCmd(t, root, "proxy").Flags().Lookup("config") == nil {
		t.Error("proxy: no --config")
	}
}
