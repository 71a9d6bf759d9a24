// Package surfaceprint converts the files of mcp-surfaceprint to mcpward's,
// in memory. It does no I/O. Anything that cannot be mapped is named in a
// snapshot note (kind "import"), never dropped silently.
//
// Two inputs are read: a versioned snapshot (snapshotFormatVersion "1":
// observation, surface, surfaceDigest) and the legacy, unversioned report
// that came before it (server, tools with names and risk labels, resource
// URIs). The surface goes through [snapshot.Build] as if a server had
// answered with it, so an imported snapshot has the same shape, status
// rules and digests as one mcpward records, and `diff` and `check` treat
// both alike.
//
// What surfaceprint never captured stays absent, is named in a note and
// listed in the snapshot's Observation.Uncaptured ([Uncaptured]), so that
// a diff does not take its absence for a change: tool titles,
// annotations, output schemas, icons and _meta; server version and
// instructions; capability sub-features (it kept booleans); list entries
// after the first page.
// A legacy report also lacks input schemas and resource metadata, so it
// is read as partial: its tools, resources and prompts sections are
// marked incomplete, there is no digest, and a diff against it is
// incomplete evidence (exit 2), never "no change".
package surfaceprint

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mcpward/mcpward/internal/migrate"
	"github.com/mcpward/mcpward/internal/plural"
	"github.com/mcpward/mcpward/internal/snapshot"
)

// FormatVersion is the only snapshotFormatVersion surfaceprint wrote.
const FormatVersion = "1"

// noteKind is the kind of every note this package adds.
const noteKind = "import"

// ErrUnsupportedVersion is returned for a snapshotFormatVersion other
// than "1".
var ErrUnsupportedVersion = errors.New("unsupported snapshotFormatVersion")

// Snapshot converts a surfaceprint snapshot or legacy report to an
// mcpward snapshot.
func Snapshot(data []byte) (*snapshot.Snapshot, error) {
	doc, err := migrate.DecodeObject(data)
	if err != nil {
		return nil, fmt.Errorf("mcp-surfaceprint file: %w", err)
	}
	if v, ok := doc["snapshotFormatVersion"]; ok {
		if s := versionString(v); s != FormatVersion {
			return nil, fmt.Errorf("mcp-surfaceprint snapshot: %w: %s (mcpward reads %q)", ErrUnsupportedVersion, s, FormatVersion)
		}
		return fromSnapshot(doc)
	}
	return fromLegacy(doc)
}

// versionString is Python's str() of the version value, which is what
// surfaceprint compared: "1" and 1 are both version 1.
func versionString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return x.String()
	case nil:
		return "None"
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// converter collects the evidence and the import notes of one file.
type converter struct {
	ev    snapshot.Evidence
	notes []snapshot.Note
	// provenance is the sha256 surfaceprint noted for the raw manifest.
	provenance string
	// uncaptured becomes the snapshot's Observation.Uncaptured.
	uncaptured []string
}

func (c *converter) note(rule, format string, args ...any) {
	c.notes = append(c.notes, snapshot.Note{Kind: noteKind, Rule: rule, Snippet: fmt.Sprintf(format, args...)})
}

// build runs the evidence through snapshot.Build and adds the notes.
func (c *converter) build(sourceStatus string) (*snapshot.Snapshot, error) {
	s, err := snapshot.Build(&c.ev, nil)
	if err != nil {
		return nil, err
	}
	if sourceStatus != "" && sourceStatus != s.Observation.Status {
		c.note("status_reread", "mcp-surfaceprint said status %q; by mcpward's rules the same evidence is %q", sourceStatus, s.Observation.Status)
	}
	notes := s.Observation.Notes[:0:0]
	for _, n := range s.Observation.Notes {
		if n.Kind == "protocol" && n.Rule == "manifest_parsed" {
			// Build hashed the manifest text this package wrote; the
			// provenance that means something is surfaceprint's hash
			// of the server's own text.
			if c.provenance != "" {
				n.Snippet = c.provenance
			} else {
				continue
			}
		}
		notes = append(notes, n)
	}
	s.Observation.Notes = append(notes, c.notes...)
	s.Observation.Uncaptured = slices.Clone(c.uncaptured)
	if s.Surface.ToolsList != nil {
		// surfaceprint stored tools sorted by name (legacy reports by
		// risk): the server's tools/list order is unknown, and an order
		// made up here would be reported as order.changed against a
		// live recording.
		s.Surface.ToolsList = nil
		if s.SurfaceDigest != "" {
			d, err := snapshot.SurfaceDigest(&s.Surface)
			if err != nil {
				return nil, err
			}
			s.SurfaceDigest = d
		}
	}
	return s, nil
}

