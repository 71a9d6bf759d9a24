// Package surfaceprint converts the files of surfaceprint to mcpward's, in memory. It does
// no I/O. Anything that cannot be mapped is named in a snapshot note
// (kind "import"), never dropped silently.
package surfaceprint

import (
	"errors"

	"github.com/mcpward/mcpward/internal/snapshot"
)

// Snapshot converts a surfaceprint snapshot to an mcpward snapshot.
func Snapshot(data []byte) (*snapshot.Snapshot, error) {
	return nil, errors.New("reading surfaceprint snapshots is not implemented yet")
}
