package heuristic

import (
	"slices"
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
	// Object is the most dangerous action named by a strong verb of the
	// name or the main clause that stands where an object does, outside a
	// noun phrase ("List commits", "get_merge_request"; not "Get list of
	// commits"), or by a weak verb leading the name when the description
	// only reads ("trigger-long-running-operation": "Demonstrates …"),
	// with that verb's base form and where it stood: a hint the words
	// leave open, which [ClassifyWithAnnotations] lets the server's claim
	// settle.
	Object      Action `json:"object,omitempty"`
	ObjectWord  string `json:"objectWord,omitempty"`
	ObjectWhere string `json:"objectWhere,omitempty"`
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
//   - the description's main clause: its first sentence up to the first
//     subordinate clause ("… to show", "… showing", "… that", "… when",
//     "(…)"). Its verbs are the leading verb (even if weak: "Clear the
//     …", after an adverb: "Permanently delete …"), the verbs coordinated
//     with it in the same form ("List, create, close, or select …",
//     "Create a file or overwrite …") and the items of a list after a
//     colon ("Manage branches: list, create, delete"). Other words of the
//     clause are its objects ("Get list of commits", "Download an
//     uploaded file"), not verbs. After a light verb ("Perform click",
//     "Take a screenshot", "Make line-based edits") the action noun is
//     the verb. A reading verb with "a new …" as its object creates
//     ("Open a new tab"). A clause that does not lead with a verb ("The
//     server deletes …") counts every strong verb in it.
//
//   - the name's verb: its first word that is a verb ("browser_click",
//     "git_add", after product nouns) and a strong verb coordinated with
//     it ("get_and_delete", "create_or_update"). A weak word ("log",
//     "post", "messages") is as often a noun: it counts only in its base
//     form, and after the name's first word only when the description's
//     main clause holds no verb to say what the tool does ("pods_log":
//     "Get the logs of a pod" reads).
//
//   - a name's verb that undoes a change ("unprotect", "unassign") is what
//     the description's "Remove …" paraphrases: a write.
//
// Of everything read, the most dangerous action wins: a mutating,
// deleting, sending or executing verb in the main clause beats a reading
// one. Words in subordinate clauses and later sentences are not read
// ("… returns a diff showing the changes", "… before you clear it"),
// except that a changing call deletes when a sentence states so in the
// passive ("… any field the new manifest omits is removed":
// [statesDeletion]).
func ReadTool(name, description string) Reading {
	return readTool(name, description, true)
}

// readTool is [ReadTool]; without open, a weak changing verb leading the
// name decides even where the description only reads ([ChangeSignal]
// takes it as a signal: "trigger-long-running-operation" triggers).
func readTool(name, description string, open bool) Reading {
	best := Reading{}
	var queried Reading // a changing verb of a query ([queryPrefix]), as an object
	consider := func(vs []string, where string) {
		for _, w := range vs {
			if verb, ok := strings.CutPrefix(w, queryPrefix); ok {
				a, _, _ := VerbAction(verb)
				if danger(a) > danger(queried.Object) {
					queried = Reading{Object: a, ObjectWord: verb, ObjectWhere: where}
				}
				w = "query"
			}
			a, base, _ := VerbAction(w)
			switch w {
			case newWord:
				a, base = ActionWrite, newWord
			case appWord:
				a, base = ActionWrite, "open"
			case placeWord:
				a, base = ActionWrite, "drop"
			case resetWord:
				a, base = ActionWrite, "reset"
			}
			if danger(a) > danger(best.Action) {
				best = Reading{Action: a, Verb: base, Where: where}
			}
		}
	}
	head, items := mainClause(description)
	desc := clauseVerbs(head, items)
	// A first sentence without a known verb ("Onboard a project with
	// Auth0.", "MANDATORY FIRST STEP: …"), under a name without one
	// either, leaves the main clause to the next sentence that has one
	// ("Creates an Auth0 application …") when that one changes state by a
	// strong verb: a later sentence's reading verb ("Fetches and
	// integrates changes") may be a step of what the first one names, and
	// a weak one may be advice to the model ("Clear it when done").
	if len(desc) == 0 && len(nameVerbs(name, true)) == 0 {
		for _, later := range laterSentences(description, 2) {
			h, it := mainClause(later)
			if vs := clauseVerbs(h, it); strongChange(vs) {
				head, items, desc = h, it, vs
				break
			}
		}
	}
	nv := nameVerbs(name, len(desc) == 0)
	arith := arithmetic(head)
	if arith {
		nv, desc = computes(nv), computes(desc)
	}
	desc = undoes(nv, desc)
	// A weak changing verb leading the name ("trigger", "start", "set")
	// against a description that only reads ("Demonstrates a long running
	// operation") is a hint the words leave open, as an object is.
	var hint Reading
	if open && len(nv) > 0 && len(desc) > 0 {
		if a, base, weak := VerbAction(nv[0]); weak && a.Changes() && onlyReads(desc) {
			hint = Reading{Object: a, ObjectWord: base, ObjectWhere: "name"}
			nv = nv[1:]
		}
	}
	consider(nv, "name")
	consider(desc, "description")
	best.Object, best.ObjectWord, best.ObjectWhere = hint.Object, hint.ObjectWord, hint.ObjectWhere
	if danger(queried.Object) > danger(best.Object) {
		best.Object, best.ObjectWord, best.ObjectWhere = queried.Object, queried.ObjectWord, queried.ObjectWhere
	}
	object := func(ws, verbs []string, where string) {
		for _, w := range objectWords(ws, where == "name") {
			a, base, weak := VerbAction(w)
			if weak || slices.Contains(verbs, w) || !a.Changes() || (arith && base == "add") {
				continue
			}
			if danger(a) > danger(best.Object) {
				best.Object, best.ObjectWord, best.ObjectWhere = a, base, where
			}
		}
	}
	object(words(name), nv, "name")
	object(clauseTokens(head), desc, "description")
	if best.Action.Changes() && best.Action != ActionDelete {
		if base := statesDeletion(description); base != "" {
			best.Action, best.Verb, best.Where = ActionDelete, base, "description"
		}
	}
	if best.Action == ActionRead {
		if base := statesSave(description); base != "" {
			best.Action, best.Verb, best.Where = ActionWrite, base, "description"
		}
	}
	return best
}

// statesSave returns the saving verb of a sentence that states, in the
// passive, that the call saves what it reads to a place ("… returns the
// image, plus the path it was saved to"; "the report is written to
// disk"), "" when none does ([statesPassive]: "files that were saved to
// the workspace" states nothing).
func statesSave(description string) string {
	return statesPassive(description, true, func(ws []string, i int, _ Action, base string) bool {
		if base != "save" && base != "write" && base != "store" {
			return false
		}
		switch tokAt(ws, i+1) {
		case "to", "as", "into", "under", "in", "at":
			return true
		}
		return false
	})
}

// statesDeletion returns the deleting verb of a sentence that states, in
// the passive, what a changing call deletes ("Create or update a
// resource. … any field the new manifest omits is removed"; "… are
// overwritten", "will be deleted"), "" when none does ([statesPassive]).
func statesDeletion(description string) string {
	return statesPassive(description, false, func(_ []string, _ int, a Action, _ string) bool { return a == ActionDelete })
}

// statesPassive returns the base of the first past participle, in a
// sentence of the description, that effect accepts and that stands in
// the passive ("is", "are", "gets", "will be", with past also "was" and
// "were", before it or before an adverb before it), "" when there is
// none. A sentence with a condition or a relative clause before the verb
// ("… files that are deleted", "if it is removed") states no effect of
// the call.
func statesPassive(description string, past bool, effect func(ws []string, i int, a Action, base string) bool) string {
	for _, sentence := range sentences(description) {
		ws := words(sentence)
		for i, w := range ws {
			if conditions[w] {
				break
			}
			a, base, _ := VerbAction(w)
			if i == 0 || a == ActionNone || formOf(w, base) != "ed" || !effect(ws, i, a, base) {
				continue
			}
			j := i - 1
			if isAdverb(ws[j]) && j > 0 {
				j--
			}
			switch aux := ws[j]; {
			case aux == "is" || aux == "are" || aux == "gets" || aux == "get",
				past && (aux == "was" || aux == "were"),
				aux == "be" && j > 0 && ws[j-1] == "will":
				return base
			}
		}
	}
	return ""
}

// conditions open a clause whose passive verb states no effect of the
// call ([statesDeletion]).
var conditions = map[string]bool{
	"if": true, "when": true, "whenever": true, "unless": true, "whether": true, "that": true, "which": true,
	"once": true, "after": true, "before": true, "until": true, "not": true, "never": true,
}

// undoes reads a description's "remove" as the name's verb when that verb
// undoes a change ("un" and a changing verb: "unprotect_branch": "Remove
// protection from a branch"; "unassign", "unlock"): the description
// paraphrases it, and taking a protection, an assignee or a lock away
// changes a setting, it deletes no data.
func undoes(nv, desc []string) []string {
	if len(nv) == 0 || !strings.HasPrefix(nv[0], "un") {
		return desc
	}
	a, base, _ := VerbAction(nv[0])
	if undone, _, _ := VerbAction(strings.TrimPrefix(base, "un")); a != ActionWrite || !undone.Changes() {
		return desc
	}
	out := make([]string, len(desc))
	for i, w := range desc {
		if _, b, _ := VerbAction(w); b == "remove" {
			w = nv[0]
		}
		out[i] = w
	}
	return out
}

// onlyReads reports whether every verb of vs reads.
func onlyReads(vs []string) bool {
	for _, w := range vs {
		if a, _, _ := VerbAction(w); a != ActionRead {
			return false
		}
	}
	return true
}

// objectWords returns the words of a name or main clause up to its first
// comma that may be verbs standing as an object ([Reading].Object): not
// the words of a noun phrase, which a determiner or preposition opens
// and a conjunction closes ("Get list of commits", "Get details of a
// specific commit", "Download an uploaded file"), and in a name, not an
// inflected form after its first word ("list_commits": a name's verbs
// are in their base form).
func objectWords(ws []string, name bool) []string {
	var out []string
	phrase := false
	for i, w := range ws {
		switch {
		case w == ",":
			return out
		case conjunctions[w]:
			phrase = false
		case nounMarkers[w]:
			phrase = true
		case phrase:
		case name && i > 0:
			if _, base, _ := VerbAction(w); base == w {
				out = append(out, w)
			}
		default:
			out = append(out, w)
		}
	}
	return out
}

// nounMarkers open a noun phrase: determiners and prepositions.
var nounMarkers = map[string]bool{
	"a": true, "an": true, "the": true, "all": true, "each": true, "every": true, "any": true, "some": true,
	"this": true, "these": true, "those": true, "its": true, "their": true, "your": true, "my": true, "our": true,
	"of": true, "in": true, "on": true, "at": true, "about": true, "between": true, "into": true, "within": true,
}

// arithmetic reports whether a main clause adds numbers ("Adds two
// numbers", "Add a and b, two integers"): "add" computes there, as
// "multiply" and "subtract" do, and changes nothing.
func arithmetic(head string) bool {
	ws := words(head)
	if len(ws) == 0 || (ws[0] != "add" && ws[0] != "adds") {
		return false
	}
	for _, w := range ws[1:] {
		switch w {
		case "number", "numbers", "integer", "integers", "float", "floats":
			return true
		}
	}
	return false
}

// computes reads "add" as "calculate" in a clause that adds numbers.
func computes(vs []string) []string {
	out := make([]string, len(vs))
	for i, w := range vs {
		if _, base, _ := VerbAction(w); base == "add" {
			w = "calculate"
		}
		out[i] = w
	}
	return out
}

// newWord stands for "a new …" after a reading verb: the verb creates.
const newWord = "new"

// appWord stands for "open" whose object is an application ("Opens the
// draw.io editor"): it starts a program on the user's machine, a change
// outside the conversation, where "Open a PDF in a viewer" and "Open
// nodes" read.
const appWord = "\x00app"

// resetWord stands for "reset" whose object is the session's own state
// ("reset the active context", "reset the viewport"): no data is lost, so
// the call writes (docs/labels.md).
const resetWord = "\x00reset"

// sessionState are the nouns of a session's own state.
var sessionState = map[string]bool{
	"context": true, "session": true, "viewport": true, "view": true, "zoom": true, "emulation": true,
	"filter": true, "filters": true, "selection": true, "cursor": true,
}

// placeWord stands for "drop" that places something ("Drop files onto
// an element", drag and drop): a write, where "Drop the table" deletes.
const placeWord = "\x00place"

// appNouns are the objects that make "open" start a program.
var appNouns = map[string]bool{"editor": true, "app": true, "application": true, "browser": true, "window": true, "terminal": true, "program": true, "ide": true}

// opensApp reports whether the words after "open" name an application
// as its object: one of appNouns among the object's first words, before
// any conjunction or comma.
func opensApp(toks []string) bool {
	for i, w := range toks {
		if w == "in" {
			// "Open the feedback form in the browser": the user's browser
			// opens it, where "Open a PDF in an interactive viewer" shows it
			// in the client.
			return inApp(toks[i+1:])
		}
		if i == 4 || conjunctions[w] || w == "on" {
			return false
		}
		if appNouns[w] {
			return true
		}
	}
	return false
}

// inApp reports whether the words after "in" name an application: one
// of appNouns after at most two determiners or adjectives ("in browser",
// "in the default browser", "in a new window").
func inApp(toks []string) bool {
	for i, w := range toks {
		if i == 3 || conjunctions[w] {
			return false
		}
		if appNouns[w] {
			return true
		}
	}
	return false
}

// queryPrefix marks a changing verb whose object is a reading noun ("Run
// a find query", "Run an aggregation", runAccessibilityAudit, "Start a
// streaming search"): the call reads, or runs something the words do not
// name, so the reading is left open as an object is ([Reading].Object)
// and a declared readOnlyHint: true settles it. The base verb follows
// the prefix.
const queryPrefix = "\x00query:"

// queryNouns are the reading nouns of [queryPrefix].
var queryNouns = map[string]bool{
	"query": true, "queries": true, "aggregation": true, "aggregations": true, "search": true, "searches": true,
	"audit": true, "audits": true, "analysis": true, "lookup": true, "lookups": true,
}

// verbByObject reads a verb by its object: for "run" or "start",
// queryPrefix and the base when a query noun is among the first words
// after it, before a conjunction or comma, and "query" when the words
// say the run only reads; for "reset", resetWord when what is reset is
// the session's own state ([sessionState]); w itself otherwise.
func verbByObject(w string, after []string) string {
	_, base, _ := VerbAction(w)
	if base == "reset" {
		for i, x := range after {
			if i == 4 || conjunctions[x] {
				break
			}
			if sessionState[x] {
				return resetWord
			}
		}
		return w
	}
	if base != "run" && base != "start" {
		return w
	}
	for i, x := range after {
		if i == 8 || conjunctions[x] {
			break
		}
		// The words say what the run does: "Run a read-only SQL query",
		// "run one of the following read operations".
		if x == "readonly" || x == "read" && (tokAt(after, i+1) == "only" || readOnlyObjects[tokAt(after, i+1)]) {
			return "query"
		}
		if queryNouns[x] && i < 4 {
			return queryPrefix + base
		}
	}
	return w
}

// readOnlyObjects are the nouns that "read" qualifies in a run's object
// ("read operations"): what is run only reads.
var readOnlyObjects = map[string]bool{"operation": true, "operations": true, "query": true, "queries": true, "request": true, "requests": true}

// nameVerbs returns the verbs of a tool's name: its first verb (a name
// usually reads product_verb_object: "browser_click", "git_add",
// "firecrawl_scrape", so leading nouns are skipped) and the strong verbs
// coordinated with it by "and", "or" or "then". A weak verb counts only
// in its base form, and after the name's first word only with weak set
// ("start_thinking" leads with its verb; "pods_log" and
// "API-post-search" are read by their description otherwise).
func nameVerbs(name string, weak bool) []string {
	ws := words(name)
	// A compound's head is its last word: "deploy-services-reader" is a
	// reader of deploy services, so a verb before it is a modifier.
	if len(ws) > 1 {
		if verb, ok := readingAgents[ws[len(ws)-1]]; ok {
			return []string{verb}
		}
	}
	for i, w := range ws {
		a, base, isWeak := VerbAction(w)
		if a == ActionNone || (isWeak && (base != w || (i > 0 && !weak))) {
			continue
		}
		out := []string{verbByObject(w, ws[i+1:])}
		for j := i + 1; j < len(ws); j++ {
			if !conjunctions[ws[j-1]] {
				continue
			}
			if a, _, isWeak := VerbAction(ws[j]); a != ActionNone && !isWeak {
				out = append(out, ws[j])
			}
		}
		return out
	}
	return nil
}

// readingAgents are the nouns of one who reads, by the reading verb: the
// head of a name that ends with one.
var readingAgents = map[string]string{
	"reader": "read", "viewer": "view", "fetcher": "fetch", "finder": "find", "searcher": "search",
	"getter": "get", "lister": "list", "explorer": "explore", "inspector": "inspect", "analyzer": "analyze",
	"analyser": "analyse",
}

// conjunctions join coordinated verbs: "get_and_delete", "Create or
// update", "List, create, close, or select".
var conjunctions = map[string]bool{"and": true, "or": true, "then": true, ",": true, "&": true, "/": true}

// choosesAmong reports whether a clause's object is "one of" a list the
// words go on to name ("one of the following", "one of these modes").
func choosesAmong(after []string) bool {
	for i := 0; i+1 < len(after) && i < 6; i++ {
		if after[i] == "one" && after[i+1] == "of" {
			return true
		}
	}
	return false
}

// lightVerbs carry no action of their own: the noun after them does
// ("Perform click", "Take a screenshot", "Make line-based edits").
var lightVerbs = map[string]bool{"perform": true, "performs": true, "make": true, "makes": true, "take": true, "takes": true, "do": true, "does": true}

// clauseVerbs returns the verbs of a main clause as [ReadTool] reads
// them, with the items of a list after its colon.
func clauseVerbs(head string, items []string) []string {
	toks := clauseTokens(head)
	i := 0
	for i < len(toks) && isAdverb(toks[i]) {
		i++
	}
	var out []string
	if i < len(toks) && lightVerbs[toks[i]] {
		for _, w := range toks[i+1:] {
			if w == "," {
				break
			}
			if a, _, _ := VerbAction(w); a != ActionNone {
				out = append(out, w)
				break
			}
		}
	} else if a, base, _ := VerbAction(tokAt(toks, i)); a != ActionNone {
		if base == "drop" && (slices.Contains(toks, "onto") || slices.Contains(toks, "into")) {
			out = append(out, placeWord)
		} else if base == "select" && choosesAmong(toks[i+1:]) {
			// "Select and run one of the following operations": to select
			// among the options the words list is to choose, not to act on
			// a page; what is chosen is read after the conjunction.
		} else {
			out = append(out, verbByObject(toks[i], toks[i+1:]))
		}
		form := formOf(toks[i], base)
		if base == "open" && opensApp(toks[i+1:]) {
			out = append(out, appWord)
		}
		for j := i + 1; j < len(toks); j++ {
			w := toks[j]
			if a == ActionRead && w == newWord && tokAt(toks, j-1) == "a" {
				out = append(out, newWord)
				continue
			}
			if !conjunctions[w] {
				continue
			}
			k := j + 1
			for k < len(toks) && (conjunctions[toks[k]] || isAdverb(toks[k])) {
				k++
			}
			if ca, cbase, _ := VerbAction(tokAt(toks, k)); ca != ActionNone && formOf(toks[k], cbase) == form {
				out = append(out, verbByObject(toks[k], toks[k+1:]))
				j = k
			} else if w == "," {
				break
			}
		}
	} else {
		// No leading verb: every strong verb up to the first comma.
		for _, w := range toks {
			if w == "," {
				break
			}
			if a, _, weak := VerbAction(w); a != ActionNone && !weak {
				out = append(out, w)
			}
		}
	}
	// A list's items lead with their verbs; a weak word counts only in its
	// base form ("list, create, delete", not "markdown, links, screenshots"),
	// and only in a list of verbs: coordination joins like with like, so in
	// "the Actor it runs, its name, stored input, and run options" the last
	// item is a noun as the others are.
	verbItems := 0
	for _, it := range items {
		w := strings.ToLower(firstWord(it))
		if a, base, _ := VerbAction(w); a != ActionNone && base == w {
			verbItems++
		}
	}
	for _, it := range items {
		w := strings.ToLower(firstWord(it))
		if a, base, weak := VerbAction(w); a != ActionNone && (!weak || base == w && 2*verbItems >= len(items)) {
			out = append(out, w)
		}
	}
	return out
}

// clauseTokens splits a clause into words, with "," for each comma.
func clauseTokens(s string) []string {
	var out []string
	for i, part := range strings.Split(s, ",") {
		if i > 0 {
			out = append(out, ",")
		}
		out = append(out, words(part)...)
	}
	return out
}

func tokAt(toks []string, i int) string {
	if i < 0 || i >= len(toks) {
		return ""
	}
	return toks[i]
}

// isAdverb: a word ending in -ly that is no verb ("permanently",
// "recursively"; "apply" is a verb).
func isAdverb(w string) bool {
	a, _, _ := VerbAction(w)
	return a == ActionNone && len(w) > 3 && strings.HasSuffix(w, "ly")
}

// formOf says which form of its base verb a word is: "base", "s", "ing"
// or "ed" (irregular past forms included), so that coordinated verbs
// agree with the leading one ("Reads and updates", not "Get … or
// commits").
func formOf(w, base string) string {
	switch {
	case w == base:
		return "base"
	case strings.HasSuffix(w, "ing"):
		return "ing"
	case strings.HasSuffix(w, "s"):
		return "s"
	}
	return "ed"
}

// subordinators end the main clause of a description's first sentence.
var subordinators = []string{
	" to ", " showing ", " that ", " which ", " who ", " when ", " whenever ", " if ", " unless ",
	" so ", " for ", " because ", " while ", " without ", " before ", " after ", " until ", " by ",
	" such as ", " e.g.", " i.e.", " including ", " using ", " via ", " with ", " where ", " as ",
	" then ", " returning ", " and returns ", " and return ", " from ",
}

// sentenceEnds are where a description's sentences end: a stop followed
// by a space or a tab, or a newline ("e.g." and "v1.2" end none).
var sentenceEnds = []string{". ", "! ", "? ", "\n", ".\t"}

// sentences splits a description at [sentenceEnds].
func sentences(s string) []string {
	var out []string
	for s != "" {
		end := len(s)
		for _, sep := range sentenceEnds {
			if i := strings.Index(s, sep); i >= 0 && i < end {
				end = i
			}
		}
		out = append(out, s[:end])
		if end == len(s) {
			break
		}
		s = s[end+1:]
	}
	return out
}

// firstSentence is the first of [sentences], "" for an empty text.
func firstSentence(s string) string {
	if ss := sentences(s); len(ss) > 0 {
		return ss[0]
	}
	return ""
}

// strongChange reports whether a clause's verbs include a strong one that
// changes state.
func strongChange(vs []string) bool {
	return slices.ContainsFunc(vs, func(w string) bool {
		a, _, weak := VerbAction(w)
		return a.Changes() && !weak
	})
}

// laterChange returns the most dangerous changing verb that leads the
// main clause of one of a description's next three sentences, ActionNone
// when none does.
func laterChange(description string) (Action, string) {
	best, verb := ActionNone, ""
	for _, later := range laterSentences(description, 3) {
		for _, w := range clauseVerbs(mainClause(later)) {
			if a, base, _ := VerbAction(w); a.Changes() && danger(a) > danger(best) {
				best, verb = a, base
			}
		}
	}
	return best, verb
}

// laterSentences returns up to n of a description's sentences after its
// first, the text from each one's start on.
func laterSentences(desc string, n int) []string {
	var out []string
	s := strings.TrimSpace(desc)
	for len(out) < n {
		first := firstSentence(s)
		if len(first) >= len(s) {
			break
		}
		s = strings.TrimSpace(s[len(first)+1:])
		if s == "" {
			break
		}
		out = append(out, s)
	}
	return out
}

// mainClause returns the main clause of a description: its first sentence
// up to the first subordinate clause or parenthesis, after a leading
// "Product |" label or "Use this tool to" preamble, and the items of a
// list after its colon, each cut the same way. Commas stay in the head
// (a series of verbs: "List, create, close, or select a tab").
func mainClause(desc string) (head string, items []string) {
	s := strings.TrimSpace(desc)
	if i := strings.Index(s, "|"); i >= 0 && i < 40 {
		s = strings.TrimSpace(s[i+1:])
	}
	// The first sentence, then up to ":" (a list of modes follows a
	// colon: "Manage branches: list, create, delete" keeps its list, read
	// as its own main clause below).
	s = dropParentheses(strings.TrimSuffix(firstSentence(s), "."))
	lower := " " + strings.ToLower(s) + " "
	for _, p := range []string{"use this tool to ", "this tool ", "a tool to ", "tool to ", "allows you to ", "lets you ", "used to ", "you can "} {
		if strings.HasPrefix(lower, " "+p) {
			s = s[len(p)-1:]
			break
		}
	}
	h, list, hasList := strings.Cut(s, ":")
	cut := func(t string, commas bool) string {
		l := " " + strings.ToLower(t) + " "
		end := len(l)
		for _, m := range subordinators {
			if i := strings.Index(l, m); i >= 0 && i < end {
				end = i
			}
		}
		for _, m := range []string{"(", ";", " - ", " — ", "`"} {
			if i := strings.Index(l, m); i >= 0 && i < end {
				end = i
			}
		}
		if i := strings.Index(l, ","); !commas && i >= 0 && i < end {
			end = i
		}
		return strings.TrimSpace(l[:end])
	}
	head = cut(h, true)
	if hasList {
		// Each item of a list after a colon is a clause of its own.
		for _, item := range strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == ';' }) {
			item = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(item), "or "))
			item = strings.TrimPrefix(item, "and ")
			if c := cut(item, false); c != "" {
				items = append(items, c)
			}
		}
	}
	return head, items
}

// dropParentheses removes parenthesised asides ("List issues (default:
// created by the current user)"): they are not the main clause, and a
// colon inside one starts no list. An unclosed parenthesis ends the text.
func dropParentheses(s string) string {
	var b strings.Builder
	depth := 0
	for _, r := range s {
		switch {
		case r == '(':
			depth++
		case r == ')' && depth > 0:
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func firstWord(s string) string {
	f := strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	if len(f) == 0 {
		return ""
	}
	return f[0]
}
