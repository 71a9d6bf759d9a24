package snapshot

import (
	"encoding/json"
)

// FormatVersion is the snapshot file format this package writes and reads.
const FormatVersion = 1

// RulesetVersion versions the diff rule catalogue a snapshot was recorded
// under. It is metadata and never diffed.
const RulesetVersion = 1

// Observation status values.
const (
	StatusOK           = "ok"
	StatusPartial      = "partial"
	StatusAuthGated    = "auth_gated"
	StatusAuthRequired = "auth_required"
	StatusTimeout      = "timeout"
	StatusStartupError = "startup_error"
)

// Era values.
const (
	EraModern = "modern"
	EraLegacy = "legacy"
)

// How a snapshot's supported versions were learned.
const (
	// VersionsDiscover: the server's own list (server/discover).
	VersionsDiscover = "discover"
	// VersionsInitializeProbe: one legacy initialize per known revision,
	// each on a fresh connection, every one answered.
	VersionsInitializeProbe = "initialize-probe"
	// VersionsNegotiated: only the version one initialize negotiated; the
	// list says nothing about the versions it leaves out.
	VersionsNegotiated = "negotiated"
)

// VersionsSource returns how the supported versions were learned. A
// snapshot written before the field existed is inferred from its era: a
// legacy one holds the negotiated version only; any other listed them
// from server/discover.
func (s *Snapshot) VersionsSource() string {
	if v := s.Observation.SupportedVersionsSource; v != "" {
		return v
	}
	if s.Observation.Era == EraLegacy {
		return VersionsNegotiated
	}
	return VersionsDiscover
}

// VersionsComplete reports whether the supported-versions list is the
// whole set (the server's own list, or every known revision tried), so
// that a version missing from it is known to be unsupported.
func (s *Snapshot) VersionsComplete() bool {
	switch s.VersionsSource() {
	case VersionsDiscover, VersionsInitializeProbe:
		return true
	}
	return false
}

// Capture modes of a probe.
const (
	CaptureShape  = "shape"
	CaptureValues = "values"
)

// A Snapshot is one recorded observation of a server: metadata in
// Observation, everything diffable in Surface.
type Snapshot struct {
	FormatVersion  int    `json:"formatVersion"`
	MCPWardVersion string `json:"mcpwardVersion"`
	RulesetVersion int    `json:"rulesetVersion"`
	// ProbeSpecHash is the sha256 (hex) of the JCS form of the declared
	// probes and profiles. Two snapshots are comparable only when it matches.
	ProbeSpecHash string      `json:"probeSpecHash"`
	Observation   Observation `json:"observation"`
	Surface       Surface     `json:"surface"`
	// SurfaceDigest is "sha256:<hex>" over the JCS bytes of the canonical
	// surface, present only when the surface is complete.
	SurfaceDigest string `json:"surfaceDigest,omitempty"`
	// EntityDigests maps "tools/<name>", "resources/<uri>",
	// "resourceTemplates/<uriTemplate>", "prompts/<name>" and
	// "manifest/<tool>" to "sha256:<hex>" of that entity's canonical form.
	// An entity digest is valid even when its list was not read to the end:
	// the entity itself was received whole.
	EntityDigests map[string]string `json:"entityDigests,omitempty"`
}

