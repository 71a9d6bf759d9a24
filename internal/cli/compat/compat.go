// Package compat implements `mcpward compat`: the profile matrix plus the
// transport (T), x-mcp-header (X) and degradation (D) rules, with exit 3
// on a violation, 1 on a risky finding, 2 on incomplete evidence.
package compat

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/client"
	engine "github.com/mcpward/mcpward/internal/compat"
	"github.com/mcpward/mcpward/internal/export"
	"github.com/mcpward/mcpward/internal/fixture"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/mcp"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/rules"
	"github.com/mcpward/mcpward/internal/target"
)

// CompatOptions are the inputs of `mcpward compat`.
type CompatOptions struct {
	IO      *iostreams.IOStreams
	Env     target.Env
	Now     func() time.Time
	Version string

	Target   cmdutil.TargetFlags
	Profiles []string
	// Probes are TOOL or TOOL=ARGS_JSON; a fixture's declared probes are
	// used when none are given.
	Probes   []string
	Format   string
	ReadOnly bool
}

// NewCmdCompat builds `mcpward compat`.
func NewCmdCompat(f *cmdutil.Factory, runF func(context.Context, *CompatOptions) error) *cobra.Command {
	opts := &CompatOptions{IO: f.IOStreams, Env: target.Env{Environ: f.Environ, LookupEnv: f.LookupEnv}, Now: f.Now, Version: f.Version}
	var profiles string
	cmd := &cobra.Command{
		Use:   "compat (--fixture NAME | --url URL | -- <command…>)",
		Short: "Probe a server under client profiles and check the transport, x-mcp-header and degradation rules",
		Long: `Run the conformance rules of the catalogue (mcpward rules) against one server:
its era, every advertised version, stability across fresh connections, cache
hints on every cacheable result, the Streamable HTTP framing rules (or the stdio
rules), x-mcp-header validity, and each probe replayed under every profile with
a verdict per tool and profile (ok, declined-correctly, degraded-reported,
degraded-silent, violation).

A violation is a broken MUST or MUST NOT of the spec, cited in the finding
(mcpward rules ID shows the clause). Whatever could not be evaluated is listed
under "not evaluated": profiles the server cannot be used under, and the
degradation rules when no probe names a tool (compat calls no tool unless
asked).

Exit codes: 3 when the server violates a MUST-level rule, 1 for a risky
finding, 2 when the evidence is incomplete (also when none of the requested
profiles could be used: nothing exercised is not a pass), else 0.`,
		Example: `  mcpward compat --fixture degrader-honest
  mcpward compat --url http://127.0.0.1:8080/mcp --profiles modern-full,modern-minimal
  mcpward compat --format sarif -- ./my-server > compat.sarif`,
		RunE: func(cmd *cobra.Command, args []string) error {
			rest := opts.Target.SetCommand(cmd, args)
			if len(rest) > 0 {
				return cmdutil.FlagErrorf("unexpected argument %q (name the server with --fixture, --url or -- <command…>)", rest[0])
			}
			if err := opts.Target.Validate(); err != nil {
				return err
			}
			if !opts.Target.Set() {
				return cmdutil.FlagErrorf("no target: use --fixture NAME, --url URL or -- <command…>")
			}
			if opts.ReadOnly && len(opts.Probes) > 0 {
				return cmdutil.FlagErrorf("--read-only never sends tools/call, so --probe %s would not run: give one or the other", opts.Probes[0])
			}
			if profiles != "" {
				opts.Profiles = strings.Split(profiles, ",")
				if _, err := rules.ResolveProfiles(opts.Profiles, nil); err != nil {
					return cmdutil.FlagErrorWrap(err)
				}
			}
			for _, p := range opts.Probes {
				if _, err := parseProbe(p); err != nil {
					return cmdutil.FlagErrorWrap(err)
				}
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return compatRun(cmd.Context(), opts)
		},
	}
	cmdutil.AddTargetFlags(cmd, &opts.Target)
	fl := cmd.Flags()
	fl.StringVar(&profiles, "profiles", "", "comma-separated `profiles` (default: every built-in; see mcpward rules)")
	fl.StringArrayVar(&opts.Probes, "probe", nil, "replay tools/call `TOOL[=ARGS_JSON]` under every profile (repeatable; default: a fixture's declared probes)")
	cmdutil.AddFormatFlags(cmd, &opts.Format, "compat")
	fl.BoolVar(&opts.ReadOnly, "read-only", false, "never send tools/call (what the board runs)")
	_ = cmd.RegisterFlagCompletionFunc("profiles", cmdutil.CompleteLazyList(cmdutil.ProfileNames))
	return cmd
}

func parseProbe(s string) (engine.Probe, error) {
	tool, a, hasArgs := strings.Cut(s, "=")
	if tool == "" {
		return engine.Probe{}, fmt.Errorf("--probe %q: want TOOL or TOOL=ARGS_JSON", s)
	}
	p := engine.Probe{ID: tool, Tool: tool, Arguments: json.RawMessage(`{}`)}
	if hasArgs {
		var obj map[string]json.RawMessage
		if json.Unmarshal([]byte(a), &obj) != nil || obj == nil {
			return engine.Probe{}, fmt.Errorf("--probe %q: arguments must be a JSON object", s)
		}
		p.Arguments = json.RawMessage(a)
	}
	return p, nil
}

func compatRun(ctx context.Context, opts *CompatOptions) error {
	spec, err := opts.Target.Spec("", opts.Env.LookupEnv)
	if err != nil {
		return err
	}
	profiles, err := rules.ResolveProfiles(opts.Profiles, nil)
	if err != nil {
		return cmdutil.FlagErrorWrap(err)
	}
	var probes []engine.Probe
	for _, p := range opts.Probes {
		pr, _ := parseProbe(p)
		probes = append(probes, pr)
	}
	if len(probes) == 0 && spec.Fixture != "" {
		if fx, err := fixture.Lookup(spec.Fixture); err == nil {
			probes = append(probes, fx.Probes()...)
		}
	}
	progress := cmdutil.NewProgress(opts.IO)
	defer progress.Stop()
	progress.Show("connecting")
	sess, err := target.Connect(ctx, spec, opts.Env, &client.Options{
		ClientInfo:     mcp.Implementation{Name: "mcpward", Version: opts.Version},
		RequestTimeout: spec.Timeout,
	})
	if err != nil {
		return err
	}
	defer sess.Close()
	rep, err := engine.Run(ctx, sess, &engine.Options{Profiles: profiles, Probes: probes, ReadOnly: opts.ReadOnly, Now: opts.Now, Progress: progress.Show})
	if err != nil {
		return err
	}
	progress.Stop()
	res := Result(rep, spec, opts.Version)
	if opts.Format == "text" {
		writeText(opts.IO.Out, rep, res, opts.IO.IsStdoutTTY(), opts.IO.TerminalWidth())
	} else {
		w, _ := export.Lookup(opts.Format)
		if err := w(opts.IO.Out, res); err != nil {
			return err
		}
	}
	return cmdutil.Verdict(res.ExitCode)
}

// Result turns a compat report into the Result document (command
// "compat"): the rule findings as Violations, gate risky.
func Result(rep *engine.Report, spec *target.Spec, version string) *result.Result {
	endpoint := spec.Info().Endpoint()
	r := &result.Result{
		SchemaVersion: result.SchemaVersion, Tool: "mcpward", Version: version, Command: "compat",
		Target:     &result.Target{Name: spec.Name, Transport: rep.Transport, Endpoint: endpoint},
		Findings:   []result.Finding{},
		Violations: rep.Findings(),
		Evidence:   result.Evidence{Complete: len(rep.Problems) == 0, Status: "ok", Problems: rep.Problems},
		ExitCode:   rep.ExitCode(),

		NotEvaluated: rep.NotEvaluated,
	}
	if len(rep.Problems) > 0 {
		r.Evidence.Status = "partial"
	}
	for _, v := range r.Violations {
		switch v.Class {
		case rules.Violation:
			r.Summary.Violations++
		case rules.Risky:
			r.Summary.RiskyRules++
		}
	}
	r.Gate = result.Gate{FailOn: "risky", Failed: r.ExitCode != result.Clean}
	return r
}

// writeText is the human report: header, assertions, findings with their
// evidence, the tools × profiles grid, the verdict.
func writeText(w io.Writer, rep *engine.Report, res *result.Result, tty bool, width int) {
	fmt.Fprintf(w, "target %s (%s)", res.Target.Endpoint, rep.Transport)
	if rep.Server != "" {
		fmt.Fprintf(w, " — %s", rep.Server)
	}
	fmt.Fprintf(w, "\nera: %s", rep.Era)
	if len(rep.SupportedVersions) > 0 {
		fmt.Fprintf(w, "; versions: %s", strings.Join(rep.SupportedVersions, ", "))
	}
	fmt.Fprintf(w, "\nprofiles: %s\n\ntransport assertions:\n", strings.Join(rep.Profiles, ", "))
	// Assertions that do not apply to this transport share one reason; list
	// their ids on one line instead of repeating it.
	na := map[string][]string{}
	var reasons []string
	for _, a := range rep.Assertions {
		if a.Verdict == engine.NA {
			if _, ok := na[a.Detail]; !ok {
				reasons = append(reasons, a.Detail)
			}
			na[a.Detail] = append(na[a.Detail], a.ID)
			continue
		}
		fmt.Fprintf(w, "  %-8s %-44s %s\n", a.Verdict, a.ID, a.Detail)
	}
	for _, why := range reasons {
		fmt.Fprintf(w, "  %-8s %d assertions — %s: %s\n", engine.NA, len(na[why]), strings.TrimPrefix(why, "n/a "), strings.Join(na[why], ", "))
	}
	fmt.Fprintf(w, "\nfindings:\n")
	n := 0
	for _, f := range res.Violations {
		if f.RuleID == "compat.era" {
			continue
		}
		n++
		fmt.Fprintf(w, "  %-9s %-44s %s — %s\n", f.Class, f.RuleID, f.Subject, f.Message)
		if f.Evidence != nil && (f.Class != rules.Info || len(f.Evidence.ServerRequests) > 0) {
			// What the server asked the client during the call, and what
			// the profile answered: the reader can tell whose failure
			// followed.
			for _, sr := range f.Evidence.ServerRequests {
				fmt.Fprintf(w, "            server→client: %s\n            our reply:     %s\n", clip(string(sr.Request)), clip(string(sr.Response)))
			}
			if len(f.Evidence.Request) > 0 {
				fmt.Fprintf(w, "            request:  %s\n", clip(string(f.Evidence.Request)))
			}
			// The headers are often the point of the probe (Origin,
			// MCP-Protocol-Version, Mcp-Name): show what was sent.
			if h := headerLine(f.Evidence); h != "" {
				fmt.Fprintf(w, "            headers:  %s\n", h)
			}
			switch {
			case f.Evidence.Status != 0:
				fmt.Fprintf(w, "            response: HTTP %d %s\n", f.Evidence.Status, clip(string(f.Evidence.Response)))
			case len(f.Evidence.Response) > 0:
				fmt.Fprintf(w, "            response: %s\n", clip(string(f.Evidence.Response)))
			}
		}
	}
	if n == 0 {
		fmt.Fprintf(w, "  none\n")
	}
	if len(rep.Verdicts) > 0 {
		tools := make([]string, 0, len(rep.Verdicts))
		for t := range rep.Verdicts {
			tools = append(tools, t)
		}
		slices.Sort(tools)
		grid := [][]string{append([]string{"tool"}, rep.Profiles...)}
		for _, t := range tools {
			row := []string{t}
			for _, p := range rep.Profiles {
				v := rep.Verdicts[t][p]
				if v == "" {
					v = "—"
				}
				row = append(row, v)
			}
			grid = append(grid, row)
		}
		// One column per profile. On a terminal the grid is fitted to its
		// width, turned to one row per profile when that fits better (nine
		// profiles side by side are about 200 columns), and cut with an
		// ellipsis only if neither fits. Piped it stays tools × profiles,
		// tab-separated, with its header as a first row: the columns depend
		// on --profiles.
		tp := iostreams.NewTablePrinter(w, tty, width)
		tp.SetIndent("  ")
		title := "tool × profile"
		if t := transpose(grid); tty && gridWidth(grid)+2 > width && gridWidth(t) < gridWidth(grid) {
			t[0][0] = "profile"
			grid, title = t, "profile × tool"
		}
		fmt.Fprintf(w, "\nverdicts (%s):\n", title)
		if tty {
			tp.AddHeader(grid[0]...)
		} else {
			tp.AddRow(grid[0]...)
		}
		for _, row := range grid[1:] {
			tp.AddRow(row...)
		}
		_ = tp.Render()
	}
	if len(rep.NotEvaluated) > 0 {
		fmt.Fprintf(w, "\nnot evaluated:\n")
		for _, n := range rep.NotEvaluated {
			fmt.Fprintf(w, "  %s — %s\n", n.What, n.Why)
		}
	}
	for _, p := range rep.Problems {
		fmt.Fprintf(w, "\nINCOMPLETE: %s", p)
	}
	label := map[int]string{result.Clean: "PASS", result.Drift: "RISKY", result.Incomplete: "INCOMPLETE", result.Violation: "VIOLATION"}[res.ExitCode]
	fmt.Fprintf(w, "\n%d violation(s), %d risky -> %s (exit %d)", res.Summary.Violations, res.Summary.RiskyRules, label, res.ExitCode)
	if n := len(rep.NotEvaluated); n > 0 {
		// A pass covers only what was evaluated.
		fmt.Fprintf(w, "; %d not evaluated (listed above)", n)
	}
	fmt.Fprintln(w)
}

// headerLine renders the HTTP method and the request headers mcpward set
// on a probe, sorted by name ("POST; Mcp-Method: tools/list; Origin: …"),
// or "" for an exchange without HTTP details.
func headerLine(ex *result.Exchange) string {
	if ex.Method == "" && len(ex.RequestHeader) == 0 {
		return ""
	}
	parts := []string{cmp.Or(ex.Method, "POST")}
	for _, k := range slices.Sorted(maps.Keys(ex.RequestHeader)) {
		parts = append(parts, k+": "+ex.RequestHeader[k])
	}
	return strings.Join(parts, "; ")
}

func clip(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}

// transpose turns a grid's rows into its columns.
func transpose(grid [][]string) [][]string {
	out := make([][]string, len(grid[0]))
	for c := range out {
		out[c] = make([]string, len(grid))
		for r := range grid {
			out[c][r] = grid[r][c]
		}
	}
	return out
}

// gridWidth is the width of a grid's aligned rendering, two spaces between
// columns.
func gridWidth(grid [][]string) int {
	widths := make([]int, len(grid[0]))
	for _, row := range grid {
		for c, cell := range row {
			widths[c] = max(widths[c], utf8.RuneCountInString(cell))
		}
	}
	total := 2 * (len(widths) - 1)
	for _, w := range widths {
		total += w
	}
	return total
}
