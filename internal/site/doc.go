// Package site writes the static site of `mcpward site --out DIR`: a
// landing page, the rule catalogue (rules.html, one anchor per rule id),
// the board pages (rendered by internal/board from board files), and the
// engine page, where mcpward's pure core, compiled to WebAssembly, runs in
// a Web Worker and diffs snapshots, checks session logs and renders Result
// documents from files the user drops or pastes, and the demo page, where
// it records two of its own fixture servers and diffs them, offline. The site needs no server
// of its own: any static host (GitHub Pages, `python3 -m http.server`)
// serves it, and nothing the user opens is sent anywhere.
//
// # Security
//
// Every page carries a Content-Security-Policy meta tag with no inline
// script and no inline style: scripts come from the site's own files, the
// engine page adds 'wasm-unsafe-eval' (needed to compile WebAssembly) and
// worker-src 'self', and no page may connect anywhere. The page scripts
// put what the engine says into the page as text, never as HTML, so a
// tool description holding markup shows as text. The board pages are
// internal/board's self-contained page and keep its own policy.
//
// # Where the engine comes from
//
// The engine (engine.wasm.gz and wasm_exec.js, the Go runtime's loader that
// must match the Go that built it) is embedded in mcpward ([Embedded]), so
// `mcpward site` needs neither Go nor the source. It is a generated file,
// internal/site/prebuilt, written by `go generate ./internal/site/...`
// (internal/site/enginegen): `GOOS=js GOARCH=wasm go build -trimpath
// -buildvcs=false -ldflags=-s -w` of cmd/mcpward-wasm, rebuilt only when
// the hash of its sources (enginebuild.SourceHash) differs from the one
// engine.sum records; TestEmbeddedEngineFresh fails with that command when
// a package the engine is built from changed. docs/design.md says why.
// `mcpward site --source DIR` compiles it from a checkout instead
// (enginebuild.BuildEngine), `--engine DIR` takes another prebuilt one.
//
// The demo page needs no input: the engine records two fixture servers
// built into it (clean@v1 and drift-breaking@v2, internal/fixture, run in
// process in the worker) and diffs them, as `mcpward demo` does.
//
// The engine is lazy: the engine page loads only its own small script;
// the worker, and with it the download of engine.wasm.gz, starts when the
// first file is given. The .wasm is shipped gzip-compressed and inflated
// by the browser's DecompressionStream while it downloads, so the transfer
// is the compressed size on any static host, whether or not the host
// compresses responses itself.
package site
