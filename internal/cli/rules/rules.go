// Package rules implements `mcpward rules`: the rule catalogue, as a table
// or as JSON, optionally filtered by group.
package rules

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/export"
	"github.com/mcpward/mcpward/internal/iostreams"
	catalogue "github.com/mcpward/mcpward/internal/rules"
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
		Long: `List every conformance rule mcpward reports: its stable id, group, the spec's
force (MUST/SHOULD/MAY), its class (violation → exit 3, risky → exit 1 in
compat, info), what a finding means and the clause of the protocol it rests on.
Name one id (or an alias such as a snapgauge id) to see that rule alone.`,
		Example: `  mcpward rules
  mcpward rules --group transport
  mcpward rules transport.cache_hints_missing
  mcpward rules --json`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.ID = args[0]
			}
			if opts.Group != "" && !slices.Contains(catalogue.Groups(), opts.Group) {
				return cmdutil.FlagErrorf("unknown --group %q (groups: %s)", opts.Group, strings.Join(catalogue.Groups(), ", "))
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return rulesRun(opts)
		},
	}
	cmdutil.AddFormatFlags(cmd, &opts.Format, "text", "json", cmdutil.FormatTSV)
	cmd.Flags().StringVar(&opts.Group, "group", "", "only the rules of `group` ("+strings.Join(catalogue.Groups(), ", ")+")")
	return cmd
}

func rulesRun(opts *RulesOptions) error {
	var list []catalogue.Rule
	if opts.ID != "" {
		r, ok := catalogue.Lookup(opts.ID)
		if !ok {
			return cmdutil.FlagErrorf("unknown rule %q (mcpward rules lists them)", opts.ID)
		}
		list = []catalogue.Rule{r}
	} else {
		for _, r := range catalogue.All() {
			if opts.Group == "" || r.Group == opts.Group {
				list = append(list, r)
			}
		}
	}
	if opts.Format == "json" {
		return export.WriteJSON(opts.IO.Out, list)
	}
	if opts.ID != "" {
		r := list[0]
		fmt.Fprintf(opts.IO.Out, "%s\n  group:   %s\n  level:   %s\n  class:   %s\n  on:      %s\n  meaning: %s\n  spec:    %s\n", r.ID, r.Group, r.Level, r.Class, r.On, r.Summary, r.Cite())
		if len(r.Aliases) > 0 {
			fmt.Fprintf(opts.IO.Out, "  aliases: %s\n", strings.Join(r.Aliases, ", "))
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
	return tp.Render()
}
