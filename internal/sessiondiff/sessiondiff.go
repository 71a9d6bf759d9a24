package sessiondiff

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/mcpward/mcpward/internal/diff"
	"github.com/mcpward/mcpward/internal/plural"
)

// A Call is one tools/call of a side.
type Call struct {
	Tool string
	// Key identifies the canonical (RFC 8785) arguments; Args is a short
	// display form of them.
	Key  string
	Args string
	// Status is the call state name (ok, error, pending, cancelled,
	// late_result, superseded, streaming).
	Status   string
	Duration time.Duration
	// Finished: the call has an end time (its duration is measured).
	Finished bool
	Line     int
}

// A Side is one session to compare.
type Side struct {
	// Name is what the report calls it (a file or session id).
	Name string
	// Tools are the tool definitions of the session's latest tools/list.
	Tools []ToolDef
	// Listed: a tools/list result was seen (else tools are not compared).
	Listed bool
	Calls  []Call
}

// A ToolDef is one raw tool definition.
type ToolDef struct {
	Name string
	Raw  []byte
}

// Options tune what counts as a difference.
type Options struct {
	// Threshold is the smallest absolute duration change reported.
	Threshold time.Duration
	// Ratio is the smallest slower/faster ratio reported (≥ 1).
	Ratio float64
	// CompareTools compares two tool lists and returns findings with the
	// snapshot diff's rule ids and tiers (baseline.Compare).
	// Nil skips the tool comparison.
	CompareTools func(a, b []ToolDef) []diff.Finding
	// FailOn, when set, makes a tool finding a regression when its tier
	// is at least FailOn (tool.added included); nil follows mcpsnoop
	// ([MCPSnoopRegression]).
	FailOn *diff.Tier
}

// MCPSnoopRegression reports whether a tool finding is a regression as
// mcpsnoop's diff counts them: a removed tool, or any change to a tool's
// description, title, input schema, output schema or annotations, whatever
// its tier (a new optional input, a whitespace-only description). Added
// tools, a newly promised output schema, icons, _meta and other tool
// fields are not.
func MCPSnoopRegression(f diff.Finding) bool {
	switch f.RuleID {
	case "tool.output.schema.added":
		return false
	case "tool.removed", "tool.description.changed", "tool.title.changed", "text.whitespace-only", "output.enum.added":
		return true
	}
	for _, p := range []string{"tool.input.", "tool.output.", "annotation.", "xhdr."} {
		if strings.HasPrefix(f.RuleID, p) {
			return true
		}
	}
	return false
}

// A StatusChange is a call whose outcome differs.
type StatusChange struct {
	Tool       string `json:"tool"`
	Args       string `json:"args"`
	Occurrence int    `json:"occurrence"`
	Before     string `json:"before"`
	After      string `json:"after"`
	Regression bool   `json:"regression"`
	LineA      int    `json:"lineA,omitempty"`
	LineB      int    `json:"lineB,omitempty"`
}

// A DurationChange is a notable change in a call's duration.
type DurationChange struct {
	Tool       string  `json:"tool"`
	Args       string  `json:"args"`
	Occurrence int     `json:"occurrence"`
	BeforeMs   float64 `json:"beforeMs"`
	AfterMs    float64 `json:"afterMs"`
	Slower     bool    `json:"slower"`
	LineA      int     `json:"lineA,omitempty"`
	LineB      int     `json:"lineB,omitempty"`
}

// A ToolChange is a tool definition finding and whether it regresses.
type ToolChange struct {
	diff.Finding
	Regression bool `json:"regression"`
}

// A Report is the comparison of two sessions.
type Report struct {
	A          string           `json:"a"`
	B          string           `json:"b"`
	Tools      []ToolChange     `json:"tools"`
	Calls      []StatusChange   `json:"calls"`
	Durations  []DurationChange `json:"durations"`
	OnlyInA    int              `json:"onlyInA"`
	OnlyInB    int              `json:"onlyInB"`
	Matched    int              `json:"matched"`
	Regression bool             `json:"regression"`
	// ToolsCompared is false when a side had no tools/list.
	ToolsCompared bool `json:"toolsCompared"`
}

// Differences counts the reported differences.
func (r *Report) Differences() int { return len(r.Tools) + len(r.Calls) + len(r.Durations) }

// Rank orders call outcomes from good to bad: error 2, pending and
// cancellations 1, anything else 0.
func Rank(status string) int {
	switch status {
	case "error":
		return 2
	case "pending", "cancelled", "late_result":
		return 1
	}
	return 0
}

