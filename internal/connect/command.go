package connect

import (
	"errors"
	"fmt"
	"os"
	"strings"
)

// SplitCommand splits a server command given as one string the way a POSIX
// shell splits words, as mcp-surfaceprint did with a single argument:
// `inspect -- "uv run server.py"` runs uv with two arguments. Only a lone
// argument that contains white space and does not name an existing file is
// split (a program whose path has a space in it stays whole); several
// arguments are used as given. Quotes and backslashes follow the shell:
// 'single quotes' keep everything, "double quotes" let a backslash escape
// \ " $ and `, and outside quotes a backslash escapes any character. There
// is no expansion of variables, globs or ~.
func SplitCommand(argv []string) ([]string, error) {
	return splitCommand(argv, func(p string) bool {
		_, err := os.Stat(p)
		return err == nil
	})
}

func splitCommand(argv []string, exists func(string) bool) ([]string, error) {
	if len(argv) != 1 || !strings.ContainsAny(argv[0], " \t\n") || exists(argv[0]) {
		return argv, nil
	}
	words, err := shellWords(argv[0])
	if err != nil {
		return nil, fmt.Errorf("server command %q: %w", argv[0], err)
	}
	if len(words) == 0 {
		return nil, fmt.Errorf("server command %q is empty", argv[0])
	}
	return words, nil
}

var errUnterminated = errors.New("unterminated quote")

// shellWords splits s into words by POSIX shell quoting rules.
func shellWords(s string) ([]string, error) {
	var (
		words []string
		cur   strings.Builder
		in    bool // a word has started (an empty "" is a word)
	)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, errUnterminated
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			in = true
		case c == '"':
			in = true
			closed := false
			for i++; i < len(s); i++ {
				c := s[i]
				if c == '"' {
					closed = true
					break
				}
				if c == '\\' && i+1 < len(s) && strings.IndexByte("\\\"$`\n", s[i+1]) >= 0 {
					i++
					if s[i] != '\n' { // backslash-newline is a line continuation
						cur.WriteByte(s[i])
					}
					continue
				}
				cur.WriteByte(c)
			}
			if !closed {
				return nil, errUnterminated
			}
		case c == '\\':
			if i+1 < len(s) {
				i++
				if s[i] != '\n' {
					cur.WriteByte(s[i])
					in = true
				}
			}
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if in {
		words = append(words, cur.String())
	}
	return words, nil
}
