package contract

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mcpward/mcpward/internal/atomicfile"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/inputfile"
	"github.com/mcpward/mcpward/internal/migrate/foreign"
	"github.com/mcpward/mcpward/internal/snapshot"
)

// maxSnapshotBytes bounds a snapshot read: a snapshot of the 5,000-tool
// fixture is a few MiB; anything near this is not a snapshot.
const maxSnapshotBytes = 512 << 20

// ErrNoSnapshot is returned by [ReadSnapshot] when the file does not exist.
var ErrNoSnapshot = errors.New("no such file")

// ReadSnapshot reads and strictly parses the snapshot at path. With
// migrate, an older format is upgraded first; without it, an older format
// is an error that says to re-run with --migrate. Every error names the
// file and is marked fault.Input (exit 4); a missing file also wraps
// ErrNoSnapshot. The snapshot is whole: Surface.Tools is decoded.
func ReadSnapshot(path string, migrate bool) (*snapshot.Snapshot, error) {
	s, err := ReadSnapshotLazy(path, migrate)
	if err != nil {
		return nil, err
	}
	if err := s.Surface.DecodeTools(); err != nil {
		return nil, fmt.Errorf("snapshot %s: %w", path, err)
	}
	return s, nil
}

// ReadSnapshotLazy is [ReadSnapshot] with the tools of an mcpward snapshot
// kept as their bytes (snapshot.UnmarshalLazy): Surface.Tools is nil until
// Surface.DecodeTools. diff.Compare decodes only the tools that differ, so
// a diff of two 5,000-tool files decodes a few; anything else that reads
// Tools wants ReadSnapshot.
func ReadSnapshotLazy(path string, migrate bool) (*snapshot.Snapshot, error) {
	return ReadSnapshotLazyContext(context.Background(), path, migrate)
}

// ReadSnapshotLazyContext is [ReadSnapshotLazy] that stops when ctx ends
// (a FIFO from `diff <(…)` that never gets a writer, or never ends). A
// device or a directory is refused, and so is more than maxSnapshotBytes
// from anything (/dev/zero grew the process to 3 GB before).
func ReadSnapshotLazyContext(ctx context.Context, path string, migrate bool) (*snapshot.Snapshot, error) {
	data, err := inputfile.ReadFile(ctx, path, maxSnapshotBytes)
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("read snapshot %s: %w", path, ctx.Err())
		}
		if errors.Is(err, os.ErrNotExist) {
			return nil, fault.Input(fmt.Errorf("read snapshot %s: %w", path, ErrNoSnapshot))
		}
		return nil, fault.Input(fmt.Errorf("read snapshot %s: %w", path, fault.WithoutPath(err)))
	}
	// Our own format first: it is read in one pass (another tool's
	// snapshot has top-level keys ours refuses), and sniffing first
	// scanned a 12 MB file once more. The tools are kept as bytes until a
	// diff needs them (snapshot.UnmarshalLazy).
	s, err := snapshot.UnmarshalLazy(data)
	if err == nil {
		return s, nil
	}
	if s, ok, err := foreign.Snapshot(data); ok {
		if err != nil {
			return nil, fault.Input(fmt.Errorf("snapshot %s: %w", path, err))
		}
		return s, nil
	}
	if migrate && errors.Is(err, snapshot.ErrNeedsMigration) {
		if data, err = snapshot.Migrate(data); err != nil {
			return nil, fmt.Errorf("snapshot %s: %w", path, err)
		}
		s, err = snapshot.UnmarshalLazy(data)
	}
	if err != nil {
		return nil, fmt.Errorf("snapshot %s: %w", path, err)
	}
	return s, nil
}

// WriteSnapshot writes s to path in canonical form, atomically (a reader
// sees the old file or the new one, never a torn one), creating the
// directory if needed.
func WriteSnapshot(path string, s *snapshot.Snapshot) error {
	b, err := snapshot.Marshal(s)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("write snapshot %s: %w", path, err)
	}
	if err := WriteFileAtomic(path, b, 0o644); err != nil {
		return fmt.Errorf("write snapshot %s: %w", path, err)
	}
	return nil
}

// WriteFileAtomic writes data to path through a temporary file in the same
// directory, synced and renamed over path, so a reader (or a crash) sees
// the old file or the new one, never a torn one.
func WriteFileAtomic(path string, data []byte, perm os.FileMode) error {
	return atomicfile.Write(path, data, perm)
}
