package md

import (
	"bufio"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcpward/mcpward/internal/result"
)

// compat writes what compat observed besides its findings, when the Result
// carries it (compat, and check, which runs the same engine): the
// transport assertions and the tools × profiles verdict grid, so that the
// job summary shows what the terminal shows.
func compat(w *bufio.Writer, r *result.Result) {
	c := r.Compat
	if c == nil {
		return
	}
	if len(c.Assertions) > 0 {
		w.WriteString("### Transport assertions\n\n| assertion | verdict | detail |\n|---|---|---|\n")
		for _, a := range c.Assertions {
			verdict := Text(a.Verdict)
			if a.Verdict == "fail" || a.Verdict == "warn" {
				verdict = "**" + verdict + "**"
			}
			fmt.Fprintf(w, "| %s | %s | %s |\n", Code(a.ID), verdict, Text(a.Detail))
		}
		w.WriteString("\n")
	}
	w.WriteString("### Compat\n\n")
	fmt.Fprintf(w, "Era: **%s**", Text(c.Era))
	if len(c.SupportedVersions) > 0 {
		fmt.Fprintf(w, " · versions: %s", Text(strings.Join(c.SupportedVersions, ", ")))
	}
	profiles := make([]string, 0, len(c.Profiles))
	for _, p := range c.Profiles {
		profiles = append(profiles, Code(p))
	}
	fmt.Fprintf(w, " · profiles: %s\n\n", strings.Join(profiles, ", "))
	if len(c.Verdicts) == 0 {
		return
	}
	w.WriteString("| tool |")
	for _, p := range c.Profiles {
		fmt.Fprintf(w, " %s |", Code(p))
	}
	w.WriteString("\n|---|" + strings.Repeat("---|", len(c.Profiles)) + "\n")
	for _, tool := range slices.Sorted(maps.Keys(c.Verdicts)) {
		fmt.Fprintf(w, "| %s |", Code(tool))
		for _, p := range c.Profiles {
			v, ok := c.Verdicts[tool][p]
			cell := Text(v)
			switch {
			case !ok || v == "":
				cell = "—"
			case v == "violation" || v == "degraded-silent":
				cell = "**" + cell + "**"
			}
			fmt.Fprintf(w, " %s |", cell)
		}
		w.WriteString("\n")
	}
	w.WriteString("\n")
}
