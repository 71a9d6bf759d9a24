package site

import (
	"bytes"
	_ "embed"
	"fmt"

	"github.com/mcpward/mcpward/internal/site/enginebuild"
)

//go:generate go run ./enginegen

// The prebuilt engine, committed as generated files (see the package doc,
// "Where the engine comes from"): go generate rebuilds it when the hash
// of its sources changes.
var (
	//go:embed prebuilt/engine.wasm.gz
	embeddedGz []byte
	//go:embed prebuilt/wasm_exec.js
	embeddedWasmExec []byte
	//go:embed prebuilt/engine.sum
	embeddedSum []byte
)

// EmbeddedSum is what engine.sum says of the embedded engine.
func EmbeddedSum() (*enginebuild.Sum, error) { return enginebuild.ParseSum(embeddedSum) }

// Embedded returns the engine embedded in mcpward, checked against its
// engine.sum.
func Embedded() (*enginebuild.Engine, error) {
	sum, err := EmbeddedSum()
	if err != nil {
		return nil, fmt.Errorf("the embedded engine: %w", err)
	}
	wasm, err := enginebuild.Gunzip(embeddedGz)
	if err != nil {
		return nil, fmt.Errorf("the embedded engine: %w", err)
	}
	if len(wasm) != sum.Size || enginebuild.WasmSum(wasm) != sum.Wasm || !bytes.HasPrefix(wasm, []byte("\x00asm")) {
		return nil, fmt.Errorf("the embedded engine does not match its engine.sum")
	}
	return &enginebuild.Engine{Wasm: wasm, WasmExec: embeddedWasmExec, Gz: embeddedGz, GoVersion: sum.Go}, nil
}
