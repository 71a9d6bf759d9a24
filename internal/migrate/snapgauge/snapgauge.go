// Package snapgauge converts the files of snapgauge to mcpward's, in memory.
// It does no I/O. Anything that cannot be mapped is named in a snapshot
// note (kind "import", rule "import.unmapped", the field's path in the
// snippet), never dropped silently.
//
// A snapgauge snapshot (formatVersion 1, any snapgaugeVersion) holds the
// server's discover result, its tools, how tools/list was served and the
// probe sketches, in the same shapes mcpward records them: [Snapshot]
// moves each into mcpward's surface, recomputes what mcpward derives
// itself (x-mcp-header bindings, digests) and fills in the observation
// metadata snapgauge implies (a snapshot is written only from complete
// evidence, after server/discover succeeded). What snapgauge never
// recorded ([Uncaptured]: resources, prompts, extra serverInfo and tool
// fields) is listed in Observation.Uncaptured, which the diff does not
// take for a change. A check of the unchanged server against the
// converted snapshot therefore finds no drift of the conversion's making.
package snapgauge

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mcpward/mcpward/internal/migrate"
	"github.com/mcpward/mcpward/internal/snapshot"
)

// FormatVersion is the snapgauge snapshot format this package reads.
const FormatVersion = 1

// Note kind and rules of the notes a converted snapshot carries.
const (
	NoteKind = "import"
	// RuleSource names where the snapshot came from (snapgauge's version
	// and ruleset).
	RuleSource = "import.source"
	// RuleUnmapped names a field mcpward's snapshot has no place for.
	RuleUnmapped = "import.unmapped"
	// RuleRecomputed names a derived field mcpward computed again and
	// found different from snapgauge's.
	RuleRecomputed = "import.recomputed"
)

// Snapshot converts a snapgauge snapshot to an mcpward snapshot. A
// document that is not a snapgauge snapshot of a format this package reads
// is an error wrapping [snapshot.ErrCorrupt] or [snapshot.ErrNewerFormat];
// the caller adds the file name and the exit code.
func Snapshot(data []byte) (*snapshot.Snapshot, error) {
	top, err := migrate.DecodeObject(data)
	if err != nil {
		return nil, corrupt("%v", err)
	}
	c := &converter{}
	v, err := formatVersion(top)
	if err != nil {
		return nil, err
	}
	if v > FormatVersion {
		return nil, fmt.Errorf("%w: snapgauge snapshot format %d is newer than this mcpward reads (%d)", snapshot.ErrNewerFormat, v, FormatVersion)
	}
	if v < FormatVersion {
		return nil, corrupt("snapgauge snapshot format %d is not one snapgauge ever wrote", v)
	}
	s := &snapshot.Snapshot{
		FormatVersion:  snapshot.FormatVersion,
		MCPWardVersion: "",
		RulesetVersion: snapshot.RulesetVersion,
	}
	obs := &s.Observation
	var sgVersion, ruleset string
	for _, k := range migrate.SortedKeys(top) {
		val := top[k]
		switch k {
		case "formatVersion":
		case "snapgaugeVersion":
			sgVersion, _ = val.(string)
		case "rulesetVersion":
			ruleset = jsonString(val)
		case "probeSpecHash":
			s.ProbeSpecHash, _ = val.(string)
		case "recordedAt":
			str, _ := val.(string)
			obs.RecordedAt = recordedAt(str)
		case "target":
			c.target(val, obs)
		case "discover":
			d, err := c.discover(val)
			if err != nil {
				return nil, err
			}
			s.Surface.Discover = d
		case "tools":
			tools, err := c.tools(val)
			if err != nil {
				return nil, err
			}
			s.Surface.Tools = tools
		case "toolsList":
			tl, err := c.toolsList(val)
			if err != nil {
				return nil, err
			}
			s.Surface.ToolsList = tl
		case "behavior":
			b, err := c.behavior(val)
			if err != nil {
				return nil, err
			}
			s.Surface.Behavior = b
		default:
			// resources, prompts, transport and compat are declared in
			// snapgauge's schema but never written by its record; a file
			// that has them (or anything else) keeps them named here.
			c.unmapped(k, val)
		}
	}
	switch {
	case sgVersion == "":
		return nil, corrupt(`snapgaugeVersion is missing`)
	case s.Surface.Discover == nil:
		return nil, corrupt(`"discover" is missing`)
	case s.Surface.Tools == nil:
		return nil, corrupt(`"tools" is missing`)
	case s.Surface.ToolsList == nil:
		return nil, corrupt(`"toolsList" is missing`)
	case obs.RecordedAt == "":
		return nil, corrupt(`"recordedAt" is missing`)
	}
	if s.Surface.Discover.ProtocolVersion == "" {
		s.Surface.Discover.ProtocolVersion = obs.ProtocolVersion
	}

	// snapgauge writes a snapshot only when server/discover succeeded, every
	// tools/list page was read and every probe produced evidence (a failed
	// probe writes nothing and exits 2): the observation was complete.
	obs.Era = snapshot.EraModern
	obs.SupportedVersionsSource = snapshot.VersionsDiscover
	obs.Status = snapshot.StatusOK
	obs.Coverage.Discover = snapshot.SectionCoverage{Attempted: true, Completed: true}
	obs.Coverage.Tools = snapshot.SectionCoverage{Attempted: true, Completed: true, Pages: s.Surface.ToolsList.Pages, Items: len(s.Surface.Tools)}
	if n := len(s.Surface.Behavior); n > 0 {
		obs.Coverage.Probes = snapshot.SectionCoverage{Attempted: true, Completed: true, Items: n}
	}
	source := "snapgauge " + sgVersion + " snapshot"
	if ruleset != "" {
		source += " (rulesetVersion " + ruleset + ")"
	}
	obs.Notes = append([]snapshot.Note{{Kind: NoteKind, Rule: RuleSource, Snippet: source + ", converted in memory"}}, c.notes...)
	obs.Uncaptured = slices.Clone(Uncaptured)

	digest, err := snapshot.SurfaceDigest(&s.Surface)
	if err != nil {
		return nil, corrupt("%v", err)
	}
	s.SurfaceDigest = digest
	s.EntityDigests = map[string]string{}
	for _, t := range s.Surface.Tools {
		b, err := snapshot.JCS(snapshot.CanonicalTool(t))
		if err != nil {
			return nil, corrupt("tool %q: %v", snapshot.Str(t, "name"), err)
		}
		sum := sha256.Sum256(b)
		s.EntityDigests["tools/"+snapshot.Str(t, "name")] = "sha256:" + hex.EncodeToString(sum[:])
	}
	// Read the result back through mcpward's own strict reader, so that a
	// converted snapshot meets every invariant a native one does (sorted
	// unique tools, hash formats, required sections).
	b, err := snapshot.Marshal(s)
	if err != nil {
		return nil, corrupt("%v", err)
	}
	out, err := snapshot.Unmarshal(b)
	if err != nil {
		return nil, fmt.Errorf("snapgauge snapshot: %w", err)
	}
	return out, nil
}

