package overlays

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcpward/mcpward/internal/calls"
	"github.com/mcpward/mcpward/internal/plural"
	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/termsafe"
	"github.com/mcpward/mcpward/internal/tui/common"
	"github.com/mcpward/mcpward/internal/tui/components/textview"
	"github.com/mcpward/mcpward/internal/tui/format"
	"github.com/mcpward/mcpward/internal/tui/keymap"
	"github.com/mcpward/mcpward/internal/tui/store"
)

// Inspector shows one frame: a title line (FRAME i/N: the frame's place
// among the N wire frames shown, the count of the stream footer's
// "frames N/total"; "–" for a record that is not a wire frame; direction, method,
// id, duration, status, the request ⇄ response pair), HTTP headers, and
// the body as pretty JSON with line numbers. rec is the row's record (nil:
// no longer held by the source).
func Inspector(c common.Common, ss *store.Session, r *store.Row, rec *session.Record, index, total int) (string, []string, []string) {
	st := c.Styles
	pair := "–"
	if r.Call != nil {
		switch {
		case r.Unanswered():
			pair = fmt.Sprintf("req %d ⇄ %s", r.Call.ReqSeq, format.Unanswered)
		case r.Call.State == calls.Streaming:
			pair = fmt.Sprintf("req %d ⇄ streaming", r.Call.ReqSeq)
		case r.Call.State.Open():
			pair = fmt.Sprintf("req %d ⇄ pending", r.Call.ReqSeq)
		case r.Call.State == calls.Cancelled:
			pair = fmt.Sprintf("req %d ⇄ cancel", r.Call.ReqSeq)
		default:
			pair = fmt.Sprintf("req %d ⇄ resp %d", r.Call.ReqSeq, r.Call.RespSeq)
		}
	}
	method := r.Method
	if r.Tool != "" {
		method += " " + r.Tool
	}
	place := fmt.Sprintf("FRAME %d/%d", index, total)
	if index == 0 {
		place = fmt.Sprintf("FRAME –/%d (not a wire frame)", total) // a start, exit or stderr record, a batch's later element
	}
	title := fmt.Sprintf("%s  %s %s  id %s  %s  %s  %s  %s", place, format.Glyph(r), method,
		orDash(r.ID), orDash(format.Duration(r, c.Now())), orDash(store.Status(r)), pair,
		r.Time.Format("2006-01-02 15:04:05.000"))
	var lines, plain []string
	add := func(s string) { lines, plain = append(lines, st.Faint.Render(s)), append(plain, s) }
	if rec != nil {
		var hs []string
		for _, name := range sortedKeys(rec.Header) {
			hs = append(hs, name+": "+strings.Join(rec.Header[name], ", "))
		}
		if rec.Status != 0 {
			hs = append(hs, fmt.Sprintf("status %d", rec.Status))
		}
		if rec.AuthChallenge != "" {
			hs = append(hs, "WWW-Authenticate: "+rec.AuthChallenge)
		}
		if rec.MCPSessionID != "" {
			hs = append(hs, "Mcp-Session-Id: "+rec.MCPSessionID)
		}
		if len(hs) > 0 {
			add(strings.Join(hs, " · "))
		}
		if w := store.Warning(r); w != "" {
			add("⚠ " + w)
		}
		if r.Batch > 0 {
			add(fmt.Sprintf("batch element %d", r.Batch))
		}
		body := rec.Frame
		if rec.Dir == "meta" {
			body = rec.Info
		}
		s, p := PrettyJSON(st, body)
		lines, plain = append(lines, s...), append(plain, p...)
	} else {
		add("(frame no longer held; it is in the session log)")
	}
	return title, lines, plain
}

func orDash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}

func sortedKeys(m map[string][]string) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

type capSet map[string]json.RawMessage

func parseCaps(raw json.RawMessage) capSet {
	var m capSet
	_ = json.Unmarshal(raw, &m) // absent or malformed: nothing declared
	return m
}

var deprecatedCaps = map[string]string{
	"roots":    "deprecated in 2026-07-28: pass paths as tool arguments",
	"sampling": "deprecated in 2026-07-28",
	"logging":  "deprecated in 2026-07-28: use stderr or a log resource",
}

