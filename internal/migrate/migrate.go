// Package migrate recognises the files of the tools mcpward replaces
// (snapgauge, mcp-surfaceprint, mcpsnoop) so that every command that reads a
// snapshot, a config or a session log can take them as they are. The
// converters live in one sub-package per tool; this package only tells the
// formats apart. It does no I/O.
package migrate

import (
	"bytes"

	"github.com/mcpward/mcpward/internal/jsonrpc"
)

// Kind names a foreign file format; the empty Kind is "not foreign".
type Kind string

const (
	SnapgaugeSnapshot    Kind = "snapgauge snapshot"
	SurfaceprintSnapshot Kind = "mcp-surfaceprint snapshot"
	SurfaceprintLegacy   Kind = "mcp-surfaceprint legacy report"
)

// SniffSnapshot tells which foreign snapshot format data is in, from its
// top-level keys, or "" when it is not one (an mcpward snapshot, or
// something no reader knows, which the strict mcpward parser then names).
func SniffSnapshot(data []byte) Kind {
	keys := topLevelKeys(data)
	switch {
	case keys["snapgaugeVersion"] && keys["formatVersion"]:
		return SnapgaugeSnapshot
	case keys["snapshotFormatVersion"]:
		return SurfaceprintSnapshot
	case keys["server"] && keys["tools"] && !keys["formatVersion"]:
		return SurfaceprintLegacy
	}
	return ""
}

// topLevelKeys names the members of the object data holds, without decoding
// their values (a 12 MB snapshot is scanned, not copied).
func topLevelKeys(data []byte) map[string]bool {
	keys := map[string]bool{}
	jsonrpc.Members(bytes.TrimSpace(data), func(name, _ []byte) bool {
		keys[string(name)] = true
		return true
	})
	return keys
}