// fromSnapshot converts a versioned snapshot.
func fromSnapshot(doc map[string]any) (*snapshot.Snapshot, error) {
	c := &converter{}
	for _, k := range migrate.SortedKeys(doc) {
		switch k {
		case "snapshotFormatVersion", "surfaceCompleteness", "surface", "observation":
		case "surfaceDigest":
			c.noteDigest(versionString(doc[k]))
		case "surfaceEntityDigests":
			// Derived values; mcpward computes its own.
		default:
			c.note("unknown_field", "top-level field %q was not carried over: %s", k, migrate.Clip(compact(doc[k])))
		}
	}
	surface, ok := doc["surface"].(map[string]any)
	if !ok {
		return nil, errors.New("mcp-surfaceprint snapshot: surface is missing or not an object")
	}
	obs, _ := doc["observation"].(map[string]any)
	if obs == nil {
		obs = map[string]any{}
		c.note("unknown_field", "the observation is missing: time, command and status are unknown")
	}
	complete := doc["surfaceCompleteness"] == "complete"
	status, _ := obs["status"].(string)

	c.observation(obs)
	cov, _ := obs["coverage"].(map[string]any)
	failed := status == snapshot.StatusAuthRequired || status == snapshot.StatusTimeout || status == snapshot.StatusStartupError
	if failed {
		c.failure(status, obs)
	} else {
		c.initialize(obs)
	}
	for _, k := range migrate.SortedKeys(surface) {
		switch k {
		case "tools", "resources", "resourceTemplates", "prompts", "declarationSources":
		default:
			c.note("unknown_field", "surface field %q was not carried over: %s", k, migrate.Clip(compact(surface[k])))
		}
	}
	c.ev.Tools = c.list("tools", "tools", section(cov, "tools", complete), c.tools(surface["tools"]))
	c.ev.Resources = c.list("resources", "resources", section(cov, "resources", complete), c.entities("resources", "uri", surface["resources"]))
	c.ev.ResourceTemplates = c.list("resourceTemplates", "resourceTemplates", section(cov, "resourceTemplates", complete), c.entities("resourceTemplates", "uriTemplate", surface["resourceTemplates"]))
	c.ev.Prompts = c.list("prompts", "prompts", section(cov, "prompts", complete), c.prompts(surface["prompts"]))
	c.manifest(surface["declarationSources"], section(cov, "manifest", complete))
	c.notCaptured(Uncaptured)
	return c.build(status)
}

// noteDigest names surfaceprint's stored digest in a note. It is not
// recomputed (the tool itself trusted the stored one, and mcpward computes
// its own digest of the converted surface): reproducing it needed a port of
// Python's json.dumps whose only output was this note (issue 27 item 5).
func (c *converter) noteDigest(stored string) {
	c.note("surfaceprint_digest", "mcp-surfaceprint surfaceDigest %s, not verified; mcpward computes its own digest", stored)
}

