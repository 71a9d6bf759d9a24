package diff

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpward/mcpward/internal/snapshot"
)

// fileSides turns a side into the bytes of a snapshot file and reads them
// back twice: decoded whole (Unmarshal) and with its tools held raw
// (UnmarshalLazy). ok is false when the side is no valid file (a case
// fragment with unsorted or unnamed tools).
func fileSides(t *testing.T, s *snapshot.Snapshot) (full, lazy *snapshot.Snapshot, ok bool) {
	t.Helper()
	c := *s
	c.FormatVersion = snapshot.FormatVersion
	c.ProbeSpecHash = strings.Repeat("0", 64)
	c.Observation.RecordedAt = "2026-01-01T00:00:00Z"
	c.Observation.Status = snapshot.StatusOK
	if c.Surface.Tools == nil && c.Surface.RawTools() == nil {
		c.Surface.Tools = []snapshot.Object{}
	}
	b, err := snapshot.Marshal(&c)
	if err != nil {
		t.Fatalf("Marshal: %v", err)
	}
	full, err = snapshot.Unmarshal(b)
	if err != nil {
		return nil, nil, false
	}
	lazy, err = snapshot.UnmarshalLazy(b)
	if err != nil {
		t.Fatalf("UnmarshalLazy of what Unmarshal reads: %v", err)
	}
	if len(full.Surface.Tools) > 0 && lazy.Surface.RawTools() == nil {
		t.Fatalf("UnmarshalLazy decoded the tools of a valid file")
	}
	return full, lazy, true
}

// TestRuleCasesWithToolsHeldRaw: every rule case gives the same findings
// (rule, subject, message, before and after values) whether each side's
// tools are decoded or held raw, in every combination.
func TestRuleCasesWithToolsHeldRaw(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			a := parseArchive(b)
			oFull, oLazy, ok1 := fileSides(t, loadSide(t, a.get("old.json")))
			nFull, nLazy, ok2 := fileSides(t, loadSide(t, a.get("new.json")))
			if !ok1 || !ok2 {
				t.Skip("a side is no valid snapshot file")
			}
			checked++
			want := Diff(oFull, nFull)
			for _, c := range []struct {
				name     string
				old, new *snapshot.Snapshot
			}{{"raw → raw", oLazy, nLazy}, {"raw → decoded", oLazy, nFull}, {"decoded → raw", oFull, nLazy}} {
				if d := cmp.Diff(want, Diff(c.old, c.new)); d != "" {
					t.Errorf("%s: findings differ from the decoded sides' (-want +got):\n%s", c.name, d)
				}
			}
		})
	}
	if checked < len(files)/2 {
		t.Errorf("only %d of %d cases make valid snapshot files", checked, len(files))
	}
}

// TestDiffOfRawToolsDecodesOnlyChanged: reading two snapshot files and
// diffing them decodes only the tools whose bytes differ. Decoding every
// tool (Unmarshal) cost 112 allocations per tool for these two files.
func TestDiffOfRawToolsDecodesOnlyChanged(t *testing.T) {
	var files [2][]byte
	for v := range files {
		s := genSnapshot(200, 0)
		if v == 1 {
			s.Surface.Tools[7]["description"] = "changed"
		}
		s.FormatVersion, s.ProbeSpecHash = snapshot.FormatVersion, strings.Repeat("0", 64)
		s.Observation.RecordedAt, s.Observation.Status = "2026-01-01T00:00:00Z", snapshot.StatusOK
		b, err := snapshot.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		files[v] = b
	}
	run := func() []Finding {
		old, err := snapshot.UnmarshalLazy(files[0])
		if err != nil {
			t.Fatal(err)
		}
		cur, err := snapshot.UnmarshalLazy(files[1])
		if err != nil {
			t.Fatal(err)
		}
		return Diff(old, cur)
	}
	if f := run(); len(f) != 1 || f[0].RuleID != "tool.description.changed" {
		t.Fatalf("Diff() = %v, want one tool.description.changed", f)
	}
	allocs := testing.AllocsPerRun(3, func() { run() })
	t.Logf("%.0f allocations, %.1f per tool", allocs, allocs/200)
	if perTool := allocs / 200; perTool > 8 {
		t.Errorf("read and diff of 200 tools, 1 changed: %.0f allocations, %.1f per tool; want at most 8", allocs, perTool)
	}
}
