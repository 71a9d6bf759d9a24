package settings

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// docRow is one row of the key table in docs/config.md.
type docRow struct {
	key, flag, example string
}

var codeSpan = regexp.MustCompile("`([^`]*)`")

func readDoc(t *testing.T) (rows []docRow, blocks []string) {
	t.Helper()
	b, err := os.ReadFile("../../docs/config.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for _, line := range strings.Split(doc, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 6 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
			continue
		}
		key := strings.Trim(strings.TrimSpace(cells[1]), "`")
		flag := strings.TrimPrefix(strings.Trim(strings.TrimSpace(cells[2]), "`"), "--")
		var ex []string
		for _, m := range codeSpan.FindAllStringSubmatch(cells[4], -1) {
			ex = append(ex, m[1])
		}
		rows = append(rows, docRow{key, flag, strings.Join(ex, "\n") + "\n"})
	}
	for rest := doc; ; {
		_, after, ok := strings.Cut(rest, "```toml\n")
		if !ok {
			break
		}
		block, tail, _ := strings.Cut(after, "```")
		blocks = append(blocks, block)
		rest = tail
	}
	return rows, blocks
}

// TestDocumentedKeys: docs/config.md documents exactly the keys Parse
// accepts, each example parses and sets the flag its row names, and the
// two example files (table spelling, flag spelling) mean the same
// (issue 13, item 15).
func TestDocumentedKeys(t *testing.T) {
	rows, blocks := readDoc(t)
	var documented []string
	for _, r := range rows {
		documented = append(documented, r.key)
	}
	slices.Sort(documented)
	if d := cmp.Diff(Keys(), documented); d != "" {
		t.Errorf("documented keys differ from accepted keys (-accepted +documented):\n%s", d)
	}
	for _, r := range rows {
		f, err := Parse("docs/config.md", []byte(r.example))
		if err != nil {
			t.Errorf("example of %s: %v", r.key, err)
			continue
		}
		if !slices.ContainsFunc(f.Flags(), func(fv FlagValue) bool { return fv.Flag == r.flag }) {
			t.Errorf("example of %s (%q) does not set --%s: %v", r.key, r.example, r.flag, f.Flags())
		}
		// A key whose name is not its flag's must have a row in the
		// flag's spelling too.
		if r.key != r.flag && !slices.Contains(documented, r.flag) {
			t.Errorf("key %s differs from its flag --%s, and %s is not accepted", r.key, r.flag, r.flag)
		}
	}
	if len(blocks) != 2 {
		t.Fatalf("docs/config.md has %d toml examples, want 2", len(blocks))
	}
	var flags [][]FlagValue
	for i, b := range blocks {
		f, err := Parse("docs/config.md", []byte(b))
		if err != nil {
			t.Fatalf("example %d: %v", i+1, err)
		}
		flags = append(flags, f.Flags())
	}
	if d := cmp.Diff(flags[0], flags[1]); d != "" {
		t.Errorf("the two example files differ (-tables +flags):\n%s", d)
	}
}