// observation maps the metadata: time, command, protocol version, notes
// and errors; the heuristics are named in a note.
func (c *converter) observation(obs map[string]any) {
	c.ev.Era = snapshot.EraLegacy // surfaceprint spoke stdio with initialize only
	c.ev.RecordedAt = c.time(obs["generatedAt"])
	c.ev.Target = snapshot.TargetInfo{Transport: "stdio"}
	if argv, ok := obs["command"].([]any); ok {
		for i, a := range argv {
			s, _ := a.(string)
			if i == 0 {
				c.ev.Target.Command = s
			} else {
				c.ev.Target.Args = append(c.ev.Target.Args, s)
			}
		}
	}
	if pv, _ := obs["protocolVersion"].(string); pv != "unknown" {
		c.ev.ProtocolVersion = pv
	}
	for _, key := range []string{"notes", "errors"} {
		list, _ := obs[key].([]any)
		for _, it := range list {
			n, ok := it.(map[string]any)
			if !ok {
				c.note("surfaceprint_"+strings.TrimSuffix(key, "s"), "%s", migrate.Clip(compact(it)))
				continue
			}
			id := fmt.Sprintf("%s/%s/%s", str(n, "kind"), str(n, "name"), str(n, "rule"))
			switch id {
			case "server/stderr/auth_hint":
				// Keeps its meaning: with empty lists it makes the
				// status auth_gated, as in surfaceprint.
				c.ev.Notes = append(c.ev.Notes, snapshot.Note{Kind: "stderr", Rule: "auth_hint", Snippet: str(n, "snippet")})
			case "server/stderr/startup_stacktrace":
				c.ev.Notes = append(c.ev.Notes, snapshot.Note{Kind: "stderr", Rule: "stack_trace", Snippet: str(n, "snippet")})
			case "declaration_source/mcp_manifest/parsed":
				c.provenance = str(n, "snippet")
			}
			c.note("surfaceprint_"+strings.TrimSuffix(key, "s"), "%s: %s", id, str(n, "snippet"))
		}
	}
	if la, ok := obs["localAnnotations"].(map[string]any); ok {
		tools, _ := la["tools"].([]any)
		signals, _ := la["signals"].([]any)
		c.note("heuristics_not_carried", "mcp-surfaceprint's risk labels (%s) and signals (%d) are heuristics, not surface: mcpward recomputes its own in inspect", plural.Count(len(tools), "tool"), len(signals))
	}
	for _, k := range migrate.SortedKeys(obs) {
		switch k {
		case "generatedAt", "command", "protocolVersion", "serverName", "status", "capabilities", "coverage", "notes", "errors", "localAnnotations":
		default:
			c.note("unknown_field", "observation field %q was not carried over: %s", k, migrate.Clip(compact(obs[k])))
		}
	}
}

// time parses Python's isoformat() (with or without an offset).
func (c *converter) time(v any) time.Time {
	s, _ := v.(string)
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999Z07:00"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t
		}
	}
	c.note("unknown_time", "generatedAt %s is not an ISO 8601 time; recordedAt is the zero time", migrate.Clip(compact(v)))
	return time.Time{}
}

// initialize rebuilds the InitializeResult surfaceprint summarised:
// serverInfo.name, the negotiated version, and capabilities as booleans
// (true becomes an empty capability object: the sub-features were not
// kept).
func (c *converter) initialize(obs map[string]any) {
	caps := map[string]any{}
	if m, ok := obs["capabilities"].(map[string]any); ok {
		for _, k := range migrate.SortedKeys(m) {
			if b, _ := m[k].(bool); b {
				caps[k] = map[string]any{}
			}
		}
	}
	res := map[string]any{"capabilities": caps, "serverInfo": map[string]any{}}
	if name, _ := obs["serverName"].(string); name != "" && name != "unknown" {
		res["serverInfo"] = map[string]any{"name": name}
	}
	if c.ev.ProtocolVersion != "" {
		res["protocolVersion"] = c.ev.ProtocolVersion
	}
	c.ev.Initialize = mustJSON(res)
}

// failure records a server that did not get through initialize: no
// discover section, and the reason as the discover error.
func (c *converter) failure(status string, obs map[string]any) {
	kind := map[string]string{
		snapshot.StatusAuthRequired: "auth",
		snapshot.StatusTimeout:      "timeout",
		snapshot.StatusStartupError: "exited",
	}[status]
	msg := "the server did not complete initialize (" + status + ")"
	if errs, _ := obs["errors"].([]any); len(errs) > 0 {
		if e, ok := errs[0].(map[string]any); ok && str(e, "snippet") != "" {
			msg = str(e, "snippet")
		}
	}
	c.ev.DiscoverError = &snapshot.SectionError{Kind: kind, Message: msg}
}

// coverage is one of surfaceprint's coverage sections.
type coverage struct {
	present           bool
	declaredSupported *bool
	attempted         bool
	completed         bool
	errorRule         string
}

// section reads coverage[name]. A missing section (hand-written
// snapshots have "coverage": {}) is taken from surfaceCompleteness.
func section(cov map[string]any, name string, complete bool) coverage {
	m, ok := cov[name].(map[string]any)
	if !ok {
		return coverage{attempted: true, completed: complete}
	}
	c := coverage{present: true, errorRule: str(m, "errorRule")}
	if b, ok := m["declaredSupported"].(bool); ok {
		c.declaredSupported = &b
	}
	c.attempted, _ = m["attempted"].(bool)
	c.completed, _ = m["completed"].(bool)
	return c
}

// errorKinds maps surfaceprint's errorRule to mcpward's SectionError kind.
var errorKinds = map[string]string{
	"timeout":              "timeout",
	"error":                "error",
	"duplicate_identity":   "duplicate_identity",
	"non_json_identity":    "malformed",
	"invalid":              "malformed",
	"duplicate_operations": "duplicate_operations",
	"legacy":               "legacy",
}

