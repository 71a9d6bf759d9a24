package recordcmd

import (
	"bytes"
	"context"
	"fmt"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/cli/fleetrun"
	"github.com/mcpward/mcpward/internal/contract"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/fleet"
	"github.com/mcpward/mcpward/internal/plural"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/syserr"
)

// fleetRun records several config targets (--all, or the NAMEs given) in
// parallel, as check --all checks them: one line per target in config
// order, a snapshot for each target observed completely, and one exit
// code by result.Worst.
func fleetRun(ctx context.Context, opts *RecordOptions) error {
	plan, err := fleetrun.NewPlan(opts.ConfigPath, opts.Dir, &opts.Fleet, opts.Names, opts.Target.Timeout, opts.TimeoutSet, opts.Env.LookupEnv, opts.IO.ErrOut)
	if err != nil {
		return err
	}
	names, resolved, failed := plan.Names, plan.Resolved, plan.Errs
	// The tools each target will call print once, before anything is
	// called.
	for i, rt := range resolved {
		if rt == nil {
			continue
		}
		if err := cmdutil.CheckOutputPath("snapshot", rt.Path); err != nil {
			resolved[i], failed[i] = nil, err
			continue
		}
		var announce bytes.Buffer
		AnnounceProbes(&announce, rt.Target)
		for _, line := range bytes.SplitAfter(announce.Bytes(), []byte("\n")) {
			if len(line) > 0 {
				fmt.Fprintf(opts.IO.ErrOut, "%s: %s", names[i], line)
			}
		}
	}

	outs := fleetrun.Run(ctx, opts.IO, &opts.Fleet, "recording", names, func(ctx context.Context, i int) (*contract.Observation, error) {
		if resolved[i] == nil {
			return nil, failed[i]
		}
		if opts.StrictNet {
			pinned, err := contract.StrictNet(ctx, resolved[i].Spec, opts.Resolve, nil)
			if err != nil {
				return nil, err
			}
			if pinned != nil {
				defer pinned.CloseIdleConnections()
			}
		}
		return observe(ctx, opts, resolved[i], func(string) {})
	})

	codes := make([]int, len(names))
	var notRecorded []string
	recorded, incompleteN := 0, 0
	timedOut := false
	for i, o := range outs {
		n := names[i]
		obs := o.Value
		complete := o.Err == nil && obs != nil && obs.Complete()
		switch {
		case complete:
			// Written before the deadline, if one passed as it returned.
			recorded++
			fmt.Fprintln(opts.IO.Out, recordedLine(resolved[i], obs))
			continue
		case o.State == fleet.Interrupted:
			codes[i] = result.Incomplete
			fmt.Fprintf(opts.IO.ErrOut, "%s: incomplete: interrupted before its run finished\n", n)
		case o.State == fleet.TimedOut:
			codes[i] = result.Incomplete
			fmt.Fprintf(opts.IO.ErrOut, "%s: incomplete: did not finish within --target-timeout %s\n", n, opts.Fleet.TargetTimeout)
		case len(o.Stack) > 0:
			codes[i] = result.Internal
			fmt.Fprintf(opts.IO.ErrOut, "%s: internal error: %v (a bug in mcpward; please report it)\n", n, o.Err)
		case o.Err != nil:
			codes[i] = result.ExitCode(o.Err, syserr.Refused)
			fmt.Fprintf(opts.IO.ErrOut, "%s: %v\n", n, o.Err)
			if h := fault.HintOf(o.Err); h != "" {
				fmt.Fprintf(opts.IO.ErrOut, "%s: hint: %s\n", n, h)
			}
		default:
			codes[i] = result.Incomplete
			timedOut = timedOut || obs.TimedOut()
			for _, p := range obs.Problems {
				fmt.Fprintf(opts.IO.ErrOut, "%s: incomplete: %s\n", n, p)
			}
		}
		if codes[i] == result.Incomplete {
			incompleteN++
		}
		notRecorded = append(notRecorded, n)
	}
	code := result.Worst(codes...)
	fmt.Fprintf(opts.IO.Out, "%s: %d recorded", plural.Count(len(names), "target"), recorded)
	if len(notRecorded) > 0 {
		fmt.Fprintf(opts.IO.Out, ", %d not (%s)", len(notRecorded), fleetrun.JoinNames(notRecorded))
	}
	fmt.Fprintln(opts.IO.Out)
	switch code {
	case result.Clean:
		return nil
	case result.Incomplete:
		return &cmdutil.VerdictError{Code: code, TimedOut: timedOut, Reason: fmt.Sprintf(
			"missing evidence is never 'no change': %d of %d targets incomplete, no snapshot written for them", incompleteN, len(names))}
	}
	return &cmdutil.VerdictError{Code: code, Reason: fmt.Sprintf("%d of %d targets not recorded (see above)", len(notRecorded), len(names))}
}
