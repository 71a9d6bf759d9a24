package md

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/mcpward/mcpward/internal/diff"
	"github.com/mcpward/mcpward/internal/report/render"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/termsafe"
)

// Write renders r as markdown.
func Write(w io.Writer, r *result.Result) error {
	bw := bufio.NewWriter(w)
	if len(r.Targets) > 0 {
		writeFleet(bw, r)
	} else {
		writeResult(bw, r)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write markdown report: %w", err)
	}
	return nil
}

func writeResult(w *bufio.Writer, r *result.Result) {
	v := render.VerdictOf(r)
	title := "mcpward " + Text(r.Command)
	if r.Target != nil && r.Target.Name != "" {
		title += " — " + Text(r.Target.Name)
	}
	fmt.Fprintf(w, "## %s: %s\n\n", title, v)
	fmt.Fprintf(w, "%s", Text(render.Counts(r)))
	if r.Ignored > 0 {
		fmt.Fprintf(w, ", %d ignored by `--ignore`/`--only`", r.Ignored)
	}
	if rc := render.RuleCounts(r); rc != "" {
		fmt.Fprintf(w, "; %s", Text(rc))
	}
	fmt.Fprintf(w, " · gate `fail-on=%s` -> **%s**\n\n", strings.ReplaceAll(render.FailOnName(r), "`", "'"), v)

	snapshots(w, r)
	problems(w, r)
	findings(w, r)
	ruleFindings(w, r)
	compat(w, r)
	next(w, r, v)
}

func snapshots(w *bufio.Writer, r *result.Result) {
	if t := r.Target; t != nil && t.Endpoint != "" {
		tr := ""
		if t.Transport != "" {
			tr = " (" + Text(t.Transport) + ")"
		}
		fmt.Fprintf(w, "Target: %s%s\n\n", Code(t.Endpoint), tr)
	}
	if r.Old == nil && r.New == nil {
		return
	}
	w.WriteString("| | old | new |\n|---|---|---|\n")
	side := func(s *result.SnapshotRef, f func(*result.SnapshotRef) string) string {
		if s == nil {
			return ""
		}
		return f(s)
	}
	row := func(name string, f func(*result.SnapshotRef) string) {
		o, n := side(r.Old, f), side(r.New, f)
		if o == "" && n == "" {
			return
		}
		fmt.Fprintf(w, "| %s | %s | %s |\n", name, o, n)
	}
	row("snapshot", func(s *result.SnapshotRef) string {
		if s.Path == "" {
			return "live"
		}
		return Code(s.Path)
	})
	row("server", func(s *result.SnapshotRef) string { return Text(s.Server) })
	row("status", func(s *result.SnapshotRef) string { return Text(s.Status) })
	row("recorded", func(s *result.SnapshotRef) string { return Text(s.RecordedAt) })
	row("surface digest", func(s *result.SnapshotRef) string {
		if s.SurfaceDigest == "" {
			return ""
		}
		return Code(s.SurfaceDigest)
	})
	w.WriteString("\n")
}

func problems(w *bufio.Writer, r *result.Result) {
	ps := render.Problems(r)
	if len(ps) == 0 {
		return
	}
	w.WriteString("### Incomplete evidence\n\n")
	for _, p := range ps {
		fmt.Fprintf(w, "- %s\n", Text(p))
	}
	w.WriteString("\nMissing evidence is never \"no change\": what could not be observed was not compared.\n\n")
}

var tiers = []diff.Tier{diff.Breaking, diff.Risky, diff.Compatible, diff.Cosmetic}

