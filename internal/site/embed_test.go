package site

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"testing"

	"github.com/mcpward/mcpward/internal/site/enginebuild"
)

// TestEmbeddedEngine: the engine embedded in mcpward inflates to the
// WebAssembly module its engine.sum describes, with its wasm_exec.js.
func TestEmbeddedEngine(t *testing.T) {
	e, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(e.Wasm, []byte("\x00asm")) || !bytes.Contains(e.WasmExec, []byte("globalThis.Go")) || e.GoVersion == "" {
		t.Errorf("embedded engine: %d bytes of wasm, %d of wasm_exec.js, built by %q", len(e.Wasm), len(e.WasmExec), e.GoVersion)
	}
	t.Logf("embedded engine: %.1f MB compressed, %.1f MB uncompressed, built by %s", float64(len(e.Gz))/(1<<20), float64(len(e.Wasm))/(1<<20), e.GoVersion)
}

// TestEmbeddedEngineFresh: the embedded engine was built from the sources
// as they are (the hash engine.sum records is the hash of the engine's
// sources now). When this fails, a package the engine is built from
// changed: run go generate ./internal/site/... and commit
// internal/site/prebuilt.
func TestEmbeddedEngineFresh(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("the go command is missing in CI")
		}
		t.Skip("no go command: the sources cannot be listed")
	}
	sum, err := EmbeddedSum()
	if err != nil {
		t.Fatal(err)
	}
	hash, err := enginebuild.SourceHash(context.Background(), enginebuild.BuildOptions{Dir: "."})
	if err != nil {
		t.Fatal(err)
	}
	if hash != sum.Sources {
		t.Fatalf("the embedded engine is stale: built from sources %s, they are now %s.\n"+
			"A package the engine is built from changed: run go generate ./internal/site/... and commit internal/site/prebuilt.", sum.Sources, hash)
	}
}

// TestEmbeddedEngineIsTheBuild: building the engine from these sources
// with the Go that built the embedded one gives the embedded bytes (the
// build is reproducible: no path, no VCS state, no version linked in).
// With another Go the bytes may differ, and the test says so and skips.
func TestEmbeddedEngineIsTheBuild(t *testing.T) {
	built := testEngine(t)
	e, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	if built.GoVersion != e.GoVersion {
		t.Skipf("the embedded engine was built by %s, this Go is %s: the bytes are not comparable", e.GoVersion, built.GoVersion)
	}
	if sum, _ := EmbeddedSum(); enginebuild.WasmSum(built.Wasm) != sum.Wasm {
		t.Errorf("a build of these sources (sha256:%s, %d bytes) is not the embedded engine (sha256:%s, %d bytes); stale (see TestEmbeddedEngineFresh) or not reproducible",
			enginebuild.WasmSum(built.Wasm), len(built.Wasm), sum.Wasm, sum.Size)
	}
	if !bytes.Equal(built.WasmExec, e.WasmExec) {
		t.Error("this Go's wasm_exec.js is not the embedded one")
	}
}
