package sessionexport

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/mcpward/mcpward/internal/calls"
	"github.com/mcpward/mcpward/internal/plural"
	"github.com/mcpward/mcpward/internal/session"
)

// A textSink writes a readable transcript in log order: one line per
// frame (time, direction, kind, method, id, and for an answer its status
// and duration), the frame as recorded below it, then a summary per
// session.
type textSink struct {
	w    *bufio.Writer
	last string
	src  string
}

func newTextSink(w io.Writer, source string) *textSink {
	return &textSink{w: bufio.NewWriterSize(w, 64<<10), src: source}
}

var arrows = map[session.Direction]string{
	session.ClientToServer: "→",
	session.ServerToClient: "←",
	session.Stderr:         "!",
	session.Meta:           "·",
}

func (s *textSink) frame(f *frameInfo) error {
	r := f.Rec
	if f.Batch && f.Index > 0 {
		return nil // the batch was written with its first element
	}
	if r.Session != s.last {
		s.last = r.Session
		fmt.Fprintf(s.w, "== session %s (%s, %s) ==\n", r.Session, r.Label, r.Transport)
	}
	var b strings.Builder
	b.WriteString(r.Time.UTC().Format("15:04:05.000"))
	b.WriteString("  ")
	b.WriteString(arrows[r.Dir])
	b.WriteString(" ")
	if r.Dir == session.Meta {
		b.WriteString(r.Kind)
	} else {
		b.WriteString(f.Kind.String())
	}
	if f.Batch {
		b.WriteString(" (batch)")
	}
	if f.Method != "" {
		b.WriteString(" " + f.Method)
	}
	if f.Call != nil && f.Call.Name != "" {
		b.WriteString(" " + f.Call.Name)
	}
	if f.ID != "" {
		b.WriteString(" id " + f.ID)
	}
	if r.Method != "" {
		fmt.Fprintf(&b, " [%s %s]", r.Method, r.Path)
	}
	if r.Status != 0 {
		fmt.Fprintf(&b, " [http %d]", r.Status)
	}
	if f.Call != nil && f.Kind == calls.KindResponse {
		fmt.Fprintf(&b, "  %s", f.Call.State)
		if f.Call.HasError {
			fmt.Fprintf(&b, " %d", f.Call.ErrorCode)
		}
		if d := f.Call.Duration(); d > 0 {
			b.WriteString(" " + fmtDur(d))
		}
	}
	if r.Truncated {
		fmt.Fprintf(&b, " (truncated, %d bytes)", r.Size)
	}
	if f.Redacted {
		b.WriteString(" (redacted)")
	}
	if len(f.Findings) > 0 {
		b.WriteString("  findings: " + strings.Join(f.Findings, ", "))
	}
	b.WriteByte('\n')
	s.w.WriteString(b.String())
	body := r.Frame
	if r.Dir == session.Meta {
		body = r.Info
	}
	if len(body) > 0 {
		for line := range strings.SplitSeq(strings.TrimRight(string(body), "\n"), "\n") {
			s.w.WriteString("    ")
			s.w.WriteString(strings.ToValidUTF8(line, "\uFFFD"))
			s.w.WriteByte('\n')
		}
	}
	if r.Error != "" {
		fmt.Fprintf(s.w, "    error: %s\n", r.Error)
	}
	return nil
}

func (s *textSink) item(*item) error { return nil }

func (s *textSink) finish(e *ending) error {
	for _, ss := range e.Sessions {
		sum := ss.Summary()
		fmt.Fprintf(s.w, "\n== summary %s (%s) ==\n", ss.ID, ss.Label)
		fmt.Fprintf(s.w, "calls %d, errors %d, frames %d, missing %d\n", ss.Calls, ss.Errors, ss.Frames, ss.MissingFrames())
		complete := ""
		if !sum.ListComplete {
			complete = " so far"
		}
		fmt.Fprintf(s.w, "definitions: %s, %s, ~%s%s\n", plural.Count(sum.ToolCount, "tool"), plural.Count(sum.DefinitionBytes, "byte"), plural.Count(sum.DefinitionTokens, "token"), complete)
		if len(sum.Tools) > 0 {
			tw := tabwriter.NewWriter(s.w, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "TOOL\tCALLS\tERR\tP50\tDEF\tDEF TOKENS\tRESULT")
			for _, t := range sum.Tools {
				fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%d\t%d\t%d\n", t.Name, t.Calls, t.Errors, fmtDur(t.Latency.P50),
					t.DefinitionBytes, t.DefinitionTokens, t.ResultBytes)
			}
			tw.Flush()
		}
		if len(sum.Undeclared) > 0 {
			fmt.Fprintf(s.w, "undeclared: %s\n", strings.Join(sum.Undeclared, ", "))
		}
	}
	if len(e.Findings) > 0 {
		fmt.Fprintf(s.w, "\n== findings ==\n")
		for _, f := range e.Findings {
			fmt.Fprintf(s.w, "%s seq %d %s: %s\n", f.Session, f.Seq, f.RuleID, f.Message)
		}
		if e.FindingsDropped > 0 {
			fmt.Fprintf(s.w, "(%d more %s not shown)\n", e.FindingsDropped, plural.Of(e.FindingsDropped, "finding", "findings"))
		}
	}
	for _, p := range e.Problems {
		fmt.Fprintf(s.w, "problem: %s\n", p)
	}
	return s.w.Flush()
}

func fmtDur(d time.Duration) string {
	switch {
	case d == 0:
		return "-"
	case d < time.Millisecond:
		return fmt.Sprintf("%dµs", d.Microseconds())
	case d < time.Second:
		return fmt.Sprintf("%.1fms", float64(d.Microseconds())/1000)
	}
	return fmt.Sprintf("%.2fs", d.Seconds())
}