// Caps shows both sides' capabilities, extensions, deprecations and the
// server's instructions.
//
// client is the client's "name version" from the source, used when the
// correlation saw no clientInfo.
func Caps(c common.Common, cs *calls.Session, client, instructions string) (string, []string, []string) {
	if cs == nil {
		return "CAPABILITIES", []string{"no session"}, nil
	}
	title := "CAPABILITIES  protocol " + orDash(string(cs.Revision))
	var out []string
	side := func(who, name, version string, raw json.RawMessage, known []string) {
		out = append(out, fmt.Sprintf("%s  %s %s", who, orDash(name), version))
		caps := parseCaps(raw)
		for _, k := range known {
			mark := "○"
			if _, ok := caps[k]; ok {
				mark = "●"
			}
			line := fmt.Sprintf("  %s %s", mark, k)
			if d := deprecatedCaps[k]; d != "" && mark == "●" {
				line += "  (" + d + ")"
			}
			out = append(out, line)
		}
		for _, k := range sortedCaps(caps) {
			if !slices.Contains(known, k) && k != "extensions" && k != "experimental" {
				out = append(out, "  ● "+k)
			}
		}
		out = append(out, "")
	}
	cname, cver := cs.ClientName, cs.ClientVersion
	if cname == "" {
		cname, cver = client, ""
	}
	side("client", cname, cver, cs.InitCaps, []string{"roots", "sampling", "elicitation"})
	side("server", cs.ServerName, cs.ServerVersion, cs.ServerCaps, []string{"tools", "resources", "prompts", "logging", "completions"})
	ce := extensions(cs.InitCaps)
	se := extensions(cs.ServerCaps)
	var ids []string
	for k := range ce {
		ids = append(ids, k)
	}
	for k := range se {
		if _, ok := ce[k]; !ok {
			ids = append(ids, k)
		}
	}
	slices.Sort(ids)
	if len(ids) > 0 {
		out = append(out, "extensions")
		for _, id := range ids {
			_, inC := ce[id]
			_, inS := se[id]
			switch {
			case inC && inS:
				out = append(out, "  ● "+id)
			case inC:
				out = append(out, "  ○ "+id+" (client only)")
			default:
				out = append(out, "  ○ "+id+" (server only)")
			}
		}
		out = append(out, "")
	}
	if instructions != "" {
		out = append(out, "instructions")
		for _, l := range strings.Split(instructions, "\n") {
			out = append(out, "  "+l)
		}
	}
	return title, out, nil
}

func sortedCaps(m capSet) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

func extensions(raw json.RawMessage) capSet { return parseCaps(parseCaps(raw)["extensions"]) }

// Instructions finds the server's instructions in the held rows (the
// initialize or server/discover result).
func Instructions(ss *store.Session) string {
	if ss == nil {
		return ""
	}
	for i := ss.Len() - 1; i >= 0; i-- {
		r := ss.At(i)
		if r.Kind != calls.KindResponse || (r.Method != "initialize" && r.Method != "server/discover") {
			continue
		}
		if r.Instructions != "" {
			return r.Instructions
		}
	}
	return ""
}

// Bytes formats a size in binary units.
func Bytes(n int64) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/1024)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}

