// Package sessdiffcmd implements `mcpward sessions diff A B`: compare two
// recorded sessions (tools, call outcomes, durations).
package sessdiffcmd

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/baseline"
	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/cli/sessionscmd/sessionargs"
	"github.com/mcpward/mcpward/internal/diff"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/report/render"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/sessiondiff"
	"github.com/mcpward/mcpward/internal/sessionlog"
)

// DiffOptions are the inputs of `sessions diff`.
type DiffOptions struct {
	IO      *iostreams.IOStreams
	Factory *cmdutil.Factory

	A, B               string
	SessionA, SessionB string
	Threshold          time.Duration
	Ratio              float64
	ExitCode           bool
	// FailOn, when set (--fail-on), makes a tool change a regression by
	// its tier instead of by mcpsnoop's rule.
	FailOn *diff.Tier
	JSON   bool
}

// NewCmdDiff builds `mcpward sessions diff`.
func NewCmdDiff(f *cmdutil.Factory, runF func(*DiffOptions) error) *cobra.Command {
	opts := &DiffOptions{IO: f.IOStreams, Factory: f}
	var failOn string
	cmd := &cobra.Command{
		Use:   "diff A B",
		Short: "Compare two recorded sessions (tools, call outcomes, durations)",
		Long: `Compare session A (before) with session B (after). A and B are log files or
session ids (or id prefixes, or labels) in the state directory. A log holding
several sessions needs --session-a / --session-b.

Reported: tools added, removed and changed (from each session's latest
tools/list, with the tool baseline rule ids), tools/call outcomes that changed
(calls are matched by tool name and RFC 8785 canonical arguments; the i-th
such call in A pairs with the i-th in B), and duration changes of at least
--duration-threshold and --duration-ratio (or from zero).

A regression is, as mcpsnoop counts it, a removed tool or any change to a
tool's description, title, input or output schema or annotations (whatever its
tier: a new enum value too), an outcome that got worse (ok < pending,
cancelled < error) or a notable slowdown. --fail-on TIER judges tool changes by
their tier instead (breaking, risky, compatible, cosmetic or any; tool.added
counts as risky). With --exit-code, a regression exits 1 (as mcpsnoop's diff):
added tools, icon and _meta changes, calls that now succeed and faster calls
are reported but exit 0. Without it the exit is 0 whenever the comparison ran.`,
		Example: `  mcpward sessions diff before.jsonl after.jsonl
  mcpward sessions diff 01JD 01JE --duration-threshold 50ms --duration-ratio 1.5 --exit-code
  mcpward sessions diff a.jsonl b.jsonl --json | jq .regression`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.A, opts.B = args[0], args[1]
			if opts.A == "-" || opts.B == "-" {
				return cmdutil.FlagErrorf("diff reads two logs; stdin (-) is not supported")
			}
			if opts.Threshold < 0 {
				return cmdutil.FlagErrorf("--duration-threshold must not be negative")
			}
			if failOn != "" {
				t, err := diff.ParseGateTier(failOn)
				if err != nil {
					return cmdutil.FlagErrorf("--fail-on: %v", err)
				}
				opts.FailOn = &t
			}
			if math.IsNaN(opts.Ratio) || math.IsInf(opts.Ratio, 0) || opts.Ratio < 1 {
				return cmdutil.FlagErrorf("--duration-ratio must be a finite number ≥ 1, got %v", opts.Ratio)
			}
			if runF != nil {
				return runF(opts)
			}
			return diffRun(opts)
		},
	}
	fl := cmd.Flags()
	fl.DurationVar(&opts.Threshold, "duration-threshold", 100*time.Millisecond, "smallest absolute duration change `D` reported")
	fl.Float64Var(&opts.Ratio, "duration-ratio", 2.0, "smallest slower/faster `ratio` reported (≥ 1)")
	fl.BoolVar(&opts.ExitCode, "exit-code", false, "exit 1 when a regression is found (not on any difference)")
	fl.StringVar(&failOn, "fail-on", "", "judge tool changes by `tier` (breaking, risky, compatible, cosmetic or any) instead of mcpsnoop's rule")
	_ = cmd.RegisterFlagCompletionFunc("fail-on", cobra.FixedCompletions(cmdutil.GateTiers, cobra.ShellCompDirectiveNoFileComp))
	cmdutil.AddJSONFlags(cmd, &opts.JSON, "sessions diff")
	fl.StringVar(&opts.SessionA, "session-a", "", "the session `id` (prefix) to take from A")
	fl.StringVar(&opts.SessionB, "session-b", "", "the session `id` (prefix) to take from B")
	cmdutil.AddStateDirFlag(cmd, f)
	cmd.ValidArgsFunction = sessionargs.CompleteSessions(f)
	_ = cmd.RegisterFlagCompletionFunc("session-a", sessionargs.CompleteSessions(f))
	_ = cmd.RegisterFlagCompletionFunc("session-b", sessionargs.CompleteSessions(f))
	return cmd
}