// Observation is metadata about how the surface was observed. It is never
// diffed.
type Observation struct {
	// RecordedAt is RFC 3339 (UTC, nanoseconds trimmed).
	RecordedAt string     `json:"recordedAt"`
	Target     TargetInfo `json:"target"`
	// Era is "modern" or "legacy" (empty when the handshake failed).
	Era     string `json:"era,omitempty"`
	DualEra bool   `json:"dualEra,omitempty"`
	// DualEraVersions are the legacy revisions a dual-era server also
	// accepts at initialize (surface.discover lists its modern ones).
	DualEraVersions []string `json:"dualEraVersions,omitempty"`
	// ProtocolVersion is the version the conversation used.
	ProtocolVersion string `json:"protocolVersion,omitempty"`
	// SupportedVersionsSource says how surface.discover.supportedVersions
	// was learned: one of the Versions* constants. Absent in snapshots
	// written before it existed; [Snapshot.VersionsSource] infers it.
	SupportedVersionsSource string          `json:"supportedVersionsSource,omitempty"`
	ClientCapabilities      json.RawMessage `json:"clientCapabilities,omitempty"`
	ClientInfo              json.RawMessage `json:"clientInfo,omitempty"`
	// Status is one of the Status* constants.
	Status   string   `json:"status"`
	Coverage Coverage `json:"coverage"`
	Notes    []Note   `json:"notes,omitempty"`
	// Uncaptured names the parts of the surface the tool that wrote the
	// original file never recorded (a snapshot converted from snapgauge
	// or mcp-surfaceprint), so that their absence here is no evidence
	// that the server lacked them. Each entry is a dot path into the
	// surface as diff subjects name it, one segment per key: a literal
	// key, "*" (any key), "!a|b|c" (any key but these), or "@nextPages"
	// after a list ("tools.@nextPages": the entries on pages after the
	// first). Examples: "tools.*.title", "resources",
	// "discover.serverInfo.!name|version". A list or section named alone
	// ("resources", "manifest") covers its entries and its list info.
	// Absent in snapshots mcpward records: it captures everything.
	Uncaptured []string `json:"uncaptured,omitempty"`
}

// Coverage says, per section, how far the observation got.
type Coverage struct {
	Discover          SectionCoverage `json:"discover"`
	Tools             SectionCoverage `json:"tools"`
	Resources         SectionCoverage `json:"resources"`
	ResourceTemplates SectionCoverage `json:"resourceTemplates"`
	Prompts           SectionCoverage `json:"prompts"`
	Manifest          SectionCoverage `json:"manifest"`
	Probes            SectionCoverage `json:"probes"`
}

// SectionCoverage is the coverage of one section.
type SectionCoverage struct {
	Attempted bool `json:"attempted"`
	// Completed is true when the section was read to its end, or the server
	// said it does not support it (Unsupported then is true).
	Completed   bool          `json:"completed"`
	Unsupported bool          `json:"unsupported,omitempty"`
	Pages       int           `json:"pages,omitempty"`
	Items       int           `json:"items,omitempty"`
	Error       *SectionError `json:"error,omitempty"`
}

// complete reports whether this section does not stand in the way of a
// complete surface.
func (c SectionCoverage) complete() bool { return !c.Attempted || c.Completed }

// Object is a JSON object as the server sent it, decoded with numbers kept
// as json.Number so that they are written back as written.
type Object = map[string]any

// Surface is everything a diff compares.
type Surface struct {
	Discover *Discover `json:"discover,omitempty"`
	// Tools are sorted by name. Each keeps every wire field, plus the
	// computed "xmcpHeaders" ([]XMCPHeader) when the tool binds any.
	Tools     []Object   `json:"tools"`
	ToolsList *ToolsList `json:"toolsList,omitempty"`
	// Resources are sorted by uri, every wire field kept.
	Resources     []Object  `json:"resources,omitempty"`
	ResourcesList *ListInfo `json:"resourcesList,omitempty"`
	// ResourceTemplates are sorted by uriTemplate.
	ResourceTemplates     []Object  `json:"resourceTemplates,omitempty"`
	ResourceTemplatesList *ListInfo `json:"resourceTemplatesList,omitempty"`
	// Prompts are sorted by name; arguments keep their declared order.
	Prompts     []Object  `json:"prompts,omitempty"`
	PromptsList *ListInfo `json:"promptsList,omitempty"`
	Manifest    *Manifest `json:"manifest,omitempty"`
	// Behavior maps a probe id to the sketch of what the call returned.
	Behavior map[string]*Behavior `json:"behavior,omitempty"`

	// raw holds the tools of a surface read by [UnmarshalLazy] as their
	// bytes in the file, Tools being nil; see [Surface.RawTools].
	raw *rawTools
}

