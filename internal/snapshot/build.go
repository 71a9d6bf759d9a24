package snapshot

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mcpward/mcpward/internal/mcp"
)

// BuildOptions configures [Build]. A nil *BuildOptions means defaults.
type BuildOptions struct {
	// MCPWardVersion is stamped into the snapshot.
	MCPWardVersion string
	// ProbeSpec is the declared probe spec; its hash makes two snapshots
	// comparable.
	ProbeSpec ProbeSpec
	// Volatile are dot-path selectors rooted at the surface (a leading
	// "surface." is accepted) whose values are replaced by type tokens
	// before digesting: numeric segments index arrays, a segment on an
	// array of entities also matches an element by name/uri/uriTemplate/
	// tool, and "*" matches every key or element.
	Volatile []string
}

// ProbeSpec is the part of the config that decides what a snapshot probed.
type ProbeSpec struct {
	Probes   []ProbeDecl
	Profiles []string
}

// ProbeDecl is one declared tools/call probe: mcpward's one probe type.
// The prober runs it (probe.Probe), compat replays it under every profile
// (compat.Probe, which ignores Capture), a fixture declares it
// (fixture.Probe), and its hash is part of the [ProbeSpec]. Only the
// config file's entry (config.Probe) is a type of its own, because it also
// carries whether the probe is enabled and why; its Decl method gives
// this.
type ProbeDecl struct {
	ID        string          `json:"id"`
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments,omitempty"` // nil means {}
	// Capture is "shape" ("" means shape) or "values".
	Capture string `json:"capture,omitempty"`
}

