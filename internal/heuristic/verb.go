package heuristic

import (
	"strings"
	"sync"
)

// An Action is what a verb does to the world, as a reviewer reads it:
// nothing (read), a change (write), a loss (delete), a message leaving
// (send), or code running (execute).
type Action string

// Actions. ActionNone is a word that is not a known verb.
const (
	ActionNone    Action = ""
	ActionRead    Action = "read"
	ActionWrite   Action = "write"
	ActionDelete  Action = "delete"
	ActionSend    Action = "send"
	ActionExecute Action = "execute"
)

// Risk maps an action to the coarse label: delete is destructive; write,
// send and execute are write; read is read.
func (a Action) Risk() Risk {
	switch a {
	case ActionRead:
		return Read
	case ActionDelete:
		return Destructive
	}
	return Write
}

// Reads says what a reviewer reads the action as, for messages:
// "destructive", "write", "send", "execute" or "read".
func (a Action) Reads() string {
	if a == ActionDelete {
		return "destructive"
	}
	return string(a)
}

// Changes reports whether the action changes state or reaches out: every
// action but read (and none).
func (a Action) Changes() bool { return a != ActionNone && a != ActionRead }

// verbs lists each action's base verbs. A verb is written once; its
// inflections are derived by [inflect] (irregular forms are listed in
// irregular), so a reviewer sees every base word that matches. strong
// verbs are hardly ever anything but verbs; weak ones are as often nouns
// or adjectives ("message", "clear", "dry run", "status") and count only
// where a verb stands: the first word of a name or of a sentence.
var verbs = []struct {
	action       Action
	strong, weak []string
}{
	{ActionDelete,
		[]string{"delete", "remove", "destroy", "purge", "erase", "wipe", "truncate", "reset", "overwrite",
			"unlink", "rm", "del", "kill", "terminate", "uninstall", "revoke", "discard", "evict", "expunge", "shred",
			"replace", "rewrite"},
		[]string{"drop", "clear", "prune", "trash", "flush"}},
	{ActionExecute,
		[]string{"exec", "execute", "eval", "evaluate", "spawn", "invoke", "sudo"},
		[]string{"run", "launch", "shell", "call"}},
	{ActionSend,
		[]string{"send", "notify", "publish", "broadcast", "tweet", "announce", "email"},
		[]string{"post", "reply", "forward", "dm", "sms", "message", "mail", "share", "comment", "ping"}},
	{ActionWrite,
		[]string{"create", "add", "update", "write", "upload", "edit", "modify", "insert", "save", "rename",
			"append", "apply", "commit", "push", "merge", "install", "enable", "disable", "restart",
			"deploy", "approve", "reject", "assign", "unassign", "reopen", "unlock", "unarchive", "restore",
			"import", "register", "unregister", "subscribe", "unsubscribe", "toggle", "configure", "grant",
			"invite", "upsert", "increment", "decrement", "mutate", "submit", "unpin", "unstar", "refund",
			"purchase", "navigate", "click", "hover", "uncheck", "upgrade", "downgrade", "rollback", "revert",
			"migrate", "mkdir", "chmod", "chown", "attach", "detach", "disconnect", "logout", "authorize",
			"provision", "suspend", "unsuspend", "unblock", "unmute", "unfollow", "enqueue", "dequeue",
			"reserve", "renew", "annotate", "reload", "refactor", "archive", "emulate", "protect", "unprotect",
			"unapprove", "activate", "deactivate", "interact", "queue", "compress", "decompress"},
		[]string{"change", "put", "patch", "copy", "move", "store", "lock", "mark", "tag", "untag", "label",
			"pin", "star", "fork", "clone", "transfer", "pay", "charge", "buy", "sell", "type", "fill", "press",
			"drag", "scroll", "select", "focus", "resize", "sync", "touch", "link", "connect", "login",
			"init", "initialize", "setup", "scale", "pause", "resume", "block", "mute", "follow", "like",
			"vote", "react", "accept", "decline", "confirm", "record", "log", "track", "emit", "dispatch",
			"release", "claim", "bump", "rotate", "extend", "fix", "build", "compile", "start", "stop",
			"close", "cancel", "complete", "resolve", "trigger", "schedule", "seed", "order", "book", "set", "handle",
			"go", "end", "refresh"}},
	{ActionRead,
		[]string{"get", "list", "search", "read", "fetch", "find", "show", "view", "query", "lookup",
			"describe", "inspect", "browse", "retrieve", "explain", "summarize", "summarise", "analyze",
			"analyse", "validate", "verify", "preview", "compare", "calculate", "compute", "convert", "parse",
			"echo", "render", "download", "scan", "peek", "poll", "estimate", "predict", "grep", "explore",
			"discover", "lint", "measure", "multiply", "divide", "subtract", "translate", "detect", "extract",
			"recommend", "suggest", "load", "display", "retrieve", "look", "see", "ask", "think", "provide",
			"demonstrate", "simulate", "enumerate", "scrape", "crawl", "generate", "greet", "elicit", "research",
			"learn"},
		[]string{"count", "check", "diff", "print", "test", "status", "watch", "wait", "sleep", "plan",
			"screenshot", "snapshot", "capture", "info", "stat", "tree", "format", "sum", "open", "report",
			"return", "sample"}},
}

// twoSided reports whether a reading verb is as often a change: to format
// a date is to compute, to format a spreadsheet range changes it; to
// generate or render may return a thing or create it on the server; to
// download may return bytes or save them; to convert may return the
// result or replace the file. Such a verb reads, unless the server sets
// readOnlyHint: false itself ([ClassifyDefinition]).
func twoSided(verb string) bool {
	switch verb {
	case "format", "generate", "render", "download", "convert":
		return true
	}
	return false
}

