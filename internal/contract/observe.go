package contract

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mcpward/mcpward/internal/client"
	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/mcp"
	"github.com/mcpward/mcpward/internal/probe"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/snapshot"
	"github.com/mcpward/mcpward/internal/transport"
	"github.com/mcpward/mcpward/internal/verdict"
)

// ObserveOptions configure [Observe].
type ObserveOptions struct {
	// Version is mcpward's version, sent as clientInfo and stamped into the
	// snapshot.
	Version string
	// Now stamps the snapshot (pin it for deterministic files).
	Now func() time.Time
	// Env is the environment a stdio server may inherit.
	Env connect.Env
	// Progress, if set, is told what is happening.
	Progress func(step string)
}

// An Observation is a live snapshot and what kept it from being complete.
type Observation struct {
	Snapshot *snapshot.Snapshot
	// Problems lists, one line each, why the evidence is incomplete
	// (a section not read to its end, a probe with no answer). Empty means
	// the snapshot is complete and may be written or compared.
	Problems []string
	// Findings are rule findings the observation's own evidence decides
	// ([Judge]): check reports them beside the compat engine's.
	Findings []result.RuleFinding
	// Stderr is what a stdio server wrote to stderr, kept when the
	// observation is incomplete: it usually says why.
	Stderr []byte
	// Err is why the server could not be observed at all (nil when it
	// answered): marked incomplete, and wrapping [ErrAuthRequired] with a
	// hint when its stderr asked for credentials. Problems holds its
	// message.
	Err error
}

// AuthRequired reports whether the server could not be observed because it
// asked for credentials.
func (o *Observation) AuthRequired() bool { return errors.Is(o.Err, ErrAuthRequired) }

// TimedOut reports whether the server could not be observed because it did
// not answer in time.
func (o *Observation) TimedOut() bool {
	return errors.Is(o.Err, transport.ErrTimeout) || errors.Is(o.Err, context.DeadlineExceeded)
}

// Complete reports whether the observation may stand for the server.
func (o *Observation) Complete() bool { return len(o.Problems) == 0 }

// Observe connects to t, enumerates its surface, runs its probes and builds
// the snapshot. Anything that kept the evidence from being complete is in
// Problems, also a server that could not be started, reached or handshaken
// (an error marked fault.Incomplete by the transport layer becomes the
// observation's one problem, with the server's stderr), so that every
// incomplete outcome is reported the same way; a server whose stderr asks
// for credentials is "authentication required" ([AuthRequired]), as inspect
// says. Other errors (a bad config, a cancelled context) are returned.
func Observe(ctx context.Context, t *Target, opts *ObserveOptions) (*Observation, error) {
	obs, err := observe(ctx, t, opts)
	if err != nil {
		if errors.Is(err, fault.ErrIncomplete) {
			stderr := transport.StderrOf(err)
			err = classifyFailure(t, err, opts)
			return &Observation{Problems: []string{err.Error()}, Stderr: stderr, Err: err}, nil
		}
		return nil, err
	}
	return obs, nil
}

func observe(ctx context.Context, t *Target, opts *ObserveOptions) (*Observation, error) {
	if opts == nil {
		opts = &ObserveOptions{}
	}
	progress := opts.Progress
	if progress == nil {
		progress = func(string) {}
	}
	progress("connecting to " + Describe(t.Spec))
	copts := &client.Options{
		ClientInfo:     mcp.Implementation{Name: "mcpward", Version: opts.Version},
		Capabilities:   t.Capabilities,
		RequestTimeout: t.Spec.Timeout,
	}
	if t.ProtocolVersion != "" {
		copts.Version = mcp.Revision(t.ProtocolVersion)
	}
	sess, err := connect.Connect(ctx, t.Spec, opts.Env, copts)
	if err != nil {
		return nil, fmt.Errorf("connect to %s: %w", Describe(t.Spec), err)
	}
	defer sess.Close()
	ev, err := probe.Observe(ctx, sess, &probe.Options{
		Now:      opts.Now,
		Probes:   t.Probes,
		Progress: progress,
	})
	if err != nil {
		return nil, fmt.Errorf("observe %s: %w", Describe(t.Spec), err)
	}
	if err := sess.Close(); err != nil && !errors.Is(err, context.Canceled) {
		return nil, fault.Incomplete(fmt.Errorf("close %s: %w", Describe(t.Spec), err))
	}
	snap, err := snapshot.Build(ev, &snapshot.BuildOptions{
		MCPWardVersion: opts.Version,
		ProbeSpec:      t.ProbeSpec(),
		Volatile:       t.Volatile,
	})
	if err != nil {
		// A bad probe spec or a volatile selector that breaks a typed
		// field: both come from the config.
		return nil, fault.Input(fmt.Errorf("build snapshot of %s: %w", t.Name, err))
	}
	obs := &Observation{Snapshot: snap, Problems: verdict.Problems(snap, ev), Findings: Judge(ev)}
	if !obs.Complete() && ev.Stderr != "" {
		obs.Stderr = []byte(ev.Stderr)
	}
	return obs, nil
}
