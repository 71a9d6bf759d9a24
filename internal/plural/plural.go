// Package plural writes counted nouns for people: "1 tool", "2 tools",
// "0 entries". Every text renderer counts through it, so a count and its
// noun always agree.
package plural

import "strconv"

// Count returns n and noun, the noun in the plural unless n is 1:
// "1 finding", "6 findings". The plural adds "s", or "es" after s, x, z,
// ch and sh ("2 matches"), or turns a consonant's final "y" into "ies"
// ("2 entries"); a noun that follows none of these goes through Of.
func Count[N Integer](n N, noun string) string {
	return strconv.FormatInt(int64(n), 10) + " " + Of(n, noun, plural(noun))
}

// Integer is any integer type a count may have.
type Integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// Of returns one when n is 1, else many: the noun alone, for a count
// printed apart from it or an irregular plural.
func Of[N Integer](n N, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func plural(noun string) string {
	l := len(noun)
	switch {
	case l == 0:
		return noun
	case hasSuffix(noun, "s", "x", "z", "ch", "sh"):
		return noun + "es"
	case l >= 2 && noun[l-1] == 'y' && !isVowel(noun[l-2]):
		return noun[:l-1] + "ies"
	}
	return noun + "s"
}

func hasSuffix(s string, suffixes ...string) bool {
	for _, x := range suffixes {
		if len(s) >= len(x) && s[len(s)-len(x):] == x {
			return true
		}
	}
	return false
}

func isVowel(c byte) bool {
	switch c {
	case 'a', 'e', 'i', 'o', 'u':
		return true
	}
	return false
}