// Uncaptured is what snapgauge never recorded of a surface mcpward
// records (snapshot.Observation.Uncaptured): serverInfo beyond name and
// version, tool fields other than those of its strict tool schema (a
// vendor field), resources, resource templates, prompts and the server
// manifest. The diff does not take their absence for a change.
var Uncaptured = []string{
	"discover.serverInfo.!name|version",
	"tools.*.!_meta|annotations|description|icons|inputSchema|name|outputSchema|title|xmcpHeaders",
	"resources",
	"resourceTemplates",
	"prompts",
	"manifest",
}

type converter struct {
	notes []snapshot.Note
}

// unmapped records a field that has no place in mcpward's snapshot.
func (c *converter) unmapped(path string, val any) {
	c.notes = append(c.notes, snapshot.Note{Kind: NoteKind, Rule: RuleUnmapped, Snippet: path + " = " + migrate.Clip(jsonString(val))})
}

func corrupt(format string, args ...any) error {
	return fmt.Errorf("%w: not a valid snapgauge snapshot: %s", snapshot.ErrCorrupt, fmt.Sprintf(format, args...))
}

func formatVersion(top map[string]any) (int, error) {
	n, ok := top["formatVersion"].(json.Number)
	if !ok {
		return 0, corrupt("formatVersion is missing")
	}
	v, err := n.Int64()
	if err != nil || v < 1 || v > 1<<20 {
		return 0, corrupt("formatVersion %s is not a positive integer", n)
	}
	return int(v), nil
}

// recordedAt normalises snapgauge's ISO 8601 time (milliseconds, any
// offset) to mcpward's RFC 3339 in UTC; a value it cannot parse is kept.
func recordedAt(s string) string {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return s
	}
	return t.UTC().Format(time.RFC3339Nano)
}