// irregular lists inflections that do not follow the rules of [inflect].
var irregular = map[string]string{
	"wrote": "write", "written": "write", "sent": "send", "ran": "run", "begun": "start", "shown": "show",
	"set": "set", "put": "put", "read": "read", "built": "build", "sold": "sell", "bought": "buy",
	"resetting": "reset", "submitted": "submit", "submitting": "submit", "committed": "commit",
	"committing": "commit", "unpinned": "unpin", "unstarred": "unstar", "echoes": "echo",
	"overwritten": "overwrite", "overwrote": "overwrite", "rewritten": "rewrite", "rewrote": "rewrite",
}

// A verbInfo is what a base verb does and whether it is weak.
type verbInfo struct {
	action Action
	weak   bool
}

// verbIndex maps every known form to its base verb, and each base verb to
// what it does. A base word listed twice keeps its first entry (delete,
// execute, send, write, read: the more dangerous wins), and a form two
// verbs share keeps the first verb's.
var verbIndex = sync.OnceValues(func() (map[string]string, map[string]verbInfo) {
	forms := map[string]string{}
	info := map[string]verbInfo{}
	add := func(w string, vi verbInfo) {
		if _, ok := info[w]; ok {
			return
		}
		info[w] = vi
		for _, f := range inflect(w) {
			if _, ok := forms[f]; !ok {
				forms[f] = w
			}
		}
	}
	for _, v := range verbs {
		for _, w := range v.strong {
			add(w, verbInfo{action: v.action})
		}
		for _, w := range v.weak {
			add(w, verbInfo{action: v.action, weak: true})
		}
	}
	for f, base := range irregular {
		if base == "" {
			delete(forms, f)
			continue
		}
		if _, ok := info[base]; ok {
			forms[f] = base
		}
	}
	return forms, info
})

// inflect returns a verb's base form and its regular inflections: -s,
// -ed and -ing, with the usual spelling changes (delete → deletes,
// deleted, deleting; drop → drops, dropped, dropping; copy → copies,
// copied).
func inflect(w string) []string {
	out := []string{w}
	n := len(w)
	if n < 2 {
		return out
	}
	last := w[n-1]
	switch {
	case strings.HasSuffix(w, "e"):
		out = append(out, w+"s", w+"d", w[:n-1]+"ing")
	case last == 'y' && !isVowel(w[n-2]):
		out = append(out, w[:n-1]+"ies", w[:n-1]+"ied", w+"ing")
	case strings.HasSuffix(w, "s") || strings.HasSuffix(w, "sh") || strings.HasSuffix(w, "ch") || strings.HasSuffix(w, "x"):
		out = append(out, w+"es", w+"ed", w+"ing")
	case n <= 4 && !isVowel(last) && isVowel(w[n-2]) && (n < 3 || !isVowel(w[n-3])) && last != 'w' && last != 'x' && last != 'y':
		// Short closed syllables double the consonant: drop → dropped,
		// run → running, stop → stopped.
		out = append(out, w+"s", w+string(last)+"ed", w+string(last)+"ing")
	default:
		out = append(out, w+"s", w+"ed", w+"ing")
	}
	return out
}

func isVowel(b byte) bool { return strings.IndexByte("aeiou", b) >= 0 }

// VerbAction returns what a single word does when read as a verb (any
// inflection: "deletes", "dropped", "running"), its base form, and
// whether the word is weak (as often a noun or adjective: "message",
// "clear"); ActionNone when the word is not a known verb.
func VerbAction(word string) (a Action, base string, weak bool) {
	forms, info := verbIndex()
	base, ok := forms[strings.ToLower(word)]
	if !ok {
		return ActionNone, "", false
	}
	vi := info[base]
	return vi.action, base, vi.weak
}

// ReadIdentifier reads a short identifier naming an action, such as an
// enum value or a manifest operation ("delete", "force_delete",
// "sendEmail", "exec"), as a reviewer would: the most dangerous action
// named by its first word or by a strong verb anywhere in it, with that
// verb's base form. An identifier naming no known verb returns
// ActionNone.
func ReadIdentifier(id string) (Action, string) {
	return readWords(words(id), true)
}

// ReadProperty reads an input property, whose name is usually a noun
// ("message", "comment", "dry_run") or an adjective ("include_deleted",
// "archived"): only strong verbs of its name in their base form count
// ("force_delete", "send_notification", "overwrite"), and its
// description's leading word when that is a strong verb ("Delete the
// source after copying"). "Set", which leads "Set to true to …", is not
// read from a description.
func ReadProperty(name, description string) (Action, string) {
	var base []string
	for _, w := range words(name) {
		if _, b, _ := VerbAction(w); b == w {
			base = append(base, w)
		}
	}
	a, verb := readWords(base, false)
	if dw := words(description); len(dw) > 0 {
		if da, base, weak := VerbAction(dw[0]); !weak && base != "set" && danger(da) > danger(a) {
			a, verb = da, base
		}
	}
	return a, verb
}

// readWords returns the most dangerous action among the strong verbs of
// ws and, with firstWeak, its first word even if weak.
func readWords(ws []string, firstWeak bool) (Action, string) {
	best, word := ActionNone, ""
	for i, w := range ws {
		a, base, weak := VerbAction(w)
		if a == ActionNone || (weak && !(firstWeak && i == 0)) {
			continue
		}
		if danger(a) > danger(best) {
			best, word = a, base
		}
	}
	return best, word
}

// danger orders actions for "the most dangerous wins": none, read, write,
// send, execute, delete.
func danger(a Action) int {
	switch a {
	case ActionRead:
		return 1
	case ActionWrite:
		return 2
	case ActionSend:
		return 3
	case ActionExecute:
		return 4
	case ActionDelete:
		return 5
	}
	return 0
}
