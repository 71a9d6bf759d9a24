package contract

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mcpward/mcpward/internal/client"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/snapshot"
	"github.com/mcpward/mcpward/internal/transport"
)

// ErrAuthRequired marks a server that could not be observed because it
// asks for credentials (its stderr says so): the evidence is incomplete
// (exit 2) and the remedy is the user's, see [AuthHint].
var ErrAuthRequired = errors.New("authentication required")

// AuthHint is the remediation line of an [ErrAuthRequired] error.
const AuthHint = `pass credentials with --env K=V or a --home that holds them (in mcpward.json: the target's "env" or "home")`

// FailureSnapshot is the snapshot of what was seen of a server that could
// not be observed at all (err is why): no discover section, the notes
// distilled from the server's stderr, and a status that says why
// (auth_required when the stderr asks for credentials, timeout,
// startup_error). inspect prints it with --json, as mcp-surfaceprint wrote
// one on failure too.
func FailureSnapshot(info snapshot.TargetInfo, err error, recordedAt time.Time, version string) (*snapshot.Snapshot, error) {
	return snapshot.Build(&snapshot.Evidence{
		RecordedAt:    recordedAt,
		Target:        info,
		DiscoverError: &snapshot.SectionError{Kind: failureKind(err), Message: oneLine(err.Error())},
		Stderr:        string(transport.StderrOf(err)),
	}, &snapshot.BuildOptions{MCPWardVersion: version})
}

// AuthRequired classifies err, the failure to observe a server, by snap,
// its [FailureSnapshot]: when the server's stderr asked for credentials it
// returns one line, "authentication required: <err>; the server's stderr
// asks for credentials: "<excerpt>"", marked incomplete (exit 2) and
// carrying [AuthHint]; otherwise nil. The result does not carry the
// stderr: the excerpt says why, and each command decides whether to show
// the rest. inspect, record and check all classify through here.
func AuthRequired(err error, snap *snapshot.Snapshot) error {
	if err == nil || snap == nil || snap.Observation.Status != snapshot.StatusAuthRequired {
		return nil
	}
	for _, n := range snap.Observation.Notes {
		if n.Kind == "stderr" && n.Rule == "auth_hint" {
			// A 401 from an HTTP server is auth_required too, but it has
			// its own message and hint (the client's); only a server that
			// said so on stderr is reclassified here.
			return fault.WithHint(fault.Incomplete(fmt.Errorf("%w: %s; the server's stderr asks for credentials: %q", ErrAuthRequired, oneLine(err.Error()), n.Snippet)), AuthHint)
		}
	}
	return nil
}

// classifyFailure is err, an incomplete observation of t, as the user
// should read it: [AuthRequired]'s error when the server asked for
// credentials, else err itself.
func classifyFailure(t *Target, err error, opts *ObserveOptions) error {
	if len(transport.StderrOf(err)) == 0 {
		return err
	}
	var now time.Time
	if opts != nil && opts.Now != nil {
		now = opts.Now()
	}
	var version string
	if opts != nil {
		version = opts.Version
	}
	snap, berr := FailureSnapshot(t.Spec.Info(), err, now, version)
	if berr != nil {
		return err
	}
	if aerr := AuthRequired(err, snap); aerr != nil {
		return aerr
	}
	return err
}

// AuthRequiredError is the error a command ends with (exit 2, [AuthHint])
// when its observation failed because the server asked for credentials:
// "authentication required: <reason>".
func AuthRequiredError(reason string) error {
	return fault.WithHint(fault.Incomplete(fmt.Errorf("%w: %s", ErrAuthRequired, reason)), AuthHint)
}

// failureKind classifies a connection failure as a snapshot section error.
func failureKind(err error) string {
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

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