// list turns one surface list and its coverage into list evidence.
func (c *converter) list(name, key string, cov coverage, items []any) snapshot.ListEvidence {
	switch {
	case cov.completed && cov.declaredSupported != nil && !*cov.declaredSupported && len(items) == 0:
		// "Method not found" on a section the server does not support.
		return snapshot.ListEvidence{Attempted: true, Err: &snapshot.SectionError{Kind: "unsupported", Message: name + " not supported by server"}}
	case !cov.attempted && !cov.completed && len(items) == 0:
		return snapshot.ListEvidence{}
	}
	if items == nil {
		items = []any{}
	}
	ev := snapshot.ListEvidence{Attempted: true, Pages: []json.RawMessage{mustJSON(map[string]any{key: items})}}
	if !cov.completed {
		kind := errorKinds[cov.errorRule]
		if kind == "" {
			kind = "error"
		}
		msg := fmt.Sprintf("mcp-surfaceprint did not complete %s (%s)", name, cmp.Or(cov.errorRule, "no reason recorded"))
		ev.Err = &snapshot.SectionError{Kind: kind, Message: msg}
	}
	return ev
}

// tools converts surface.tools: a null description (surfaceprint's "not
// a string") is absent, as it was on the wire.
func (c *converter) tools(v any) []any {
	var out []any
	for i, it := range array(v) {
		t, ok := it.(map[string]any)
		if !ok {
			c.note("unmapped_entity", "surface.tools[%d] is not an object: %s", i, migrate.Clip(compact(it)))
			continue
		}
		t = dropNull(t, "description", "inputSchema")
		out = append(out, t)
	}
	return out
}

// entities converts resources or templates; surfaceprint filled missing
// fields with null, so null fields are dropped again. A bare string is
// the identity alone (its canonical form does the same).
func (c *converter) entities(name, idKey string, v any) []any {
	var out []any
	for i, it := range array(v) {
		switch x := it.(type) {
		case map[string]any:
			out = append(out, dropNull(x, "name", "title", "description", "mimeType", "annotations"))
		case string:
			out = append(out, map[string]any{idKey: x})
		default:
			c.note("unmapped_entity", "surface.%s[%d] is neither an object nor a string: %s", name, i, migrate.Clip(compact(it)))
		}
	}
	return out
}

func (c *converter) prompts(v any) []any {
	var out []any
	for i, it := range array(v) {
		p, ok := it.(map[string]any)
		if !ok {
			c.note("unmapped_entity", "surface.prompts[%d] is not an object: %s", i, migrate.Clip(compact(it)))
			continue
		}
		p = dropNull(p, "description")
		if args, ok := p["arguments"].([]any); ok {
			kept := make([]any, 0, len(args))
			for j, a := range args {
				switch x := a.(type) {
				case map[string]any:
					kept = append(kept, dropNull(x, "description", "required", "schema"))
				case string: // legacy: argument names only
					kept = append(kept, map[string]any{"name": x})
				default:
					c.note("unmapped_entity", "surface.prompts[%d].arguments[%d] is not an object: %s", i, j, migrate.Clip(compact(a)))
				}
			}
			p["arguments"] = kept
		}
		out = append(out, p)
	}
	return out
}

