package site

import (
	"bytes"
	"context"
	"errors"
	"fmt"
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
	// Version is stamped into the engine (the Results it writes).
	Version string
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

// BuildEngine compiles cmd/mcpward-wasm for GOOS=js GOARCH=wasm (stripped,
// -trimpath) from the source tree at or above opts.Dir, and reads the
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
	ldflags := "-s -w"
	if opts.Version != "" {
		ldflags += " -X main.version=" + opts.Version
	}
	build := exec.CommandContext(ctx, gobin, "build", "-trimpath", "-ldflags="+ldflags, "-o", out, EnginePackage)
	build.Dir = root
	build.Env = append(env[:len(env):len(env)], "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
	if msg, err := build.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("GOOS=js GOARCH=wasm go build %s: %w\n%s", EnginePackage, err, bytes.TrimSpace(msg))
	}
	goroot := exec.CommandContext(ctx, gobin, "env", "GOROOT")
	goroot.Dir = root
	goroot.Env = env
	gr, err := goroot.Output()
	if err != nil {
		return nil, fmt.Errorf("go env GOROOT: %w", err)
	}
	e := &Engine{}
	if e.Wasm, err = os.ReadFile(out); err != nil {
		return nil, err
	}
	if e.WasmExec, err = ReadWasmExec(strings.TrimSpace(string(gr))); err != nil {
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
	if e.Wasm, err = os.ReadFile(filepath.Join(dir, "engine.wasm")); err == nil {
		return e, nil
	}
	gz, gzErr := os.ReadFile(filepath.Join(dir, "engine.wasm.gz"))
	if gzErr != nil {
		return nil, fault.Input(fmt.Errorf("read the engine: %w", err))
	}
	if e.Wasm, err = gunzip(gz); err != nil {
		return nil, fault.Input(fmt.Errorf("read the engine: engine.wasm.gz: %w", err))
	}
	return e, nil
}
