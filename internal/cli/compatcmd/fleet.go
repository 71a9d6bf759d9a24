package compatcmd

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/cli/fleetrun"
	"github.com/mcpward/mcpward/internal/client"
	engine "github.com/mcpward/mcpward/internal/compat"
	"github.com/mcpward/mcpward/internal/config"
	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/contract"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/fixture"
	"github.com/mcpward/mcpward/internal/mcp"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/rules"
)

// A compatJob is one server to run compat against, resolved: from the
// flags, or from a config target.
type compatJob struct {
	spec         *connect.Spec
	profiles     []rules.Profile
	probes       []engine.Probe
	capabilities json.RawMessage
}

// flagJob is the server given by --fixture, --url or -- <command…>; a
// fixture's declared probes run when --probe names none.
func flagJob(opts *CompatOptions) (*compatJob, error) {
	spec, err := opts.Target.Spec("", opts.Env.LookupEnv)
	if err != nil {
		return nil, err
	}
	profiles, err := rules.ResolveProfiles(opts.Profiles, nil)
	if err != nil {
		return nil, cmdutil.FlagErrorWrap(err)
	}
	probes := flagProbes(opts)
	if len(probes) == 0 && spec.Fixture != "" {
		if fx, err := fixture.Lookup(spec.Fixture); err == nil {
			probes = append(probes, fx.Probes()...)
		}
	}
	return &compatJob{spec: spec, profiles: profiles, probes: probes}, nil
}

// configJob is the config target name: its profiles unless --profiles is
// given (every built-in when it names none either), its probes unless
// --probe is (a fixture target without probes has its fixture's), its
// capabilities, and its timeoutMs unless --timeout is given.
func configJob(opts *CompatOptions, cfg *config.File, name string) (*compatJob, error) {
	path := configPath(opts)
	t, err := contract.FromFile(path, cfg, name, opts.Target.ConfigSource(opts.Env.LookupEnv, opts.TimeoutSet), opts.IO.ErrOut)
	if err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	names := t.Profiles
	if len(opts.Profiles) > 0 {
		names = opts.Profiles
	}
	profiles, err := rules.ResolveProfiles(names, cfg.Profiles)
	if err != nil {
		return nil, fault.Input(fmt.Errorf("config %s: targets.%s: %w", path, name, err))
	}
	probes := flagProbes(opts)
	if len(probes) == 0 {
		probes = t.Probes
	}
	return &compatJob{spec: t.Spec, profiles: profiles, probes: probes, capabilities: t.Capabilities}, nil
}

func flagProbes(opts *CompatOptions) []engine.Probe {
	var probes []engine.Probe
	for _, p := range opts.Probes {
		pr, _ := parseProbe(p) // validated by the command
		probes = append(probes, pr)
	}
	return probes
}

func configPath(opts *CompatOptions) string {
	if opts.ConfigPath != "" {
		return opts.ConfigPath
	}
	return config.FileName
}

// run connects, runs the engine and returns the Result; the session (and
// a stdio server's process) is closed before it returns.
func (j *compatJob) run(ctx context.Context, opts *CompatOptions, show func(string)) (*result.Result, error) {
	era, _ := cmdutil.ParseEra(opts.Era) // validated by RunE
	show("connecting")
	sess, err := connect.Connect(ctx, j.spec, opts.Env, &client.Options{
		ClientInfo:     mcp.Implementation{Name: "mcpward", Version: opts.Version},
		Era:            era,
		Capabilities:   j.capabilities,
		RequestTimeout: j.spec.Timeout,
	})
	if err != nil {
		return nil, err
	}
	defer sess.Close()
	rep, err := engine.Run(ctx, sess, &engine.Options{Profiles: j.profiles, Probes: j.probes, ReadOnly: opts.ReadOnly, Now: opts.Now, Progress: show})
	if err != nil {
		return nil, err
	}
	t := result.TargetOf(j.spec.Info())
	t.Transport = rep.Transport
	return rep.Result(t, opts.Version), nil
}

// fleetRun runs compat over several config targets (--all, or the NAMEs
// given) in parallel into one fleet Result: a section per target in
// config order, one exit code by result.Worst.
func fleetRun(ctx context.Context, opts *CompatOptions) error {
	cfg, names, err := fleetrun.Targets(configPath(opts), opts.Fleet.All, opts.Names)
	if err != nil {
		return err
	}
	jobs, targets, errs := make([]*compatJob, len(names)), make([]*result.Target, len(names)), make([]error, len(names))
	for i, n := range names {
		if jobs[i], errs[i] = configJob(opts, cfg, n); errs[i] == nil {
			targets[i] = result.TargetOf(jobs[i].spec.Info())
		}
	}
	r := (&fleetrun.Fleet[*result.Result]{
		IO: opts.IO, Flags: &opts.Fleet, Command: "compat", Version: opts.Version, Verb: "compat on",
		Names: names, Targets: targets, Errs: errs,
		Job: func(ctx context.Context, i int) (*result.Result, error) {
			return jobs[i].run(ctx, opts, func(string) {})
		},
		Result: func(r *result.Result) *result.Result { return r },
	}).Run(ctx)
	if err := render(opts, r); err != nil {
		return err
	}
	return fleetrun.Verdict(r, "their evidence is not a pass")
}
