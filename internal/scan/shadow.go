package scan

import "strings"

// reSteer is what turns a mention of another server's tool into an
// attempt to steer it (the shadowing attack class): an order about it
// ("always", "must", "should be called with"), a replacement ("instead",
// "rather than"), a claim that it is broken or deprecated, or an
// override of the user ("regardless of", "without waiting"), a standing
// rule about its use ("whenever it runs", "queries sent through it are to
// include"), or moving data into a field ("copy their diffs into"), in English
// and the nine languages of intl.go. A plain pointer to it ("can be
// shared with send_email", "the user can use write_file") is not: that
// stays a mention, reported as info.
var reSteer = lazyRe{src: `\b(?:always|never|must|shall|should|instead|rather than|required|mandatory|do not|don't|avoid|deprecated|unsafe|broken|buggy|has a bug|no longer works|override|overrides|redirect|bcc|regardless|without (?:asking|waiting|telling|confirmation|review)|from now on` +
	`|whenever|every time|each time|any time|has to|have to|is to|are to|necessary|needs? to|prefer|unreliable|outdated|insecure|(?:do not|don't) trust|(?:copy|paste|put|write) (?:\S+ ){0,4}into` +
	`|even (?:if|when|though) the user|additionally|(?:apply|applies) (?:this|these|the same)(?: \w+)? to (?:every|all|each|any)|rewrite (?:it|them|the \w+) (?:as|to)|route (?:it|them|all|every) (?:\w+ )?through)\b` +
	`|\b(?:immer|stets|niemals|nie|muss|müssen|sollte|sollten|stattdessen|unbedingt|unabhängig|veraltet|fehlerhaft|zusätzlich|auch wenn (?:der|die) (?:benutzer|nutzer))\b` +
	`|\b(?:aunque el usuario|incluso si el usuario|même si l'utilisateur|mesmo que o usuário|anche se l'utente)\b` +
	`|\b(?:siempre|nunca|debe|deben|en lugar de|obligatorio|tiene un error|obsoleta|obsoleto)\b` +
	`|\b(?:toujours|jamais|doit|doivent|au lieu de|obligatoire|obsolète)\b` +
	`|\b(?:sempre|nunca|deve|devem|em vez de|obrigatório|invece di|mai|obsoleto)\b` +
	`|(?:всегда|никогда|должен|должна|должны|вместо|обязательно|устарел)` +
	`|(?:始终|总是|永远|必须|务必|一律|不要|禁止|改为|代替|应当|已弃用|有漏洞)` +
	`|(?:必ず|常に|絶対に|代わりに|非推奨|使わないで)` +
	`|(?:항상|반드시|절대|대신|사용하지 마)`}

// reUserWish: a sentence that points to another tool for what the user
// wants ("If the user wants a GitHub issue instead, use …").
var reUserWish = lazyRe{src: `\b(?:if|when|whenever) the user (?:wants|prefers|asks for|needs|would rather|would like|requests)\b`}

// referralOnly reports whether a window's only steering words are a
// choice ("instead", "prefer", "rather than") that the user's wish
// makes: a referral, not a takeover.
func referralOnly(window string) bool {
	if !reUserWish.MatchString(window) {
		return false
	}
	for _, loc := range reSteer.FindAllStringIndex(window, -1) {
		switch window[loc[0]:loc[1]] {
		case "instead", "prefer", "rather than":
		default:
			return false
		}
	}
	return true
}

// namedAsTool reports whether text names tok, a one-word tool name
// ("navigate", "search"), as a tool rather than as a word: "the navigate
// tool", "every navigate call", "navigate(", "`navigate`", "rule for
// navigate:".
func namedAsTool(text, tok string) bool {
	low := strings.ToLower(text)
	t := strings.ToLower(tok)
	if t == "" {
		return false
	}
	for at := 0; ; {
		i := strings.Index(low[at:], t)
		if i < 0 {
			return false
		}
		i += at
		at = i + len(t)
		before, after := low[:i], low[at:]
		if i > 0 && isWordByte(low[i-1]) || len(after) > 0 && isWordByte(after[0]) {
			continue
		}
		switch {
		case strings.HasPrefix(after, " tool"), strings.HasPrefix(after, " call"), strings.HasPrefix(after, "("),
			strings.HasPrefix(after, "`") && strings.HasSuffix(before, "`"), strings.HasPrefix(after, ":") && strings.HasSuffix(before, " for "):
			return true
		}
	}
}

func isWordByte(c byte) bool {
	return c == '_' || c == '-' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c >= 0x80
}

// steersAbout reports whether text steers the tool tok: an order about
// it in the sentence that names it or the next one (which refers back to
// it: "it has a bug; before using it, always…"), and returns that text.
func steersAbout(text, tok string) (string, bool) {
	if tok == "" {
		return "", false
	}
	low := strings.ToLower(text)
	spans := sentenceSpans(low)
	for at := 0; ; {
		i := strings.Index(low[at:], strings.ToLower(tok))
		if i < 0 {
			return "", false
		}
		i += at
		at = i + len(tok)
		for k, sp := range spans {
			if i < sp[0] || i >= sp[1] {
				continue
			}
			end := sp[1]
			if k+1 < len(spans) {
				end = spans[k+1][1]
			}
			if window := low[sp[0]:end]; reSteer.MatchString(window) && !referralOnly(window) {
				return clip(text[sp[0]:end]), true
			}
		}
	}
}
