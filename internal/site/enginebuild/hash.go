package enginebuild

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// SourceHash is the hash of everything the engine is built from, as
// "sha256:HEX": the files of every mcpward package cmd/mcpward-wasm
// imports for js/wasm (its Go files and embedded files, by path and
// content), the module path and version of every other module's package
// it imports, the go directive of go.mod, and [BuildFlags]. The standard
// library and the Go toolchain are not in it: the engine and its
// wasm_exec.js are committed together, built by one Go, and a Go upgrade
// alone does not make them stale. Test files, other packages and the
// site's own pages are not in it either, so a change elsewhere leaves the
// engine as it is.
//
// The go command lists the packages (go list -deps, for GOOS=js
// GOARCH=wasm); nothing is compiled.
func SourceHash(ctx context.Context, opts BuildOptions) (_ string, err error) {
	defer func() {
		if err != nil {
			err = fmt.Errorf("hash the engine's sources: %w", err)
		}
	}()
	env := opts.Env
	if env == nil {
		env = os.Environ()
	}
	gobin := opts.Go
	if gobin == "" {
		if gobin = lookGo(env); gobin == "" {
			return "", ErrNoGo
		}
	}
	root, err := SourceRoot(opts.Dir)
	if err != nil {
		return "", err
	}
	list := exec.CommandContext(ctx, gobin, "list", "-deps", "-json=ImportPath,Dir,Standard,GoFiles,CgoFiles,SFiles,EmbedFiles,Module", EnginePackage)
	list.Dir = root
	list.Env = buildEnv(env)
	var stderr bytes.Buffer
	list.Stderr = &stderr
	out, err := list.Output()
	if err != nil {
		return "", fmt.Errorf("go list -deps %s: %w\n%s", EnginePackage, err, bytes.TrimSpace(stderr.Bytes()))
	}
	h := sha256.New()
	fmt.Fprintf(h, "mcpward engine sources v1\nflags %q\n", BuildFlags)
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listedPackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return "", fmt.Errorf("go list: %w", err)
		}
		switch {
		case p.Standard:
			continue
		case p.Module == nil:
			return "", fmt.Errorf("package %s is in no module", p.ImportPath)
		case !p.Module.Main:
			m := p.Module
			if m.Replace != nil {
				m = m.Replace
			}
			fmt.Fprintf(h, "dep %s %s@%s\n", p.ImportPath, m.Path, m.Version)
			continue
		}
		if p.Module.Path == Module && p.ImportPath == EnginePackage {
			fmt.Fprintf(h, "go %s\n", p.Module.GoVersion)
		}
		fmt.Fprintf(h, "package %s\n", p.ImportPath)
		for _, group := range [][]string{p.GoFiles, p.CgoFiles, p.SFiles, p.EmbedFiles} {
			for _, name := range group {
				b, err := os.ReadFile(filepath.Join(p.Dir, name))
				if err != nil {
					return "", err
				}
				fmt.Fprintf(h, "file %s %d\n", filepath.ToSlash(name), len(b))
				h.Write(b)
			}
		}
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

type listedPackage struct {
	ImportPath string
	Dir        string
	Standard   bool
	GoFiles    []string
	CgoFiles   []string
	SFiles     []string
	EmbedFiles []string
	Module     *listedModule
}

type listedModule struct {
	Path      string
	Version   string
	Main      bool
	GoVersion string
	Replace   *listedModule
}

// Sum is what engine.sum says of the committed engine.
type Sum struct {
	// Sources is the SourceHash it was built from.
	Sources string
	// Wasm is the sha256 of the uncompressed engine, and Size its length.
	Wasm string
	Size int
	// Go is the version of the Go that built it (and whose wasm_exec.js
	// is beside it).
	Go string
}

const sumHeader = "# The prebuilt engine (engine.wasm.gz, wasm_exec.js): written by go generate ./internal/site/... (internal/site/enginegen). Do not edit.\n"

// Format is the text of engine.sum.
func (s *Sum) Format() []byte {
	return fmt.Appendf(nil, "%ssources %s\nwasm sha256:%s %d\ngo %s\n", sumHeader, s.Sources, s.Wasm, s.Size, s.Go)
}

// ParseSum reads engine.sum.
func ParseSum(b []byte) (*Sum, error) {
	s := &Sum{}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 0 || strings.HasPrefix(f[0], "#"):
		case f[0] == "sources" && len(f) == 2:
			s.Sources = f[1]
		case f[0] == "wasm" && len(f) == 3:
			s.Wasm = strings.TrimPrefix(f[1], "sha256:")
			if _, err := fmt.Sscan(f[2], &s.Size); err != nil {
				return nil, fmt.Errorf("engine.sum: %q: %w", line, err)
			}
		case f[0] == "go" && len(f) == 2:
			s.Go = f[1]
		default:
			return nil, fmt.Errorf("engine.sum: unknown line %q", line)
		}
	}
	if s.Sources == "" || s.Wasm == "" || s.Go == "" {
		return nil, errors.New("engine.sum: incomplete")
	}
	return s, nil
}

// WasmSum is the sha256 of an engine as engine.sum writes it.
func WasmSum(wasm []byte) string {
	sum := sha256.Sum256(wasm)
	return hex.EncodeToString(sum[:])
}