// target maps snapgauge's {transport, host, path, protocolVersion, auth}.
// It is metadata, never diffed.
func (c *converter) target(val any, obs *snapshot.Observation) {
	m, ok := val.(map[string]any)
	if !ok {
		c.unmapped("target", val)
		return
	}
	str := func(k string) string { s, _ := m[k].(string); return s }
	ti := &obs.Target
	ti.Transport = str("transport")
	ti.Auth = str("auth")
	obs.ProtocolVersion = str("protocolVersion")
	host, path := str("host"), str("path")
	switch ti.Transport {
	case "fixture":
		ti.Fixture = host
		if path != "" {
			c.unmapped("target.path", path)
		}
	case "stdio":
		// snapgauge joined the arguments with spaces; an argument that
		// held a space cannot be told apart.
		ti.Command = host
		ti.Args = strings.Fields(path)
	case "http":
		// snapgauge kept the URL's host and path, not its scheme.
		ti.URL = "//" + host + path
	default:
		c.unmapped("target.transport", m["transport"])
	}
	for _, k := range migrate.SortedKeys(m) {
		switch k {
		case "transport", "host", "path", "protocolVersion", "auth":
		default:
			c.unmapped("target."+k, m[k])
		}
	}
}

func (c *converter) discover(val any) (*snapshot.Discover, error) {
	m, ok := val.(map[string]any)
	if !ok {
		return nil, corrupt("discover is not an object")
	}
	d := &snapshot.Discover{SupportedVersions: []string{}, Capabilities: snapshot.Object{}, ServerInfo: snapshot.Object{}}
	for _, k := range migrate.SortedKeys(m) {
		v := m[k]
		switch k {
		case "supportedVersions":
			arr, ok := v.([]any)
			if !ok {
				return nil, corrupt("discover.supportedVersions is not an array")
			}
			for i, e := range arr {
				s, ok := e.(string)
				if !ok {
					return nil, corrupt("discover.supportedVersions[%d] is not a string", i)
				}
				d.SupportedVersions = append(d.SupportedVersions, s)
			}
			// mcpward keeps the versions as a set, sorted.
			slices.Sort(d.SupportedVersions)
			d.SupportedVersions = slices.Compact(d.SupportedVersions)
		case "capabilities":
			o, ok := v.(map[string]any)
			if !ok {
				return nil, corrupt("discover.capabilities is not an object")
			}
			d.Capabilities = o
		case "serverInfo":
			o, ok := v.(map[string]any)
			if !ok {
				return nil, corrupt("discover.serverInfo is not an object")
			}
			d.ServerInfo = o
		case "instructions":
			s, ok := v.(string)
			if !ok {
				return nil, corrupt("discover.instructions is not a string")
			}
			d.Instructions = &s
		case "ttlMs":
			n, ok := v.(json.Number)
			if !ok {
				return nil, corrupt("discover.ttlMs is not a number")
			}
			d.TTLMs = &n
		case "cacheScope":
			s, ok := v.(string)
			if !ok {
				return nil, corrupt("discover.cacheScope is not a string")
			}
			d.CacheScope = s
		default:
			c.unmapped("discover."+k, v)
		}
	}
	return d, nil
}

// tools keeps every field of each tool as snapgauge stored it (the same
// wire fields mcpward keeps) and computes xmcpHeaders with mcpward's own
// x-mcp-header analysis, so that the view matches what a live observation
// of the same schema gives.
func (c *converter) tools(val any) ([]snapshot.Object, error) {
	arr, ok := val.([]any)
	if !ok {
		return nil, corrupt("tools is not an array")
	}
	out := make([]snapshot.Object, 0, len(arr))
	for i, e := range arr {
		t, ok := e.(map[string]any)
		if !ok {
			return nil, corrupt("tools[%d] is not an object", i)
		}
		name, _ := t["name"].(string)
		if name == "" {
			return nil, corrupt("tools[%d] has no name", i)
		}
		stored, had := t["xmcpHeaders"]
		delete(t, "xmcpHeaders")
		var computed []any
		if schema, ok := t["inputSchema"].(map[string]any); ok {
			computed = snapshot.XMCPHeaders(schema)
		}
		if len(computed) > 0 {
			t["xmcpHeaders"] = computed
		}
		if had && validity(stored) != validity(computed) {
			c.notes = append(c.notes, snapshot.Note{Kind: NoteKind, Rule: RuleRecomputed,
				Snippet: fmt.Sprintf("tools.%s.xmcpHeaders: snapgauge had %s, mcpward computes %s", name, migrate.Clip(validity(stored)), migrate.Clip(validity(computed)))})
		}
		out = append(out, t)
	}
	// snapgauge sorts by JS code units, mcpward by bytes: they differ only
	// for names outside the Basic Multilingual Plane.
	slices.SortStableFunc(out, func(a, b snapshot.Object) int {
		return strings.Compare(snapshot.Str(a, "name"), snapshot.Str(b, "name"))
	})
	return out, nil
}

