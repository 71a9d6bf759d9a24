package heuristic

import (
	"strings"
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

// ClassifyTool labels a tool from its name and description alone, as
// [ClassifyWithAnnotations] does for a tool without annotations; a tool
// whose name and main clause hold no known verb is write (surfaceprint's
// default: unknown is write).
func ClassifyTool(name, description string) Risk {
	return ClassifyWithAnnotations(name, description, nil).Risk
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
	// SourceDefault: neither the words nor declared hints say anything;
	// unknown is write.
	SourceDefault = "default"
)

// A Label is a tool's risk with both facts behind it, shown apart: what
// the server claims (its annotations) and what the heuristic reads in the
// tool's name and words.
type Label struct {
	// Risk is the heuristic's reading when it read a verb, else the
	// server's declared hints, else write.
	Risk Risk `json:"risk"`
	// Source says which fact supplied Risk: "heuristic", "annotations" or
	// "default".
	Source string `json:"source"`
	// Annotated is what the annotations claim, read with the spec's
	// defaults (absent readOnlyHint is false, absent destructiveHint is
	// true): read, write or destructive. A tool without annotations
	// claims destructive by those defaults.
	Annotated Risk `json:"annotated"`
	// Declared is true when the tool sets readOnlyHint or destructiveHint
	// itself (Annotated does not rest on defaults alone).
	Declared bool `json:"declared,omitempty"`
	// OpenWorld is the openWorldHint, true when absent.
	OpenWorld bool `json:"openWorld"`
	// Heuristic is the heuristic's label, "" when it read no verb.
	Heuristic Risk `json:"heuristic,omitempty"`
	// Action is what the deciding verb does (read, write, delete, send,
	// execute); Word is that verb and Where "name" or "description".
	Action Action `json:"action,omitempty"`
	Word   string `json:"word,omitempty"`
	Where  string `json:"where,omitempty"`
	// Conflict is true when the declared hints and the heuristic disagree:
	// both are shown, neither silently wins.
	Conflict bool `json:"conflict,omitempty"`
}

// ClassifyWithAnnotations labels a tool from both facts. The heuristic's
// reading decides Risk when it read a verb; declared annotations decide
// when the words say nothing ("A detailed tool for dynamic problem
// solving", readOnlyHint: true, is read); otherwise the tool is write.
// Where the verbs read but a write, delete, send or execute verb stands
// as their object ([Reading].Object: "get_commit"), the
// words leave it open: a declared readOnlyHint: true settles it as read,
// anything else (absent readOnlyHint is false) as the object's action.
// A disagreement between a declared hint and the words is Conflict.
func ClassifyWithAnnotations(name, description string, ann *mcp.ToolAnnotations) Label {
	return ClassifyDefinition(name, description, ann, nil)
}

// ClassifyDefinition labels a tool as [ClassifyWithAnnotations] does and
// also reads its input schema ([ReadModes]): a mode or option more
// dangerous than what the words say decides the heuristic's label, with
// Where [WhereInput] ("Manage tags", mode: list | create | delete is
// destructive). inputSchema is the decoded inputSchema, nil when absent.
func ClassifyDefinition(name, description string, ann *mcp.ToolAnnotations, inputSchema any) Label {
	rd := ReadTool(name, description)
	l := Label{Heuristic: rd.Risk(), Action: rd.Action, Word: rd.Verb, Where: rd.Where, OpenWorld: true}
	if ann != nil {
		l.Declared = ann.ReadOnlyHint != nil || ann.DestructiveHint != nil
		if ann.OpenWorldHint != nil {
			l.OpenWorld = *ann.OpenWorldHint
		}
	}
	switch {
	case ann != nil && ann.ReadOnly():
		l.Annotated = Read
	case ann == nil || ann.Destructive():
		l.Annotated = Destructive
	default:
		l.Annotated = Write
	}
	claimsRead := ann != nil && ann.ReadOnlyHint != nil && *ann.ReadOnlyHint
	if l.Heuristic == Read && rd.Object.Changes() && !claimsRead {
		l.Heuristic, l.Action, l.Word, l.Where = rd.Object.Risk(), rd.Object, rd.ObjectWord, rd.ObjectWhere
	}
	if ma, mw := ReadModes(inputSchema); danger(ma) > danger(l.Action) {
		l.Heuristic, l.Action, l.Word, l.Where = ma.Risk(), ma, mw, WhereInput
	}
	if l.Heuristic == Read && !claimsRead {
		// Two readings the words leave open, which a claim of read-only
		// settles as read: a verb as often a change as a read ("Format an
		// Excel range", "Generate a free subdomain"), which a server that
		// sets readOnlyHint: false itself settles as a change; and a call
		// told where to save what it fetches, which writes a file.
		switch file := SavesFile(inputSchema); {
		case twoSided(l.Word) && ann != nil && ann.ReadOnlyHint != nil:
			l.Heuristic, l.Action = Write, ActionWrite
		case file != "":
			l.Heuristic, l.Action, l.Word, l.Where = Write, ActionWrite, file, WhereInput
		case ann != nil && ann.ReadOnlyHint != nil:
			// The server says the call is not read-only, and a later
			// sentence's main clause says what it changes ("Fetch and
			// return the quickstart prompt. Resolves callback URLs … and
			// updates them on the application."): both facts agree.
			if a, verb := laterChange(description); a != ActionNone {
				l.Heuristic, l.Action, l.Word, l.Where = a.Risk(), a, verb, "description"
			}
		}
	}
	switch {
	case l.Heuristic != "":
		l.Risk, l.Source = l.Heuristic, SourceHeuristic
		l.Conflict = l.Declared && l.Annotated != l.Heuristic
	case l.Declared:
		l.Risk, l.Source = l.Annotated, SourceAnnotations
	default:
		l.Risk, l.Source = Write, SourceDefault
	}
	return l
}

// ChangeSignal returns the first sign that a tool changes state: the
// reading of its name and main clause when that is a write, delete, send
// or execute action (a weak changing verb leading the name counts even
// where the description only reads: "trigger-long-running-operation"), else a strong verb of such an action anywhere in
// its name or description. ActionNone when there is none.
func ChangeSignal(name, description string) (Action, string) {
	if rd := readTool(name, description, false); rd.Action.Changes() {
		return rd.Action, rd.Verb
	}
	a, verb := readWords(words(name+" "+description), false)
	if a.Changes() {
		return a, verb
	}
	return ActionNone, ""
}
