package inspectcmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/mcpward/mcpward/internal/heuristic"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/mcp"
	"github.com/mcpward/mcpward/internal/plural"
	"github.com/mcpward/mcpward/internal/snapshot"
	"github.com/mcpward/mcpward/internal/termsafe"
)

type section struct {
	name string
	cov  snapshot.SectionCoverage
}

func sections(s *snapshot.Snapshot) []section {
	c := s.Observation.Coverage
	return []section{
		{"discover", c.Discover}, {"tools", c.Tools}, {"resources", c.Resources},
		{"resource templates", c.ResourceTemplates}, {"prompts", c.Prompts},
		{"manifest", c.Manifest}, {"probes", c.Probes},
	}
}

// render writes the human view. The layout is the same on and off a
// terminal except for wrapping width; it is deterministic for a given
// snapshot.
func render(ios *iostreams.IOStreams, s *snapshot.Snapshot, signals bool, local localLine) error {
	var buf bytes.Buffer
	w := &errWriter{w: &buf}
	renderTo(w, ios, s, signals, local)
	// Aligned columns leave padding after an empty last cell; trim it.
	lines := strings.SplitAfter(buf.String(), "\n")
	for i, l := range lines {
		if strings.HasSuffix(l, "\n") {
			lines[i] = strings.TrimRight(l[:len(l)-1], " ") + "\n"
		}
	}
	// Names, descriptions and stderr are the server's: no escape
	// sequence of theirs reaches the terminal.
	_, err := termsafe.NewWriter(ios.Out).Write([]byte(strings.Join(lines, "")))
	return err
}

// local, when set, is the line about a local server command.
func renderTo(w *errWriter, ios *iostreams.IOStreams, s *snapshot.Snapshot, signals bool, local localLine) {
	width := ios.TerminalWidth()
	if !ios.IsStdoutTTY() {
		width = 0 // no truncation when piped
	}
	o := s.Observation
	sf := &s.Surface

	// Header: who, which era, which version.
	name, version := "(unknown server)", ""
	if sf.Discover != nil {
		if n := snapshot.Str(sf.Discover.ServerInfo, "name"); n != "" {
			name = n
		}
		version = snapshot.Str(sf.Discover.ServerInfo, "version")
	}
	era := o.Era
	if o.DualEra {
		era = "dual-era (modern and legacy)"
	}
	if era == "" {
		era = "unknown era"
	}
	w.printf("%s %s — %s, MCP %s\n", name, version, era, o.ProtocolVersion)
	kv := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(kv, "  target\t%s\n", targetLine(o.Target))
	if local.text != "" {
		fmt.Fprintf(kv, "  %s\t%s\n", local.label, local.text)
	}
	if o.Status != snapshot.StatusOK {
		fmt.Fprintf(kv, "  status\t%s\n", statusLine(s))
	}
	if d := sf.Discover; d != nil {
		versions := orNone(strings.Join(d.SupportedVersions, ", "))
		if len(o.DualEraVersions) > 0 {
			versions += "; by initialize: " + strings.Join(o.DualEraVersions, ", ")
		}
		fmt.Fprintf(kv, "  versions\t%s\n", versions)
		fmt.Fprintf(kv, "  capabilities\t%s\n", orNone(capabilityLine(d.Capabilities)))
		if hints := cacheLine(s); hints != "" {
			fmt.Fprintf(kv, "  cache hints\t%s\n", hints)
		}
		if d.Instructions != nil && strings.TrimSpace(*d.Instructions) != "" {
			fmt.Fprintf(kv, "  instructions\t%s\n", clip(oneLine(*d.Instructions), width-18))
		}
	}
	if s.SurfaceDigest != "" {
		fmt.Fprintf(kv, "  surface\t%s\n", s.SurfaceDigest)
	} else {
		fmt.Fprintf(kv, "  surface\tno digest (the surface is incomplete)\n")
	}
	kv.Flush()

	renderTools(w, s, width)
	renderResources(w, s, width)
	renderPrompts(w, s, width)
	renderManifest(w, s)
	if signals {
		renderSignals(w, s)
	}
	renderNotes(w, s)
}

func renderTools(w *errWriter, s *snapshot.Snapshot, width int) {
	cov := s.Observation.Coverage.Tools
	tools := s.Surface.Tools
	w.printf("\nTools (%d)%s\n", len(tools), sectionSuffix(cov))
	if len(tools) == 0 {
		return
	}
	// Show tools in the server's own order when known.
	order := s.Surface.ToolNames()
	if tl := s.Surface.ToolsList; tl != nil && len(tl.Order) == len(tools) {
		order = tl.Order
	}
	byName := map[string]snapshot.Object{}
	for _, t := range tools {
		byName[snapshot.Str(t, "name")] = t
	}
	counts := map[heuristic.Risk]int{}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, n := range order {
		t := byName[n]
		label := heuristic.ClassifyDefinition(n, snapshot.Str(t, "description"), annotations(t), t["inputSchema"])
		counts[label.Risk]++
		desc := snapshot.Str(t, "title")
		if d := oneLine(snapshot.Str(t, "description")); d != "" {
			if desc != "" {
				desc += " — "
			}
			desc += d
		}
		mark := string(label.Risk)
		if label.Conflict {
			mark += "!"
		}
		extra := headerNote(t)
		fmt.Fprintf(tw, "  %s\t%s\t%s%s\n", n, mark, clip(desc, width-40), extra)
	}
	tw.Flush()
	var parts []string
	for _, r := range []heuristic.Risk{heuristic.Destructive, heuristic.Write, heuristic.Read} {
		if counts[r] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[r], r))
		}
	}
	w.printf("  labels: %s (heuristic from names, descriptions, input schemas and annotations; '!' = annotations disagree; not enforced)\n", strings.Join(parts, ", "))
}

