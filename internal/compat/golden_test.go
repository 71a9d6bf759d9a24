package compat

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/mcpward/mcpward/internal/client"
	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/fixture"
	"github.com/mcpward/mcpward/internal/rules"
)

var update = flag.Bool("update", false, "rewrite the expected sections of testdata/*.txtar")

// connectFixture opens a session to an embedded fixture over stdio or its HTTP
// framing (in-process).
func connectFixture(t *testing.T, name string, http bool) *connect.Session {
	t.Helper()
	spec := &connect.Spec{Name: name, Fixture: name, FixtureHTTP: http}
	s, err := connect.Connect(context.Background(), spec, connect.Env{}, &client.Options{RequestTimeout: 5 * time.Second, DiscoverTimeout: time.Second})
	if err != nil {
		t.Fatalf("connect %s: %v", name, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func fixtureProbes(t *testing.T, name string) []Probe {
	t.Helper()
	f, err := fixture.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	var out []Probe
	for _, p := range f.Probes() {
		out = append(out, Probe{ID: p.ID, Tool: p.Tool, Arguments: p.Arguments})
	}
	return out
}

// summary renders what a golden pins: exit code, findings, assertion
// verdicts and the verdict grid. Messages are left out on purpose so that
// rewording does not churn the goldens; ids, subjects and profiles are the
// contract.
func summary(r *Report) string {
	var b strings.Builder
	fmt.Fprintf(&b, "exit %d\nera %s\ntransport %s\n", r.ExitCode(), r.Era, r.Transport)
	for _, p := range r.Problems {
		fmt.Fprintf(&b, "problem %s\n", p)
	}
	b.WriteString("findings:\n")
	for _, f := range r.Findings() {
		if f.RuleID == "compat.era" {
			continue
		}
		ev := ""
		if f.Evidence != nil {
			ev = " +evidence"
		}
		fmt.Fprintf(&b, "  %s %s %s %s%s\n", f.Class, f.RuleID, f.Subject, f.Profile, ev)
	}
	for _, n := range r.NotEvaluated {
		fmt.Fprintf(&b, "not evaluated: %s\n", n.What)
	}
	b.WriteString("assertions:\n")
	for _, a := range r.Assertions {
		fmt.Fprintf(&b, "  %-8s %s\n", a.Verdict, a.ID)
	}
	b.WriteString("verdicts:\n")
	tools := sortedKeys(r.Verdicts)
	for _, t := range tools {
		for _, p := range r.Profiles {
			if v, ok := r.Verdicts[t][p]; ok {
				fmt.Fprintf(&b, "  %s %s %s\n", t, p, v)
			}
		}
	}
	return b.String()
}

// TestGolden runs every testdata/<fixture>@<transport>.txtar case: the
// archive comment names the planted rules, "-- want --" the summary.
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.txtar")
	if len(files) == 0 {
		t.Fatal("no golden cases")
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".txtar")
		t.Run(name, func(t *testing.T) {
			inBubble(t, func(t *testing.T) {
				fx, tr, _ := strings.Cut(name, "@@")
				ar, err := txtar.ParseFile(file)
				if err != nil {
					t.Fatal(err)
				}
				s := connectFixture(t, fx, tr == "http")
				rep, err := Run(context.Background(), s, &Options{Probes: fixtureProbes(t, fx)})
				if err != nil {
					t.Fatal(err)
				}
				checkClauseTransports(t, rep)
				got := summary(rep)
				i := slices.IndexFunc(ar.Files, func(f txtar.File) bool { return f.Name == "want" })
				if *update {
					if i < 0 {
						ar.Files = append(ar.Files, txtar.File{Name: "want"})
						i = len(ar.Files) - 1
					}
					ar.Files[i].Data = []byte(got)
					if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				if i < 0 {
					t.Fatalf("%s has no want section (run with -update)", file)
				}
				if d := cmp.Diff(string(ar.Files[i].Data), got); d != "" {
					t.Errorf("%s (-want +got):\n%s", name, d)
				}
			})
		})
	}
}

// checkClauseTransports: every finding cites a clause of the transport the
// run spoke (HTTP+SSE counts as HTTP), and HTTP evidence (a method, a
// status) appears only on HTTP runs (issue 23 item 4).
func checkClauseTransports(t *testing.T, rep *Report) {
	t.Helper()
	on := rules.OnStdio
	if rep.Transport == "http" || rep.Transport == "sse" {
		on = rules.OnHTTP
	}
	for _, f := range rep.Findings() {
		r, _ := rules.Lookup(f.RuleID)
		if c, ok := r.Clause(); ok && c.Transport() != rules.OnAny && c.Transport() != on {
			t.Errorf("%s on a %s run cites %s, a %s clause", f.RuleID, rep.Transport, c.ID, c.Transport())
		}
		if r.On != rules.OnAny && r.On != on {
			t.Errorf("%s (a %s rule) reported on a %s run", f.RuleID, r.On, rep.Transport)
		}
		if ev := f.Evidence; ev != nil && on == rules.OnStdio && (ev.Method != "" || ev.Status != 0 || len(ev.RequestHeader) > 0) {
			t.Errorf("%s on a stdio run shows HTTP evidence (method %q, status %d)", f.RuleID, ev.Method, ev.Status)
		}
	}
}
