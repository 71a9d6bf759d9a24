package check

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/config"
	"github.com/mcpward/mcpward/internal/contract"
	"github.com/mcpward/mcpward/internal/fleet"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/transport"
)

// fleetRun checks several config targets (--all, or the NAMEs given) in
// parallel and renders one fleet Result: a section per target in config
// order, one exit code by result.Worst.
func fleetRun(ctx context.Context, opts *CheckOptions) error {
	path := opts.ConfigPath
	if path == "" {
		path = config.FileName
	}
	cfg, names, err := cmdutil.FleetTargets(path, opts.Fleet.All, opts.Names)
	if err != nil {
		return err
	}
	dir := opts.Dir
	if dir == "" {
		dir = contract.SnapshotDir(path, cfg)
	}

	// Resolve every target first, in order, so that config warnings print
	// once and deterministically; an entry that does not resolve is a
	// section of its own and the others still run.
	resolved := make([]*contract.Resolved, len(names))
	sections := make([]result.Result, len(names))
	for i, n := range names {
		t, err := contract.FromConfig(filepath.Dir(path), n, cfg.Targets[n], opts.Env.LookupEnv)
		if err != nil {
			sections[i] = cmdutil.FailedSection("check", opts.Version, &result.Target{Name: n}, err)
			continue
		}
		for _, w := range t.Warnings {
			fmt.Fprintf(opts.IO.ErrOut, "warning: %s\n", w)
		}
		if opts.TimeoutSet {
			t.Spec.Timeout = opts.Target.Timeout
		}
		resolved[i] = &contract.Resolved{Target: t, Path: contract.SnapshotPath(dir, n)}
	}

	type checked struct {
		r      *result.Result
		stderr []byte
	}
	progress := cmdutil.NewProgress(opts.IO)
	defer progress.Stop()
	nop := func(string) {}
	outs := fleet.Run(ctx, names, &fleet.Options{
		Jobs:     opts.Fleet.Jobs,
		Timeout:  opts.Fleet.TargetTimeout,
		Progress: cmdutil.FleetProgress(progress, "checking"),
	}, func(ctx context.Context, i int) (checked, error) {
		if resolved[i] == nil {
			return checked{}, nil
		}
		r, obs, err := checkTarget(ctx, opts, resolved[i], nop, func() {})
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
		sections[i] = cmdutil.FleetSection("check", opts.Version, tgt, o.State, opts.Fleet.TargetTimeout, o.Value.r, o.Err, o.Stack)
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
	return cmdutil.FleetVerdict(r, done)
}
