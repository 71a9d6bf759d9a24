package settings

import "fmt"

// Limits checked before the TOML decoder sees a file. The decoder's cost
// grows with the square of a key's dotted parts and of the nesting of
// inline tables (an 80 KB file of one long dotted table header took 1.7
// GB), and mcpward's own keys have two parts and no nesting, so a file
// past these limits is refused with a clear error instead of decoded.
const (
	// MaxFileSize is the largest settings file read: 1 MiB.
	MaxFileSize = 1 << 20
	// MaxKeyParts is the most dotted parts one key or table header may
	// have ("a.b.c" has 3).
	MaxKeyParts = 16
	// MaxNesting is the deepest nesting of arrays and inline tables.
	MaxNesting = 16
)

// checkLimits scans data once, skipping strings and comments, and returns
// an error naming the line of the first key with too many dotted parts or
// the first value nested too deep. It does not validate TOML: what it
// lets through, the decoder judges.
func checkLimits(data []byte) error {
	if len(data) > MaxFileSize {
		return fmt.Errorf("the file is larger than %d KiB, the most a settings file may be", MaxFileSize>>10)
	}
	line, depth, dots := 1, 0, 0
	for i := 0; i < len(data); i++ {
		switch c := data[i]; c {
		case '\n':
			line++
			dots = 0
		case '#':
			for i+1 < len(data) && data[i+1] != '\n' {
				i++
			}
		case '"', '\'':
			var nl int
			i, nl = skipString(data, i)
			line += nl
		case '.':
			if dots++; dots+1 > MaxKeyParts {
				return fmt.Errorf("line %d: a key with more than %d dotted parts", line, MaxKeyParts)
			}
		case '[', '{':
			if depth++; depth > MaxNesting {
				return fmt.Errorf("line %d: arrays or inline tables nested more than %d deep", line, MaxNesting)
			}
			dots = 0
		case ']', '}':
			depth = max(depth-1, 0)
			dots = 0
		case '=', ',':
			dots = 0
		}
	}
	return nil
}

// skipString returns the index of the last byte of the string that starts
// at data[i] (a basic or literal string, single- or multi-line; an
// unterminated one ends at its line, or at the end of data when
// multi-line) and the number of newlines in it.
func skipString(data []byte, i int) (end, newlines int) {
	q := data[i]
	multi := i+2 < len(data) && data[i+1] == q && data[i+2] == q
	j := i + 1
	if multi {
		j = i + 3
	}
	for ; j < len(data); j++ {
		switch c := data[j]; {
		case c == '\\' && q == '"':
			if j+1 < len(data) && data[j+1] == '\n' {
				newlines++
			}
			j++
		case c == '\n':
			if !multi {
				return j - 1, newlines
			}
			newlines++
		case c == q:
			if !multi {
				return j, newlines
			}
			if j+2 < len(data) && data[j+1] == q && data[j+2] == q {
				return j + 2, newlines
			}
		}
	}
	return len(data) - 1, newlines
}
