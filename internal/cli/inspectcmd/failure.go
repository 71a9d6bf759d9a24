package inspectcmd

import (
	"errors"
	"fmt"
	"time"

	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/contract"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/transport"
)

// failed handles a server that could not be connected to. The snapshot of
// what was seen (no discover section, the stderr's notes, a status that
// says why) goes to --json and --save, as mcp-surfaceprint wrote one on
// failure too. A server whose stderr asks for credentials is reported as
// "authentication required" with a hint instead of its raw stderr (shown
// with --verbose), as record and check report it (contract.AuthRequired);
// the exit code is 2 either way.
func failed(opts *InspectOptions, spec *connect.Spec, err error) error {
	stderr := transport.StderrOf(err)
	var recordedAt time.Time
	if opts.Now != nil {
		recordedAt = opts.Now()
	}
	snap, berr := contract.FailureSnapshot(spec.Info(), err, recordedAt, opts.Version)
	if berr != nil {
		return err
	}
	if err := output(opts, snap, localLine{}); err != nil {
		return err
	}
	if opts.Verbose {
		fmt.Fprint(opts.IO.ErrOut, transport.StderrBlock(stderr, verboseLines))
	}
	if aerr := contract.AuthRequired(err, snap); aerr != nil {
		return fault.WithHint(aerr, contract.AuthHint+"; --verbose shows the server's stderr")
	}
	if opts.Quiet || opts.Verbose {
		// Not shown, or shown in full above: not again as the tail.
		return fault.WithHint(withoutStderr{err}, fault.HintOf(err))
	}
	return err
}

// withoutStderr is err without the server stderr it carries: the same
// message and kind (its hint goes outside it), but the CLI finds no
// stderr to show.
type withoutStderr struct{ err error }

func (e withoutStderr) Error() string        { return e.err.Error() }
func (e withoutStderr) Is(target error) bool { return errors.Is(e.err, target) }
