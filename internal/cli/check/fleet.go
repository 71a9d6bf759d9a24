package check

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/cli/fleetrun"
	"github.com/mcpward/mcpward/internal/contract"
	"github.com/mcpward/mcpward/internal/fleet"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/transport"
)

// fleetRun checks several config targets (--all, or the NAMEs given) in
// parallel and renders one fleet Result: a section per target in config
// order, one exit code by result.Worst.
func fleetRun(ctx context.Context, opts *CheckOptions) error {
	var timeout time.Duration
	if opts.TimeoutSet {
		timeout = opts.Target.Timeout
	}
	plan, err := fleetrun.NewPlan(opts.ConfigPath, opts.Dir, &opts.Fleet, opts.Names, timeout, opts.Env.LookupEnv, opts.IO.ErrOut)
	if err != nil {
		return err
	}
	names, resolved := plan.Names, plan.Resolved
	sections := make([]result.Result, len(names))
	for i, err := range plan.Errs {
		if err != nil {
			sections[i] = fleetrun.FailedSection("check", opts.Version, &result.Target{Name: names[i]}, err)
		}
	}

	type checked struct {
		r      *result.Result
		stderr []byte
	}
	progress := cmdutil.NewProgress(opts.IO)
	defer progress.Stop()
	outs := fleet.Run(ctx, names, &fleet.Options{
		Jobs:     opts.Fleet.Jobs,
		Timeout:  opts.Fleet.TargetTimeout,
		Progress: fleetrun.Progress(progress, "checking"),
	}, func(ctx context.Context, i int) (checked, error) {
		if resolved[i] == nil {
			return checked{}, nil
		}
		r, obs, err := contract.Check(ctx, resolved[i], opts.check(nil, nil))
		if obs == nil {
			return checked{r, nil}, err
		}
		return checked{r, obs.Stderr}, err
	})
	progress.Stop()

	var stderrs bytes.Buffer
	for i, o := range outs {
		rt := resolved[i]
		if rt == nil {
			continue
		}
		tgt := &result.Target{Name: rt.Name, Transport: rt.Spec.Info().Transport, Endpoint: contract.Describe(rt.Spec)}
		sections[i] = fleetrun.Section("check", opts.Version, tgt, o.State, opts.Fleet.TargetTimeout, o.Value.r, o.Err, o.Stack)
		stderr := o.Value.stderr
		if o.Err != nil {
			stderr = transport.StderrOf(o.Err)
		}
		if sections[i].ExitCode == result.Incomplete || sections[i].Error != "" {
			if b := transport.StderrBlock(stderr, contract.StderrLines); b != "" {
				fmt.Fprintf(&stderrs, "target %s:\n%s", rt.Name, b)
			}
		}
	}
	r := result.Combine("check", opts.Version, sections)
	if err := contract.Render(opts.IO, opts.Reporter, r); err != nil {
		return err
	}
	opts.IO.ErrOut.Write(stderrs.Bytes())
	done := "nothing compared as unchanged"
	if opts.Update {
		done = "their snapshots not updated"
	}
	return fleetrun.Verdict(r, done)
}
