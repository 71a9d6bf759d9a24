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
	`|whenever|every time|each time|any time|has to|have to|is to|are to|necessary|needs? to|prefer|unreliable|outdated|insecure|(?:do not|don't) trust|(?:copy|paste|put|write) (?:\S+ ){0,4}into)\b` +
	`|\b(?:immer|stets|niemals|nie|muss|müssen|sollte|sollten|stattdessen|unbedingt|unabhängig|veraltet|fehlerhaft)\b` +
	`|\b(?:siempre|nunca|debe|deben|en lugar de|obligatorio|tiene un error|obsoleta|obsoleto)\b` +
	`|\b(?:toujours|jamais|doit|doivent|au lieu de|obligatoire|obsolète)\b` +
	`|\b(?:sempre|nunca|deve|devem|em vez de|obrigatório|invece di|mai|obsoleto)\b` +
	`|(?:всегда|никогда|должен|должна|должны|вместо|обязательно|устарел)` +
	`|(?:始终|总是|永远|必须|务必|一律|不要|禁止|改为|代替|应当|已弃用|有漏洞)` +
	`|(?:必ず|常に|絶対に|代わりに|非推奨|使わないで)` +
	`|(?:항상|반드시|절대|대신|사용하지 마)`}

// steersAbout reports whether text steers the tool tok: an order about
// it in the sentence that names it or the next one (which refers back to
// it: "it has a bug; before using it, always…"), and returns that text.
func steersAbout(text, tok string) (string, bool) {
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
			if window := low[sp[0]:end]; reSteer.MatchString(window) {
				return clip(text[sp[0]:end]), true
			}
		}
	}
}