func findings(w *bufio.Writer, r *result.Result) {
	if len(r.Findings) == 0 {
		switch {
		case r.Command == "compat":
		case !r.Evidence.Complete:
			w.WriteString("No changes in what could be observed.\n\n")
		default:
			w.WriteString("No drift: the surface matches the snapshot.\n\n")
		}
		return
	}
	gate := render.FailOn(r)
	s := r.Summary.Summary
	counts := map[diff.Tier]int{diff.Breaking: s.Breaking, diff.Risky: s.Risky, diff.Compatible: s.Compatible, diff.Cosmetic: s.Cosmetic}
	w.WriteString("### Findings by tier\n\n| tier | findings | gate |\n|---|---:|---|\n")
	for _, t := range tiers {
		verdict := "below the gate"
		if t >= gate {
			verdict = "at or above the gate"
			if counts[t] > 0 {
				verdict = "**" + verdict + "**"
			}
		}
		fmt.Fprintf(w, "| %s | %d | %s |\n", t, counts[t], verdict)
	}
	w.WriteString("\n### Findings\n\n| tier | rule | subject | message |\n|---|---|---|---|\n")
	for _, f := range r.Findings {
		tier := f.Tier.String()
		if f.Tier >= gate {
			tier = "**" + tier + "**"
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s |\n", tier, Code(f.RuleID), Code(f.Subject), Text(f.Message))
	}
	w.WriteString("\n")
}

func ruleFindings(w *bufio.Writer, r *result.Result) {
	if len(r.Violations) == 0 {
		return
	}
	w.WriteString("### Rule findings\n\n| class | level | rule | subject | message | profile |\n|---|---|---|---|---|---|\n")
	for _, v := range render.RuleFindings(r) {
		class := Text(v.Class)
		if render.RuleFails(r, v) {
			class = "**" + class + "**"
		}
		msg := Text(v.Message)
		if v.Spec != "" {
			msg += " (" + Text(v.Spec) + ")"
		}
		profile := ""
		if v.Profile != "" {
			profile = Code(v.Profile)
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s |\n", class, Text(v.Level), Code(v.RuleID), Code(v.Subject), msg, profile)
	}
	w.WriteString("\n")
}

func next(w *bufio.Writer, r *result.Result, v render.Verdict) {
	var lines []string
	switch v.Code {
	case 1:
		if r.Command == "compat" {
			lines = append(lines, "A risky rule finding is not a protocol violation, but clients may trip on it; see the rule findings above.")
			break
		}
		accept := "mcpward check --update"
		if r.Command == "check" && r.Target != nil && r.Target.Name != "" && !strings.ContainsAny(r.Target.Name, "`\n\r ") {
			accept = "mcpward check " + r.Target.Name + " --update"
		}
		lines = append(lines,
			"If the change is intended, accept the new surface as the contract with `"+accept+"` and commit the snapshot.",
			"If it is not, the server's owner should revert it.")
	case 2:
		lines = append(lines, "Fix what kept the server from being observed in full and run again; nothing was accepted and no snapshot was written.")
	case 3:
		lines = append(lines, "The server violates the protocol: its owner must fix it. Updating the snapshot does not clear a violation.")
	}
	if a := render.Accepted(r); a != "" {
		lines = append(lines, Text(strings.ToUpper(a[:1])+a[1:])+".")
	}
	if len(lines) == 0 {
		return
	}
	w.WriteString("### What next\n\n")
	for _, l := range lines {
		fmt.Fprintf(w, "- %s\n", l)
	}
}

// mdEscaper backslash-escapes the ASCII punctuation that carries markdown
// or HTML meaning. CommonMark allows a backslash before any ASCII
// punctuation, and GitHub's table parser honours \| inside cells.
var mdEscaper = strings.NewReplacer(
	`\`, `\\`, "`", "\\`", `|`, `\|`, `*`, `\*`, `_`, `\_`, `[`, `\[`, `]`, `\]`,
	`<`, `\<`, `>`, `\>`, `~`, `\~`, `&`, `\&`, `#`, `\#`, `!`, `\!`, `$`, `\$`,
)

// Text escapes s for use as plain text in a table cell or list item:
// control characters are made visible on one line, markdown punctuation is
// backslash-escaped.
func Text(s string) string { return mdEscaper.Replace(termsafe.Line(s)) }

// Code renders s as a code span when it can be one (no backtick), with
// pipes escaped for the table parser, and as escaped text otherwise.
func Code(s string) string {
	s = termsafe.Line(s)
	if s == "" || strings.Contains(s, "`") {
		return mdEscaper.Replace(s)
	}
	return "`" + strings.ReplaceAll(s, "|", `\|`) + "`"
}
