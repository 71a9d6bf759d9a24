package mcp

import "slices"

// A Revision is an MCP protocol version string such as "2025-06-18".
//
// Any string may be held in a Revision so that versions seen on the wire can
// be carried and compared; [ParseRevision] says whether it is one we model.
type Revision string

// The revisions of the specification we model, oldest first.
const (
	Rev20241105 Revision = "2024-11-05"
	Rev20250326 Revision = "2025-03-26"
	Rev20250618 Revision = "2025-06-18"
	Rev20251125 Revision = "2025-11-25"
	Rev20260728 Revision = "2026-07-28"

	// Latest is the newest revision we model.
	Latest = Rev20260728
	// LatestLegacy is the newest revision that still uses the initialize
	// handshake.
	LatestLegacy = Rev20251125
)

// Revisions lists every modelled revision, oldest first. Callers must not
// modify it.
var Revisions = []Revision{Rev20241105, Rev20250326, Rev20250618, Rev20251125, Rev20260728}

// ParseRevision reports whether s names a modelled revision and returns it.
func ParseRevision(s string) (Revision, bool) {
	r := Revision(s)
	if slices.Contains(Revisions, r) {
		return r, true
	}
	return "", false
}

// Known reports whether r is one of [Revisions].
func (r Revision) Known() bool { return slices.Contains(Revisions, r) }

// IsDate reports whether r has the YYYY-MM-DD shape every MCP version has.
// Before and Era only make sense for such strings.
func (r Revision) IsDate() bool {
	if len(r) != 10 || r[4] != '-' || r[7] != '-' {
		return false
	}
	for i := 0; i < len(r); i++ {
		if i == 4 || i == 7 {
			continue
		}
		if r[i] < '0' || r[i] > '9' {
			return false
		}
	}
	return true
}

// Before reports whether r is an earlier revision than o. Version strings are
// dates, so they order lexically.
func (r Revision) Before(o Revision) bool { return r < o }

// Era says which lifecycle a revision uses. Dated versions after the latest
// modelled one are assumed modern: the stateless design is not expected to
// be undone, and a server announcing a future version should be probed the
// modern way. Strings that are not dates are [EraUnknown].
func (r Revision) Era() Era {
	if !r.IsDate() {
		return EraUnknown
	}
	if r.Before(Rev20260728) {
		return EraLegacy
	}
	return EraModern
}

// String returns the version string.
func (r Revision) String() string { return string(r) }

// An Era classifies a revision, or a server, by its lifecycle.
type Era string

// Eras. EraDual describes an implementation that speaks both.
const (
	// EraModern is per-request metadata, no initialize (2026-07-28 on).
	EraModern Era = "modern"
	// EraLegacy is the initialize handshake (2025-11-25 and earlier).
	EraLegacy Era = "legacy"
	// EraDual is a server or client that serves both eras.
	EraDual Era = "dual"
	// EraUnknown is used when the era could not be established.
	EraUnknown Era = "unknown"
)
