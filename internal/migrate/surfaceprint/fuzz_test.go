package surfaceprint

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpward/mcpward/internal/snapshot"
)

// FuzzSnapshot: any file handed to the converter is converted or refused
// with an error, never a panic, and what it converts is a snapshot
// mcpward writes and reads back.
func FuzzSnapshot(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*", "*.json"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"schemaVersion":1,"tools":[{"name":"t","inputSchema":{"type":"object"}}]}`))
	f.Add([]byte(`{"schemaVersion":"1","tools":null}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Snapshot(data)
		if err != nil {
			return
		}
		out, err := snapshot.Marshal(s)
		if err != nil {
			t.Fatalf("converted snapshot does not marshal: %v", err)
		}
		if _, err := snapshot.Unmarshal(out); err != nil {
			t.Fatalf("converted snapshot does not read back: %v\n%s", err, out)
		}
	})
}
