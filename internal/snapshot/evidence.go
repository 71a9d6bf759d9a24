package snapshot

import (
	"encoding/json"
	"strings"
	"time"
)

// Evidence is everything one observation of a server gathered, kept as the
// raw bytes the server sent. The prober (internal/probe, which does the I/O)
// fills it; Build turns it into a canonical Snapshot without any I/O.
//
// The split keeps the rule "decode for analysis, never re-encode what you
// record": every list page and result is the server's own bytes, and the
// canonical form is derived from them in one pure place.
type Evidence struct {
	// RecordedAt is the observation time (pinned in tests).
	RecordedAt time.Time

	// Target says what was observed. It never holds secrets: header values
	// and environment values are not part of it.
	Target TargetInfo

	// Era is "modern" (server/discover answered) or "legacy" (initialize).
	Era string
	// DualEra is true when a modern server also answered initialize (only
	// known when the prober tried both).
	DualEra bool
	// DualEraVersions are the legacy revisions such a server accepted at
	// initialize.
	DualEraVersions []string
	// ProtocolVersion is the version the conversation used.
	ProtocolVersion string
	// ClientCapabilities is what the client declared (per request in the
	// modern era, at initialize in the legacy era). Servers list different
	// tools depending on it, so a snapshot records it.
	ClientCapabilities json.RawMessage
	// ClientInfo is the Implementation object the client sent.
	ClientInfo json.RawMessage

	// Discover is the raw DiscoverResult (modern); nil otherwise.
	Discover json.RawMessage
	// Initialize is the raw InitializeResult (legacy, or dual-era probe).
	Initialize json.RawMessage
	// DiscoverError is set when server/discover failed on a server that was
	// nevertheless classified (e.g. legacy fallback).
	DiscoverError *SectionError
	// LegacyVersions are the revisions a legacy server accepted when the
	// prober sent one initialize per known revision (VersionsProbed true
	// when every attempt was answered). An InitializeResult names one
	// version only, so without this probe the supported set is unknown.
	LegacyVersions []string
	VersionsProbed bool

	// Tools holds the pages of the first complete tools/list.
	Tools ListEvidence
	// ToolsRepeats holds further complete tools/list enumerations (the
	// stability check lists three times in all); each is one ListEvidence.
	ToolsRepeats      []ListEvidence
	Resources         ListEvidence
	ResourceTemplates ListEvidence
	Prompts           ListEvidence

	// Manifest is the server manifest resource, if one was found and read.
	Manifest *ManifestEvidence

	// Probes are the declared tools/call probes, in declaration order.
	Probes []ProbeEvidence

	// Stderr is what the server wrote to stderr (stdio), capped.
	Stderr string

	// Notes are observations the prober made along the way (a malformed
	// line on stdout, a late reply, a cursor loop).
	Notes []Note
}

// TargetInfo identifies the observed server without secrets.
type TargetInfo struct {
	// Name is the config target name (also the snapshot file stem).
	Name string `json:"name,omitempty"`
	// Transport is "stdio", "http", "sse" (legacy HTTP+SSE) or "fixture".
	Transport string `json:"transport"`
	// Command and Args for stdio targets.
	Command string   `json:"command,omitempty"`
	Args    []string `json:"args,omitempty"`
	// URL for http targets, without userinfo, query or fragment.
	URL string `json:"url,omitempty"`
	// Fixture name for fixture targets.
	Fixture string `json:"fixture,omitempty"`
	// Auth is "none" or "bearer(redacted)"; never the credential.
	Auth string `json:"auth,omitempty"`
	// HeaderNames are the names of user-supplied headers (values never).
	HeaderNames []string `json:"headerNames,omitempty"`
}

// Endpoint is how reports name where the target is: the fixture name, the
// URL, or the command line (command and arguments joined by spaces).
func (ti TargetInfo) Endpoint() string {
	switch ti.Transport {
	case "fixture":
		return ti.Fixture
	case "http", "sse":
		return ti.URL
	}
	return strings.Join(append([]string{ti.Command}, ti.Args...), " ")
}

// ListEvidence is one enumeration of a paginated list method.
type ListEvidence struct {
	// Attempted is false when the prober did not ask (e.g. capability not
	// declared and the section was skipped).
	Attempted bool
	// Pages are the raw results of each page, in order.
	Pages []json.RawMessage
	// Err is set when the enumeration did not reach the end of the list;
	// Pages then holds what was read before the failure.
	Err *SectionError
}

// Complete reports whether the list was enumerated to its end.
func (l ListEvidence) Complete() bool { return l.Attempted && l.Err == nil }

// SectionError says why a section could not be (fully) enumerated.
type SectionError struct {
	// Kind is one of: "timeout", "error" (a JSON-RPC error), "exited"
	// (server exited), "transport", "auth", "unsupported" (method not
	// found), "cursor_loop", "page_cap", "malformed".
	Kind string `json:"kind"`
	// Code is the JSON-RPC error code, when Kind is "error"/"unsupported".
	Code int `json:"code,omitempty"`
	// Message is a one-line description.
	Message string `json:"message"`
	// HTTPStatus, when the transport is HTTP.
	HTTPStatus int `json:"httpStatus,omitempty"`
}

// ManifestEvidence is the server manifest resource (surfaceprint §5.2).
type ManifestEvidence struct {
	URI string
	// Text is the text of the first content item, as read.
	Text string
	// Err is set when resources/read failed.
	Err *SectionError
}

// ProbeEvidence is the outcome of one declared tools/call probe.
type ProbeEvidence struct {
	ID      string
	Tool    string
	Capture string // "shape" (default) or "values"
	// Arguments are the arguments the probe sent.
	Arguments json.RawMessage
	// Result is the raw result object, or nil when the call failed.
	Result json.RawMessage
	// Error is the raw JSON-RPC error object, when the server answered one.
	Error json.RawMessage
	// Failure is set when no answer was obtained (timeout, exit, transport).
	Failure *SectionError
	// HTTPStatus and ContentType of the response (HTTP only).
	HTTPStatus  int
	ContentType string
}

// Note is one observation worth keeping beside the surface.
type Note struct {
	// Kind groups notes: "stderr", "stdout", "protocol", "prober".
	Kind string `json:"kind"`
	// Rule is a short stable id ("auth_hint", "stack_trace", "junk_stdout").
	Rule string `json:"rule"`
	// Snippet is a short excerpt (at most a few hundred characters).
	Snippet string `json:"snippet,omitempty"`
}
