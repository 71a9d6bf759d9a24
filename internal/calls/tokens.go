package calls

import "unicode/utf8"

// EstimatorName names the token estimator in summaries.
const EstimatorName = "mcpward-runs-v1"

// EstimateTokens estimates how many tokens a model's BPE tokenizer
// (cl100k/o200k family) needs for b, without a vocabulary: a run of
// letters costs one token per 6 letters (at least one), a run of digits
// one per 3 digits, a run of punctuation one per 2 characters, a run of
// whitespace beyond a single space one, and each non-ASCII character one.
// A single space before a word is free (BPE merges it into the word).
// Its error against real tokenizers is measured in docs (TestEstimate…
// pins it on captured tool lists); it is a cost signal, not a bill.
func EstimateTokens(b []byte) int {
	n := 0
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c >= utf8.RuneSelf:
			_, size := utf8.DecodeRune(b[i:])
			i += size
			n++
		case isLetter(c):
			j := i
			for j < len(b) && isLetter(b[j]) {
				j++
			}
			n += (j - i + 5) / 6
			i = j
		case c >= '0' && c <= '9':
			j := i
			for j < len(b) && b[j] >= '0' && b[j] <= '9' {
				j++
			}
			n += (j - i + 2) / 3
			i = j
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			j := i
			for j < len(b) && (b[j] == ' ' || b[j] == '\t' || b[j] == '\n' || b[j] == '\r') {
				j++
			}
			if j-i > 1 || c != ' ' || j == len(b) || !isLetter(b[j]) {
				n++
			}
			i = j
		default:
			j := i
			for j < len(b) && b[j] < utf8.RuneSelf && !isLetter(b[j]) && !(b[j] >= '0' && b[j] <= '9') &&
				b[j] != ' ' && b[j] != '\t' && b[j] != '\n' && b[j] != '\r' {
				j++
			}
			n += (j - i + 1) / 2
			i = j
		}
	}
	return n
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' }
