// Package cmdtest helps the flag tests of command packages (gh style): it
// builds a command with a runF that captures the options it would run
// with, executes the argument list, and returns those options. Only tests
// import it.
package cmdtest

import (
	"bytes"
	"context"
	"testing"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/iostreams"
)

// Parse runs the flag handling of the command newCmd builds on args, with
// test streams, and returns the options its run function would get (nil
// when the command failed before running) and the error.
func Parse[O any](t testing.TB, newCmd func(*cmdutil.Factory, func(context.Context, *O) error) *cobra.Command, args ...string) (*O, error) {
	t.Helper()
	ios, _, _, _ := iostreams.Test()
	var got *O
	cmd := newCmd(&cmdutil.Factory{IOStreams: ios}, func(_ context.Context, o *O) error {
		got = o
		return nil
	})
	cmd.SetArgs(args)
	cmd.SetOut(&bytes.Buffer{})
	cmd.SetErr(&bytes.Buffer{})
	_, err := cmd.ExecuteC()
	return got, err
}
