package snapshot_test

import (
	"bytes"
	"testing"

	"github.com/mcpward/mcpward/bench/bigsurface"
	"github.com/mcpward/mcpward/internal/snapshot"
)

// bigFiles returns the two 5,000-tool snapshot files of bench/bigsurface
// (about 12.9 MB each; the second changes every tenth tool).
func bigFiles(b *testing.B) [2][]byte {
	b.Helper()
	var files [2][]byte
	for v := range files {
		data, err := bigsurface.Snapshot(5000, v)
		if err != nil {
			b.Fatal(err)
		}
		files[v] = data
	}
	return files
}

// BenchmarkUnmarshal5000 reads a 5,000-tool file with every tool decoded.
func BenchmarkUnmarshal5000(b *testing.B) {
	data := bigFiles(b)[0]
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := snapshot.Unmarshal(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUnmarshalLazy5000 reads the same file with its tools kept as
// their bytes.
func BenchmarkUnmarshalLazy5000(b *testing.B) {
	data := bigFiles(b)[0]
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		s, err := snapshot.UnmarshalLazy(data)
		if err != nil {
			b.Fatal(err)
		}
		if s.Surface.RawTools() == nil {
			b.Fatal("tools not held raw")
		}
	}
}

// BenchmarkUnmarshalPairs5000 decodes the pairs of same-named tools whose
// bytes differ between the two files, as a diff does (ToolDecoder.DecodePair).
func BenchmarkUnmarshalPairs5000(b *testing.B) {
	files := bigFiles(b)
	var sides [2]map[string]snapshot.RawTool
	for v, data := range files {
		s, err := snapshot.UnmarshalLazy(data)
		if err != nil {
			b.Fatal(err)
		}
		sides[v] = map[string]snapshot.RawTool{}
		for _, t := range s.Surface.RawTools() {
			sides[v][t.Name] = t
		}
	}
	var pairs [][2]snapshot.RawTool
	for name, o := range sides[0] {
		if n, ok := sides[1][name]; ok && !bytes.Equal(o.JSON, n.JSON) {
			pairs = append(pairs, [2]snapshot.RawTool{o, n})
		}
	}
	if len(pairs) < 100 {
		b.Fatalf("%d changed pairs, want the generated drift", len(pairs))
	}
	b.ReportAllocs()
	for b.Loop() {
		var d snapshot.ToolDecoder
		for _, p := range pairs {
			if _, _, err := d.DecodePair(p[0], p[1]); err != nil {
				b.Fatal(err)
			}
		}
	}
}
