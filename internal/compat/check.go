package compat

import (
	"context"
	"fmt"

	"github.com/mcpward/mcpward/internal/client"
	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/contract"
	"github.com/mcpward/mcpward/internal/mcp"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/rules"
	"github.com/mcpward/mcpward/internal/snapshot"
)

// ForCheck is the compat section of `mcpward check` (contract.Check's
// Compat): it opens a fresh session to
// the target and runs the conformance engine under the target's profiles
// (the primary profile, modern-full, when none is configured: check gates
// on the transport, x-mcp-header and degradation rules, and `mcpward
// compat` runs the whole profile matrix).
func ForCheck(env connect.Env, version string) contract.CompatFunc {
	return func(ctx context.Context, t *contract.Target, _ *snapshot.Snapshot) ([]result.RuleFinding, *result.Compat, error) {
		names := t.Profiles
		if len(names) == 0 {
			names = []string{"modern-full"}
		}
		profiles, err := rules.ResolveProfiles(names, nil)
		if err != nil {
			return nil, nil, fmt.Errorf("compat profiles: %w", err)
		}
		spec := *t.Spec
		sess, err := connect.Connect(ctx, &spec, env, &client.Options{
			ClientInfo:     mcp.Implementation{Name: "mcpward", Version: version},
			Capabilities:   t.Capabilities,
			RequestTimeout: spec.Timeout,
		})
		if err != nil {
			return nil, nil, fmt.Errorf("compat: %w", err)
		}
		defer sess.Close()
		rep, err := Run(ctx, sess, &Options{Profiles: profiles, Probes: t.Probes})
		if err != nil {
			return nil, nil, fmt.Errorf("compat: %w", err)
		}
		// What compat observed besides its findings, as `mcpward compat`
		// puts it in its Result: reports show the assertions and the
		// verdict grid of a check too.
		r := rep.Result(nil, version)
		return r.Violations, r.Compat, nil
	}
}
