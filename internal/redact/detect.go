package redact

import (
	"bytes"
	"regexp"
	"strings"
	"sync"
)

// Placeholder replaces every hidden value. As a JSON value it is the
// string "[REDACTED]".
const Placeholder = "[REDACTED]"

var placeholderJSON = []byte(`"` + Placeholder + `"`)

// A detector finds one shape of secret in a string. It runs its regexp only
// when one of its literals occurs (the literals are the cheap prefilter that
// keeps a megabyte of ordinary text fast).
type detector struct {
	name string
	// literals (lowercase, at least 3 bytes): one must occur, ignoring
	// ASCII case, for re to be able to match.
	literals []string
	re       *regexp.Regexp
	// group is the submatch that holds the secret (0: the whole match).
	group int
	// nameGroup, if non-zero, is a submatch that must be a credential name
	// (isSecretName, or nameOK when set) for the match to count. The
	// quotes around such a detector's value are kept: only what is
	// between them is hidden.
	nameGroup int
	nameOK    func(norm []byte) bool
	// need, if set, must occur too for re to be able to match (a cheaper
	// test than the regexp, which is slow on long text).
	need byte
}

// builtinDetectors are the --redact-secrets value detectors.
var builtinDetectors = sync.OnceValue(func() []*detector {
	dets := []*detector{
		{
			name:     "private-key",
			literals: []string{"private key-----"},
			// An unterminated block (a truncated frame) is hidden to the end.
			re: regexp.MustCompile(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----(?:[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY-----|[\s\S]*)`),
		},
		{
			name:     "bearer",
			literals: []string{"bearer"},
			re:       regexp.MustCompile(`(?i)\bbearer\s+([A-Za-z0-9\-._~+/]+=*)`),
			group:    1,
		},
		{
			name:     "credential-header",
			literals: []string{"authorization", "cookie", "api-key", "auth-token"},
			// A header line or argv element: "Cookie: a=b", "X-Api-Key: k".
			// Authorization values keep their scheme through the bearer
			// detector; other schemes (Basic, Digest, tokens) are hidden here.
			re:    regexp.MustCompile(`(?i)\b(?:proxy-)?(?:authorization|set-cookie|cookie|x-api-key|api-key|x-auth-token)\s*:\s*(?:(?i:bearer|basic|digest|token|bot)\s+)?([^\r\n"]+)`),
			group: 1,
		},
		{
			name:     "openai-anthropic-key",
			literals: []string{"sk-"},
			re:       regexp.MustCompile(`\bsk-[A-Za-z0-9_\-]{20,}`),
		},
		{
			name:     "stripe-key",
			literals: []string{"k_live_", "k_test_"},
			re:       regexp.MustCompile(`\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}`),
		},
		{
			name:     "github-token",
			literals: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"},
			re:       regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})`),
		},
		{
			name:     "slack-token",
			literals: []string{"xox"},
			re:       regexp.MustCompile(`\bxox[abposr]-[A-Za-z0-9\-]{10,}`),
		},
		{
			name:     "aws-access-key",
			literals: []string{"akia", "asia"},
			re:       regexp.MustCompile(`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`),
		},
		{
			name:     "google-api-key",
			literals: []string{"aiza"},
			re:       regexp.MustCompile(`\bAIza[0-9A-Za-z_\-]{35}`),
		},
		{
			name:     "jwt",
			literals: []string{"eyj"},
			re:       regexp.MustCompile(`\beyJ[A-Za-z0-9_\-]{4,}\.eyJ[A-Za-z0-9_\-]{4,}\.[A-Za-z0-9_\-]*`),
		},
		{
			name:     "url-password",
			literals: []string{"://"},
			// scheme://user:password@host: the password goes, the user stays
			// (it says which account). The last "@" before the path ends the
			// userinfo, as in net/url.
			re:    regexp.MustCompile(`\b[A-Za-z][A-Za-z0-9+.\-]*://[^\s/?#@:"'<>]*:([^\s/?#"'<>]+)@`),
			group: 1,
			need:  '@',
		},
		{
			name:     "url-user-token",
			literals: []string{"://"},
			// scheme://TOKEN@host: a long user with no password is a token
			// (https://ghp_…@github.com, https://x-oauth-basic…).
			re:    regexp.MustCompile(`\b[A-Za-z][A-Za-z0-9+.\-]*://([A-Za-z0-9_\-.~%+=]{20,})@`),
			group: 1,
			need:  '@',
		},
		{
			name:     "key-value",
			literals: []string{"passw", "passphrase", "secret", "token", "apikey", "api_key", "api-key", "accesskey", "access_key", "access-key", "privatekey", "private_key", "private-key"},
			// "password=hunter2", "db_password: hunter2", `token="abc"` in
			// free text; the name must be a credential name (not
			// progress_token).
			// A value may be quoted with escaped quotes (JSON text inside a
			// JSON string, once or more: `\"password\":\"hunter2\"`), and
			// the value may be on the next line (a pretty-printed dump).
			re:        regexp.MustCompile(`(?i)\b([A-Za-z0-9_.\-]*(?:password|passwd|passphrase|secret|token|api[_\-]?key|access[_\-]?key|private[_\-]?key))(?:\\*["'])?\s*[=:]\s*("[^"\r\n]*"|'[^'\r\n]*'|\\+"[^"\r\n]*?\\+"|[^\s,;&"'<>{}\[\]]+)`),
			group:     2,
			nameGroup: 1,
		},
		{
			name:     "query-secret",
			literals: []string{"code=", "sig=", "key=", "auth", "token", "signature", "secret", "passw", "pwd=", "pass=", "jwt=", "session", "credential", "ticket", "verifier"},
			// A URL query parameter whose name says it carries a credential:
			// ?code= (an OAuth code), ?sig= and ?signature= (a signed URL),
			// ?key=, ?auth=, ?token=, ?access_token=, ?password= ...
			re:        regexp.MustCompile(`[?&]([A-Za-z0-9_.\-]+)=([^&#\s"'<>\\]+)`),
			group:     2,
			nameGroup: 1,
			nameOK:    isQuerySecretName,
			need:      '=',
		},
	}
	buildPrefilter(dets)
	return dets
})

// secretSuffixes are the credential names --redact-secrets hides, compared
// against a member name lowercased with "-" and "_" removed, as exact
// names or suffixes (dbPassword, GITHUB_TOKEN, client_secret).
var secretSuffixes = []string{
	"password", "passwd", "passphrase", "secret", "token", "apikey",
	"accesskey", "privatekey", "authorization", "cookie", "credential",
	"credentials", "sessionkey", "signingkey", "encryptionkey",
}

// notSecret are names that end like a credential but are protocol fields
// whose values the checks need (progress and pagination tokens).
var notSecret = map[string]bool{
	"progresstoken": true, "nexttoken": true, "pagetoken": true,
	"nextpagetoken": true, "continuationtoken": true, "cursortoken": true,
	"maxtoken": true, "counttoken": true, "tokentype": true,
}

// normName lowercases name and drops '-', '_' and '.': the spelling-blind
// form a credential name is compared in.
func normName(dst []byte, name []byte) []byte {
	dst = dst[:0]
	for _, c := range name {
		switch {
		case c == '-' || c == '_' || c == '.':
			continue
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

// queryNames are URL query parameter names that carry a credential though
// they do not end like one (normalised as by normName).
var queryNames = map[string]bool{
	"code": true, "sig": true, "key": true, "auth": true, "pwd": true, "pass": true,
	"jwt": true, "session": true, "sessionid": true, "sid": true, "ticket": true,
	"codeverifier": true, "otp": true, "apikey": true, "authkey": true,
}

// isQuerySecretName reports whether a normalised query parameter name
// carries a credential: a credential name, a signature (sig, signature,
// X-Amz-Signature) or one of queryNames.
func isQuerySecretName(n []byte) bool {
	return queryNames[string(n)] || bytes.HasSuffix(n, []byte("signature")) || isSecretName(n)
}

// isSecretName reports whether a normalised name is a credential name.
func isSecretName(n []byte) bool {
	if len(n) < 5 {
		return false
	}
	// The last three bytes of every suffix: most names leave here, before
	// the suffix loop and the map lookup (the text scanner asks for every
	// "name=" it meets).
	switch string(n[len(n)-3:]) {
	case "ord", "swd", "ase", "ret", "ken", "key", "ion", "kie", "ial", "als":
	default:
		return false
	}
	for _, s := range secretSuffixes {
		if bytes.HasSuffix(n, []byte(s)) {
			return !notSecret[string(n)]
		}
	}
	return false
}

// lowerASCII appends name lowercased (ASCII only) to dst[:0].
func lowerASCII(dst, name []byte) []byte {
	dst = dst[:0]
	for _, c := range name {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

// The prefilter finds, in one pass over a frame, which detectors' literals
// occur in it: a bit set of hashes of each literal's first three bytes
// (case-folded) rejects almost every position at the cost of a multiply.
var (
	prefilterBits [1 << 16 / 64]uint64
	prefilterLits []prefilterLit
)

type prefilterLit struct {
	lit string
	det int
}

// buildPrefilter fills the prefilter from dets, the built-in detectors,
// once, when they are first needed.
func buildPrefilter(dets []*detector) {
	for i, d := range dets {
		for _, l := range d.literals {
			if len(l) < 3 || l != strings.ToLower(l) {
				panic("redact: detector literal must be lowercase and at least 3 bytes: " + l)
			}
			h := hash3(l[0], l[1], l[2])
			prefilterBits[h>>6] |= 1 << (h & 63)
			prefilterLits = append(prefilterLits, prefilterLit{l, i})
		}
	}
}

func fold(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func hash3(a, b, c byte) uint32 {
	return (uint32(a)<<16 | uint32(b)<<8 | uint32(c)) * 2654435761 >> 16
}

func hasPrefixFold(b []byte, lit string) bool {
	if len(b) < len(lit) {
		return false
	}
	for i := 0; i < len(lit); i++ {
		if fold(b[i]) != lit[i] {
			return false
		}
	}
	return true
}

// activeDetectors returns the bit set of detectors (bit i: dets[i]) whose
// literals occur in b, ignoring ASCII case. dets is nil or the built-in
// detectors.
func activeDetectors(dets []*detector, b []byte) uint64 {
	if len(dets) == 0 {
		return 0
	}
	all := uint64(1)<<len(dets) - 1
	var m uint64
	for i := 0; i+2 < len(b); i++ {
		h := hash3(fold(b[i]), fold(b[i+1]), fold(b[i+2]))
		if prefilterBits[h>>6]&(1<<(h&63)) == 0 {
			continue
		}
		for _, l := range prefilterLits {
			if m&(1<<l.det) == 0 && hasPrefixFold(b[i:], l.lit) {
				m |= 1 << l.det
			}
		}
		if m == all {
			break
		}
	}
	return m
}
