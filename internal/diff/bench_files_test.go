package diff_test

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/mcpward/mcpward/bench/bigsurface"
	"github.com/mcpward/mcpward/internal/contract"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/snapshot"
	"github.com/mcpward/mcpward/internal/verdict"
)

// BenchmarkDiffFiles5000 is `mcpward diff old new` of two 5,000-tool
// snapshots of about 12 MB each (bench/bigsurface), end to end: read both
// files, decode, diff, gate, render the text report. Besides ns/op and
// B/op it reports live-MB, the heap still in use after both snapshots are
// decoded (after a GC): the floor under the command's peak heap.
func BenchmarkDiffFiles5000(b *testing.B) {
	dir := b.TempDir()
	var paths [2]string
	for v := range paths {
		data, err := bigsurface.Snapshot(5000, v)
		if err != nil {
			b.Fatal(err)
		}
		paths[v] = filepath.Join(dir, []string{"old", "new"}[v]+".snapshot.json")
		if err := os.WriteFile(paths[v], data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	gate, err := verdict.ParseGate("risky", nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	run := func(measure bool) (live uint64) {
		old, err := contract.ReadSnapshotLazy(paths[0], false)
		if err != nil {
			b.Fatal(err)
		}
		cur, err := contract.ReadSnapshotLazy(paths[1], false)
		if err != nil {
			b.Fatal(err)
		}
		if measure {
			var ms runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&ms)
			live = ms.HeapAlloc
		}
		if err := snapshot.Comparable(old, cur); err != nil {
			b.Fatal(err)
		}
		problems := append(verdict.SideProblems("old", old), verdict.SideProblems("new", cur)...)
		r := verdict.Compare(&verdict.Comparison{Command: "diff", Old: old, New: cur,
			OldPath: paths[0], NewPath: paths[1], FindingFile: paths[1], Gate: gate, Problems: problems})
		if r.ExitCode != 1 || len(r.Findings) < 2000 {
			b.Fatalf("exit %d with %d findings, want 1 with the generated drift", r.ExitCode, len(r.Findings))
		}
		ios, _, out, _ := iostreams.Test()
		if err := contract.Render(ios, "text", r); err != nil {
			b.Fatal(err)
		}
		if out.Len() == 0 {
			b.Fatal("empty report")
		}
		return live
	}
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	live := run(true) - base
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		run(false)
	}
	b.ReportMetric(float64(live)/(1<<20), "live-MB")
}
