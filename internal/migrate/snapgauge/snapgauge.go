// Package snapgauge converts the files of snapgauge to mcpward's, in memory. It does
// no I/O. Anything that cannot be mapped is named in a snapshot note
// (kind "import"), never dropped silently.
package snapgauge

import (
	"errors"

	"github.com/mcpward/mcpward/internal/snapshot"
)

// Snapshot converts a snapgauge snapshot to an mcpward snapshot.
func Snapshot(data []byte) (*snapshot.Snapshot, error) {
	return nil, errors.New("reading snapgauge snapshots is not implemented yet")
}
