package scan

import (
	"fmt"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Invisible characters.
const (
	zwsp = '\u200b'
	zwnj = '\u200c'
	zwj  = '\u200d'
	bom  = '\ufeff'
	// blackFlag starts an emoji tag sequence (a subdivision flag).
	blackFlag = '\U0001F3F4'
	cancelTag = '\U000E007F'
)

func isTag(r rune) bool { return r >= 0xE0000 && r <= 0xE007F }

func isZeroWidth(r rune) bool {
	switch r {
	case zwsp, zwnj, zwj, bom, '\u2060', '\u2061', '\u2062', '\u2063', '\u2064', '\u180e', '\u115f', '\u1160', '\u3164', '\uffa0', '\u034f':
		return true
	}
	return false
}

func isBidi(r rune) bool {
	return (r >= '\u202a' && r <= '\u202e') || (r >= '\u2066' && r <= '\u2069') || r == '\u200e' || r == '\u200f' || r == '\u061c'
}

// isVSSupplement: variation selectors 17-256, which carry no meaning
// after most characters and can encode a byte each.
func isVSSupplement(r rune) bool { return r >= 0xE0100 && r <= 0xE01EF }

// isEmoji approximates Extended_Pictographic and the emoji modifiers: the
// characters a ZWJ may join.
func isEmoji(r rune) bool {
	return (r >= 0x1F000 && r <= 0x1FAFF) || (r >= 0x2600 && r <= 0x27BF) || (r >= 0x2300 && r <= 0x23FF) ||
		(r >= 0x2B00 && r <= 0x2BFF) || r == 0x00A9 || r == 0x00AE || r == 0x203C || r == 0x2049 || r == 0x2122 ||
		r == 0x2139 || (r >= 0x2194 && r <= 0x21AA) || r == 0xFE0F || r == 0x20E3
}

// joinsScript reports letters of scripts that use ZWNJ and ZWJ in
// ordinary writing (Arabic, Persian, Indic, Sinhala, Mongolian).
func joinsScript(r rune) bool {
	return unicode.In(r, unicode.Arabic, unicode.Devanagari, unicode.Bengali, unicode.Gurmukhi, unicode.Gujarati,
		unicode.Oriya, unicode.Tamil, unicode.Telugu, unicode.Kannada, unicode.Malayalam, unicode.Sinhala, unicode.Mongolian, unicode.Syriac)
}

// isolatesScript returns the offset of the PDI that closes the isolate rs
// opens when the isolate only sets a run of another direction apart:
// RLI or FSI around right-to-left letters, or LRI around left-to-right
// ones in text that has right-to-left letters, with no other control
// inside. 0 when it does not.
func isolatesScript(rs []rune, rtl bool) int {
	letters := 0
	for j := 1; j < len(rs) && j <= 80; j++ {
		r := rs[j]
		switch {
		case r == '\u2069':
			if letters == 0 {
				return 0
			}
			return j
		case isTag(r) || isZeroWidth(r) || isBidi(r) || isControl(r) || isVSSupplement(r):
			return 0
		case unicode.IsLetter(r):
			if isRTL(r) != (rs[0] != '\u2066') || rs[0] == '\u2066' && !rtl {
				return 0
			}
			letters++
		}
	}
	return 0
}

func isRTL(r rune) bool {
	return unicode.In(r, unicode.Hebrew, unicode.Arabic, unicode.Syriac, unicode.Thaana)
}

// invisible reports the characters of s a reader does not see, outside
// the sequences where they are part of ordinary text: tag characters in
// an emoji tag sequence (🏴 + tags + cancel tag), ZWJ between emoji, ZWNJ
// and ZWJ between letters of scripts that use them, LRM/RLM in text with
// right-to-left letters, a leading byte-order mark of nothing else. The
// evidence spells them out, tag characters decoded.
func invisible(s string) (string, bool) {
	if !hasSuspectRune(s) {
		return "", false
	}
	rs := []rune(s)
	rtl := false
	for _, r := range rs {
		if isRTL(r) {
			rtl = true
			break
		}
	}
	var hidden []rune
	var tagText strings.Builder
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if r == '\u2066' || r == '\u2067' || r == '\u2068' {
			// An isolate around a word of the other direction (a Hebrew
			// product name in English text) is ordinary typesetting.
			if n := isolatesScript(rs[i:], rtl); n > 0 {
				i += n
				continue
			}
		}
		switch {
		case r == blackFlag && i+1 < len(rs) && isTag(rs[i+1]):
			// An emoji tag sequence: tags 0x20-0x7E then the cancel tag.
			j := i + 1
			for j < len(rs) && rs[j] >= 0xE0020 && rs[j] <= 0xE007E {
				j++
			}
			if j < len(rs) && rs[j] == cancelTag && j-i-1 >= 2 && j-i-1 <= 6 {
				i = j
				continue
			}
		case isTag(r):
			hidden = append(hidden, r)
			if r >= 0xE0020 && r <= 0xE007E {
				tagText.WriteRune(r - 0xE0000)
			}
		case r == zwj && i > 0 && i+1 < len(rs) && (isEmoji(rs[i-1]) || isEmojiModifier(rs[i-1])) && isEmoji(rs[i+1]):
		case (r == zwj || r == zwnj) && i > 0 && i+1 < len(rs) && joinsScript(rs[i-1]) && joinsScript(rs[i+1]):
		case (r == '\u200e' || r == '\u200f' || r == '\u061c') && rtl:
		case isZeroWidth(r) || isBidi(r) || isControl(r):
			hidden = append(hidden, r)
		case isVSSupplement(r) && !(i > 0 && unicode.Is(unicode.Han, rs[i-1])):
			hidden = append(hidden, r)
		}
	}
	if len(hidden) == 0 {
		return "", false
	}
	ev := fmt.Sprintf("%d invisible character(s): %s", len(hidden), escapeRunes(hidden, 8))
	if tagText.Len() > 0 {
		ev += "; tag characters spell " + quote(tagText.String())
	}
	return clip(ev), true
}

