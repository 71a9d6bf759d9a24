// Package enginebuild builds the site's engine (cmd/mcpward-wasm, for
// GOOS=js GOARCH=wasm) from the mcpward source tree, hashes the sources it
// is built from, and reads a prebuilt one. It is what internal/site's
// generator (internal/site/enginegen) and `mcpward site --source` use; it
// embeds nothing, so it builds without a prebuilt engine.
package enginebuild

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/mcpward/mcpward/internal/fault"
)

// Module is the module path of mcpward's source, which BuildEngine looks
// for in go.mod.
const Module = "github.com/mcpward/mcpward"

// EnginePackage is the package compiled into the engine.
const EnginePackage = Module + "/cmd/mcpward-wasm"

// An Engine is the compiled engine: the WebAssembly module (uncompressed)
// and the Go runtime's JavaScript loader that goes with it.
type Engine struct {
	Wasm     []byte
	WasmExec []byte
	// Gz is Wasm gzip-compressed, when it came so (the embedded engine);
	// empty: the site compresses Wasm.
	Gz []byte
	// GoVersion is the Go that built it ("go1.26.8"), when known.
	GoVersion string
}

// ErrNoSource means no mcpward source tree was found to build the engine
// from.
var ErrNoSource = errors.New("no mcpward source tree")

// ErrNoGo means the go command was not found.
var ErrNoGo = errors.New("the go command is not on PATH")

// BuildOptions say how to build the engine.
type BuildOptions struct {
	// Go is the go command (default: "go" looked up on PATH).
	Go string
	// Dir is where to look for the source: it or one of its parents must
	// hold mcpward's go.mod.
	Dir string
	// Env is the environment of the build (default: this process's).
	Env []string
}

// SourceRoot returns the folder of mcpward's go.mod at or above dir.
func SourceRoot(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := abs; ; d = filepath.Dir(d) {
		if b, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil && modulePath(b) == Module {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fault.Input(fmt.Errorf("%w at or above %s", ErrNoSource, abs))
		}
	}
}

func modulePath(gomod []byte) string {
	for _, line := range strings.Split(string(gomod), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`)
		}
	}
	return ""
}

// BuildFlags are the flags of the engine's go build: stripped, without
// the source tree's path (-trimpath) or its VCS state (-buildvcs=false),
// so that the same sources and the same Go give the same bytes wherever
// they are built. The version is not linked in: the page passes it to
// the engine when it starts it (argv), so one engine serves every
// release built from the same sources.
var BuildFlags = []string{"-trimpath", "-buildvcs=false", "-ldflags=-s -w"}

// buildEnv is the environment of the engine's go build and of the go list
// that hashes its sources: the user's, without what would change the
// bytes (GOFLAGS, GOEXPERIMENT, GOWASM), for js/wasm.
func buildEnv(env []string) []string {
	out := make([]string, 0, len(env)+6)
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "GOOS", "GOARCH", "CGO_ENABLED", "GOFLAGS", "GOEXPERIMENT", "GOWASM":
			continue
		}
		out = append(out, kv)
	}
	return append(out, "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0", "GOFLAGS=", "GOEXPERIMENT=", "GOWASM=")
}

// BuildEngine compiles cmd/mcpward-wasm for GOOS=js GOARCH=wasm with
// [BuildFlags] from the source tree at or above opts.Dir, and reads the
// matching wasm_exec.js from that Go's GOROOT.
func BuildEngine(ctx context.Context, opts BuildOptions) (_ *Engine, err error) {
	defer func() {
		if err != nil {
			err = fmt.Errorf("build the engine: %w", err)
		}
	}()
	env := opts.Env
	if env == nil {
		env = os.Environ()
	}
	gobin := opts.Go
	if gobin == "" {
		if gobin = lookGo(env); gobin == "" {
			return nil, fault.Input(ErrNoGo)
		}
	}
	root, err := SourceRoot(opts.Dir)
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "mcpward-engine-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	out := filepath.Join(tmp, "engine.wasm")
	args := append(append([]string{"build"}, BuildFlags...), "-o", out, EnginePackage)
	build := exec.CommandContext(ctx, gobin, args...)
	build.Dir = root
	build.Env = buildEnv(env)
	if msg, err := build.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("GOOS=js GOARCH=wasm go build %s: %w\n%s", EnginePackage, err, bytes.TrimSpace(msg))
	}
	goenv := exec.CommandContext(ctx, gobin, "env", "GOROOT", "GOVERSION")
	goenv.Dir = root
	goenv.Env = env
	ge, err := goenv.Output()
	if err != nil {
		return nil, fmt.Errorf("go env GOROOT GOVERSION: %w", err)
	}
	lines := strings.Split(strings.TrimSpace(string(ge)), "\n")
	if len(lines) != 2 {
		return nil, fmt.Errorf("go env GOROOT GOVERSION: %q", ge)
	}
	e := &Engine{GoVersion: strings.TrimSpace(lines[1])}
	if e.Wasm, err = os.ReadFile(out); err != nil {
		return nil, err
	}
	if e.WasmExec, err = ReadWasmExec(strings.TrimSpace(lines[0])); err != nil {
		return nil, err
	}
	return e, nil
}

// lookGo finds the go command on the PATH of env.
func lookGo(env []string) string {
	path := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v
		}
	}
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			continue
		}
		p := filepath.Join(dir, "go")
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}

// ReadWasmExec reads wasm_exec.js from a GOROOT (lib/wasm since Go 1.24,
// misc/wasm before).
func ReadWasmExec(goroot string) ([]byte, error) {
	var first error
	for _, p := range []string{filepath.Join(goroot, "lib", "wasm", "wasm_exec.js"), filepath.Join(goroot, "misc", "wasm", "wasm_exec.js")} {
		b, err := os.ReadFile(p)
		if err == nil {
			return b, nil
		}
		if first == nil {
			first = err
		}
	}
	return nil, fmt.Errorf("wasm_exec.js: %w", first)
}

// ReadEngine reads a prebuilt engine from dir: engine.wasm (or
// engine.wasm.gz) and wasm_exec.js.
func ReadEngine(dir string) (*Engine, error) {
	e := &Engine{}
	var err error
	if e.WasmExec, err = os.ReadFile(filepath.Join(dir, "wasm_exec.js")); err != nil {
		return nil, fault.Input(fmt.Errorf("read the engine: %w", err))
	}
	name := "engine.wasm"
	if e.Wasm, err = os.ReadFile(filepath.Join(dir, name)); err != nil {
		name += ".gz"
		gz, gzErr := os.ReadFile(filepath.Join(dir, name))
		if gzErr != nil {
			return nil, fault.Input(fmt.Errorf("read the engine: %w", err))
		}
		if e.Wasm, err = Gunzip(gz); err != nil {
			return nil, fault.Input(fmt.Errorf("read the engine: engine.wasm.gz: %w", err))
		}
	}
	// A folder the user named is input: what is not WebAssembly is exit 4
	// here, not "no engine" (a bug) when the site is written.
	if !bytes.HasPrefix(e.Wasm, []byte("\x00asm")) {
		return nil, fault.Input(fmt.Errorf("read the engine: %s in %s is not WebAssembly", name, dir))
	}
	return e, nil
}

// Gzip compresses b as much as gzip can; the same bytes and the same Go
// always give the same output (no name, no time in the header).
func Gzip(b []byte) ([]byte, error) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(b); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Gunzip inflates b.
func Gunzip(b []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}