// Hash returns the hex sha256 of the JCS form of
// {probes:[{id,tool,arguments,capture}], profiles:[names]}.
func (p ProbeSpec) Hash() (string, error) {
	probes := make([]any, 0, len(p.Probes))
	for _, d := range p.Probes {
		var args any = map[string]any{}
		if len(bytes.TrimSpace(d.Arguments)) > 0 {
			v, err := decodeValue(d.Arguments)
			if err != nil {
				return "", fmt.Errorf("probe %s arguments: %w", d.ID, err)
			}
			args = v
		}
		capture := d.Capture
		if capture == "" {
			capture = CaptureShape
		}
		probes = append(probes, map[string]any{"id": d.ID, "tool": d.Tool, "arguments": args, "capture": capture})
	}
	profiles := make([]any, 0, len(p.Profiles))
	for _, n := range p.Profiles {
		profiles = append(profiles, n)
	}
	b, err := JCS(map[string]any{"probes": probes, "profiles": profiles})
	if err != nil {
		return "", fmt.Errorf("probe spec: %w", err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// Build turns evidence into a canonical snapshot. It does no I/O. An error
// means the options are unusable (a bad probe spec, a volatile selector
// that breaks a typed field); problems in the evidence become status,
// coverage and notes instead.
func Build(ev *Evidence, opts *BuildOptions) (*Snapshot, error) {
	if opts == nil {
		opts = &BuildOptions{}
	}
	if ev == nil {
		ev = &Evidence{}
	}
	hash, err := opts.ProbeSpec.Hash()
	if err != nil {
		return nil, err
	}
	b := &builder{ev: ev}
	snap := &Snapshot{
		FormatVersion:  FormatVersion,
		MCPWardVersion: opts.MCPWardVersion,
		RulesetVersion: RulesetVersion,
		ProbeSpecHash:  hash,
	}
	obs := &snap.Observation
	obs.RecordedAt = ev.RecordedAt.UTC().Format(time.RFC3339Nano)
	obs.Target = ev.Target
	obs.Era = ev.Era
	obs.DualEra = ev.DualEra
	if len(ev.DualEraVersions) > 0 {
		obs.DualEraVersions = slices.Compact(slices.Sorted(slices.Values(ev.DualEraVersions)))
	}
	obs.ProtocolVersion = ev.ProtocolVersion
	obs.ClientCapabilities = compactRaw(ev.ClientCapabilities)
	obs.ClientInfo = compactRaw(ev.ClientInfo)

	s := &snap.Surface
	s.Tools = []Object{}
	obs.SupportedVersionsSource = b.discover(s, &obs.Coverage.Discover)
	b.tools(s, &obs.Coverage.Tools)
	s.Resources, s.ResourcesList = b.list(ev.Resources, "resources", "uri", &obs.Coverage.Resources)
	s.ResourceTemplates, s.ResourceTemplatesList = b.list(ev.ResourceTemplates, "resourceTemplates", "uriTemplate", &obs.Coverage.ResourceTemplates)
	s.Prompts, s.PromptsList = b.list(ev.Prompts, "prompts", "name", &obs.Coverage.Prompts)
	b.manifest(s, &obs.Coverage.Manifest)
	b.behavior(s, &obs.Coverage.Probes)

	if len(opts.Volatile) > 0 {
		if err := applyVolatile(s, opts.Volatile); err != nil {
			return nil, err
		}
	}

	b.notes = append(b.notes, stderrNotes(ev.Stderr)...)
	b.notes = append(b.notes, ev.Notes...)
	obs.Status = b.status(s, obs)
	obs.Notes = sortNotes(b.notes)

	complete := obs.Status == StatusOK && obs.Coverage.complete()
	ents, err := entityDigests(s)
	if err != nil {
		obs.Notes = append(obs.Notes, Note{Kind: "prober", Rule: "hash_error", Snippet: err.Error()})
		complete = false
	} else if len(ents) > 0 {
		snap.EntityDigests = ents
	}
	if complete {
		d, err := SurfaceDigest(s)
		if err != nil {
			obs.Notes = append(obs.Notes, Note{Kind: "prober", Rule: "hash_error", Snippet: err.Error()})
		} else {
			snap.SurfaceDigest = d
		}
	}
	return snap, nil
}

func (c Coverage) complete() bool {
	for _, s := range []SectionCoverage{c.Discover, c.Tools, c.Resources, c.ResourceTemplates, c.Prompts, c.Manifest, c.Probes} {
		if !s.complete() {
			return false
		}
	}
	return true
}

type builder struct {
	ev    *Evidence
	notes []Note
}

func (b *builder) note(kind, rule, snippet string) {
	b.notes = append(b.notes, Note{Kind: kind, Rule: rule, Snippet: clip(snippet, 300)})
}

func compactRaw(r json.RawMessage) json.RawMessage {
	if len(bytes.TrimSpace(r)) == 0 || !json.Valid(r) {
		return nil
	}
	return r
}

// discover builds surface.discover and returns how its supportedVersions
// were learned ("" when there is no discover section).
func (b *builder) discover(s *Surface, cov *SectionCoverage) (source string) {
	ev := b.ev
	raw, legacy := ev.Discover, false
	if len(raw) == 0 && len(ev.Initialize) > 0 {
		raw, legacy = ev.Initialize, true
	}
	cov.Attempted = len(raw) > 0 || ev.DiscoverError != nil
	if len(raw) == 0 {
		if ev.DiscoverError != nil {
			cov.Error = ev.DiscoverError
		}
		return
	}
	o, err := decodeObject(raw)
	if err != nil {
		cov.Error = &SectionError{Kind: "malformed", Message: "discover result: " + err.Error()}
		return
	}
	cov.Completed = true
	d := &Discover{SupportedVersions: []string{}, Capabilities: Object{}, ServerInfo: Object{}}
	if c, ok := o["capabilities"].(map[string]any); ok {
		d.Capabilities = c
	}
	// The final 2026-07-28 spec puts serverInfo in the result's _meta; the
	// pre-release shape (and every legacy InitializeResult) has it at the
	// top level. Prefer _meta, fall back to the top level.
	if meta, ok := o["_meta"].(map[string]any); ok {
		if si, ok := meta["io.modelcontextprotocol/serverInfo"].(map[string]any); ok {
			d.ServerInfo = si
		}
	}
	if si, ok := o["serverInfo"].(map[string]any); ok && len(d.ServerInfo) == 0 {
		d.ServerInfo = si
	}
	if in, ok := o["instructions"].(string); ok {
		d.Instructions = &in
	}
	d.ProtocolVersion = Str(o, "protocolVersion")
	if d.ProtocolVersion == "" {
		d.ProtocolVersion = ev.ProtocolVersion
	}
	if legacy {
		switch {
		case ev.VersionsProbed && len(ev.LegacyVersions) > 0:
			d.SupportedVersions = slices.Compact(slices.Sorted(slices.Values(ev.LegacyVersions)))
			source = VersionsInitializeProbe
		case d.ProtocolVersion != "":
			d.SupportedVersions = []string{d.ProtocolVersion}
			source = VersionsNegotiated
		}
	} else {
		source = VersionsDiscover
		vs, _ := o["supportedVersions"].([]any)
		for _, v := range vs {
			if s, ok := v.(string); ok {
				d.SupportedVersions = append(d.SupportedVersions, s)
			}
		}
		slices.Sort(d.SupportedVersions)
		d.SupportedVersions = slices.Compact(d.SupportedVersions)
	}
	d.TTLMs, d.CacheScope = cacheHints(o)
	s.Discover = d
	return source
}

func cacheHints(o Object) (*json.Number, string) {
	var ttl *json.Number
	if n, ok := o["ttlMs"].(json.Number); ok {
		ttl = &n
	}
	return ttl, Str(o, "cacheScope")
}

// readPages decodes the pages of one enumeration and returns the items under
// key, the list info, and the first problem met.
func readPages(l ListEvidence, key string) ([]Object, *ListInfo, *SectionError) {
	info := &ListInfo{Pages: len(l.Pages)}
	var items []Object
	var problem *SectionError
	var scopes []string
	for i, p := range l.Pages {
		o, err := decodeObject(p)
		if err != nil {
			problem = cmp.Or(problem, &SectionError{Kind: "malformed", Message: fmt.Sprintf("page %d: %v", i+1, err)})
			scopes = append(scopes, "")
			continue
		}
		ttl, scope := cacheHints(o)
		if i == 0 {
			info.TTLMs, info.CacheScope = ttl, scope
		}
		scopes = append(scopes, scope)
		arr, ok := o[key].([]any)
		if !ok {
			problem = cmp.Or(problem, &SectionError{Kind: "malformed", Message: fmt.Sprintf("page %d: %q is not an array", i+1, key)})
			continue
		}
		for j, it := range arr {
			io, ok := it.(map[string]any)
			if !ok {
				problem = cmp.Or(problem, &SectionError{Kind: "malformed", Message: fmt.Sprintf("page %d: %s[%d] is not an object", i+1, key, j)})
				continue
			}
			items = append(items, io)
		}
	}
	for _, sc := range scopes {
		if sc != scopes[0] {
			info.PageScopes = scopes
			break
		}
	}
	return items, info, problem
}

// dedupe sorts items by their identity key and drops items without one and
// later duplicates, reporting both.
func dedupe(items []Object, key string) ([]Object, []string, bool) {
	out := make([]Object, 0, len(items))
	seen := map[string]bool{}
	var dups []string
	bad := false
	for _, it := range items {
		id, ok := it[key].(string)
		if !ok || id == "" {
			bad = true
			continue
		}
		if seen[id] {
			dups = append(dups, id)
			continue
		}
		seen[id] = true
		out = append(out, it)
	}
	slices.SortStableFunc(out, func(a, b Object) int { return strings.Compare(Str(a, key), Str(b, key)) })
	return out, dups, bad
}

func (b *builder) list(l ListEvidence, key, idKey string, cov *SectionCoverage) ([]Object, *ListInfo) {
	cov.Attempted = l.Attempted
	if !l.Attempted {
		return nil, nil
	}
	cov.Pages = len(l.Pages)
	if l.Err != nil && l.Err.Kind == "unsupported" && len(l.Pages) == 0 {
		cov.Completed, cov.Unsupported = true, true
		return nil, nil
	}
	items, info, problem := readPages(l, key)
	items, dups, bad := dedupe(items, idKey)
	if bad {
		problem = cmp.Or(problem, &SectionError{Kind: "malformed", Message: fmt.Sprintf("an entry of %s has no %s", key, idKey)})
	}
	if len(dups) > 0 {
		problem = cmp.Or(problem, &SectionError{Kind: "duplicate_identity", Message: fmt.Sprintf("duplicate %s in %s: %s", idKey, key, strings.Join(dups, ", "))})
		b.note("protocol", "duplicate_identity", key+": "+strings.Join(dups, ", "))
	}
	cov.Items = len(items)
	cov.Error = cmp.Or(l.Err, problem)
	cov.Completed = cov.Error == nil
	if items == nil {
		items = []Object{}
	}
	return items, info
}

func (b *builder) tools(s *Surface, cov *SectionCoverage) {
	ev := b.ev
	tools, info := b.list(ev.Tools, "tools", "name", cov)
	if tools == nil {
		tools = []Object{}
	}
	for _, t := range tools {
		if _, ok := t["xmcpHeaders"]; ok {
			b.note("protocol", "xmcpHeaders_field_shadowed", Str(t, "name"))
		}
		delete(t, "xmcpHeaders")
		if schema, ok := t["inputSchema"]; ok {
			if hs := xmcpHeaders(schema); len(hs) > 0 {
				t["xmcpHeaders"] = hs
			}
		}
	}
	s.Tools = tools
	if info == nil {
		return
	}
	tl := &ToolsList{ListInfo: *info, Order: pageOrder(ev.Tools), OrderStable: true}
	for _, r := range ev.ToolsRepeats {
		if !r.Complete() {
			continue
		}
		if !slices.Equal(tl.Order, pageOrder(r)) {
			tl.OrderStable = false
		}
	}
	s.ToolsList = tl
}

// pageOrder is the sequence of tool names across an enumeration's pages.
func pageOrder(l ListEvidence) []string {
	order := []string{}
	for _, p := range l.Pages {
		o, err := decodeObject(p)
		if err != nil {
			continue
		}
		arr, _ := o["tools"].([]any)
		for _, it := range arr {
			if t, ok := it.(map[string]any); ok {
				if n, ok := t["name"].(string); ok && n != "" {
					order = append(order, n)
				}
			}
		}
	}
	return order
}

// XMCPHeaders is the snapshot's computed x-mcp-header view of a tool's
// input schema (a decoded tree): its bindings sorted by path, nil when it
// has none. Converters of other tools' snapshots recompute it with this.
func XMCPHeaders(schema any) []any { return xmcpHeaders(schema) }

// xmcpHeaders computes the tool's x-mcp-header bindings in tree form.
func xmcpHeaders(schema any) []any {
	var raw bytes.Buffer
	if err := writeCompact(&raw, schema); err != nil {
		return nil
	}
	bs, err := headerBindings(raw.Bytes())
	if err != nil || len(bs) == 0 {
		return nil
	}
	out := make([]any, 0, len(bs))
	for _, h := range bs {
		viol := make([]any, 0, len(h.Violations))
		for _, v := range h.Violations {
			viol = append(viol, v)
		}
		out = append(out, map[string]any{"path": h.Path, "header": h.Header, "valid": h.Valid, "violations": viol})
	}
	slices.SortFunc(out, func(a, b any) int {
		return strings.Compare(a.(map[string]any)["path"].(string), b.(map[string]any)["path"].(string))
	})
	return out
}

// headerBindings adapts mcp.HeaderBindings (static x-mcp-header analysis)
// to the snapshot's XMCPHeader view.
func headerBindings(schema json.RawMessage) ([]XMCPHeader, error) {
	bs, err := mcp.HeaderBindings(schema)
	if err != nil {
		return nil, err
	}
	out := make([]XMCPHeader, 0, len(bs))
	for _, b := range bs {
		viol := b.Violations
		if viol == nil {
			viol = []string{}
		}
		out = append(out, XMCPHeader{Path: b.PathString, Header: b.Header, Valid: b.Valid, Violations: viol})
	}
	return out, nil
}

func (b *builder) status(s *Surface, obs *Observation) string {
	ev := b.ev
	cov := obs.Coverage
	authHint := false
	for _, n := range b.notes {
		if n.Rule == "auth_hint" {
			authHint = true
		}
	}
	if s.Discover == nil {
		e := cmp.Or(cov.Discover.Error, ev.DiscoverError)
		switch {
		case e != nil && e.Kind == "auth", authHint:
			return StatusAuthRequired
		case e != nil && e.Kind == "timeout":
			return StatusTimeout
		default:
			return StatusStartupError
		}
	}
	for _, sec := range []SectionCoverage{cov.Tools, cov.Resources, cov.ResourceTemplates, cov.Prompts, cov.Manifest, cov.Probes} {
		if sec.Error != nil && sec.Error.Kind == "auth" {
			return StatusAuthRequired
		}
	}
	if authHint && len(s.Tools) == 0 && len(s.Resources) == 0 && len(s.ResourceTemplates) == 0 && len(s.Prompts) == 0 {
		return StatusAuthGated
	}
	if !cov.complete() {
		return StatusPartial
	}
	return StatusOK
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !isRuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

func sortNotes(ns []Note) []Note {
	if len(ns) == 0 {
		return nil
	}
	out := slices.Clone(ns)
	slices.SortStableFunc(out, func(a, b Note) int {
		return cmp.Or(strings.Compare(a.Kind, b.Kind), strings.Compare(a.Rule, b.Rule), strings.Compare(a.Snippet, b.Snippet))
	})
	return slices.CompactFunc(out, func(a, b Note) bool { return a == b })
}
