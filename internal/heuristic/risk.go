package heuristic

import (
	"strings"
	"sync"
	"unicode"

	"github.com/mcpward/mcpward/internal/mcp"
)

// A Risk is a coarse label of what calling a tool may do.
type Risk string

// Risks, from least to most dangerous.
const (
	Read        Risk = "read"
	Write       Risk = "write"
	Destructive Risk = "destructive"
)

// Rank orders risks for sorting and comparison: read 0, write 1,
// destructive 2. An unknown value ranks as write, the default.
func (r Risk) Rank() int {
	switch r {
	case Read:
		return 0
	case Destructive:
		return 2
	}
	return 1
}

// wordRules maps each base verb to its risk, in precedence order.
// surfaceprint's lists, unchanged.
var wordRules = []struct {
	risk  Risk
	words []string
}{
	{Destructive, []string{"delete", "remove", "destroy", "drop", "purge", "clear", "reset"}},
	{Write, []string{"create", "add", "update", "set", "send", "write", "upload"}},
	{Read, []string{"get", "list", "search", "read", "fetch", "find", "show", "view"}},
}

// inflections lists, per base verb, the simple inflected forms that also
// match. They are written out rather than derived so that a reviewer sees
// exactly what matches. "found" is left out on purpose: "not found" is
// common in descriptions of any tool, and a read match only ever lowers a
// tool's label (unknown is write).
var inflections = map[string][]string{
	"delete":  {"deletes", "deleted", "deleting"},
	"remove":  {"removes", "removed", "removing"},
	"destroy": {"destroys", "destroyed", "destroying"},
	"drop":    {"drops", "dropped", "dropping"},
	"purge":   {"purges", "purged", "purging"},
	"clear":   {"clears", "cleared", "clearing"},
	"reset":   {"resets", "resetting"},
	"create":  {"creates", "created", "creating"},
	"add":     {"adds", "added", "adding"},
	"update":  {"updates", "updated", "updating"},
	"set":     {"sets", "setting"},
	"send":    {"sends", "sent", "sending"},
	"write":   {"writes", "wrote", "written", "writing"},
	"upload":  {"uploads", "uploaded", "uploading"},
	"get":     {"gets", "getting"},
	"list":    {"lists", "listed", "listing"},
	"search":  {"searches", "searched", "searching"},
	"read":    {"reads", "reading"},
	"fetch":   {"fetches", "fetched", "fetching"},
	"find":    {"finds", "finding"},
	"show":    {"shows", "showed", "shown", "showing"},
	"view":    {"views", "viewed", "viewing"},
}

// wordIndex maps every matching form to its base verb.
var wordIndex = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for _, r := range wordRules {
		for _, w := range r.words {
			m[w] = w
			for _, f := range inflections[w] {
				m[f] = w
			}
		}
	}
	return m
})

// noDescription stands in for a missing description, as in surfaceprint.
const noDescription = "(no description)"

// ClassifyTool labels a tool from its name and description: the first rule
// (destructive, then write, then read) with a matching word anywhere in
// the text wins, and a tool matching none is write.
//
// Words are matched whole and case-insensitively. Differences from
// surfaceprint, whose notes list both as misses: names are split at
// camelCase and letter/digit boundaries as well as at "_", "-" and other
// punctuation ("deleteItem" is destructive), and the simple inflections in
// the table above match ("deletes", "removed", "fetching"). Both make
// labels more cautious far more often than less: more words match, and
// destructive and write take precedence over read.
func ClassifyTool(name, description string) Risk {
	r, _ := classify(name, description)
	return r
}

// classify returns the risk and the base verb that decided it ("" when no
// word matched and the default applied).
func classify(name, description string) (Risk, string) {
	if strings.TrimSpace(description) == "" {
		description = noDescription
	}
	found := map[string]bool{}
	for _, w := range words(name + " " + description) {
		if base, ok := wordIndex()[w]; ok {
			found[base] = true
		}
	}
	for _, r := range wordRules {
		for _, w := range r.words {
			if found[w] {
				return r.risk, w
			}
		}
	}
	return Write, ""
}

// words splits text into lowercase words: at every rune that is not a
// letter or digit, at lower-to-upper case changes ("getItem"), before the
// last capital of an acronym run ("HTTPServer" → HTTP, Server), and
// between letters and digits.
func words(text string) []string {
	var out []string
	rs := []rune(text)
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			out = append(out, strings.ToLower(string(rs[start:end])))
		}
		start = -1
	}
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush(i)
			continue
		}
		if start < 0 {
			start = i
			continue
		}
		prev := rs[i-1]
		switch {
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			flush(i)
			start = i
		case unicode.IsUpper(prev) && unicode.IsUpper(r) && i+1 < len(rs) && unicode.IsLower(rs[i+1]):
			flush(i)
			start = i
		case unicode.IsDigit(r) != unicode.IsDigit(prev):
			flush(i)
			start = i
		}
	}
	flush(len(rs))
	return out
}

// Sources of a [Label]'s risk.
const (
	SourceAnnotations = "annotations"
	SourceHeuristic   = "heuristic"
)

// A Label is a tool's risk with where it came from.
type Label struct {
	// Risk is the more cautious of the annotated and heuristic risks.
	Risk Risk `json:"risk"`
	// Source says which of the two supplied Risk ("annotations" or
	// "heuristic"); annotations win a tie.
	Source string `json:"source"`
	// Annotated is the risk the tool's annotations claim, "" when it
	// declares neither readOnlyHint nor destructiveHint.
	Annotated Risk `json:"annotated,omitempty"`
	// Heuristic is [ClassifyTool]'s label.
	Heuristic Risk `json:"heuristic"`
	// Word is the verb that decided Heuristic, "" when the default applied.
	Word string `json:"word,omitempty"`
	// Conflict is true when the annotations claim less risk than a matched
	// word suggests, such as readOnlyHint on a tool named delete_file.
	Conflict bool `json:"conflict,omitempty"`
}

// ClassifyWithAnnotations labels a tool from both its self-description
// and its words. Annotations are hints from a possibly untrusted server,
// so they can raise a label but never lower it below what the words say;
// a disagreement in the lowering direction is reported as Conflict so
// that reviewers see it.
//
// Annotations count only when they set readOnlyHint or destructiveHint. A
// tool annotated with, say, only openWorldHint would otherwise become
// destructive through the spec defaults, which says more about the
// defaults than about the tool. When they count, readOnlyHint true is
// read, otherwise destructiveHint (default true) decides between
// destructive and write.
//
// A tool whose words match nothing is write by default; annotations that
// claim read-only for it are taken (Source "annotations") without a
// conflict, since there is no evidence against them.
func ClassifyWithAnnotations(name, description string, ann *mcp.ToolAnnotations) Label {
	h, word := classify(name, description)
	l := Label{Risk: h, Source: SourceHeuristic, Heuristic: h, Word: word}
	if ann == nil || (ann.ReadOnlyHint == nil && ann.DestructiveHint == nil) {
		return l
	}
	switch {
	case ann.ReadOnly():
		l.Annotated = Read
	case ann.Destructive():
		l.Annotated = Destructive
	default:
		l.Annotated = Write
	}
	if word == "" {
		l.Risk, l.Source = l.Annotated, SourceAnnotations
		return l
	}
	if l.Annotated.Rank() >= h.Rank() {
		l.Risk, l.Source = l.Annotated, SourceAnnotations
		return l
	}
	l.Conflict = true
	return l
}
