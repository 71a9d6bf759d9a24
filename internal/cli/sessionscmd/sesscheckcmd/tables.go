package sesscheckcmd

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/plural"
	"github.com/mcpward/mcpward/internal/traffic"
)

// writeTables appends one cost and latency table per session to the text
// report (with the SCHEMA column: the headline kind of each tool's schema
// findings, mcpsnoop §3.3): on a terminal with a header and fitted to width columns (a long
// tool name is cut with an ellipsis), tab-separated when piped.
func writeTables(w io.Writer, reports []sessionReport, tty bool, width int, slow time.Duration) {
	for _, r := range reports {
		ss, sum := r.session, r.summary
		fmt.Fprintf(w, "\nsession %s (%s, %s) %s:%d: %s, %s, %s, p50 %v p95 %v p99 %v\n",
			ss.ID, ss.Label, ss.Transport, r.file, ss.FirstLine, plural.Count(ss.Frames, "frame"), plural.Count(ss.Calls, "call"), plural.Count(ss.Errors, "error"),
			round(sum.Latency.P50), round(sum.Latency.P95), round(sum.Latency.P99))
		if len(sum.Tools) == 0 {
			continue
		}
		so := ""
		if !sum.ListComplete {
			so = " so far"
		}
		fmt.Fprintf(w, "definitions: %s, %s, ~%s%s (paid on every conversation; tokens estimated for cl100k/o200k tokenizers)\n",
			plural.Count(sum.ToolCount, "tool"), plural.Count(sum.DefinitionBytes, "byte"), plural.Count(sum.DefinitionTokens, "token"), so)
		tp := iostreams.NewTablePrinter(w, tty, width)
		tp.AddHeader("TOOL", "CALLS", "ERR", "P50", "P95", "P99", "DEF", "DEF~TOK", "RESULT", "RESULT~TOK", "SCHEMA")
		schema := map[string]string{}
		defs, _ := ss.Tools()
		for _, d := range defs {
			schema[d.Name] = traffic.SchemaLabel(d.Raw)
		}
		for _, t := range sum.Tools {
			name := t.Name
			if !t.Declared {
				name += " (undeclared)"
			}
			tp.AddRow(name, fmt.Sprint(t.Calls), fmt.Sprint(t.Errors),
				round(t.Latency.P50).String(), round(t.Latency.P95).String(), round(t.Latency.P99).String(),
				fmt.Sprint(t.DefinitionBytes), fmt.Sprint(t.DefinitionTokens), fmt.Sprint(t.ResultBytes), fmt.Sprint(t.ResultTokens),
				schemaCell(schema, t.Name, t.Declared))
		}
		_ = tp.Render() // w is a bytes.Buffer
		if sum.Heaviest != "" {
			fmt.Fprintf(w, "heaviest result: %s\n", sum.Heaviest)
		}
		if len(sum.Undeclared) > 0 {
			fmt.Fprintf(w, "undeclared tools called: %s\n", strings.Join(sum.Undeclared, ", "))
		}
		writeSlow(w, r, slow)
	}
}

// schemaCell is a tool's SCHEMA column (mcpsnoop §3.3): the headline
// kind of what its schemas hold, "-" for a plain schema, "?" for a tool
// that was called but never listed.
func schemaCell(labels map[string]string, name string, declared bool) string {
	l, ok := labels[name]
	switch {
	case !declared || !ok:
		return "?"
	case l == "":
		return "-"
	}
	return l
}

func round(d time.Duration) time.Duration {
	if d > time.Second {
		return d.Round(time.Millisecond)
	}
	return d.Round(time.Microsecond)
}

// writeSlow names the slowest calls of a session that took at least
// threshold (the summary keeps the few slowest), then how many more did.
// A session whose calls were all quicker gets no line.
func writeSlow(w io.Writer, r sessionReport, threshold time.Duration) {
	shown := 0
	for _, s := range r.summary.Slowest {
		if s.Duration < threshold {
			break
		}
		fmt.Fprintf(w, "slow: %s:%d %s id %s %v %s\n", r.file, s.Line, strings.TrimSpace(s.Method+" "+s.Name), s.ID, round(s.Duration), s.State)
		shown++
	}
	if more := r.slow - shown; more > 0 {
		over := ""
		if threshold > 0 {
			over = fmt.Sprintf(" that took %v or longer", threshold)
		}
		fmt.Fprintf(w, "slow: %d more %s%s not shown\n", more, plural.Of(more, "call", "calls"), over)
	}
}