// Discover is the server's self-description: server/discover (modern) or the
// InitializeResult (legacy, where supportedVersions is what one initialize
// per known revision found, or the negotiated version alone; see
// Observation.SupportedVersionsSource).
type Discover struct {
	SupportedVersions []string     `json:"supportedVersions"`
	Capabilities      Object       `json:"capabilities"`
	ServerInfo        Object       `json:"serverInfo"`
	Instructions      *string      `json:"instructions,omitempty"`
	TTLMs             *json.Number `json:"ttlMs,omitempty"`
	CacheScope        string       `json:"cacheScope,omitempty"`
	ProtocolVersion   string       `json:"protocolVersion,omitempty"`
}

// ListInfo describes how a paginated list was served.
type ListInfo struct {
	Pages int `json:"pages"`
	// TTLMs and CacheScope are the first page's cache hints.
	TTLMs      *json.Number `json:"ttlMs,omitempty"`
	CacheScope string       `json:"cacheScope,omitempty"`
	// PageScopes holds every page's cacheScope ("" when absent), only when
	// they are not all the same.
	PageScopes []string `json:"pageScopes,omitempty"`
}

// ToolsList is ListInfo for tools/list plus the observed order.
type ToolsList struct {
	ListInfo
	// Order is the tool names in the order of the first enumeration.
	Order []string `json:"order"`
	// OrderStable is false when the repeated enumerations disagreed.
	OrderStable bool `json:"orderStable"`
}

// XMCPHeader is one x-mcp-header binding in a tool's inputSchema.
type XMCPHeader struct {
	// Path is a dot path from the inputSchema root, e.g.
	// "properties.workspace".
	Path       string   `json:"path"`
	Header     string   `json:"header"`
	Valid      bool     `json:"valid"`
	Violations []string `json:"violations"`
}

// Manifest is the parsed server manifest resource (surfaceprint §5.2).
type Manifest struct {
	URI   string         `json:"uri"`
	Tools []ManifestTool `json:"tools"`
}

// ManifestTool is one tool entry of a server manifest.
type ManifestTool struct {
	Tool        string `json:"tool"`
	Description string `json:"description,omitempty"`
	// Operations are kept in declared order (sorted only in the digest
	// form), duplicates included.
	Operations []string `json:"operations,omitempty"`
}

// Behavior is the sketch of one probe's answer.
type Behavior struct {
	// Tool is the probed tool and ArgumentKeys the top-level argument
	// names the probe sent (sorted). They are the probe spec, equal on both
	// sides of any comparable pair; the diff uses them to tell a behaviour
	// change that a schema change already explains (the tool was removed,
	// or now requires an input the probe does not send).
	Tool         string   `json:"tool,omitempty"`
	ArgumentKeys []string `json:"argumentKeys,omitempty"`
	ResultType   string   `json:"resultType,omitempty"`
	// ContentBlocks: in shape mode a text block is {type:"text", sha256},
	// any other block {type, shape}; in values mode blocks are verbatim with
	// volatile keys replaced by type tokens.
	ContentBlocks     []any    `json:"contentBlocks,omitempty"`
	StructuredShape   any      `json:"structuredShape,omitempty"`
	StructuredContent any      `json:"structuredContent,omitempty"`
	IsError           bool     `json:"isError"`
	ErrorCode         *int64   `json:"errorCode,omitempty"`
	MetaKeys          []string `json:"metaKeys,omitempty"`
	HTTPStatus        int      `json:"httpStatus,omitempty"`
	ContentType       string   `json:"contentType,omitempty"`
}

// Str returns o[key] when it is a string.
func Str(o Object, key string) string {
	s, _ := o[key].(string)
	return s
}

// ToolNames returns the names of the tools, in snapshot (sorted) order.
func (s *Surface) ToolNames() []string {
	if s.raw != nil {
		names := make([]string, len(s.raw.tools))
		for i, t := range s.raw.tools {
			names[i] = t.Name
		}
		return names
	}
	names := make([]string, 0, len(s.Tools))
	for _, t := range s.Tools {
		names = append(names, Str(t, "name"))
	}
	return names
}
