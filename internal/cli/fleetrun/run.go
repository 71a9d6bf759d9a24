package fleetrun

import (
	"bytes"
	"context"
	"fmt"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/contract"
	"github.com/mcpward/mcpward/internal/fleet"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/snapshot"
	"github.com/mcpward/mcpward/internal/transport"
)

// Run calls job once per target of names (fleet.Run) with the fleet
// flags ff, showing on the progress line (Progress) verb and how far the
// run is; the line is gone when Run returns.
func Run[T any](ctx context.Context, io *iostreams.IOStreams, ff *Flags, verb string, names []string, job func(context.Context, int) (T, error)) []fleet.Outcome[T] {
	progress := cmdutil.NewProgress(io)
	defer progress.Stop()
	return fleet.Run(ctx, names, &fleet.Options{Jobs: ff.Jobs, Timeout: ff.TargetTimeout, Progress: Progress(progress, verb)}, job)
}

// A Fleet is a fleet run whose targets each give a section of one fleet
// Result (check, compat).
type Fleet[T any] struct {
	IO      *iostreams.IOStreams
	Flags   *Flags
	Command string
	Version string
	// Verb is the progress line's ("checking").
	Verb  string
	Names []string
	// Targets[i] is the section's target of Names[i], nil when the target
	// could not be set up: Errs[i] says why, as a section of its own.
	Targets []*result.Target
	Errs    []error
	// Job runs target i; Result is the Result in its value.
	Job    func(ctx context.Context, i int) (T, error)
	Result func(T) *result.Result
	// Each, when set, sees the section of every target that ran, with its
	// outcome, in order.
	Each func(i int, s *result.Result, o fleet.Outcome[T])
}

// Run runs the targets set up, in parallel, and combines the sections, in
// the order of Names, into one Result with the exit code of result.Worst.
func (f *Fleet[T]) Run(ctx context.Context) *result.Result {
	sections := make([]result.Result, len(f.Names))
	for i, err := range f.Errs {
		if err != nil && f.Targets[i] == nil {
			sections[i] = FailedSection(f.Command, f.Version, result.TargetOf(snapshot.TargetInfo{Name: f.Names[i]}), err)
		}
	}
	outs := Run(ctx, f.IO, f.Flags, f.Verb, f.Names, func(ctx context.Context, i int) (T, error) {
		if f.Targets[i] == nil {
			var zero T
			return zero, nil
		}
		return f.Job(ctx, i)
	})
	for i, o := range outs {
		if f.Targets[i] == nil {
			continue
		}
		sections[i] = Section(f.Command, f.Version, f.Targets[i], o.State, f.Flags.TargetTimeout, f.Result(o.Value), o.Err, o.Stack)
		if f.Each != nil {
			f.Each(i, &sections[i], o)
		}
	}
	return result.Combine(f.Command, f.Version, sections)
}

// Check is check's fleet run over plan: contract.Check runs each resolved
// target with (a copy of) co; the fleet Result is rendered in format, then
// the server stderr of each target that is incomplete or failed, and the
// exit is Verdict's (notDone: what an incomplete target means).
func Check(ctx context.Context, io *iostreams.IOStreams, ff *Flags, plan *Plan, version, format, notDone string, co *contract.CheckOptions) error {
	type checked struct {
		r      *result.Result
		stderr []byte
	}
	targets := make([]*result.Target, len(plan.Names))
	for i, rt := range plan.Resolved {
		if rt != nil {
			targets[i] = result.TargetOf(rt.Spec.Info())
		}
	}
	var stderrs bytes.Buffer
	r := (&Fleet[checked]{
		IO: io, Flags: ff, Command: "check", Version: version, Verb: "checking",
		Names: plan.Names, Targets: targets, Errs: plan.Errs,
		Job: func(ctx context.Context, i int) (checked, error) {
			co := *co
			r, obs, err := contract.Check(ctx, plan.Resolved[i], &co)
			if obs == nil {
				return checked{r, nil}, err
			}
			return checked{r, obs.Stderr}, err
		},
		Result: func(c checked) *result.Result { return c.r },
		Each: func(i int, s *result.Result, o fleet.Outcome[checked]) {
			stderr := o.Value.stderr
			if o.Err != nil {
				stderr = transport.StderrOf(o.Err)
			}
			if s.ExitCode == result.Incomplete || s.Error != "" {
				if b := transport.StderrBlock(stderr, contract.StderrLines); b != "" {
					fmt.Fprintf(&stderrs, "target %s:\n%s", plan.Resolved[i].Name, b)
				}
			}
		},
	}).Run(ctx)
	if err := contract.Render(io, format, r); err != nil {
		return err
	}
	io.ErrOut.Write(stderrs.Bytes())
	return Verdict(r, notDone)
}
