package diff

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// A Tier ranks a finding by what it means to a client holding the old
// contract. The order is cosmetic < compatible < risky < breaking.
type Tier int

// Tiers, lowest first.
const (
	Cosmetic Tier = iota
	Compatible
	Risky
	Breaking
)

var tierNames = []string{"cosmetic", "compatible", "risky", "breaking"}

// String returns the tier's name.
func (t Tier) String() string {
	if t < 0 || int(t) >= len(tierNames) {
		return fmt.Sprintf("tier(%d)", int(t))
	}
	return tierNames[t]
}

// ParseTier parses a tier name (case-insensitive).
func ParseTier(s string) (Tier, error) {
	for i, n := range tierNames {
		if strings.EqualFold(s, n) {
			return Tier(i), nil
		}
	}
	return 0, fmt.Errorf("unknown tier %q (want breaking, risky, compatible or cosmetic)", s)
}

// AnyChange is the gate alias of Cosmetic: mcp-surfaceprint's "any
// surface change fails" gate, `--fail-on any`.
const AnyChange = "any"

// ParseGateTier parses a gate (--fail-on, a target's failOn): a tier name
// or "any", which is Cosmetic.
func ParseGateTier(s string) (Tier, error) {
	if strings.EqualFold(s, AnyChange) {
		return Cosmetic, nil
	}
	t, err := ParseTier(s)
	if err != nil {
		return t, fmt.Errorf("unknown tier %q (want breaking, risky, compatible, cosmetic, or any: any surface change)", s)
	}
	return t, nil
}

// MarshalText writes the tier's name.
func (t Tier) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// UnmarshalText reads a tier name.
func (t *Tier) UnmarshalText(b []byte) error {
	v, err := ParseTier(string(b))
	if err != nil {
		return err
	}
	*t = v
	return nil
}

// A Finding is one classified difference between two snapshots.
type Finding struct {
	RuleID string `json:"ruleId"`
	Tier   Tier   `json:"tier"`
	// Subject is a stable dot path into the surface, e.g.
	// "tools.get_weather.inputSchema.required.date".
	Subject string `json:"subject"`
	Message string `json:"message"`
	Before  any    `json:"before,omitempty"`
	After   any    `json:"after,omitempty"`
}

// Summary counts findings per tier.
type Summary struct {
	Breaking   int `json:"breaking"`
	Risky      int `json:"risky"`
	Compatible int `json:"compatible"`
	Cosmetic   int `json:"cosmetic"`
}

// Summarize counts findings per tier.
func Summarize(fs []Finding) Summary {
	var s Summary
	for _, f := range fs {
		switch f.Tier {
		case Breaking:
			s.Breaking++
		case Risky:
			s.Risky++
		case Compatible:
			s.Compatible++
		default:
			s.Cosmetic++
		}
	}
	return s
}

// Gate drops findings whose rule id is in ignore, keeps only the tiers in
// only (all when empty), and fails when any kept finding is at or above
// failOn. Filtering happens before gating, as in snapgauge.
func Gate(findings []Finding, failOn Tier, only []Tier, ignore []string) (kept []Finding, failed bool) {
	for _, f := range findings {
		if slices.Contains(ignore, f.RuleID) {
			continue
		}
		if len(only) > 0 && !slices.Contains(only, f.Tier) {
			continue
		}
		kept = append(kept, f)
		if f.Tier >= failOn {
			failed = true
		}
	}
	return kept, failed
}

// sortFindings orders by tier descending, then rule id, then subject.
func sortFindings(fs []Finding) {
	slices.SortStableFunc(fs, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(b.Tier, a.Tier), strings.Compare(a.RuleID, b.RuleID), strings.Compare(a.Subject, b.Subject))
	})
}
