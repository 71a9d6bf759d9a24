package cli

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

// corpusWhyFile is kept by hand: for every violation and risky finding
// TestCorpus pins, the clause it rests on and one line on why it is true,
// checked against the evidence and the spec text; and, for a server that
// is itself nondeterministic, a note saying why its two records differ.
// -update never writes it, so the why lines survive a regeneration of
// testdata/corpus.json; a pinned finding without one fails the test, and
// so does a why whose finding is gone.
const corpusWhyFile = "testdata/corpus_why.txt"

// corpusWhy is the parsed file: server key → finding → reason, and server
// key → note.
type corpusWhy struct {
	reasons map[string]map[string]corpusReason
	notes   map[string]string
}

// A corpusReason is the clause and the why of one pinned finding.
type corpusReason struct {
	clause, why string
	line        int
}

// parseCorpusWhy reads the format:
//
//	# comment
//	clause NAME TEXT              (names a clause for the entries below)
//	== SERVER-KEY                 (package@version transport [via gateway])
//	note TEXT                     (the server's records differ, and why)
//	compat: violation RULE SUBJECT PROFILE
//		clause NAME-or-TEXT
//		why TEXT
func parseCorpusWhy(text string) (corpusWhy, error) { return parseWhy(corpusWhyFile, text) }

// parseWhy parses a why file of that format; file names it in errors.
func parseWhy(file, text string) (corpusWhy, error) {
	w := corpusWhy{reasons: map[string]map[string]corpusReason{}, notes: map[string]string{}}
	clauses := map[string]string{}
	var server, finding string
	sc := bufio.NewScanner(strings.NewReader(text))
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		indented := strings.HasPrefix(line, "\t") || strings.HasPrefix(line, " ")
		word, rest, _ := strings.Cut(trimmed, " ")
		rest = strings.TrimSpace(rest)
		switch {
		case indented && finding != "" && (word == "clause" || word == "why"):
			r := w.reasons[server][finding]
			if word == "clause" {
				if c, ok := clauses[rest]; ok {
					rest = c
				}
				r.clause = rest
			} else {
				r.why = rest
			}
			w.reasons[server][finding] = r
		case indented:
			return w, fmt.Errorf("%s:%d: an indented line is clause or why, under a finding", file, n)
		case word == "clause" && server == "":
			name, txt, ok := strings.Cut(rest, " ")
			if !ok {
				return w, fmt.Errorf("%s:%d: clause NAME TEXT", file, n)
			}
			clauses[name] = strings.TrimSpace(txt)
		case word == "==":
			server, finding = rest, ""
			if _, dup := w.reasons[server]; dup {
				return w, fmt.Errorf("%s:%d: %s twice", file, n, server)
			}
			w.reasons[server] = map[string]corpusReason{}
		case server == "":
			return w, fmt.Errorf("%s:%d: %q before the first == SERVER line", file, n, trimmed)
		case word == "note":
			w.notes[server] = rest
		default:
			finding = trimmed
			if _, dup := w.reasons[server][finding]; dup {
				return w, fmt.Errorf("%s:%d: %s: %q twice", file, n, server, finding)
			}
			w.reasons[server][finding] = corpusReason{line: n}
		}
	}
	return w, sc.Err()
}

// readCorpusWhy reads and parses corpusWhyFile.
func readCorpusWhy() (corpusWhy, error) { return readWhy(corpusWhyFile) }

// readWhy reads and parses a why file.
func readWhy(file string) (corpusWhy, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return corpusWhy{}, err
	}
	return parseWhy(file, string(b))
}

// needsWhy says whether a pinned finding must have a clause and a why:
// violations and risky findings do; info findings and drift do not.
func needsWhy(finding string) bool {
	_, rest, _ := strings.Cut(finding, ": ")
	return strings.HasPrefix(rest, "violation ") || strings.HasPrefix(rest, "risky ")
}