func renderResources(w *errWriter, s *snapshot.Snapshot, width int) {
	c := s.Observation.Coverage
	sf := &s.Surface
	if c.Resources.Attempted || len(sf.Resources) > 0 {
		w.printf("\nResources (%d)%s\n", len(sf.Resources), sectionSuffix(c.Resources))
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, r := range sf.Resources {
			fmt.Fprintf(tw, "  %s\t%s\t%s\n", snapshot.Str(r, "uri"), snapshot.Str(r, "name"), snapshot.Str(r, "mimeType"))
		}
		tw.Flush()
	} else {
		w.printf("\nResources: not supported by server\n")
	}
	if c.ResourceTemplates.Attempted || len(sf.ResourceTemplates) > 0 {
		w.printf("\nResource templates (%d)%s\n", len(sf.ResourceTemplates), sectionSuffix(c.ResourceTemplates))
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, r := range sf.ResourceTemplates {
			fmt.Fprintf(tw, "  %s\t%s\t%s\n", snapshot.Str(r, "uriTemplate"), snapshot.Str(r, "name"), clip(oneLine(snapshot.Str(r, "description")), width-50))
		}
		tw.Flush()
	}
}

func renderPrompts(w *errWriter, s *snapshot.Snapshot, width int) {
	cov := s.Observation.Coverage.Prompts
	if !cov.Attempted && len(s.Surface.Prompts) == 0 {
		w.printf("\nPrompts: not supported by server\n")
		return
	}
	w.printf("\nPrompts (%d)%s\n", len(s.Surface.Prompts), sectionSuffix(cov))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	anyRequired := false
	for _, p := range s.Surface.Prompts {
		var args []string
		if list, ok := p["arguments"].([]any); ok {
			for _, a := range list {
				if ao, ok := a.(map[string]any); ok {
					n := snapshot.Str(ao, "name")
					if req, _ := ao["required"].(bool); req {
						n += "*"
						anyRequired = true
					}
					args = append(args, n)
				}
			}
		}
		fmt.Fprintf(tw, "  %s(%s)\t%s\n", snapshot.Str(p, "name"), strings.Join(args, ", "), clip(oneLine(snapshot.Str(p, "description")), width-40))
	}
	tw.Flush()
	if anyRequired {
		w.printf("  (* = required argument)\n")
	}
}

func renderManifest(w *errWriter, s *snapshot.Snapshot) {
	m := s.Surface.Manifest
	if m == nil {
		return
	}
	ops := 0
	for _, t := range m.Tools {
		if len(t.Operations) == 0 {
			ops++
		} else {
			ops += len(t.Operations)
		}
	}
	w.printf("\nManifest operations (%s): %s across %s\n", m.URI, plural.Count(ops, "operation"), plural.Count(len(m.Tools), "tool"))
	w.printf("  server-declared actions multiplexed behind the tools above\n")
	for _, t := range m.Tools {
		if len(t.Operations) == 0 {
			w.printf("  %s (single action)\n", t.Tool)
			continue
		}
		w.printf("  %s (%d): %s\n", t.Tool, len(t.Operations), strings.Join(t.Operations, ", "))
	}
}

func renderSignals(w *errWriter, s *snapshot.Snapshot) {
	in := heuristic.SignalInput{
		Tools:             decodeAll[mcp.Tool](s.Surface.Tools),
		Resources:         decodeAll[mcp.Resource](s.Surface.Resources),
		ResourceTemplates: decodeAll[mcp.ResourceTemplate](s.Surface.ResourceTemplates),
		Prompts:           decodeAll[mcp.Prompt](s.Surface.Prompts),
	}
	sigs := heuristic.Signals(in)
	if len(sigs) == 0 {
		return
	}
	w.printf("\nSignals (heuristic; may be false positives or negatives)\n")
	for _, sg := range sigs {
		w.printf("  %s: %s %s\n", sg.Rule, sg.Kind, sg.Name)
	}
}

// decodeAll reads snapshot entities as protocol types, for the heuristics
// that take them. An entity that does not decode is skipped: the heuristics
// are advisory and must not fail the report.
func decodeAll[T any](objs []snapshot.Object) []T {
	out := make([]T, 0, len(objs))
	for _, o := range objs {
		if v, ok := decodeAs[T](o); ok {
			out = append(out, v)
		}
	}
	return out
}

func decodeAs[T any](o any) (T, bool) {
	var v T
	b, err := json.Marshal(o)
	if err != nil {
		return v, false
	}
	return v, json.Unmarshal(b, &v) == nil
}

