package inspect

import (
	"errors"
	"fmt"
	"time"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/client"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/snapshot"
	"github.com/mcpward/mcpward/internal/target"
	"github.com/mcpward/mcpward/internal/transport"
)

// failed handles a server that could not be connected to. The snapshot of
// what was seen (no discover section, the stderr's notes, a status that
// says why) goes to --json and --save, as mcp-surfaceprint wrote one on
// failure too. A server whose stderr asks for credentials is reported as
// "authentication required" with a hint instead of its raw stderr (shown
// with --verbose); the exit code is 2 either way.
func failed(opts *InspectOptions, spec *target.Spec, err error) error {
	stderr := transport.StderrOf(err)
	var recordedAt time.Time
	if opts.Now != nil {
		recordedAt = opts.Now()
	}
	snap, berr := snapshot.Build(&snapshot.Evidence{
		RecordedAt:    recordedAt,
		Target:        spec.Info(),
		DiscoverError: &snapshot.SectionError{Kind: errorKind(err), Message: oneLine(err.Error())},
		Stderr:        string(stderr),
	}, &snapshot.BuildOptions{MCPWardVersion: opts.Version})
	if berr != nil {
		return err
	}
	if err := output(opts, snap); err != nil {
		return err
	}
	if opts.Verbose {
		fmt.Fprint(opts.IO.ErrOut, transport.StderrBlock(stderr, verboseLines))
	}
	if hint := authHint(snap); hint != "" && snap.Observation.Status == snapshot.StatusAuthRequired {
		return cmdutil.WithHint(
			fault.Incomplete(fmt.Errorf("authentication required: %s; the server's stderr asks for credentials: %s", oneLine(err.Error()), hint)),
			"pass credentials with --env K=V (or a --home that holds them); --verbose shows the server's stderr")
	}
	if opts.Quiet || opts.Verbose {
		// Not shown, or shown in full above: not again as the tail.
		return withoutStderr{err}
	}
	return err
}

// errorKind classifies a connection failure as a snapshot section error.
func errorKind(err error) string {
	var he *client.HTTPError
	switch {
	case errors.As(err, &he) && he.Auth():
		return "auth"
	case errors.Is(err, transport.ErrTimeout):
		return "timeout"
	case errors.Is(err, transport.ErrExited):
		return "exited"
	}
	return "transport"
}

// authHint is the excerpt of the server's stderr that asks for
// credentials, "" when there is none.
func authHint(s *snapshot.Snapshot) string {
	for _, n := range s.Observation.Notes {
		if n.Kind == "stderr" && n.Rule == "auth_hint" {
			return fmt.Sprintf("%q", n.Snippet)
		}
	}
	return ""
}

// withoutStderr is err without the server stderr it carries: the same
// message, kind and hint, but the CLI finds no stderr to show.
type withoutStderr struct{ err error }

func (e withoutStderr) Error() string        { return e.err.Error() }
func (e withoutStderr) Is(target error) bool { return errors.Is(e.err, target) }
func (e withoutStderr) Hint() string         { return cmdutil.HintOf(e.err) }
