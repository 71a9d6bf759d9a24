package rules

import (
	"encoding/json"
	"strings"
)

// A SpecRef names a part of the public MCP specification by revision and
// by section, as the specification's own navigation names it ("Basic ›
// Transports › Streamable HTTP"). docs/spec.md says, in our words, what
// mcpward relies on in each.
type SpecRef struct {
	Revision string `json:"revision"`
	Section  string `json:"section"`
}

func (r SpecRef) String() string { return "MCP " + r.Revision + ", " + r.Section }

// sectionRefs maps the catalogue's internal section keys (Rule.Section,
// "§3.2") to the public specification. The keys are bookkeeping only and
// are never shown: every rendering goes through [Rule.Cite] or
// [Rule.SpecRefs].
var sectionRefs = map[string]SpecRef{
	"§1.1": {ModernVersion, "Basic › Versioning"},
	"§1.2": {ModernVersion, "Basic › Overview › _meta"},
	"§1.4": {ModernVersion, "Basic › Versioning"},
	"§1.5": {ModernVersion, "Basic › Versioning › Extensions"},
	"§2.1": {ModernVersion, "Schema Reference (requests)"},
	"§2.2": {ModernVersion, "Schema Reference (notifications)"},
	"§3.1": {ModernVersion, "Basic › Transports › stdio"},
	"§3.2": {ModernVersion, "Basic › Transports › Streamable HTTP"},
	"§3.3": {"2025-11-25", "Basic › Transports › Streamable HTTP"},
	"§4":   {ModernVersion, "Basic › Transports › Streamable HTTP › x-mcp-header"},
	"§5.1": {ModernVersion, "Server › Tools"},
	"§5.2": {ModernVersion, "Server › Resources"},
	"§6":   {ModernVersion, "Schema Reference › CacheableResult"},
	"§7":   {ModernVersion, "Basic › Patterns › Multi Round-Trip Requests"},
	"§8.1": {ModernVersion, "Basic › Patterns › Subscriptions"},
	"§8.2": {ModernVersion, "Extensions › Tasks"},
	"§9":   {ModernVersion, "Basic › Overview › Error Codes"},
	"§10":  {ModernVersion, "Deprecated Features"},
	"§11":  {"2025-11-25", "Basic › Lifecycle"},
}

// SpecRefs returns the parts of the public specification the rule rests
// on, in the catalogue's order, without repeats.
func (r Rule) SpecRefs() []SpecRef {
	var out []SpecRef
	for _, key := range strings.Split(r.Section, ",") {
		ref, ok := sectionRefs[strings.TrimSpace(key)]
		if !ok {
			continue
		}
		dup := false
		for _, o := range out {
			dup = dup || o == ref
		}
		if !dup {
			out = append(out, ref)
		}
	}
	return out
}

// Cite names the clause and where the public specification states it:
// "HTTP-GET-405 (MCP 2026-07-28, Basic › Transports › Streamable HTTP)".
// Clause labels are mcpward's own and docs/spec.md defines each.
//
// Sections of one revision are named once: "MCP 2026-07-28, Basic ›
// Overview › _meta; Basic › Transports › Streamable HTTP".
func (r Rule) Cite() string {
	where := citeRefs(r.SpecRefs())
	switch {
	case r.Source != "":
		return "attack class: " + r.Source
	case r.Spec == "":
		return where
	case where == "":
		return r.Spec
	}
	return r.Spec + " (" + where + ")"
}

func citeRefs(refs []SpecRef) string {
	var revs []string
	byRev := map[string][]string{}
	for _, ref := range refs {
		if _, ok := byRev[ref.Revision]; !ok {
			revs = append(revs, ref.Revision)
		}
		byRev[ref.Revision] = append(byRev[ref.Revision], ref.Section)
	}
	parts := make([]string, 0, len(revs))
	for _, rev := range revs {
		parts = append(parts, "MCP "+rev+", "+strings.Join(byRev[rev], "; "))
	}
	return strings.Join(parts, "; ")
}

// MarshalJSON writes the rule with its citation ("cite") and public
// references ("specRefs") in place of the internal section keys.
func (r Rule) MarshalJSON() ([]byte, error) {
	type plain Rule
	return json.Marshal(struct {
		plain
		Cite     string    `json:"cite"`
		SpecRefs []SpecRef `json:"specRefs,omitempty"`
	}{plain(r), r.Cite(), r.SpecRefs()})
}