// Summary shows the per-tool cost and latency table: calls, errors, p50,
// definition and result cost in bytes and estimated tokens, then the
// heaviest result and undeclared tools. It starts with how the tools
// compare with the stored baseline: each drift finding (tier, kind, tool)
// with the command that accepts them (log is the session's log, "" when
// unknown), or why the baseline could not be read; then the scan rules'
// findings on the tool definitions (level, rule, tool and field).
func Summary(c common.Common, sum calls.Summary, drift store.Drift, log string) (string, []string, []string) {
	st := c.Styles
	var lines, plain []string
	add := func(s string, style func(...string) string) {
		plain = append(plain, s)
		if style != nil {
			s = style(s)
		}
		lines = append(lines, s)
	}
	switch {
	case drift.Failed():
		add("baseline     cannot be used: "+drift.Err.Error(), st.Err.Render)
		add("", nil)
	case drift.Drifted():
		n := len(drift.Findings)
		add(fmt.Sprintf("drift        %d tool definition %s since the baseline", n, plural.Of(n, "change", "changes")), st.Warn.Render)
		for _, f := range drift.Findings {
			add(fmt.Sprintf("  %-10s %-34s %s", f.Tier, f.RuleID, findingTool(f.Subject)), st.Warn.Render)
		}
		accept := "mcpward sessions baseline --accept"
		if log != "" {
			accept += " " + shellQuote(log)
		}
		add("  accept them: "+accept, st.Faint.Render)
		add("", nil)
	case drift.Predates != "":
		add("baseline     not compared: this session predates the baseline", st.Faint.Render)
		add("  "+drift.Predates, st.Faint.Render)
		add("", nil)
	case drift.Recorded:
		add("baseline     recorded from this session: first sight, trusted, not verified", st.Faint.Render)
		add("", nil)
	case drift.Found:
		add("baseline     no drift from the recorded tool definitions", st.Faint.Render)
		add("", nil)
	case drift.Checked:
		add("baseline     none recorded for this server (mcpward sessions baseline records one)", st.Faint.Render)
		add("", nil)
	}
	if n := len(drift.Scan); n > 0 {
		add(fmt.Sprintf("scan         %d %s on the tool definitions (the scan rules, as sessions check reports them)", n, plural.Of(n, "finding", "findings")), st.Warn.Render)
		for _, f := range drift.Scan {
			add(fmt.Sprintf("  %-10s %-34s %s", f.Level, f.Rule, termsafe.Line(strings.TrimSpace(f.Tool+" "+f.Field))), st.Warn.Render)
		}
		add("", nil)
	}
	so := ""
	if !sum.ListComplete {
		so = " so far"
	}
	add(fmt.Sprintf("definitions  %s · %s · ~%s%s (paid on every conversation)",
		plural.Count(sum.ToolCount, "tool"), Bytes(sum.DefinitionBytes), plural.Count(sum.DefinitionTokens, "token"), so), nil)
	add("", nil)
	// The tool column takes what the numbers leave, so the table fits the
	// panel without wrapping (at 80 columns a row used to wrap mid-word);
	// on a narrower panel the rightmost columns are left out, whole,
	// rather than wrapped onto a line of their own.
	type column struct {
		head string
		w    int
		cell func(t *calls.ToolSummary) string
	}
	cols := []column{
		{"CALLS", 6, func(t *calls.ToolSummary) string { return fmt.Sprint(t.Calls) }},
		{"ERR", 4, func(t *calls.ToolSummary) string {
			if t.Errors > 0 {
				return fmt.Sprint(t.Errors)
			}
			return "·"
		}},
		{"P50", 8, func(t *calls.ToolSummary) string {
			if t.Calls == 0 {
				return "–"
			}
			return format.Dur(t.Latency.P50)
		}},
		{"DEF", 13, func(t *calls.ToolSummary) string {
			return fmt.Sprintf("%s ~%dt", Bytes(t.DefinitionBytes), t.DefinitionTokens)
		}},
		{"RESULT", 13, func(t *calls.ToolSummary) string { return fmt.Sprintf("%s ~%dt", Bytes(t.ResultBytes), t.ResultTokens) }},
	}
	inner := textview.InnerWidth(c.Width)
	numW := func() int {
		n := 0
		for _, col := range cols {
			n += 1 + col.w
		}
		return n
	}
	for len(cols) > 1 && 8+numW() > inner {
		cols = cols[:len(cols)-1]
	}
	nameW := max(8, min(32, inner-numW()))
	row := func(name string, cell func(col column) string) string {
		var b strings.Builder
		fmt.Fprintf(&b, "%-*s", nameW, name)
		for _, col := range cols {
			fmt.Fprintf(&b, " %*s", col.w, cell(col))
		}
		return b.String()
	}
	add(row("TOOL", func(col column) string { return col.head }), st.TableHeader.Render)
	for i := range sum.Tools {
		t := &sum.Tools[i]
		line := row(trunc(t.Name, nameW), func(col column) string { return col.cell(t) })
		var style func(...string) string
		switch {
		case !t.Declared:
			style = st.Err.Render
		case t.Errors > 0:
			style = st.Warn.Render
		case t.Calls == 0:
			style = st.Faint.Render
		}
		add(line, style)
	}
	add("", nil)
	if sum.Heaviest != "" {
		var max int64
		for _, t := range sum.Tools {
			if t.Name == sum.Heaviest {
				max = t.MaxResultBytes
			}
		}
		add(fmt.Sprintf("heaviest     %s (%s in one result)", sum.Heaviest, Bytes(max)), nil)
	}
	if len(sum.Undeclared) > 0 {
		add("undeclared   "+strings.Join(sum.Undeclared, ", "), st.Err.Render)
	}
	if len(sum.Slowest) > 0 {
		var s []string
		for _, cr := range sum.Slowest {
			s = append(s, fmt.Sprintf("%s id %s %s", strings.TrimSpace(cr.Method+" "+cr.Name), cr.ID, format.Dur(cr.Duration)))
		}
		add("slowest      "+strings.Join(s, "; "), nil)
	}
	add(fmt.Sprintf("latency      p50 %s · p95 %s · p99 %s",
		format.Dur(sum.Latency.P50), format.Dur(sum.Latency.P95), format.Dur(sum.Latency.P99)), st.Faint.Render)
	// Its own line: appended to the latency line it wrapped mid-phrase at 80 columns.
	add("tokens       estimated for cl100k/o200k tokenizers", st.Faint.Render)
	return "TOOL SUMMARY", lines, plain
}

