package cmdutil

import (
	"encoding/json"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpward/mcpward/internal/mcp"
)

// StrictNetUsage is the help text of --strict-net (contract.StrictNet).
const StrictNetUsage = "refuse a URL whose host resolves to a loopback, private, link-local or other non-public address, and dial only the address checked (snapgauge's public-only policy)"

// JSONObjectFlag validates that a flag's value is one JSON object and
// returns its bytes.
func JSONObjectFlag(name, value string) (json.RawMessage, error) {
	v := strings.TrimSpace(value)
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(v), &obj); err != nil || obj == nil {
		return nil, FlagErrorf("%s must be a JSON object, got %q", name, value)
	}
	return json.RawMessage(v), nil
}

// AddEraFlag adds --era, which forces the era of the handshake instead of
// detecting it (modern, legacy, or auto: detect, the default).
func AddEraFlag(cmd *cobra.Command, p *string) {
	cmd.Flags().StringVar(p, "era", "auto", "force the era of the handshake: modern, legacy, or auto (detect it)")
	_ = cmd.RegisterFlagCompletionFunc("era", cobra.FixedCompletions([]string{"modern", "legacy", "auto"}, cobra.ShellCompDirectiveNoFileComp))
}

// ParseEra reads an --era value: "" or auto detects (the empty era).
func ParseEra(value string) (mcp.Era, error) {
	switch value {
	case "", "auto":
		return "", nil
	case "modern":
		return mcp.EraModern, nil
	case "legacy":
		return mcp.EraLegacy, nil
	}
	return "", FlagErrorf("--era must be modern, legacy or auto, got %q", value)
}