// validity summarises an xmcpHeaders view as path=valid pairs, the part
// the diff compares.
func validity(v any) string {
	arr, _ := v.([]any)
	var parts []string
	for _, e := range arr {
		h, _ := e.(map[string]any)
		path, _ := h["path"].(string)
		ok, _ := h["valid"].(bool)
		parts = append(parts, fmt.Sprintf("%s=%t", path, ok))
	}
	slices.Sort(parts)
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ",")
}

func (c *converter) toolsList(val any) (*snapshot.ToolsList, error) {
	m, ok := val.(map[string]any)
	if !ok {
		return nil, corrupt("toolsList is not an object")
	}
	tl := &snapshot.ToolsList{Order: []string{}}
	sawStable := false
	for _, k := range migrate.SortedKeys(m) {
		v := m[k]
		switch k {
		case "order":
			arr, ok := v.([]any)
			if !ok {
				return nil, corrupt("toolsList.order is not an array")
			}
			for i, e := range arr {
				s, ok := e.(string)
				if !ok {
					return nil, corrupt("toolsList.order[%d] is not a string", i)
				}
				tl.Order = append(tl.Order, s)
			}
		case "pages":
			n, ok := v.(json.Number)
			p, err := n.Int64()
			if !ok || err != nil || p < 1 {
				return nil, corrupt("toolsList.pages is not a positive integer")
			}
			tl.Pages = int(p)
		case "ttlMs":
			n, ok := v.(json.Number)
			if !ok {
				return nil, corrupt("toolsList.ttlMs is not a number")
			}
			tl.TTLMs = &n
		case "cacheScope":
			s, ok := v.(string)
			if !ok {
				return nil, corrupt("toolsList.cacheScope is not a string")
			}
			tl.CacheScope = s
		case "orderStable":
			b, ok := v.(bool)
			if !ok {
				return nil, corrupt("toolsList.orderStable is not a boolean")
			}
			tl.OrderStable, sawStable = b, true
		default:
			c.unmapped("toolsList."+k, v)
		}
	}
	if !sawStable {
		return nil, corrupt("toolsList.orderStable is missing")
	}
	if tl.Pages == 0 {
		tl.Pages = 1
	}
	return tl, nil
}

// behavior maps each probe's sketch field by field: snapgauge and mcpward
// sketch a tools/call answer the same way (text blocks by sha256, other
// blocks and structured content by shape, values mode verbatim with
// volatile keys as type tokens).
func (c *converter) behavior(val any) (map[string]*snapshot.Behavior, error) {
	m, ok := val.(map[string]any)
	if !ok {
		return nil, corrupt("behavior is not an object")
	}
	out := make(map[string]*snapshot.Behavior, len(m))
	for _, id := range migrate.SortedKeys(m) {
		p, ok := m[id].(map[string]any)
		if !ok {
			return nil, corrupt("behavior.%s is not an object", id)
		}
		b := &snapshot.Behavior{}
		for _, k := range migrate.SortedKeys(p) {
			v := p[k]
			path := "behavior." + id + "." + k
			switch k {
			case "resultType":
				b.ResultType, ok = v.(string)
			case "contentBlocks":
				b.ContentBlocks, ok = v.([]any)
			case "structuredShape":
				b.StructuredShape, ok = v, true
			case "structuredContent":
				b.StructuredContent, ok = v, true
			case "isError":
				b.IsError, ok = v.(bool)
			case "errorCode":
				var n json.Number
				if n, ok = v.(json.Number); ok {
					code, err := n.Int64()
					ok = err == nil
					b.ErrorCode = &code
				}
			case "metaKeys":
				var arr []any
				if arr, ok = v.([]any); ok {
					for _, e := range arr {
						s, isStr := e.(string)
						ok = ok && isStr
						b.MetaKeys = append(b.MetaKeys, s)
					}
					slices.Sort(b.MetaKeys)
				}
			case "httpStatus":
				var n json.Number
				if n, ok = v.(json.Number); ok {
					st, err := n.Int64()
					ok = err == nil
					b.HTTPStatus = int(st)
				}
			case "contentType":
				b.ContentType, ok = v.(string)
			default:
				c.unmapped(path, v)
				ok = true
			}
			if !ok {
				return nil, corrupt("%s has the wrong type", path)
			}
		}
		out[id] = b
	}
	return out, nil
}

func jsonString(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return snapshot.JCSString(v)
}