// findingTool returns the tool a baseline finding is about: its subject
// is `tool "name"`.
func findingTool(subject string) string {
	if q, ok := strings.CutPrefix(subject, "tool "); ok {
		if name, err := strconv.Unquote(q); err == nil {
			return name
		}
	}
	return subject
}

// shellQuote quotes s for a POSIX shell when it holds anything but plain
// path characters.
func shellQuote(s string) string {
	plain := strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+:@,=", r))
	}) < 0
	if plain && s != "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func trunc(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// Help lists the key bindings by group and the filter grammar.
func Help(km *keymap.KeyMap, version string) (string, []string, []string) {
	names := []string{"navigation", "actions", "inspector and overlays", "sort sessions", "sort stream"}
	var out []string
	for i, g := range km.Groups() {
		out = append(out, names[i])
		for _, b := range g {
			h := b.Help()
			out = append(out, fmt.Sprintf("  %-14s %s", h.Key, h.Desc))
		}
		out = append(out, "")
	}
	out = append(out, "filter (tokens are ANDed; other text matches anywhere)",
		"  tool:NAME  t:      method:M  m:      id:7  id:abc  id:\"abc\"   task:ID",
		"  dir:c2s|s2c|stderr   kind:req|resp|notify|stderr|invalid|transport",
		"  status:ok|err|warn|bad|pending|cancel|late|cancelled|mismatch|<http code>",
		"",
		"commands (:)",
		"  :q  :help  :sessions  :stream  :summary  :caps  :export [jsonl] [path]  :LABEL",
		"",
		"mcpward "+version)
	return "HELP", out, nil
}

// ReplayState is what the replay overlay shows.
type ReplayState struct {
	Unavailable string // why replay cannot run, if it cannot
	Confirm     string // the argv to confirm before the first replay
	Running     bool
	Result      *common.ReplayResult
	Started     time.Time
}

// Replay renders the replay overlay.
func Replay(c common.Common, s ReplayState) (string, []string, []string) {
	var out []string
	switch {
	case s.Unavailable != "":
		out = append(out, "replay unavailable: "+s.Unavailable)
	case s.Confirm != "":
		out = append(out, "replay runs: "+s.Confirm, "", "y to run, any other key cancels")
	case s.Running:
		out = append(out, "replaying… "+format.Dur(c.Now().Sub(s.Started)))
	case s.Result != nil:
		r := s.Result
		head := "ok"
		if r.Err != nil {
			head = "ERROR " + r.Err.Error()
		}
		out = append(out, fmt.Sprintf("%s  %s", head, format.Dur(r.Duration)), "", "request")
		_, p := PrettyJSON(c.Styles, r.Request)
		out = append(out, p...)
		out = append(out, "", "response")
		_, p = PrettyJSON(c.Styles, r.Response)
		out = append(out, p...)
	}
	return "REPLAY", out, nil
}
