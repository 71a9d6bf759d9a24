package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// readmeNeeds are the "try it" commands of the README's feature table that
// need something outside a fresh clone and a fresh HOME, each with what
// (the README says it beside the command, or the command is a server that
// runs until stopped).
var readmeNeeds = []struct{ match, why string }{
	{"board run", "the network (the roster's public servers)"},
	{"wrap ", "a Claude Desktop config with a server named weather"},
	{"unwrap ", "a Claude Desktop config with a server named weather"},
	{"sessions diff OLD NEW", "two session ids"},
	{"proxy ", "runs until stopped (an HTTP proxy), or an upstream"},
	{"--otlp-endpoint", "an OTLP collector"},
	{"--endpoint", "an OTLP collector"},
	{"fixture serve clean@v1 --http", "runs until stopped"},
	{"mcpward serve", "runs until stopped"},
	{"mcpward ui", "a terminal"},
	{"demo --ui", "a terminal"},
	{"site --out", "a browser (serves the site until stopped)"},
	{"completion bash", "bash"},
}

// TestREADMETryIt runs every "try it" command of the README's feature table
// that needs nothing external, in order, as written, in one fresh directory
// with a fresh HOME (issue 25 item 2): none may end in a usage or config
// error (exit 4) or a bug (exit 5). Drift, violations and incomplete
// evidence (1, 3, 2) are what some of them show.
func TestREADMETryIt(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the README's commands")
	}
	data, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	cmds := readmeCommands(t, string(data))
	var script strings.Builder
	script.WriteString("env HOME=$WORK/home\nmkdir home tmp\n")
	ran := 0
	for _, c := range cmds {
		if why := readmeNeed(c); why != "" {
			t.Logf("not run (needs %s): %s", why, c)
			continue
		}
		ran++
		// /tmp/d of the README is this run's own (tests run side by side).
		c = strings.ReplaceAll(c, "/tmp/", "$WORK/tmp/")
		// The exit code is printed and checked: 4 and 5 fail the test.
		fmt.Fprintf(&script, "exec sh -c %s\n! stdout '^README exit [45]$'\n", shSingle(c+"; echo README exit $?"))
	}
	if ran < 25 {
		t.Fatalf("only %d commands of the README's table run; the extraction is broken", ran)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "readme.txtar"), []byte(script.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir: dir,
		Setup: func(env *testscript.Env) error {
			env.Setenv("NO_COLOR", "1")
			return nil
		},
	})
}

var codeSpan = regexp.MustCompile("`([^`]+)`")

// readmeCommands returns the mcpward commands of the feature table's "try
// it" column, in order.
func readmeCommands(t *testing.T, readme string) []string {
	start := strings.Index(readme, "| feature | try it |")
	end := strings.Index(readme, "## Exit codes")
	if start < 0 || end < start {
		t.Fatal("README: no feature table")
	}
	var out []string
	for _, line := range strings.Split(readme[start:end], "\n") {
		cells := strings.Split(line, " | ")
		if len(cells) < 2 {
			continue
		}
		for _, m := range codeSpan.FindAllStringSubmatch(cells[len(cells)-1], -1) {
			if c := m[1]; strings.HasPrefix(c, "mcpward ") {
				out = append(out, c)
			}
		}
	}
	return out
}

func readmeNeed(c string) string {
	for _, n := range readmeNeeds {
		if strings.Contains(c, n.match) {
			return n.why
		}
	}
	if strings.ContainsAny(c, "…<") {
		return "a placeholder filled in"
	}
	return ""
}

func shSingle(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
