// Package cmdutil holds what every command package shares: the Factory of
// injected dependencies, the usage error, the verdict error that carries an
// exit code, and the --json/--format helper.
package cmdutil

import (
	"context"
	"time"

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
}

// Getenv returns the value of key, or "".
func (f *Factory) Getenv(key string) string {
	if f.LookupEnv == nil {
		return ""
	}
	v, _ := f.LookupEnv(key)
	return v
}
