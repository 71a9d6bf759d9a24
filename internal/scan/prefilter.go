package scan

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// The instruction rules run a dozen large patterns on every sentence;
// Go's regexp runs them in linear time, but not fast enough for 1,000
// tools in 100 ms. A feature is a pattern with its anchors: words (by
// their first four letters) or substrings, at least one of which every
// match of the pattern contains. A sentence with none of a feature's
// anchors cannot match it, so the pattern is not run.
// TestPrefilterExact checks that the anchors never hide a match.
type feature struct {
	re    *lazyRe
	words []string
	subs  []string
	bit   uint64
}

// noPrefilter turns the anchors off (tests compare both ways).
var noPrefilter = false

var (
	fAddr     = &feature{re: &reAddr, words: []string{"assistant", "model", "llm", "agent", "claude", "chatgpt", "copilot", "ai", "system", "you", "your", "act", "behave", "respond", "pretend", "wants", "gpt", "gemini", "cursor", "attention"}}
	fOverride = &feature{re: &reOverride, words: []string{"ignore", "ignoriere", "ignora", "ignorez", "disregard", "forget", "override", "bypass", "now", "instruction", "instructions", "ask", "confirm", "check", "prompt", "already", "without", "authorized", "authorised", "approved", "granted", "consented", "regardless", "rather", "wrong", "outdated", "incorrect", "obsolete", "deprecated", "disabled", "unsafe", "broken", "insecure", "correct", "mode", "instead"},
		subs: []string{"忽略", "前の指示"}}
	fScope = &feature{re: &reScope, words: []string{"when", "whenever", "every", "each", "any", "anytime", "all", "next", "session", "conversation", "chat", "rest", "point", "forward", "response", "answer", "reply", "replying", "summary", "other", "another", "talk", "speak", "write", "respond", "your"}}
	fModal = &feature{re: &reModal, words: []string{"you", "always", "never", "must", "first", "also", "before", "requires", "needs", "sure", "remember", "forget", "mandatory", "required", "essential", "critical", "crucial", "vital", "necessary", "important", "please", "should", "use", "call", "invoke", "trust", "run", "reasons", "otherwise", "only", "fail", "work", "follow", "decode", "secretly", "quietly", "silently"}}
	fHarm  = &feature{re: &reHarm, words: []string{"curl", "wget", "netcat", "cc", "bcc", "chmod", "chown", "sudo", "rm", "drop", "permissions", "mode", "admin", "administrator", "collaborator", "firewall", "antivirus", "disable", "push", "competing", "competitors", "safe", "tell", "without", "environment", "env", "printenv", "exfiltrate", "exfiltration", "attacker", "webhook", "ngrok", "pastebin", "requestbin", "reverse", "bash", "sh", "powershell", "bitcoin", "btc", "crypto", "seed", "delete", "remove", "wipe", "erase", "inform", "say", "claim", "state", "send", "forward", "upload", "post", "copy", "transfer", "run", "execute", "shell", "password", "conversation", "chat", "ip", "location", "contacts", "contact", "messages", "message", "identity", "even"},
		subs: []string{"~/", "$(", "@", "://", "![", "|"}}
	fWeak = &feature{re: &reWeakHarm, words: []string{"api", "access", "token", "tokens", "password", "secret", "credential", "private",
		"credit", "conversation", "chat", "system", "cookies"}}
	fSecrecy    = &feature{re: &reSecrecy, words: []string{"tell", "inform", "notify", "alert", "mention", "reveal", "disclose", "let", "letting", "show", "display", "report", "explain", "secret", "hidden", "confidential", "between", "hide", "conceal", "nobody", "know", "see", "told", "find"}}
	fSensStrong = &feature{re: &reSensStrong, words: []string{"id", "private", "ssh", "keychain", "seed", "recovery", "system",
		"conversation", "chat", "home", "browser", "saved", "known", "authorized", "credentials", "service", "keyring", "environment",
		"env", "process", "printenv", "appdata", "application", "tool", "tools", "everything", "messages", "whole", "full", "entire"},
		subs: []string{"~/", ".ssh", ".aws", ".netrc", ".npmrc", ".pypirc", ".docker", ".gnupg", ".kube", "mcp.json", "claude_desktop",
			"/etc/", ".env", ".git-", "_history", ".pgpass"}}
	fSensWeak = &feature{re: &reSensWeak, words: []string{"api", "access", "token", "tokens", "password", "passwords", "passphrase",
		"passphrases", "secret", "secrets", "credential", "credentials", "credit", "social", "user"}}
	fRequest = &feature{re: &reRequest, words: []string{"read", "pass", "include", "put", "send", "append", "paste", "provide", "add",
		"attach", "collect", "copy", "upload", "forward", "give", "share", "insert", "fill", "post", "submit", "embed", "need", "needs",
		"require", "requires", "expect", "expects", "supply", "enter", "set", "dump", "cat", "grab", "extract", "gather", "retrieve", "get"}}
	fLead = &feature{re: &reLeadImperative, words: []string{"send", "forward", "e", "email", "mail", "post", "upload", "copy", "transfer",
		"include", "pass", "put", "append", "attach", "add", "set", "call", "run", "execute", "use", "read", "fetch", "open", "visit",
		"navigate", "tell", "say", "claim", "respond", "reply", "answer", "ignore", "delete", "remove", "write", "share", "provide",
		"collect", "retrieve", "report", "notify", "save", "cc", "bcc", "prepend", "prefix", "invoke", "submit", "leak", "exfiltrate", "dump"}}

	features = []*feature{fAddr, fOverride, fScope, fModal, fHarm, fWeak, fSecrecy, fSensStrong, fSensWeak, fRequest, fLead}
	// wordBits maps an anchor key to the features it anchors; built on
	// first use.
	wordBits = sync.OnceValue(func() map[string]uint64 {
		m := map[string]uint64{}
		for i, f := range features {
			f.bit = 1 << i
			for _, w := range f.words {
				m[anchorKey(w)] |= f.bit
			}
		}
		return m
	})
)

// anchorKey is a word's first four letters (the whole word if shorter).
func anchorKey(w string) string {
	n := 0
	for i := range w {
		if n == 4 {
			return w[:i]
		}
		n++
	}
	return w
}

// sentenceBits returns the features whose anchors the sentence holds.
func sentenceBits(sent string) uint64 {
	if noPrefilter {
		return ^uint64(0)
	}
	var bits uint64
	words := wordBits()
	start := -1
	for i, r := range sent {
		word := r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= '0' && r <= '9') || r >= utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r))
		switch {
		case word && start < 0:
			start = i
		case !word && start >= 0:
			bits |= words[anchorKey(sent[start:i])]
			start = -1
		}
	}
	if start >= 0 {
		bits |= words[anchorKey(sent[start:])]
	}
	for _, f := range features {
		if bits&f.bit != 0 {
			continue
		}
		for _, s := range f.subs {
			if strings.Contains(sent, s) {
				bits |= f.bit
				break
			}
		}
	}
	return bits
}

func (f *feature) match(sent string, bits uint64) bool {
	return bits&f.bit != 0 && f.re.MatchString(sent)
}
