package redact

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// gen writes random JSON with random whitespace, key order and number
// spellings, planting secrets under "password" members and inside strings.
type gen struct {
	rng     *rand.Rand
	b       strings.Builder
	secrets []string // planted secret tokens, as they appear in the output
	n       int
}

var words = []string{"alpha", "beta", "name", "items", "text", "é", "<b>&", "a b", "x\\ny", "\\u00e9t\\u00e9", "1.5"}

func (g *gen) ws() {
	for range g.rng.IntN(3) {
		g.b.WriteByte(" \t\n\r"[g.rng.IntN(4)])
	}
}

func (g *gen) value(depth int) {
	g.ws()
	k := g.rng.IntN(9)
	if depth > 4 {
		k = 4 + g.rng.IntN(5)
	}
	switch k {
	case 0, 1:
		g.b.WriteByte('{')
		for i := range g.rng.IntN(5) {
			if i > 0 {
				g.b.WriteByte(',')
			}
			g.ws()
			if g.rng.IntN(4) == 0 {
				g.n++
				s := fmt.Sprintf(`"pw-%d"`, g.n)
				g.secrets = append(g.secrets, s)
				fmt.Fprintf(&g.b, `"password"`)
				g.ws()
				g.b.WriteByte(':')
				g.ws()
				g.b.WriteString(s)
			} else {
				fmt.Fprintf(&g.b, `"%s%d"`, words[g.rng.IntN(len(words))], i)
				g.ws()
				g.b.WriteByte(':')
				g.value(depth + 1)
			}
			g.ws()
		}
		g.b.WriteByte('}')
	case 2, 3:
		g.b.WriteByte('[')
		for i := range g.rng.IntN(5) {
			if i > 0 {
				g.b.WriteByte(',')
			}
			g.value(depth + 1)
			g.ws()
		}
		g.b.WriteByte(']')
	case 4:
		g.b.WriteString([]string{"0", "-1.50", "1e+10", "2E-3", "12345678901234567890"}[g.rng.IntN(5)])
	case 5:
		g.b.WriteString([]string{"true", "false", "null"}[g.rng.IntN(3)])
	case 6:
		g.n++
		s := fmt.Sprintf("SECRET-%d", g.n)
		g.secrets = append(g.secrets, s)
		fmt.Fprintf(&g.b, `"%s %s %s"`, words[g.rng.IntN(len(words))], s, words[g.rng.IntN(len(words))])
	default:
		fmt.Fprintf(&g.b, `"%s"`, words[g.rng.IntN(len(words))])
	}
}

// TestFrameProperty checks, on random JSON, that output is valid JSON and
// that only the planted secrets changed: every other byte (key order,
// whitespace, number spellings, escapes) is identical.
func TestFrameProperty(t *testing.T) {
	r := mustNew(t, Config{Secrets: true, Values: []string{`SECRET-\d+`}})
	for seed := range uint64(2000) {
		g := &gen{rng: rand.New(rand.NewPCG(seed, 1))}
		g.value(0)
		in := g.b.String()
		if !json.Valid([]byte(in)) {
			t.Fatalf("seed %d: generator wrote invalid JSON: %s", seed, in)
		}
		want := in
		for _, s := range g.secrets {
			repl := `"` + Placeholder + `"`
			if strings.HasPrefix(s, "SECRET-") {
				repl = Placeholder
			}
			want = strings.Replace(want, s, repl, 1)
		}
		got, changed := r.Frame([]byte(in))
		if !json.Valid(got) {
			t.Fatalf("seed %d: output is not valid JSON:\n in: %s\nout: %s", seed, in, got)
		}
		if string(got) != want {
			t.Fatalf("seed %d: output differs beyond the secrets:\n  in: %q\n got: %q\nwant: %q", seed, in, got, want)
		}
		if changed != (len(g.secrets) > 0) {
			t.Fatalf("seed %d: changed = %v with %d secrets", seed, changed, len(g.secrets))
		}
	}
}
