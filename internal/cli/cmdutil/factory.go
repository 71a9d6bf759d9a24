// Package cmdutil holds what every command package shares: the Factory of
// injected dependencies, the usage error, the verdict error that carries an
// exit code, and the --json/--format helper.
package cmdutil

import (
	"context"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/iostreams"
)

// A Factory holds the dependencies a command may need, as values or lazy
// functions, so that run functions never reach for globals (os.Getenv,
// time.Now, os.Stdout) and tests can replace each one.
type Factory struct {
	IOStreams *iostreams.IOStreams

	// Version is the mcpward version string.
	Version string

	// Now returns the current time.
	Now func() time.Time

	// LookupEnv reads an environment variable.
	LookupEnv func(key string) (string, bool)

	// Environ returns the environment as K=V pairs (for child processes).
	Environ func() []string

	// Executable returns the path of the running mcpward binary, used to
	// start embedded fixtures as real child processes.
	Executable func() (string, error)

	// Getwd returns the working directory.
	Getwd func() (string, error)

	// Context is the root context of the invocation; it is cancelled on
	// SIGINT/SIGTERM so that child processes are reaped.
	Context context.Context

	// StateDir is the --state-dir flag of the running command: when set, it
	// is the state directory, in place of $MCPWARD_HOME.
	StateDir string
}

// StateEnv is LookupEnv with --state-dir answering for $MCPWARD_HOME, for
// the code that finds the state directory through the environment
// (session.StateDir). It reads the flag when called, so a command may take
// the method value before its flags are parsed.
func (f *Factory) StateEnv(key string) (string, bool) {
	if key == StateDirEnv && f.StateDir != "" {
		return f.StateDir, true
	}
	if f.LookupEnv == nil {
		return "", false
	}
	return f.LookupEnv(key)
}

// StateDirEnv is the variable that names the state directory.
const StateDirEnv = "MCPWARD_HOME"

// AddStateDirFlag registers --state-dir on a command that reads or writes
// the state directory (session logs, baselines, the hub socket).
func AddStateDirFlag(cmd *cobra.Command, f *Factory) {
	cmd.Flags().StringVar(&f.StateDir, "state-dir", "", "state `dir`ectory (default $MCPWARD_HOME, else $XDG_STATE_HOME/mcpward, else ~/.local/state/mcpward)")
	_ = cmd.MarkFlagDirname("state-dir")
}

// Getenv returns the value of key, or "".
func (f *Factory) Getenv(key string) string {
	if f.LookupEnv == nil {
		return ""
	}
	v, _ := f.LookupEnv(key)
	return v
}
