package scan

import (
	"encoding/base64"
	"encoding/json"
	"math"
	"strings"
)

// A keyFormat is one well-known credential format.
type keyFormat struct {
	kind string
	re   lazyRe
	// random is the index of the submatch holding the random part, whose
	// entropy is measured; 0 means the whole match.
	random int
}

var keyFormats = []keyFormat{
	{"GitHub token", lazyRe{src: `\b(gh[pousr]_([A-Za-z0-9]{36,}))\b`}, 2},
	{"GitHub fine-grained token", lazyRe{src: `\bgithub_pat_([A-Za-z0-9_]{60,})\b`}, 1},
	{"GitLab token", lazyRe{src: `\bglpat-([A-Za-z0-9_-]{20,})\b`}, 1},
	{"Slack token", lazyRe{src: `\bxox[abposr]-([0-9A-Za-z-]{20,})`}, 1},
	// Stripe: live secret and restricted keys only; a test key moves no
	// money and a publishable key is public by design.
	{"Stripe live key", lazyRe{src: `\b(?:sk|rk)_live_([0-9A-Za-z]{20,})\b`}, 1},
	{"Anthropic key", lazyRe{src: `\bsk-ant-(?:api|admin)\d\d-([A-Za-z0-9_-]{32,})`}, 1},
	{"OpenAI key", lazyRe{src: `\bsk-(?:proj-|svcacct-|admin-)?([A-Za-z0-9_-]{32,})`}, 1},
	{"AWS access key", lazyRe{src: `\b(?:AKIA|ASIA)([0-9A-Z]{16})\b`}, 1},
	{"Google API key", lazyRe{src: `\bAIza([0-9A-Za-z_-]{35})\b`}, 1},
	{"npm token", lazyRe{src: `\bnpm_([A-Za-z0-9]{36})\b`}, 1},
	{"Hugging Face token", lazyRe{src: `\bhf_([A-Za-z0-9]{30,})\b`}, 1},
	{"JSON Web Token", lazyRe{src: `\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.([A-Za-z0-9_-]{16,})`}, 1},
	{"private key", lazyRe{src: `-----BEGIN (?:RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP )?PRIVATE KEY(?: BLOCK)?-----\s*([A-Za-z0-9+/=\s]{40,})`}, 1},
	{"password in a URL", lazyRe{src: `\b[a-z][a-z0-9+.-]{1,20}://[^\s:/@]{1,64}:([^\s:/@]{6,128})@[a-z0-9.-]+`}, 1},
}

// placeholderWords mark an example value, not a credential.
var placeholderWords = []string{"example", "xxxx", "placeholder", "dummy", "sample", "your", "redacted", "changeme", "password",
	"secret", "token", "replace", "insert", "foobar", "12345", "abcdef", "<", ">", "${", "{{", "…", "...", "****"}

// secrets returns evidence for each credential in s: a known format
// whose random part has enough entropy and is not a placeholder. The
// evidence names the kind and shows the first six characters only.
func secrets(s string) []string {
	if len(s) < 20 || !maybeSecret(s) {
		return nil
	}
	var out []string
	for i := range keyFormats {
		k := &keyFormats[i]
		for _, m := range k.re.FindAllStringSubmatchIndex(s, -1) {
			whole := s[m[0]:m[1]]
			random := whole
			if k.random > 0 && m[2*k.random] >= 0 {
				random = s[m[2*k.random]:m[2*k.random+1]]
			}
			if k.kind == "private key" {
				random = strings.Join(strings.Fields(random), "")
			}
			if placeholder(random) || entropy(random) < 3.0 || !mixed(random) {
				continue
			}
			if k.kind == "JSON Web Token" && !jwtClaims(whole) {
				continue
			}
			shown := whole
			if len(shown) > 6 {
				shown = shown[:6]
			}
			out = append(out, k.kind+": "+escape(shown)+"… ("+itoa(len(whole))+" characters)")
		}
	}
	return out
}

// jwtClaims reports a token whose payload decodes to a JSON object with
// at least one claim: a real token, not three random-looking segments.
func jwtClaims(tok string) bool {
	parts := strings.Split(tok, ".")
	if len(parts) < 2 {
		return false
	}
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[1], "="))
	if err != nil {
		return false
	}
	var claims map[string]any
	return json.Unmarshal(b, &claims) == nil && len(claims) > 0
}

// maybeSecret is the fast path: every format holds one of these.
func maybeSecret(s string) bool {
	for _, w := range []string{"gh", "github_pat_", "glpat-", "xox", "_live_", "sk-", "AKIA", "ASIA", "AIza", "npm_", "hf_", "eyJ", "PRIVATE KEY", "://"} {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

func placeholder(v string) bool {
	low := strings.ToLower(v)
	for _, w := range placeholderWords {
		if strings.Contains(low, w) {
			return true
		}
	}
	// One character repeated, or a run of the alphabet.
	if strings.Trim(low, low[:1]) == "" || strings.Contains(low, "abcdefgh") || strings.Contains(low, "0123456") {
		return true
	}
	return false
}

// entropy is the Shannon entropy of s in bits per character.
func entropy(s string) float64 {
	if s == "" {
		return 0
	}
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	var h float64
	n := float64(len(s))
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}

// mixed reports a value with letters and digits, as generated keys have.
func mixed(s string) bool {
	letter, digit := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			digit = true
		case (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'):
			letter = true
		}
	}
	return letter && digit
}
