package heuristic

import (
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/mcpward/mcpward/internal/mcp"
)

// Kinds of surface item a [Signal] is about.
const (
	KindTool             = "tool"
	KindResource         = "resource"
	KindResourceTemplate = "resource_template"
	KindPrompt           = "prompt"
)

// Rule names of the suspicious-text scan, as surfaceprint spells them.
const (
	RulePromptInjection = "prompt injection phrase"
	RuleExfiltration    = "secret exfiltration"
	RuleDoNotTellUser   = "do not tell user"
	RuleSystemPrompt    = "system prompt mention"
	RuleEncodedSecret   = "encoded secret material"
	RuleShellDownload   = "shell download hint"
)

// A Signal is one suspicious-text match.
type Signal struct {
	// Kind is tool, resource, resource_template or prompt.
	Kind string `json:"kind"`
	// Name is the item's name.
	Name string `json:"name"`
	// Rule is one of the Rule* names.
	Rule string `json:"rule"`
	// Snippet is the first 200 characters of the scanned text, plus "..."
	// when cut.
	Snippet string `json:"snippet"`
}

// SignalInput is the surface to scan. Descriptions, names and URIs are
// the parts scanned; nothing else is read.
type SignalInput struct {
	Tools             []mcp.Tool
	Resources         []mcp.Resource
	ResourceTemplates []mcp.ResourceTemplate
	Prompts           []mcp.Prompt
}

// signalRule is one of signalRules.
type signalRule struct {
	name string
	re   *regexp.Regexp
}

// signalRules are matched case-insensitively, except PEM armour, which
// RFC 7468 writes in capitals ("begin the key exchange" is prose, not key
// material; surfaceprint matches it). "." does not cross newlines
// (RE2's default), so phrases split over lines do not match, as in
// surfaceprint. Differences from surfaceprint, each making a rule catch a
// common real form it missed: inflections of ignore/disregard and plural
// instructions/developers; a typographic apostrophe in "don’t"; and
// command-line options between curl/wget and the URL
// ("curl -fsSL https://…").
var signalRules = sync.OnceValue(func() []signalRule {
	return []signalRule{
		{RulePromptInjection, regexp.MustCompile(`(?i)\b(?:ignor(?:e|es|ed|ing)|disregard(?:s|ed|ing)?)\b.*\b(?:instructions?|system|developers?)\b`)},
		{RuleExfiltration, regexp.MustCompile(`(?i)\b(?:exfiltrat|steal|leak)\w*`)},
		{RuleDoNotTellUser, regexp.MustCompile(`(?i)\b(?:don['’]t|do\s+not)\b.*\b(?:tell|mention|reveal)\b.*\buser`)},
		{RuleSystemPrompt, regexp.MustCompile(`(?i)\bsystem\s+prompt|\bdeveloper\s+message`)},
		{RuleEncodedSecret, regexp.MustCompile(`BEGIN [A-Z ]+ KEY`)},
		{RuleShellDownload, regexp.MustCompile(`(?i)\b(?:curl|wget)\s+(?:-\S+\s+)*['"]?https?://`)},
	}
})

const snippetLen = 200

// Signals scans a surface with the six rules and returns the matches
// sorted by (kind, name, rule), one per item and rule. The text scanned
// is, per kind: tool, its name and description with whitespace collapsed;
// resource, its URI; resource template, its URI template; prompt, its
// name, argument names and description, joined by spaces.
func Signals(in SignalInput) []Signal {
	var out []Signal
	scan := func(kind, name, text string) {
		for _, r := range signalRules() {
			if r.re.MatchString(text) {
				out = append(out, Signal{Kind: kind, Name: name, Rule: r.name, Snippet: snippet(text)})
			}
		}
	}
	for _, t := range in.Tools {
		scan(KindTool, t.Name, collapse(t.Name+" "+deref(t.Description)))
	}
	for _, r := range in.Resources {
		scan(KindResource, r.Name, r.URI)
	}
	for _, r := range in.ResourceTemplates {
		scan(KindResourceTemplate, r.Name, r.URITemplate)
	}
	for _, p := range in.Prompts {
		parts := []string{p.Name}
		for _, a := range p.Arguments {
			parts = append(parts, a.Name)
		}
		if d := deref(p.Description); d != "" {
			parts = append(parts, d)
		}
		scan(KindPrompt, p.Name, strings.Join(parts, " "))
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		return a.Rule < b.Rule
	})
	// Two items with the same kind and name (a server bug worth its own
	// finding elsewhere) would give duplicate signals; keep one.
	dedup := out[:0]
	for _, s := range out {
		if n := len(dedup); n > 0 && s.Kind == dedup[n-1].Kind && s.Name == dedup[n-1].Name && s.Rule == dedup[n-1].Rule {
			continue
		}
		dedup = append(dedup, s)
	}
	return dedup
}

// snippet cuts at 200 characters (runes, so UTF-8 is never split).
func snippet(s string) string {
	n := 0
	for i := range s {
		if n == snippetLen {
			return s[:i] + "..."
		}
		n++
	}
	return s
}

func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
