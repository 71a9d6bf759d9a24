package traffic

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/mcpward/mcpward/internal/rules"
	"github.com/mcpward/mcpward/internal/session"
)

var update = flag.Bool("update", false, "rewrite the findings sections of testdata/*.txtar")

// check runs the checker over a session log and returns one line per
// finding: "line N: rule-id: message".
func check(t *testing.T, log []byte) []string {
	t.Helper()
	var out []string
	c := New(&Options{File: "frames.jsonl", OnFinding: func(f Finding) {
		line := 0
		if f.Location != nil {
			line = f.Location.Line
		}
		out = append(out, fmt.Sprintf("line %d: %s: %s", line, f.RuleID, f.Message))
	}})
	r := session.NewReader(bytes.NewReader(log))
	n := 0
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		n++
		c.Add(rec, n)
	}
	if len(r.Problems()) > 0 {
		t.Fatalf("test log has bad lines: %v", r.Problems())
	}
	c.Finish()
	return out
}

// Each testdata/<rule-id>.txtar (and <rule-id>@<case>.txtar, another case
// of the rule) holds a recorded session that triggers the rule
// (frames.jsonl, with the expected findings), and one that must not
// (clean.jsonl: the rule id must not appear among its findings).
func TestRules(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".txtar")
		id, _, _ := strings.Cut(name, "@") // rule@case.txtar: another case of one rule
		t.Run(name, func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			sections := map[string][]byte{}
			for _, f := range ar.Files {
				sections[f.Name] = f.Data
			}
			got := check(t, sections["frames.jsonl"])
			if !slices.ContainsFunc(got, func(s string) bool { return strings.Contains(s, ": "+id+": ") }) {
				t.Errorf("frames.jsonl does not trigger %s; findings:\n%s", id, strings.Join(got, "\n"))
			}
			text := strings.Join(got, "\n") + "\n"
			if *update {
				for i := range ar.Files {
					if ar.Files[i].Name == "findings" {
						ar.Files[i].Data = []byte(text)
					}
				}
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
			} else if d := cmp.Diff(string(sections["findings"]), text); d != "" {
				t.Errorf("findings mismatch (-want +got):\n%s", d)
			}
			clean, ok := sections["clean.jsonl"]
			if !ok {
				t.Fatalf("no clean.jsonl section: every rule needs a case that must not trigger it")
			}
			for _, f := range check(t, clean) {
				if strings.Contains(f, ": "+id+": ") {
					t.Errorf("clean.jsonl triggers %s: %s", id, f)
				}
			}
		})
	}
}

// Every rule the checker can report has its own testdata file.
func TestEveryRuleHasATestFile(t *testing.T) {
	for _, id := range RuleIDs() {
		if _, err := os.Stat(filepath.Join("testdata", id+".txtar")); err != nil {
			t.Errorf("rule %s has no testdata/%s.txtar", id, id)
		}
	}
}

