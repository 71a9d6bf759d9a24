package scan

import (
	"strings"

	"github.com/mcpward/mcpward/internal/heuristic"
	"github.com/mcpward/mcpward/internal/snapshot"
)

// Roles of a toxic flow, read from a tool's annotations, the heuristic's
// verbs (internal/heuristic) and its words.
var (
	// untrusted: text third parties wrote (web pages, search results,
	// e-mail, issues, chat, tickets, logs, error reports, other people's
	// repositories).
	reUntrusted = lazyRe{src: `\b(?:urls?|internet|web|websites?|web ?pages?|pages?|e-?mails?|mailbox|inbox|messages?|issues?|tickets?|comments?|logs?|stack traces?|error reports?|github|repositor(?:y|ies)|tweets?|posts?|reviews?|feeds?|rss|search results)\b`}
	// private: the user's own non-public data.
	rePrivate = lazyRe{src: `\b(?:files?|file system|filesystem|director(?:y|ies)|folders?|databases?|sql|mailbox|e-?mails?|inbox|private|calendars?|events? of the user|notes?|knowledge graph|graph|pods?|namespaces?|clusters?|secrets?|jira|confluence|linear|user'?s?)\b`}
	// outbound: a message, post, comment, issue or invitation others read,
	// a request to an address the model chooses, a shell.
	reOutbound = lazyRe{src: `\b(?:comments?|invit(?:e|es|ation|ations)|issues?|pull requests?|messages?|posts?|tweets?|shell|commands?)\b`}
	reURL      = lazyRe{src: `\burls?\b|\bhttps? requests?\b|\bwebhooks?\b`}
	reGoes     = lazyRe{src: `\b(?:fetch(?:es)?|navigate[sd]?|request|requests|call|calls|open|opens|post|posts|send|sends)\b`}
)

// A roles value says which roles of a toxic flow a tool can play.
type roles struct{ source, private, sink bool }

// toolRoles reads a tool's roles.
func toolRoles(t snapshot.Object) roles {
	name := snapshot.Str(t, "name")
	desc := snapshot.Str(t, "description")
	text := strings.ToLower(strings.ReplaceAll(name, "_", " ") + ". " + desc)
	rd := heuristic.ReadTool(name, desc)
	ro, declared := readOnly(t)
	reads := ro || (!declared && rd.Action == heuristic.ActionRead)
	var h hits
	if !noPrefilter {
		litHits(text, &h)
	}
	var r roles
	if reads {
		r.source = reUntrusted.match(text, &h)
		r.private = rePrivate.match(text, &h)
	}
	switch {
	case !reads && (rd.Action == heuristic.ActionSend || rd.Action == heuristic.ActionExecute):
		r.sink = true
	case !reads && reOutbound.match(text, &h) && rd.Action != heuristic.ActionDelete:
		r.sink = true
	case reURL.match(text, &h) && reGoes.match(text, &h):
		r.sink = true
	}
	return r
}

// readOnly returns the readOnlyHint and whether the tool declares it.
func readOnly(t snapshot.Object) (ro, declared bool) {
	a, _ := t["annotations"].(map[string]any)
	v, ok := a["readOnlyHint"].(bool)
	return v && ok, ok
}

// toxicFlow reports a config whose tools reach all three roles.
func toxicFlow(servers []Server) (Finding, bool) {
	var src, priv, sink []string
	for _, s := range servers {
		for _, t := range s.Tools {
			q := qualify(s.Name, snapshot.Str(t, "name"))
			r := toolRoles(t)
			if r.source {
				src = append(src, q)
			}
			if r.private {
				priv = append(priv, q)
			}
			if r.sink {
				sink = append(sink, q)
			}
		}
	}
	if len(src) == 0 || len(priv) == 0 || len(sink) == 0 {
		return Finding{}, false
	}
	f := newFinding(RuleToxicFlow, "", "", "", "untrusted content ("+strings.Join(uniqueSorted(src), ", ")+"), private data ("+
		strings.Join(uniqueSorted(priv), ", ")+") and an outbound sink ("+strings.Join(uniqueSorted(sink), ", ")+") are reachable in one agent", "")
	f.Sources, f.Private, f.Sinks = uniqueSorted(src), uniqueSorted(priv), uniqueSorted(sink)
	return f, true
}
