package enginebuild

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var fake = &Engine{Wasm: []byte("\x00asm\x01\x00\x00\x00"), WasmExec: []byte("// wasm_exec.js\n")}

// TestBuildEngineErrors: without the go command or the source, building
// the engine fails with an error that says which.
func TestBuildEngineErrors(t *testing.T) {
	_, err := BuildEngine(context.Background(), BuildOptions{Dir: t.TempDir(), Go: "go"})
	if !errors.Is(err, ErrNoSource) || !strings.HasPrefix(err.Error(), "build the engine: no mcpward source tree at or above ") {
		t.Errorf("no source: err = %v", err)
	}
	_, err = BuildEngine(context.Background(), BuildOptions{Go: filepath.Join(t.TempDir(), "go"), Dir: "."})
	if err == nil || !strings.Contains(err.Error(), "go build") {
		t.Errorf("go binary missing: err = %v", err)
	}
	_, err = BuildEngine(context.Background(), BuildOptions{Dir: ".", Env: []string{"PATH=" + t.TempDir()}})
	if !errors.Is(err, ErrNoGo) || err.Error() != "build the engine: the go command is not on PATH" {
		t.Errorf("no go on PATH: err = %v", err)
	}
}

// TestReadEngine reads a prebuilt engine, compressed or not.
func TestReadEngine(t *testing.T) {
	dir := t.TempDir()
	if _, err := ReadEngine(dir); err == nil {
		t.Fatal("empty dir: no error")
	}
	os.WriteFile(filepath.Join(dir, "wasm_exec.js"), fake.WasmExec, 0o644)
	gz, _ := Gzip(fake.Wasm)
	os.WriteFile(filepath.Join(dir, "engine.wasm.gz"), gz, 0o644)
	e, err := ReadEngine(dir)
	if err != nil || string(e.Wasm) != string(fake.Wasm) {
		t.Fatalf("ReadEngine = %v, %v", e, err)
	}
}