// Compare compares a (before) with b (after).
func Compare(a, b *Side, opts *Options) *Report {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Ratio < 1 {
		o.Ratio = 1
	}
	r := &Report{A: a.Name, B: b.Name, Tools: []ToolChange{}, Calls: []StatusChange{}, Durations: []DurationChange{}}
	if o.CompareTools != nil && a.Listed && b.Listed {
		r.ToolsCompared = true
		for _, f := range o.CompareTools(a.Tools, b.Tools) {
			reg := MCPSnoopRegression(f)
			if o.FailOn != nil {
				reg = f.Tier >= *o.FailOn
			}
			r.Tools = append(r.Tools, ToolChange{Finding: f, Regression: reg})
			r.Regression = r.Regression || reg
		}
	}
	type key struct{ tool, args string }
	bq := map[key][]int{}
	for i, c := range b.Calls {
		k := key{c.Tool, c.Key}
		bq[k] = append(bq[k], i)
	}
	seen := map[key]int{}
	for _, ca := range a.Calls {
		k := key{ca.Tool, ca.Key}
		n := seen[k]
		seen[k] = n + 1
		if n >= len(bq[k]) {
			r.OnlyInA++
			continue
		}
		cb := b.Calls[bq[k][n]]
		r.Matched++
		if ca.Status != cb.Status {
			reg := Rank(cb.Status) > Rank(ca.Status)
			r.Calls = append(r.Calls, StatusChange{Tool: ca.Tool, Args: ca.Args, Occurrence: n + 1,
				Before: ca.Status, After: cb.Status, Regression: reg, LineA: ca.Line, LineB: cb.Line})
			r.Regression = r.Regression || reg
		}
		if ca.Finished && cb.Finished && notable(ca.Duration, cb.Duration, o) {
			slower := cb.Duration > ca.Duration
			r.Durations = append(r.Durations, DurationChange{Tool: ca.Tool, Args: ca.Args, Occurrence: n + 1,
				BeforeMs: ms(ca.Duration), AfterMs: ms(cb.Duration), Slower: slower, LineA: ca.Line, LineB: cb.Line})
			r.Regression = r.Regression || slower
		}
	}
	for k, idx := range bq {
		if extra := len(idx) - seen[k]; extra > 0 {
			r.OnlyInB += extra
		}
	}
	return r
}

// notable: the change is at least the threshold and the ratio, or one
// side took no measurable time.
func notable(a, b time.Duration, o Options) bool {
	d := b - a
	if d < 0 {
		d = -d
	}
	if d == 0 || d < o.Threshold {
		return false
	}
	lo, hi := min(a, b), max(a, b)
	if lo <= 0 {
		return true
	}
	return float64(hi)/float64(lo) >= o.Ratio
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// WriteText writes the report for people.
func WriteText(w io.Writer, r *Report) error {
	var b strings.Builder
	fmt.Fprintf(&b, "mcpward sessions diff %s -> %s\n", r.A, r.B)
	if r.Differences() == 0 {
		b.WriteString("no differences found")
		if !r.ToolsCompared {
			b.WriteString(" (tools not compared: a session has no tools/list)")
		}
		fmt.Fprintf(&b, "\n%s matched, %d only in %s, %d only in %s\n", plural.Count(r.Matched, "call"), r.OnlyInA, r.A, r.OnlyInB, r.B)
		_, err := io.WriteString(w, b.String())
		return err
	}
	if len(r.Tools) > 0 {
		b.WriteString("tools:\n")
		for _, t := range r.Tools {
			fmt.Fprintf(&b, "  %s %s %s: %s\n", t.Tier, t.RuleID, t.Subject, t.Message)
		}
	}
	if len(r.Calls) > 0 {
		b.WriteString("calls:\n")
		for _, c := range r.Calls {
			fmt.Fprintf(&b, "  status changed: %s %s%s %s -> %s\n", c.Tool, c.Args, nth(c.Occurrence), c.Before, c.After)
		}
	}
	if len(r.Durations) > 0 {
		b.WriteString("durations:\n")
		for _, d := range r.Durations {
			word := "faster"
			if d.Slower {
				word = "slower"
			}
			fmt.Fprintf(&b, "  %s: %s %s%s %s -> %s\n", word, d.Tool, d.Args, nth(d.Occurrence),
				fmtMs(d.BeforeMs), fmtMs(d.AfterMs))
		}
	}
	fmt.Fprintf(&b, "%s matched, %d only in %s, %d only in %s\n", plural.Count(r.Matched, "call"), r.OnlyInA, r.A, r.OnlyInB, r.B)
	_, err := io.WriteString(w, b.String())
	return err
}

func nth(n int) string {
	if n <= 1 {
		return ""
	}
	return fmt.Sprintf(" (#%d)", n)
}

func fmtMs(v float64) string {
	if v >= 1000 {
		return fmt.Sprintf("%.2fs", v/1000)
	}
	return fmt.Sprintf("%.1fms", v)
}
