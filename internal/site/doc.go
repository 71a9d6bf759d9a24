// Package site writes the static site of `mcpward site --out DIR`: a
// landing page, the rule catalogue (rules.html, one anchor per rule id),
// the board pages (rendered by internal/board from board files), and the
// engine page, where mcpward's pure core, compiled to WebAssembly, runs in
// a Web Worker and diffs snapshots, checks session logs and renders Result
// documents from files the user drops or pastes. The site needs no server
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
// must match the Go that built it) is compiled when the site is written,
// by [BuildEngine]: `GOOS=js GOARCH=wasm go build -trimpath -ldflags=-s -w`
// of cmd/mcpward-wasm in the mcpward source tree, with the go command on
// PATH; `mcpward site --engine DIR` takes a prebuilt one instead. Without
// Go or the source, `mcpward site` fails with a message that says so.
//
// The alternative, building the engine at `go generate` time and embedding
// it in the mcpward binary, was rejected: the artefact is about 2 MB
// compressed and changes whenever any core package changes, so every such
// commit would carry a binary diff (or CI's "go generate leaves the tree
// clean" check would fail until someone regenerated it), and mcpward
// itself would grow by the size of the engine for one command. A site is
// written from a checkout (the Pages workflow, a maintainer), where Go is
// present, so building there costs one cached `go build`.
//
// The engine is lazy: the engine page loads only its own small script;
// the worker, and with it the download of engine.wasm.gz, starts when the
// first file is given. The .wasm is shipped gzip-compressed and inflated
// by the browser's DecompressionStream while it downloads, so the transfer
// is the compressed size on any static host, whether or not the host
// compresses responses itself.
package site