// manifest maps the mcp_manifest declaration source to a server manifest.
// The evidence is a manifest text that says what surfaceprint extracted
// (every entry with operations gets a dispatch_key: surfaceprint kept
// operations only when it had one).
func (c *converter) manifest(v any, cov coverage) {
	var src map[string]any
	for i, it := range array(v) {
		s, ok := it.(map[string]any)
		if ok && str(s, "name") == "mcp_manifest" && src == nil {
			src = s
			continue
		}
		c.note("unmapped_source", "surface.declarationSources[%d] is not an mcp_manifest source and has no mcpward equivalent: %s", i, migrate.Clip(compact(it)))
	}
	if src == nil {
		if cov.attempted && !cov.completed {
			msg := fmt.Sprintf("mcp-surfaceprint did not complete the manifest (%s)", cmp.Or(cov.errorRule, "empty content"))
			if cov.errorRule == "" {
				c.ev.Manifest = &snapshot.ManifestEvidence{}
			} else {
				c.ev.Manifest = &snapshot.ManifestEvidence{Err: &snapshot.SectionError{Kind: cmp.Or(errorKinds[cov.errorRule], "error"), Message: msg}}
			}
		}
		return
	}
	uri, _ := src["uri"].(string)
	if uri == "" {
		uri = "legacy:mcp/manifest"
		c.note("unmapped_field", "the manifest source has no uri (a legacy report); it is named %s", uri)
	}
	for _, k := range migrate.SortedKeys(src) {
		switch k {
		case "sourceType", "name", "uri", "extracted", "status":
		default:
			c.note("unmapped_field", "declarationSources[mcp_manifest].%s was not carried over: %s", k, migrate.Clip(compact(src[k])))
		}
	}
	extracted, _ := src["extracted"].(map[string]any)
	for _, k := range migrate.SortedKeys(extracted) {
		if k != "toolCapabilities" {
			c.note("unmapped_field", "declarationSources[mcp_manifest].extracted.%s was not carried over: %s", k, migrate.Clip(compact(extracted[k])))
		}
	}
	tools := map[string]any{}
	for i, it := range array(extracted["toolCapabilities"]) {
		e, ok := it.(map[string]any)
		name := str(e, "tool")
		if !ok || name == "" {
			c.note("unmapped_entity", "toolCapabilities[%d] names no tool: %s", i, migrate.Clip(compact(it)))
			continue
		}
		entry := map[string]any{}
		for _, k := range migrate.SortedKeys(e) {
			switch k {
			case "tool":
			case "description":
				if d, ok := e[k].(string); ok {
					entry["description"] = d
				} else if e[k] != nil {
					c.note("unmapped_field", "toolCapabilities[%s].description is not a string: %s", name, migrate.Clip(compact(e[k])))
				}
			case "operations":
				ops, ok := e[k].([]any)
				var strs []any
				for _, op := range ops {
					if s, ok := op.(string); ok {
						strs = append(strs, s)
					} else {
						c.note("unmapped_field", "toolCapabilities[%s].operations holds a non-string: %s", name, migrate.Clip(compact(op)))
					}
				}
				if !ok {
					c.note("unmapped_field", "toolCapabilities[%s].operations is not a list: %s", name, migrate.Clip(compact(e[k])))
				}
				if len(strs) > 0 {
					entry["operations"] = strs
					entry["dispatch_key"] = "action"
				}
			default:
				c.note("unmapped_field", "toolCapabilities[%s].%s was not carried over: %s", name, k, migrate.Clip(compact(e[k])))
			}
		}
		if _, dup := tools[name]; dup {
			c.note("unmapped_entity", "toolCapabilities names %q twice; the first entry is kept", name)
			continue
		}
		tools[name] = entry
	}
	c.ev.Manifest = &snapshot.ManifestEvidence{URI: uri, Text: string(mustJSON(map[string]any{"tools": tools}))}
}

// Uncaptured is what an mcp-surfaceprint snapshot never recorded of a
// surface mcpward records (snapshot.Observation.Uncaptured): of the
// InitializeResult, anything but serverInfo.name, the protocol version
// and the tools, resources and prompts capabilities as booleans (so no
// sub-feature, no other capability, no instructions); tool fields other
// than name, description and inputSchema (title, annotations,
// outputSchema, icons, _meta…); resource and template fields other than
// the six it kept (size, icons, _meta…); prompt and prompt argument
// fields other than those it kept (title, icons…); and every list's
// entries after its first page. The diff does not take their absence for
// a change.
var Uncaptured = []string{
	"discover.serverInfo.!name",
	"discover.instructions",
	"discover.ttlMs",
	"discover.cacheScope",
	"discover.capabilities.!prompts|resources|tools",
	"discover.capabilities.*.*",
	"tools.*.!description|inputSchema|name|xmcpHeaders",
	"tools.@nextPages",
	"resources.*.!annotations|description|mimeType|name|title|uri",
	"resources.@nextPages",
	"resourceTemplates.*.!annotations|description|mimeType|name|title|uriTemplate",
	"resourceTemplates.@nextPages",
	"prompts.*.!arguments|description|name",
	"prompts.*.arguments.*.!description|name|required|schema",
	"prompts.@nextPages",
}

// UncapturedLegacy is [Uncaptured] for a legacy report, which kept less:
// tool names and descriptions, resource and template identities, prompt
// names, descriptions and argument names.
var UncapturedLegacy = []string{
	"discover.serverInfo.!name",
	"discover.instructions",
	"discover.ttlMs",
	"discover.cacheScope",
	"discover.capabilities.!prompts|resources|tools",
	"discover.capabilities.*.*",
	"tools.*.!description|name",
	"tools.@nextPages",
	"resources.*.!uri",
	"resources.@nextPages",
	"resourceTemplates.*.!uriTemplate",
	"resourceTemplates.@nextPages",
	"prompts.*.!arguments|description|name",
	"prompts.*.arguments.*.!name",
	"prompts.@nextPages",
}