func renderNotes(w *errWriter, s *snapshot.Snapshot) {
	var notes []snapshot.Note
	for _, n := range s.Observation.Notes {
		if n.Kind == "prober" && n.Rule == "era_detection" || n.Kind == heuristicKind {
			continue // in --json; the view shows labels and signals itself
		}
		notes = append(notes, n)
	}
	if len(notes) == 0 {
		return
	}
	w.printf("\nNotes\n")
	for _, n := range notes {
		w.printf("  %s/%s: %s\n", n.Kind, n.Rule, clip(oneLine(n.Snippet), 120))
	}
}

// headerNote summarises a tool's x-mcp-header bindings, naming the rules
// an invalid binding breaks (an HTTP client must drop such a tool).
func headerNote(t snapshot.Object) string {
	hs, ok := t["xmcpHeaders"].([]any)
	if !ok || len(hs) == 0 {
		return ""
	}
	var bad []string
	for _, h := range hs {
		ho, _ := h.(map[string]any)
		vs, _ := ho["violations"].([]any)
		for _, v := range vs {
			if id, ok := v.(string); ok && !slices.Contains(bad, id) {
				bad = append(bad, id)
			}
		}
	}
	if len(bad) == 0 {
		return fmt.Sprintf(" [%d x-mcp-header]", len(hs))
	}
	slices.Sort(bad)
	return fmt.Sprintf(" [%d x-mcp-header, INVALID: %s]", len(hs), strings.Join(bad, ", "))
}

func annotations(t snapshot.Object) *mcp.ToolAnnotations {
	raw, ok := t["annotations"]
	if !ok {
		return nil
	}
	a, ok := decodeAs[mcp.ToolAnnotations](raw)
	if !ok {
		return nil
	}
	return &a
}

func targetLine(t snapshot.TargetInfo) string {
	switch t.Transport {
	case "fixture":
		return "fixture " + t.Fixture
	case "http", "sse":
		kind := "Streamable HTTP"
		if t.Transport == "sse" {
			kind = "HTTP+SSE (deprecated)"
		}
		return t.URL + " (" + kind + ")"
	}
	return strings.Join(append([]string{t.Command}, t.Args...), " ") + " (stdio)"
}

func statusLine(s *snapshot.Snapshot) string {
	var bad []string
	for _, sec := range sections(s) {
		if sec.cov.Error != nil {
			bad = append(bad, fmt.Sprintf("%s: %s", sec.name, sec.cov.Error.Message))
		}
	}
	if len(bad) == 0 {
		return s.Observation.Status
	}
	return s.Observation.Status + " — " + strings.Join(bad, "; ")
}

func sectionSuffix(c snapshot.SectionCoverage) string {
	switch {
	case c.Error != nil && c.Unsupported:
		return ": not supported by server"
	case c.Error != nil:
		return fmt.Sprintf(" — INCOMPLETE: %s (%s)", c.Error.Message, c.Error.Kind)
	case c.Pages > 1:
		return fmt.Sprintf(", %d pages", c.Pages)
	}
	return ""
}

func capabilityLine(caps snapshot.Object) string {
	keys := make([]string, 0, len(caps))
	for k, v := range caps {
		if sub, ok := v.(map[string]any); ok && len(sub) > 0 && k != "experimental" && k != "extensions" {
			var flags []string
			for fk, fv := range sub {
				if b, ok := fv.(bool); ok && b {
					flags = append(flags, fk)
				}
			}
			slices.Sort(flags)
			if len(flags) > 0 {
				k += " (" + strings.Join(flags, ", ") + ")"
			}
		}
		if ext, ok := v.(map[string]any); ok && k == "extensions" {
			ids := make([]string, 0, len(ext))
			for id := range ext {
				ids = append(ids, id)
			}
			slices.Sort(ids)
			k = "extensions: " + strings.Join(ids, ", ")
		}
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return strings.Join(keys, ", ")
}

func cacheLine(s *snapshot.Snapshot) string {
	var parts []string
	add := func(name string, ttl *json.Number, scope string) {
		if ttl == nil && scope == "" {
			parts = append(parts, name+": none")
			return
		}
		p := name + ":"
		if ttl != nil {
			p += " ttl " + ttl.String() + " ms"
		}
		if scope != "" {
			p += " " + scope
		}
		parts = append(parts, p)
	}
	if s.Observation.Era != snapshot.EraModern {
		return ""
	}
	if d := s.Surface.Discover; d != nil {
		add("discover", d.TTLMs, d.CacheScope)
	}
	if tl := s.Surface.ToolsList; tl != nil {
		add("tools/list", tl.TTLMs, tl.CacheScope)
	}
	return strings.Join(parts, " · ")
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// clip shortens s to n runes with an ellipsis; n <= 0 means no limit.
func clip(s string, n int) string {
	if n <= 0 {
		return s
	}
	n = max(n, 20)
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// errWriter keeps the first write error so rendering code stays linear.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}

func (e *errWriter) printf(format string, args ...any) { fmt.Fprintf(e, format, args...) }
