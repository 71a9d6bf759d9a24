package filter

import (
	"encoding/json"
	"os"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Cases is the shared table (testdata/cases.json): the HTML export's
// JavaScript copy of the filter is run over the same file.
type Cases struct {
	Rows  map[string]Row `json:"rows"`
	Cases []struct {
		Q     string   `json:"q"`
		Match []string `json:"match"`
	} `json:"cases"`
}

func TestCases(t *testing.T) {
	b, err := os.ReadFile("testdata/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cs Cases
	if err := json.Unmarshal(b, &cs); err != nil {
		t.Fatal(err)
	}
	names := make([]string, 0, len(cs.Rows))
	for n := range cs.Rows {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, c := range cs.Cases {
		q := Parse(c.Q)
		got := []string{}
		for _, n := range names {
			r := cs.Rows[n]
			if q.Match(&r) {
				got = append(got, n)
			}
		}
		want := slices.Clone(c.Match)
		slices.Sort(want)
		if want == nil {
			want = []string{}
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("Parse(%q) matches (-want +got):\n%s", c.Q, d)
		}
	}
}

func TestEmpty(t *testing.T) {
	if !Parse("  ").Empty() || Parse("x").Empty() {
		t.Error("Empty() wrong")
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"tool:x", `id:"a b"`, "status:404", `"`, "::", "s:-1", "id:", "\xff:\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q := Parse(s)
		r := Row{Method: "a", ID: `"x"`, Text: s}
		q.Match(&r)
	})
}
