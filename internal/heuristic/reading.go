package heuristic

import (
	"strings"
	"unicode"
)

// A Reading is what the heuristic reads in a tool's name and description:
// the action, the verb that decided it and where it stood.
type Reading struct {
	// Action is ActionNone when neither the name nor the main clause of
	// the description holds a known verb.
	Action Action `json:"action,omitempty"`
	// Verb is the base form of the deciding verb.
	Verb string `json:"verb,omitempty"`
	// Where is "name" or "description".
	Where string `json:"where,omitempty"`
}

// Risk is the reading's label, or "" when it read no verb.
func (r Reading) Risk() Risk {
	if r.Action == ActionNone {
		return ""
	}
	return r.Action.Risk()
}

// ReadTool reads a tool as a reviewer does:
//
//   - the name's verb: its first word that is a verb (any verb), and any
//     strong verb in it ("get_and_delete");
//   - the description's main clause: its first sentence up to the first
//     subordinate clause ("… to show", "… showing", "… that", "… when",
//     "(…)"), whose leading verb counts even if weak ("Clear the …"), and
//     whose other strong verbs count too ("Create a file or overwrite …");
//
// Of everything read, the most dangerous action wins: a mutating,
// deleting, sending or executing verb in the main clause beats a reading
// one. Words in subordinate clauses and later sentences are not read
// ("… returns a diff showing the changes", "… before you clear it").
func ReadTool(name, description string) Reading {
	best := Reading{}
	consider := func(ws []string, where string, firstWeak bool) {
		for i, w := range ws {
			a, base, weak := VerbAction(w)
			if a == ActionNone || (weak && !(firstWeak && i == 0)) {
				continue
			}
			if danger(a) > danger(best.Action) {
				best = Reading{Action: a, Verb: base, Where: where}
			}
		}
	}
	consider(nameVerbWords(name), "name", true)
	consider(words(mainClause(description)), "description", true)
	return best
}

// nameVerbWords returns a name's words from its first verb on: a name
// usually reads product_verb_object ("browser_click", "git_add",
// "firecrawl_scrape"), so the leading nouns are skipped, and its first verb
// is the one that counts even if weak.
func nameVerbWords(name string) []string {
	ws := words(name)
	for i, w := range ws {
		if a, _, _ := VerbAction(w); a != ActionNone {
			return ws[i:]
		}
	}
	return nil
}

// subordinators end the main clause of a description's first sentence.
var subordinators = []string{
	" to ", " showing ", " that ", " which ", " who ", " when ", " whenever ", " if ", " unless ",
	" so ", " for ", " because ", " while ", " without ", " before ", " after ", " until ", " by ",
	" such as ", " e.g.", " i.e.", " including ", " using ", " via ", " with ", " where ", " as ",
	" then ", " returning ", " and returns ", " and return ", " from ",
}

// mainClause returns the main clause of a description: its first sentence
// up to the first subordinate clause or parenthesis, after a leading
// "Product |" label or "Use this tool to" preamble.
func mainClause(desc string) string {
	s := strings.TrimSpace(desc)
	if i := strings.Index(s, "|"); i >= 0 && i < 40 {
		s = strings.TrimSpace(s[i+1:])
	}
	// The first sentence: up to ". ", "! ", "? ", a newline or ":" (a list
	// of modes follows a colon: "Manage branches: list, create, delete"
	// keeps its list, read as its own main clause below).
	end := len(s)
	for _, sep := range []string{". ", "! ", "? ", "\n", ".\t"} {
		if i := strings.Index(s, sep); i >= 0 && i < end {
			end = i
		}
	}
	s = strings.TrimSuffix(s[:end], ".")
	lower := " " + strings.ToLower(s) + " "
	for _, p := range []string{"use this tool to ", "this tool ", "a tool to ", "tool to ", "allows you to ", "lets you ", "used to ", "you can "} {
		if strings.HasPrefix(lower, " "+p) {
			s = s[len(p)-1:]
			break
		}
	}
	head, list, hasList := strings.Cut(s, ":")
	cut := func(t string) string {
		l := " " + strings.ToLower(t) + " "
		end := len(l)
		for _, m := range subordinators {
			if i := strings.Index(l, m); i >= 0 && i < end {
				end = i
			}
		}
		for _, m := range []string{"(", ",", ";", " - ", " — ", "`"} {
			if i := strings.Index(l, m); i >= 0 && i < end {
				end = i
			}
		}
		return strings.TrimSpace(l[:end])
	}
	out := cut(head)
	if hasList {
		// Each item of a list after a colon is a clause of its own.
		for _, item := range strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == ';' }) {
			item = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(item), "or "))
			item = strings.TrimPrefix(item, "and ")
			if c := cut(item); c != "" {
				out += " " + firstWord(c)
			}
		}
	}
	return out
}

func firstWord(s string) string {
	f := strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	if len(f) == 0 {
		return ""
	}
	return f[0]
}
