package cmdutil

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/fixture"
	"github.com/mcpward/mcpward/internal/rules"
)

// Shell completion (cobra's ValidArgsFunction and
// RegisterFlagCompletionFunc): each function below completes one kind of
// word, with a description where one helps. A flag that takes a
// comma-separated list (--only breaking,risky) is completed item by item.

// A CompleteFunc completes a flag value or an argument.
type CompleteFunc = func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective)

// FixtureNames completes the embedded fixture servers' names.
func FixtureNames(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	var out []cobra.Completion
	for _, in := range fixture.List() {
		if strings.HasPrefix(in.Name, toComplete) {
			out = append(out, cobra.CompletionWithDesc(in.Name, in.Description))
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

// Tiers are the diff tiers, highest first.
var Tiers = []string{"breaking", "risky", "compatible", "cosmetic"}

// GateTiers are what --fail-on takes: the tiers and "any" (cosmetic).
var GateTiers = append(append([]string{}, Tiers...), "any")

// CompleteList completes a comma-separated list of values: the items
// already typed are kept, and the last one is completed from values (less
// those already given).
func CompleteList(values ...string) CompleteFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		done, last := "", toComplete
		if i := strings.LastIndexByte(toComplete, ','); i >= 0 {
			done, last = toComplete[:i+1], toComplete[i+1:]
		}
		given := strings.Split(done, ",")
		var out []cobra.Completion
		for _, v := range values {
			if strings.HasPrefix(v, last) && !slices.Contains(given, v) {
				out = append(out, done+v)
			}
		}
		// No space after a completed item: another may follow the comma.
		return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
	}
}

// CompleteLazyList is CompleteList over values computed when completing
// (the rule catalogue, the profiles), not when the command is built.
func CompleteLazyList(values func() []string) CompleteFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return CompleteList(values()...)(cmd, args, toComplete)
	}
}

// ProfileNames returns the built-in client profiles.
func ProfileNames() []string { return rules.BuiltinNames() }

// Prefixed returns the values that start with prefix, as completions.
func Prefixed(values []string, prefix string) []cobra.Completion {
	var out []cobra.Completion
	for _, v := range values {
		if strings.HasPrefix(v, prefix) {
			out = append(out, v)
		}
	}
	return out
}