// notCaptured records what surfaceprint never recorded, as the
// snapshot's uncaptured list and, once, in a note.
func (c *converter) notCaptured(list []string) {
	c.uncaptured = list
	c.note("not_captured", "mcp-surfaceprint did not capture tool title, annotations, outputSchema, icons and _meta, the server's version and instructions, capability sub-features, or more than the first page of each list; they are listed in observation.uncaptured, and a diff against a snapshot that has them does not report them as changes")
}

// fromLegacy converts a legacy report, which is partial by construction.
func fromLegacy(doc map[string]any) (*snapshot.Snapshot, error) {
	c := &converter{}
	server, _ := doc["server"].(map[string]any)
	obs := map[string]any{
		"generatedAt":     doc["generatedAt"],
		"command":         doc["scannedCommand"],
		"protocolVersion": str(server, "protocolVersion"),
		"serverName":      str(server, "name"),
		"capabilities":    doc["capabilities"],
		"notes":           doc["notes"],
		"errors":          doc["errors"],
	}
	if s, ok := doc["scannedCommand"].(string); ok {
		obs["command"] = []any{s}
		c.note("unmapped_field", "scannedCommand %q is one string; it is kept as the command, unsplit", s)
	}
	if _, ok := doc["risk"]; ok {
		obs["localAnnotations"] = map[string]any{"tools": doc["tools"], "signals": doc["signals"]}
	}
	for _, k := range migrate.SortedKeys(doc) {
		switch k {
		case "generatedAt", "scannedCommand", "server", "capabilities", "status", "tools", "resources", "resourceTemplates", "prompts", "risk", "signals", "notes", "errors", "manifest":
		default:
			c.note("unknown_field", "legacy report field %q was not carried over: %s", k, migrate.Clip(compact(doc[k])))
		}
	}
	c.note("legacy_report", "an mcp-surfaceprint legacy report, read as partial: it has no input schemas, no resource or template metadata and no prompt argument details, so it cannot prove a complete surface")
	c.observation(obs)
	status, _ := doc["status"].(string)
	if status == snapshot.StatusAuthRequired || status == snapshot.StatusTimeout || status == snapshot.StatusStartupError {
		c.failure(status, obs)
	} else {
		c.initialize(obs)
	}
	legacy := coverage{present: true, attempted: true, errorRule: "legacy"}
	var tools []any
	for i, it := range array(doc["tools"]) {
		t, ok := it.(map[string]any)
		if !ok {
			c.note("unmapped_entity", "tools[%d] is not an object: %s", i, migrate.Clip(compact(it)))
			continue
		}
		// risk and icon are surfaceprint's heuristic labels, not surface.
		tools = append(tools, dropNull(without(t, "risk", "icon"), "description"))
	}
	c.ev.Tools = c.list("tools", "tools", legacy, tools)
	c.ev.Resources = c.list("resources", "resources", legacy, c.entities("resources", "uri", doc["resources"]))
	c.ev.ResourceTemplates = c.list("resourceTemplates", "resourceTemplates", legacy, c.entities("resourceTemplates", "uriTemplate", doc["resourceTemplates"]))
	c.ev.Prompts = c.list("prompts", "prompts", legacy, c.prompts(doc["prompts"]))
	if m, ok := doc["manifest"]; ok && m != nil {
		src := map[string]any{"sourceType": "legacy", "name": "mcp_manifest", "extracted": map[string]any{"toolCapabilities": m}}
		c.manifest([]any{src}, coverage{present: true, attempted: true, completed: true})
	}
	c.notCaptured(UncapturedLegacy)
	return c.build("")
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		// Values come from a decoded document: always marshalable.
		panic(fmt.Sprintf("surfaceprint: marshal: %v", err))
	}
	return b
}

func compact(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func array(v any) []any {
	a, _ := v.([]any)
	return a
}

func str(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

// dropNull returns a copy of m without the named keys whose value is null.
func dropNull(m map[string]any, keys ...string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if v == nil && slices.Contains(keys, k) {
			continue
		}
		out[k] = v
	}
	return out
}

func without(m map[string]any, keys ...string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if !slices.Contains(keys, k) {
			out[k] = v
		}
	}
	return out
}
