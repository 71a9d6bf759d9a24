package github

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/mcpward/mcpward/internal/diff"
	"github.com/mcpward/mcpward/internal/report/render"
	"github.com/mcpward/mcpward/internal/report/text"
	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/termsafe"
)

// Write renders r as workflow commands followed by the text report.
func Write(w io.Writer, r *result.Result) error {
	var report bytes.Buffer
	// The log group is the full report: compat's assertions and verdict
	// grid included.
	if err := text.WriteOptions(&report, r, &text.Options{CompatDetail: true}); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	if len(r.Targets) > 0 {
		writeFleetAnnotations(bw, r)
	} else {
		writeAnnotations(bw, r, "")
	}
	// The token only has to be one the report cannot contain; a hash of the
	// report is such a token and keeps the output deterministic.
	sum := sha256.Sum256(report.Bytes())
	token := "mcpward-" + hex.EncodeToString(sum[:16])
	fmt.Fprintf(bw, "::group::mcpward %s report\n", EscapeData(termsafe.Line(r.Command)))
	fmt.Fprintf(bw, "::stop-commands::%s\n", token)
	bw.Write(report.Bytes())
	fmt.Fprintf(bw, "::%s::\n", token)
	bw.WriteString("::endgroup::\n")
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write github annotations: %w", err)
	}
	return nil
}

// writeAnnotations annotates r's findings; a fleet section's (target
// named) titles start with the target's name.
func writeAnnotations(w *bufio.Writer, r *result.Result, target string) {
	prefix, suffix := "", ""
	if target != "" {
		prefix, suffix = target+": ", " "+target
	}
	annotate(w, "notice", "mcpward "+r.Command+suffix, nil, render.SummaryLine(r))
	for _, p := range render.Problems(r) {
		annotate(w, "error", prefix+"incomplete evidence", nil, p)
	}
	for _, f := range r.Findings {
		annotate(w, tierLevel(f.Tier), prefix+f.Tier.String()+": "+f.RuleID, f.Location, f.Subject+" — "+f.Message)
	}
	for _, v := range render.RuleFindings(r) {
		msg := v.Subject + " — " + v.Message
		var tags []string
		if v.Level != "" {
			tags = append(tags, v.Level)
		}
		if v.Profile != "" {
			tags = append(tags, "profile "+v.Profile)
		}
		if v.Spec != "" {
			tags = append(tags, v.Spec)
		}
		if len(tags) > 0 {
			msg += " (" + strings.Join(tags, "; ") + ")"
		}
		annotate(w, classLevel(v.Class), prefix+v.Class+": "+v.RuleID, v.Location, msg)
	}
}

func tierLevel(t diff.Tier) string {
	switch t {
	case diff.Breaking:
		return "error"
	case diff.Risky:
		return "warning"
	}
	return "notice"
}

func classLevel(c string) string {
	switch c {
	case "violation":
		return "error"
	case "risky":
		return "warning"
	}
	return "notice"
}

// annotate writes one ::level file=…,line=…,title=…::message command.
func annotate(w *bufio.Writer, level, title string, loc *result.Location, msg string) {
	w.WriteString("::")
	w.WriteString(level)
	sep := " "
	prop := func(k, v string) {
		w.WriteString(sep)
		w.WriteString(k)
		w.WriteByte('=')
		w.WriteString(EscapeProperty(v))
		sep = ","
	}
	if loc != nil && loc.File != "" {
		prop("file", loc.File)
		if loc.Line > 0 {
			prop("line", strconv.Itoa(loc.Line))
		}
	}
	prop("title", termsafe.Line(title))
	w.WriteString("::")
	w.WriteString(EscapeData(termsafe.Line(msg)))
	w.WriteByte('\n')
}

// EscapeData escapes a workflow command's message: %, CR and LF.
func EscapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// EscapeProperty escapes a workflow command's property value: what
// EscapeData escapes, plus : and , which end a property.
func EscapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
