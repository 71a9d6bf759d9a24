// Command enginegen writes the prebuilt engine that mcpward embeds
// (internal/site/prebuilt: engine.wasm.gz, wasm_exec.js, engine.sum), run
// by `go generate ./internal/site/...`. It hashes the engine's sources
// (enginebuild.SourceHash: go list, nothing compiled) and rebuilds only when the
// hash differs from the one engine.sum records, so a run with nothing
// changed writes nothing and takes a second; -force rebuilds anyway, and
// -check only says whether the engine is stale (exit 1).
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mcpward/mcpward/internal/atomicfile"
	"github.com/mcpward/mcpward/internal/site/enginebuild"
)

func main() {
	dir := flag.String("dir", "prebuilt", "the `folder` of the prebuilt engine")
	force := flag.Bool("force", false, "rebuild even if the sources' hash is unchanged")
	check := flag.Bool("check", false, "write nothing; exit 1 if the engine is stale")
	flag.Parse()
	if err := run(context.Background(), *dir, *force, *check); err != nil {
		fmt.Fprintln(os.Stderr, "enginegen:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, dir string, force, check bool) error {
	hash, err := enginebuild.SourceHash(ctx, enginebuild.BuildOptions{Dir: "."})
	if err != nil {
		return err
	}
	old, err := os.ReadFile(filepath.Join(dir, "engine.sum"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if sum, err := enginebuild.ParseSum(old); err == nil && sum.Sources == hash && !force {
		return nil
	}
	if check {
		return fmt.Errorf("the prebuilt engine in %s is stale (its sources are now %s): run go generate ./internal/site/... and commit %s", dir, hash, dir)
	}
	eng, err := enginebuild.BuildEngine(ctx, enginebuild.BuildOptions{Dir: "."})
	if err != nil {
		return err
	}
	gz, err := enginebuild.Gzip(eng.Wasm)
	if err != nil {
		return err
	}
	sum := &enginebuild.Sum{Sources: hash, Wasm: enginebuild.WasmSum(eng.Wasm), Size: len(eng.Wasm), Go: eng.GoVersion}
	for name, b := range map[string][]byte{"engine.wasm.gz": gz, "wasm_exec.js": eng.WasmExec, "engine.sum": sum.Format()} {
		path := filepath.Join(dir, name)
		if cur, err := os.ReadFile(path); err == nil && bytes.Equal(cur, b) {
			continue
		}
		if err := atomicfile.Write(path, b, 0o644); err != nil {
			return err
		}
	}
	fmt.Fprintf(os.Stderr, "enginegen: %s/engine.wasm.gz: %.1f MB (%.1f MB uncompressed), built by %s from sources %s\n",
		dir, float64(len(gz))/(1<<20), float64(len(eng.Wasm))/(1<<20), eng.GoVersion, hash)
	return nil
}
