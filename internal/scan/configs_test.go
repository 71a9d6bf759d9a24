package scan

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpward/mcpward/internal/snapshot"
)

// A configCase is one testdata/configs file.
type configCase struct {
	Name    string `json:"name"`
	Client  string `json:"client"`
	Note    string `json:"note"`
	Servers map[string]struct {
		Tools []snapshot.Object `json:"tools"`
	} `json:"servers"`
	Expect []expected `json:"expect"`
}

// expected is one finding as the config files write it.
type expected struct {
	Rule           string   `json:"rule"`
	Level          string   `json:"level"`
	Tool           string   `json:"tool,omitempty"`
	Servers        []string `json:"servers,omitempty"`
	Mentions       []string `json:"mentions,omitempty"`
	ConfusableWith string   `json:"confusable_with,omitempty"`
	Sources        []string `json:"sources,omitempty"`
	Private        []string `json:"private,omitempty"`
	Sinks          []string `json:"sinks,omitempty"`
}

// crossServer are the rules the config files pin.
var crossServer = []string{RuleToxicFlow, RuleDuplicateName, RuleMentionsOther, RuleSteersOther, RuleHomoglyph}

func (c configCase) servers() []Server {
	names := make([]string, 0, len(c.Servers))
	for n := range c.Servers {
		names = append(names, n)
	}
	slices.Sort(names)
	out := make([]Server, len(names))
	for i, n := range names {
		out[i] = Server{Name: n, Tools: c.Servers[n].Tools}
	}
	return out
}

func asExpected(f Finding) expected {
	e := expected{Rule: f.Rule, Level: f.Level, Servers: f.Servers, Mentions: f.Mentions, ConfusableWith: f.ConfusableWith,
		Sources: f.Sources, Private: f.Private, Sinks: f.Sinks}
	if f.Tool != "" {
		e.Tool = f.Qualified()
	}
	return e
}

func readConfigs(t testing.TB) []configCase {
	t.Helper()
	files, err := filepath.Glob("testdata/configs/*.json")
	if err != nil || len(files) < 20 {
		t.Fatalf("want at least 20 configs, have %d (%v)", len(files), err)
	}
	var out []configCase
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var c configCase
		if err := json.Unmarshal(b, &c); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		out = append(out, c)
	}
	return out
}

// TestConfigs checks the exact findings of the cross-server rules on
// every client config of testdata/configs.
func TestConfigs(t *testing.T) {
	for _, c := range readConfigs(t) {
		t.Run(c.Name, func(t *testing.T) {
			var got []string
			for _, f := range Config(c.servers()) {
				if slices.Contains(crossServer, f.Rule) {
					b, _ := json.Marshal(asExpected(f))
					got = append(got, string(b))
				}
			}
			var want []string
			for _, e := range c.Expect {
				b, _ := json.Marshal(e)
				want = append(want, string(b))
			}
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("%s (%s)\n got: %s\nwant: %s", c.Name, c.Note, strings.Join(got, "\n      "), strings.Join(want, "\n      "))
			}
		})
	}
}