func diffRun(opts *DiffOptions) error {
	a, err := loadSide(opts, opts.A, opts.SessionA)
	if err != nil {
		return err
	}
	b, err := loadSide(opts, opts.B, opts.SessionB)
	if err != nil {
		return err
	}
	r := sessiondiff.Compare(a, b, &sessiondiff.Options{Threshold: opts.Threshold, Ratio: opts.Ratio, CompareTools: compareTools, FailOn: opts.FailOn})
	if opts.JSON {
		type jsonReport struct {
			*sessiondiff.Report
			Differences int `json:"differences"`
		}
		if err := render.JSON(opts.IO.Out, jsonReport{r, r.Differences()}); err != nil {
			return fmt.Errorf("write report: %w", err)
		}
	} else if err := sessiondiff.WriteText(opts.IO.Out, r); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	if opts.ExitCode && r.Regression {
		return cmdutil.Verdict(result.Drift)
	}
	return nil
}

// compareTools compares tool lists as baselines do: with the snapshot
// diff engine's rules and tiers.
func compareTools(a, b []sessiondiff.ToolDef) []diff.Finding {
	conv := func(ts []sessiondiff.ToolDef) *baseline.Baseline {
		raws := make([]json.RawMessage, 0, len(ts))
		for _, t := range ts {
			raws = append(raws, t.Raw)
		}
		bl, err := baseline.FromTools(baseline.Identity{}, raws)
		if err != nil {
			return &baseline.Baseline{}
		}
		return bl
	}
	return baseline.Compare(conv(a), conv(b))
}

// loadSide reads one session of a log into what the comparison needs:
// its latest tool list and every tools/call with canonical arguments.
func loadSide(opts *DiffOptions, arg, sessionID string) (*sessiondiff.Side, error) {
	path, err := sessionargs.ResolveLog(opts.Factory, arg, "")
	if err != nil {
		return nil, err
	}
	b := sessiondiff.NewSideBuilder()
	var sessions []string
	_, _, err = sessionlog.Read(path, func(rec *session.Record, line int) {
		if sessionID != "" && !hasPrefix(rec.Session, sessionID) {
			return
		}
		if !slices.Contains(sessions, rec.Session) {
			sessions = append(sessions, rec.Session)
		}
		if len(sessions) > 1 {
			return
		}
		b.Add(rec, line)
	})
	if err != nil {
		return nil, err
	}
	switch {
	case len(sessions) == 0 && sessionID != "":
		return nil, fault.Input(fmt.Errorf("no session %q in %s", sessionID, path))
	case len(sessions) == 0:
		return nil, fault.Input(fmt.Errorf("no session in %s", path))
	case len(sessions) > 1:
		return nil, fault.Input(fault.WithHint(fmt.Errorf("%s holds %d sessions", path, len(sessions)),
			"pick one with --session-a / --session-b (ids: 'mcpward sessions export -f text "+path+"')"))
	}
	name := arg
	if sessionID != "" {
		name += " (" + sessions[0] + ")"
	}
	return b.Side(name, sessions[0]), nil
}

func hasPrefix(s, p string) bool { return len(s) >= len(p) && s[:len(p)] == p }
