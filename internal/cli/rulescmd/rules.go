// Package rulescmd implements `mcpward rules`: the rule catalogue, as a table
// or as JSON, optionally filtered by group.
package rulescmd

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/diff"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/report"
	catalogue "github.com/mcpward/mcpward/internal/rules"
	"github.com/mcpward/mcpward/internal/verdict"
)

// RulesOptions are the inputs of `mcpward rules`.
type RulesOptions struct {
	IO *iostreams.IOStreams
	// Format is text (a table), json or tsv.
	Format string
	Group  string
	// ID shows one rule (an id or alias).
	ID string
}

// NewCmdRules builds `mcpward rules`.
func NewCmdRules(f *cmdutil.Factory, runF func(context.Context, *RulesOptions) error) *cobra.Command {
	opts := &RulesOptions{IO: f.IOStreams}
	cmd := &cobra.Command{
		Use:   "rules [ID]",
		Short: "List the rule catalogue (ids, levels, classes, spec clauses)",
		Long: `List every rule mcpward reports. A conformance or traffic rule has a stable id,
a group, the spec's force (MUST/SHOULD/MAY), its class (violation → exit 3,
risky → exit 1 in compat, info), what a finding means and the clause of the
protocol it rests on (named by the public specification's revision and
section; docs/spec.md defines each clause label). A diff rule (group diff) has
a tier (breaking, risky, compatible, cosmetic) and the reason for it.
Name one id (or an alias such as a snapgauge id) to see that rule alone.
docs/RULES.md lists them all.`,
		Example: `  mcpward rules
  mcpward rules --group transport
  mcpward rules transport.cache_hints_missing
  mcpward rules tool.removed
  mcpward rules --json`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.ID = args[0]
			}
			if opts.Group != "" && !slices.Contains(groups(), opts.Group) {
				return cmdutil.FlagErrorf("unknown --group %q (groups: %s)", opts.Group, strings.Join(groups(), ", "))
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return rulesRun(opts)
		},
	}
	cmdutil.AddFormatFlags(cmd, &opts.Format, "rules")
	cmd.Flags().StringVar(&opts.Group, "group", "", "only the rules of `group` ("+strings.Join(groups(), ", ")+")")
	cmd.ValidArgsFunction = completeRuleIDs
	_ = cmd.RegisterFlagCompletionFunc("group", cobra.FixedCompletions(groups(), cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// groupDiff selects the snapshot diff's rules, which live in internal/diff.
const groupDiff = "diff"

func groups() []string { return append(catalogue.Groups(), groupDiff) }

// diffRule is a diff rule as `rules` prints it: the diff catalogue's
// entry, with its group.
type diffRule struct {
	ID        string `json:"id"`
	Group     string `json:"group"`
	Tier      string `json:"tier"`
	Summary   string `json:"summary"`
	Rationale string `json:"rationale"`
	Origin    string `json:"origin"`
}

func newDiffRule(r diff.RuleInfo) diffRule {
	return diffRule{ID: r.ID, Group: groupDiff, Tier: r.Tier.String(), Summary: r.Summary, Rationale: r.Rationale, Origin: r.Origin}
}

func rulesRun(opts *RulesOptions) error {
	var (
		list  []catalogue.Rule
		dlist []diffRule
	)
	if opts.ID != "" {
		if r, ok := catalogue.Lookup(opts.ID); ok {
			list = []catalogue.Rule{r}
		} else if d, ok := diff.LookupRule(opts.ID); ok {
			dlist = []diffRule{newDiffRule(d)}
		} else {
			return cmdutil.FlagErrorf("unknown rule %q (mcpward rules lists them)", opts.ID)
		}
	} else {
		for _, r := range catalogue.All() {
			if opts.Group == "" || r.Group == opts.Group {
				list = append(list, r)
			}
		}
		if opts.Group == "" || opts.Group == groupDiff {
			for _, r := range diff.Rules() {
				dlist = append(dlist, newDiffRule(r))
			}
		}
	}
	if opts.Format == "json" {
		// One array: the conformance rules, then the diff rules (each
		// with its group).
		all := make([]any, 0, len(list)+len(dlist))
		for _, r := range list {
			all = append(all, r)
		}
		for _, r := range dlist {
			all = append(all, r)
		}
		return report.WriteJSON(opts.IO.Out, all)
	}
	if len(dlist) == 1 && opts.ID != "" {
		r := dlist[0]
		fmt.Fprintf(opts.IO.Out, "%s\n  group:   %s\n  tier:    %s\n  meaning: %s\n  why:     %s\n  origin:  %s\n", r.ID, r.Group, r.Tier, r.Summary, r.Rationale, r.Origin)
		return nil
	}
	if opts.ID != "" {
		r := list[0]
		fmt.Fprintf(opts.IO.Out, "%s\n  group:   %s\n  level:   %s\n  class:   %s\n  on:      %s\n  meaning: %s\n  spec:    %s\n", r.ID, r.Group, r.Level, r.Class, r.On, r.Summary, r.Cite())
		if len(r.Aliases) > 0 {
			fmt.Fprintf(opts.IO.Out, "  aliases: %s\n", strings.Join(r.Aliases, ", "))
		}
		if c, ok := r.Clause(); ok {
			// The MUST a violation rests on (docs/design.md, the principle).
			fmt.Fprintf(opts.IO.Out, "  must:    %s (since %s): %s\n", c.ID, c.Since, c.Text)
		}
		if r.Note != "" {
			fmt.Fprintf(opts.IO.Out, "  note:    %s\n", r.Note)
		}
		return nil
	}
	// On a terminal: a header and columns fitted to the width. Piped (or
	// --format tsv): no header, one rule per line, with its spec clause.
	tp := cmdutil.NewTablePrinter(opts.IO, opts.Format)
	tp.CutFirst(4)
	tp.AddHeader("ID", "LEVEL", "CLASS", "ON", "MEANING")
	for _, r := range list {
		if tp.IsTTY() {
			tp.AddRow(r.ID, string(r.Level), string(r.Class), string(r.On), r.Summary)
		} else {
			tp.AddRow(r.ID, string(r.Level), string(r.Class), string(r.On), r.Summary, r.Cite())
		}
	}
	// A diff rule fills the same columns: no level, its tier as the
	// class, judged on a snapshot diff; piped, the reason for its tier.
	for _, r := range dlist {
		if tp.IsTTY() {
			tp.AddRow(r.ID, "-", r.Tier, groupDiff, r.Summary)
		} else {
			tp.AddRow(r.ID, "-", r.Tier, groupDiff, r.Summary, r.Rationale)
		}
	}
	return tp.Render()
}

// completeRuleIDs completes one rule id (mcpward rules ID).
func completeRuleIDs(_ *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return cmdutil.Prefixed(verdict.RuleIDs(), toComplete), cobra.ShellCompDirectiveNoFileComp
}