// The same frames are judged by the revision each request declares: a
// server request, a result without resultType and a sampling request are
// legal on 2025-11-25 and findings on 2026-07-28.
func TestRevisionGating(t *testing.T) {
	frames := func(meta string) string {
		return fmt.Sprintf(`{"v":1,"session":"S","seq":1,"ts":"2026-08-01T12:00:00Z","dir":"c2s","transport":"stdio","frame":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","_meta":%s}}}
{"v":1,"session":"S","seq":2,"ts":"2026-08-01T12:00:01Z","dir":"s2c","transport":"stdio","frame":{"jsonrpc":"2.0","id":"s","method":"sampling/createMessage","params":{}}}
{"v":1,"session":"S","seq":3,"ts":"2026-08-01T12:00:02Z","dir":"c2s","transport":"stdio","frame":{"jsonrpc":"2.0","id":"s","result":{}}}
{"v":1,"session":"S","seq":4,"ts":"2026-08-01T12:00:03Z","dir":"s2c","transport":"stdio","frame":{"jsonrpc":"2.0","id":1,"result":{"content":[]}}}
`, meta)
	}
	legacy := `{"io.modelcontextprotocol/protocolVersion":"2025-11-25"}`
	modern := `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	if got := check(t, []byte(frames(legacy))); len(got) != 0 {
		t.Errorf("2025-11-25 findings: %q, want none", got)
	}
	want := []string{
		`line 2: transport.server_request: server sent a JSON-RPC request "sampling/createMessage" on a 2026-07-28 session`,
		`line 2: era.deprecated_method: sampling/createMessage is deprecated in 2026-07-28`,
		`line 3: message.client_response: client answered id "s" on a 2026-07-28 session`,
		`line 4: message.result_type_missing: result of tools/call "a" is missing required resultType`,
	}
	if d := cmp.Diff(want, check(t, []byte(frames(modern)))); d != "" {
		t.Errorf("2026-07-28 findings mismatch (-want +got):\n%s", d)
	}
}

func FuzzChecker(f *testing.F) {
	for _, id := range []string{"message.mrtr_state_not_echoed", "xhdr.param_header_invalid", "message.batch_not_allowed"} {
		ar, err := txtar.ParseFile(filepath.Join("testdata", id+".txtar"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(ar.Files[0].Data)
	}
	f.Fuzz(func(t *testing.T, log []byte) {
		c := New(&Options{OnFinding: func(Finding) {}})
		r := session.NewReader(bytes.NewReader(log))
		for n := 1; ; n++ {
			rec, err := r.Next()
			if err != nil {
				break
			}
			c.Add(rec, n)
		}
		c.Finish()
	})
}

// A record the proxy redacted ("redacted":true) hides values: a header
// that no longer matches its body parameter is not a finding there.
func TestRedactedRecordsAreNotCompared(t *testing.T) {
	ar, err := txtar.ParseFile("testdata/xhdr.param_header_mismatch.txtar")
	if err != nil {
		t.Fatal(err)
	}
	var frames []byte
	for _, f := range ar.Files {
		if f.Name == "frames.jsonl" {
			frames = f.Data
		}
	}
	if got := check(t, frames); !slices.ContainsFunc(got, func(s string) bool { return strings.Contains(s, "xhdr.param_header_mismatch") }) {
		t.Fatalf("the unredacted log does not trigger the rule: %v", got)
	}
	redacted := bytes.ReplaceAll(frames, []byte(`"seq":3,`), []byte(`"seq":3,"redacted":true,`))
	for _, f := range check(t, redacted) {
		if strings.Contains(f, "xhdr.param_header_mismatch") {
			t.Errorf("a redacted record was compared: %s", f)
		}
	}
}

// Page scopes are judged by rules.PageScopeProblem, as in compat: a
// scope spelt with an escape is the same value, and null is no scope,
// like an absent one.
func TestPageScopesJudgedAsInCompat(t *testing.T) {
	ar, err := txtar.ParseFile("testdata/cache.scope_inconsistent_across_pages.txtar")
	if err != nil {
		t.Fatal(err)
	}
	var clean []byte
	for _, f := range ar.Files {
		if f.Name == "clean.jsonl" {
			clean = f.Data
		}
	}
	for _, edit := range [][2]string{
		{`"cacheScope":"public"}}}`, `"cacheScope":"pub\u006cic"}}}`},
		{`"cacheScope":"public"}}}`, `"cacheScope":null}}}`},
	} {
		log := bytes.ReplaceAll(clean, []byte(edit[0]), []byte(edit[1]))
		if edit[1] == `"cacheScope":null}}}` {
			// Page 1 without a scope too: absent against null.
			log = bytes.Replace(log, []byte(`"cacheScope":"public","nextCursor"`), []byte(`"nextCursor"`), 1)
		}
		if bytes.Equal(log, clean) {
			t.Fatalf("edit %q changed nothing", edit[1])
		}
		for _, f := range check(t, log) {
			if strings.Contains(f, "cache.scope_inconsistent_across_pages") {
				t.Errorf("%s: %s", edit[1], f)
			}
		}
	}
}

// Every finding on a recorded frame cites a clause of the transport that
// frame travelled on: an HTTP body never breaks a stdio clause (issue 23
// item 4: a 202 with the body null was reported under STDIO-STDIN-CLEAN).
func TestCitedClauseMatchesFrameTransport(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if !strings.HasSuffix(f.Name, ".jsonl") {
				continue
			}
			var recs []*session.Record
			r := session.NewReader(bytes.NewReader(f.Data))
			for {
				rec, err := r.Next()
				if err != nil {
					break
				}
				recs = append(recs, rec)
			}
			c := New(&Options{OnFinding: func(fd Finding) {
				rule, _ := rules.Lookup(fd.RuleID)
				clause, ok := rule.Clause()
				if !ok || fd.Location == nil || fd.Location.Line < 1 || fd.Location.Line > len(recs) {
					return
				}
				checked++
				got := string(recs[fd.Location.Line-1].Transport)
				if want := clause.Transport(); want != rules.OnAny && want != got {
					t.Errorf("%s %s: line %d: %s cites %s (a %s clause) on a %s frame", file, f.Name, fd.Location.Line, fd.RuleID, clause.ID, want, got)
				}
			}})
			for i, rec := range recs {
				c.Add(rec, i+1)
			}
			c.Finish()
		}
	}
	if checked == 0 {
		t.Fatal("no finding with a clause was checked")
	}
}
