// Package foreign converts a snapshot (or reads a config) written by one of the tools mcpward
// replaces, whichever it is: the one dispatch that `mcpward diff`, `check`
// (through contract.ReadSnapshot) and the browser engine share. It does no
// I/O.
package foreign

import (
	"github.com/mcpward/mcpward/internal/config"
	"github.com/mcpward/mcpward/internal/migrate"
	"github.com/mcpward/mcpward/internal/migrate/snapgauge"
	"github.com/mcpward/mcpward/internal/migrate/surfaceprint"
	"github.com/mcpward/mcpward/internal/snapshot"
)

// Snapshot converts data when it is a snapgauge or mcp-surfaceprint
// snapshot (or legacy report); ok is false when it is neither, and the
// caller reads it as mcpward's own.
func Snapshot(data []byte) (s *snapshot.Snapshot, ok bool, err error) {
	switch migrate.SniffSnapshot(data) {
	case migrate.SnapgaugeSnapshot:
		s, err = snapgauge.Snapshot(data)
	case migrate.SurfaceprintSnapshot, migrate.SurfaceprintLegacy:
		s, err = surfaceprint.Snapshot(data)
	default:
		return nil, false, nil
	}
	return s, true, err
}

// Config reads a config file: a snapgauge.config.json (its targets carry
// "transport") by snapgauge's rules, anything else as mcpward.json. Both
// give the same config.File; see snapgauge.Config and config.Parse.
func Config(data []byte) (*config.File, error) {
	if snapgauge.IsConfig(data) {
		return snapgauge.Config(data)
	}
	return config.Parse(data)
}