// isControl: C0 and C1 controls but tab, line feed and carriage return
// (an ANSI escape sequence hides or recolours text in a terminal).
func isControl(r rune) bool {
	return (r < 0x20 && r != '\t' && r != '\n' && r != '\r') || (r >= 0x7f && r <= 0x9f)
}

func isEmojiModifier(r rune) bool { return r >= 0x1F3FB && r <= 0x1F3FF }

// hasSuspectRune is the fast path: most text is ASCII.
func hasSuspectRune(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == 0x7f {
			return true
		}
		if s[i] >= utf8.RuneSelf {
			for _, r := range s[i:] {
				if isTag(r) || isZeroWidth(r) || isBidi(r) || isVSSupplement(r) || isControl(r) {
					return true
				}
			}
			return false
		}
	}
	return false
}

func escapeRunes(rs []rune, n int) string {
	var b strings.Builder
	seen := map[rune]bool{}
	k := 0
	for _, r := range rs {
		if seen[r] {
			continue
		}
		seen[r] = true
		if k == n {
			b.WriteString(" …")
			break
		}
		if k > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "U+%04X", r)
		k++
	}
	return b.String()
}

// visible returns s as the instruction rules read it: tag characters
// decoded to the ASCII they stand for (a model reads them), other
// invisible characters dropped.
func visible(s string) string {
	if !hasSuspectRune(s) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 0xE0020 && r <= 0xE007E:
			b.WriteRune(r - 0xE0000)
		case isTag(r) || isZeroWidth(r) || isBidi(r) || isVSSupplement(r):
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// escape spells out the characters of s a terminal would not show
// (controls, format characters, tags) as \u escapes.
func escape(s string) string {
	clean := true
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= utf8.RuneSelf && !unicode.IsPrint(r)) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f || (r >= utf8.RuneSelf && !unicode.IsPrint(r)):
			if r > 0xFFFF {
				fmt.Fprintf(&b, `\U%08X`, r)
			} else {
				fmt.Fprintf(&b, `\u%04X`, r)
			}
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// hiddenAfterWhitespace reports text that follows a long run of any
// Unicode whitespace (the ideographic space and the braille blank
// included), weighed by the room it takes: a space 1, a tab or a line
// break 4, a run of weight 32 or more: a client's view ends before it, a
// model reads on. Indentation a line repeats takes no room of its own
// (up to maxSharedIndent columns): the deepest of the lines with text
// before it (the first line indented so deep still pays), or that all
// lines after the first share (a description
// written in an indented string literal, a docstring): the lines show
// one under the other, as written.
func hiddenAfterWhitespace(s string) (string, bool) {
	shared := sharedIndent(s)
	run, weight := 0, 0
	col, allowed := -1, 0                             // columns since the run's last line break (-1: none yet), and how many are free
	lastIndent, curIndent, atLineStart := -1, 0, true // lastIndent: the deepest so far
	for i, r := range s {
		if unicode.IsSpace(r) || r == '\u3000' || r == '\u2800' || r == '\u200b' || r == '\u3164' || r == '\u115f' || r == '\u1160' {
			run++
			switch r {
			case '\n', '\v', '\f', '\u2028', '\u2029', '\u0085':
				weight += 4
				col, allowed = 0, min(max(lastIndent, shared), maxSharedIndent)
				curIndent, atLineStart = 0, true
			case '\r':
			case ' ', '\t':
				if atLineStart {
					curIndent++
				}
				if col >= 0 && col < allowed {
					col++
					break
				}
				if r == '\t' {
					weight += 4
				} else {
					weight++
				}
			default:
				weight++
			}
			continue
		}
		if weight >= 32 {
			rest := strings.TrimSpace(s[i:])
			if rest != "" {
				return clip(fmt.Sprintf("after %d whitespace characters: %s", run, rest)), true
			}
		}
		if atLineStart {
			lastIndent, atLineStart = max(lastIndent, curIndent), false
		}
		run, weight, col = 0, 0, -1
	}
	return "", false
}

// maxSharedIndent bounds the indentation [sharedIndent] excuses: deeper
// than that, every line starts out of view.
const maxSharedIndent = 40

// sharedIndent returns the spaces and tabs every non-blank line after the
// first starts with (at most maxSharedIndent), 0 for a text of one line.
func sharedIndent(s string) int {
	shared := -1
	first := true
	for line := range strings.SplitSeq(s, "\n") {
		if first {
			first = false
			continue
		}
		n := 0
		for n < len(line) && (line[n] == ' ' || line[n] == '\t') {
			n++
		}
		if n == len(line) || strings.TrimSpace(line) == "" {
			continue // a blank line
		}
		if shared < 0 || n < shared {
			shared = n
		}
	}
	return min(max(shared, 0), maxSharedIndent)
}

// confusables maps characters that look like ASCII letters and digits to
// them: the Cyrillic, Greek, Armenian and other look-alikes of UTS #39's
// confusables table that occur in identifiers, and the full-width forms
// (by arithmetic).
var confusables = sync.OnceValue(func() map[rune]rune {
	return map[rune]rune{
		// Cyrillic.
		'а': 'a', 'е': 'e', 'о': 'o', 'р': 'p', 'с': 'c', 'у': 'y', 'х': 'x', 'і': 'i', 'ј': 'j', 'ѕ': 's', 'ԁ': 'd',
		'ԛ': 'q', 'ԝ': 'w', 'һ': 'h', 'ӏ': 'l', 'ո': 'n', 'ɡ': 'g', 'ѵ': 'v', 'ү': 'y', 'ԍ': 'g', 'ь': 'b',
		'А': 'A', 'В': 'B', 'Е': 'E', 'К': 'K', 'М': 'M', 'Н': 'H', 'О': 'O', 'Р': 'P', 'С': 'C', 'Т': 'T', 'Х': 'X',
		'І': 'I', 'Ј': 'J', 'Ѕ': 'S', 'Ԁ': 'D', 'Ԛ': 'Q', 'Ԝ': 'W', 'Ү': 'Y',
		// Greek.
		'ο': 'o', 'α': 'a', 'ν': 'v', 'ρ': 'p', 'τ': 't', 'ι': 'i', 'κ': 'k', 'χ': 'x', 'υ': 'u', 'ϲ': 'c', 'ϳ': 'j',
		'Α': 'A', 'Β': 'B', 'Ε': 'E', 'Ζ': 'Z', 'Η': 'H', 'Ι': 'I', 'Κ': 'K', 'Μ': 'M', 'Ν': 'N', 'Ο': 'O', 'Ρ': 'P',
		'Τ': 'T', 'Υ': 'Y', 'Χ': 'X',
		// Latin look-alikes and others.
		'ı': 'i', 'ȷ': 'j', 'ℓ': 'l', 'ꓲ': 'l', 'ꭰ': 'D', 'Ꭺ': 'A', 'Ꮯ': 'C', 'Ꭼ': 'E', 'Ꮋ': 'H', 'Ꮶ': 'K',
		'Ꮇ': 'M', 'Ꮲ': 'P', 'Ꮪ': 'S', 'Ꭲ': 'T', 'ʏ': 'y', 'ɑ': 'a', 'օ': 'o', 'ս': 'u', 'ց': 'g', 'հ': 'h',
		'‐': '-', '‑': '-', '‒': '-', '–': '-', '−': '-', '＿': '_', 'ǀ': 'l',
	}
})

// asciiConfusables are the look-alikes within ASCII of UTS #39's
// confusables table that tool names are made of: a digit for a letter,
// a capital I for a small l, and the letter pairs that read as one.
var asciiConfusables = [...][2]string{{"rn", "m"}, {"vv", "w"}, {"cl", "d"}, {"0", "o"}, {"1", "l"}, {"I", "l"}, {"|", "l"}, {"5", "s"}}

// skeleton is a name's UTS #39 skeleton restricted to what tool names are
// made of: each look-alike of an ASCII character (Cyrillic, Greek,
// Armenian, Cherokee and Latin-extension letters, full-width forms, the
// ASCII look-alikes above) mapped to the character it imitates,
// invisible characters dropped, then lowercased. Two names with one
// skeleton read alike.
func skeleton(name string) string {
	var b strings.Builder
	b.Grow(len(name))
	for _, r := range name {
		switch {
		case r >= 0xFF01 && r <= 0xFF5E:
			b.WriteRune(r - 0xFF01 + '!')
		case isTag(r) || isZeroWidth(r) || isBidi(r) || isVSSupplement(r):
		default:
			if c, ok := confusables()[r]; ok {
				r = c
			}
			b.WriteRune(r)
		}
	}
	s := b.String()
	for _, c := range asciiConfusables {
		if strings.Contains(s, c[0]) {
			s = strings.ReplaceAll(s, c[0], c[1])
		}
	}
	return strings.ToLower(s)
}

// homoglyph reports a tool name that reads as another: with the other
// servers of the config, a name whose skeleton is another server's tool's
// while the two names differ (beyond case), naming the tool it imitates;
// on its own, a name that mixes Latin letters with look-alikes from
// another script or uses full-width forms, or one written wholly in
// look-alikes that reads as an ASCII name. Of two names that read
// alike, the one that is its own skeleton is the original. A name in one script
// (a Russian, Greek or Turkish word) is confusable with nothing by
// itself.
func homoglyph(server, name string, skel map[string][]string) []Finding {
	sk := skeleton(name)
	var with []string
	// A name that is its own skeleton is the one imitated, not the
	// imitation.
	for _, q := range skel[sk] {
		if strings.ToLower(name) == sk {
			break
		}
		if server != "" && strings.HasPrefix(q, server+".") || q == qualify(server, name) {
			continue
		}
		_, other, _ := strings.Cut(q, ".")
		if strings.EqualFold(other, name) {
			continue
		}
		with = append(with, q)
	}
	if len(with) == 0 && !spoofsAlone(name) {
		return nil
	}
	f := newFinding(RuleHomoglyph, server, name, "name", "the name "+quote(name)+" reads as "+quote(sk), escape(spellOut(name)))
	if len(with) > 0 {
		with = uniqueSorted(with)
		f.ConfusableWith = with[0]
		f.Message = "the name " + quote(name) + " looks like " + strings.Join(with, ", ") + " (" + quote(sk) + ")"
	}
	return []Finding{f}
}

// spoofsAlone reports a name deceptive by its characters alone (UTS #39
// mixed-script and whole-script confusables): Latin letters beside a
// look-alike from another script, a full-width form, or only look-alikes
// from another script whose skeleton is plain ASCII.
func spoofsAlone(name string) bool {
	latin, foreignLook, foreignOther := false, false, false
	for _, r := range name {
		switch {
		case r >= 0xFF01 && r <= 0xFF5E:
			return true
		case r < utf8.RuneSelf:
			if unicode.IsLetter(r) {
				latin = true
			}
		case unicode.Is(unicode.Latin, r):
			latin = true
		case unicode.IsLetter(r):
			if _, ok := confusables()[r]; ok {
				foreignLook = true
			} else {
				foreignOther = true
			}
		}
	}
	return foreignLook && (latin || !foreignOther)
}

// spellOut names each non-ASCII character of a name.
func spellOut(name string) string {
	var b strings.Builder
	for _, r := range name {
		if r < utf8.RuneSelf {
			b.WriteRune(r)
			continue
		}
		fmt.Fprintf(&b, "<U+%04X>", r)
	}
	return b.String()
}
