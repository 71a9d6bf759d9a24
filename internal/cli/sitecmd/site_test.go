package sitecmd

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcpward/mcpward/internal/cli/cmdtest"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/site"
)

func TestNewCmdSiteFlags(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		want    SiteOptions
		wantErr string
	}{
		{"out", []string{"--out", "_site"}, SiteOptions{Out: "_site"}, ""},
		{"boards", []string{"--out", "s", "--board", "a.json", "--board", "b.json"}, SiteOptions{Out: "s", Boards: []string{"a.json", "b.json"}}, ""},
		{"engine", []string{"--out", "s", "--engine", "e"}, SiteOptions{Out: "s", Engine: "e"}, ""},
		{"source", []string{"--out", "s", "--source", "src"}, SiteOptions{Out: "s", Source: "src"}, ""},
		{"no out", nil, SiteOptions{}, "--out DIR is required"},
		{"engine and source", []string{"--out", "s", "--engine", "e", "--source", "src"}, SiteOptions{}, "--engine and --source exclude each other: a prebuilt engine is not built from a source"},
		{"argument", []string{"--out", "s", "x"}, SiteOptions{}, `unknown command "x" for "site"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := cmdtest.Parse(t, NewCmdSite, tt.args...)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("error = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, *got, cmpopts.IgnoreFields(SiteOptions{}, "IO", "Version", "Now", "Environ", "Getwd")); d != "" {
				t.Errorf("options (-want +got):\n%s", d)
			}
		})
	}
}

func testOpts(t *testing.T) (*SiteOptions, func() string) {
	ios, _, _, stderr := iostreams.Test()
	wd := t.TempDir()
	return &SiteOptions{IO: ios, Version: "v1.2.3",
		Now:     func() time.Time { return time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC) },
		Environ: func() []string { return []string{"PATH=" + t.TempDir()} },
		Getwd:   func() (string, error) { return wd, nil },
	}, stderr.String
}

// prebuilt writes a stand-in engine folder.
func prebuilt(t *testing.T) string {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "engine.wasm"), []byte("\x00asm\x01\x00\x00\x00"), 0o644)
	os.WriteFile(filepath.Join(dir, "wasm_exec.js"), []byte("// loader\n"), 0o644)
	return dir
}

// TestSiteRun writes a site from a prebuilt engine and a board: the pages
// are there and stderr says where; stdout stays empty.
func TestSiteRun(t *testing.T) {
	opts, stderr := testOpts(t)
	opts.Out = filepath.Join(t.TempDir(), "site")
	opts.Engine = prebuilt(t)
	board := filepath.Join(t.TempDir(), "2026-11-30.json")
	os.WriteFile(board, []byte(`{"date":"2026-11-30","generatedAt":"2026-11-30T06:17:00Z","mcpwardVersion":"v1","rows":[]}`), 0o644)
	opts.Boards = []string{board}
	if err := siteRun(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"index.html", "demo.html", "engine.html", "engine.js", "engine-worker.js", "engine.wasm.gz", "wasm_exec.js", "rules.html", "board/index.html", "board/2026-11-30.html"} {
		if _, err := os.Stat(filepath.Join(opts.Out, f)); err != nil {
			t.Errorf("missing %s", f)
		}
	}
	if want := "site: 12 files -> " + opts.Out + " (engine 0.0 MB compressed, 0.0 MB uncompressed)\n"; !strings.HasPrefix(stderr(), want) {
		t.Errorf("stderr = %q, want it to start with %q", stderr(), want)
	}
	if out := opts.IO.Out.(interface{ String() string }).String(); out != "" {
		t.Errorf("stdout = %q", out)
	}
}

// TestSiteRunErrors: each unusable input is one clear error, exit 4, with
// a hint where there is something to do.
func TestSiteRunErrors(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, []byte("x"), 0o644)
	tests := []struct {
		name, want, hint string
		set              func(o *SiteOptions)
	}{
		{"out is a file", "--out " + file + " is not a directory", "", func(o *SiteOptions) { o.Out = file }},
		{"board missing", "read board /nonexistent/b.json: no such file or directory", "", func(o *SiteOptions) {
			o.Boards = []string{"/nonexistent/b.json"}
			o.Engine = prebuilt(t)
		}},
		{"bad board", "board " + file + ": ", "", func(o *SiteOptions) { o.Boards = []string{file}; o.Engine = prebuilt(t) }},
		{"no engine", "read the engine: ", "", func(o *SiteOptions) { o.Engine = t.TempDir() }},
		{"no go", "build the engine: the go command is not on PATH", "install Go", func(o *SiteOptions) { o.Source = t.TempDir() }},
		{"no source", "build the engine: no mcpward source tree at or above ", "name a checkout of github.com/mcpward/mcpward", func(o *SiteOptions) {
			o.Source = t.TempDir()
			goDir := t.TempDir()
			os.WriteFile(filepath.Join(goDir, "go"), []byte("#!/bin/sh\nexit 1\n"), 0o755)
			o.Environ = func() []string { return []string{"PATH=" + goDir} }
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts, _ := testOpts(t)
			opts.Out = filepath.Join(t.TempDir(), "site")
			tt.set(opts)
			err := siteRun(context.Background(), opts)
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("err = %v, want it to start with %q on one line", err, tt.want)
			}
			if !errors.Is(err, fault.ErrInput) {
				t.Errorf("err %v is not an input error (exit 4)", err)
			}
			if h := fault.HintOf(err); !strings.HasPrefix(h, tt.hint) || (tt.hint == "") != (h == "") {
				t.Errorf("hint = %q, want %q", h, tt.hint)
			}
		})
	}
}

// TestSiteRunEmbedded is `mcpward site` from an installed binary: no go
// command on PATH, no source tree around, no --engine; the site is written
// with the engine embedded in mcpward (issue 25 item 9: it used to fail
// with "the go command is not on PATH").
func TestSiteRunEmbedded(t *testing.T) {
	opts, stderr := testOpts(t) // PATH is an empty folder, the working directory a temporary one
	opts.Out = filepath.Join(t.TempDir(), "site")
	if err := siteRun(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	eng, err := site.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	gz, err := os.ReadFile(filepath.Join(opts.Out, "engine.wasm.gz"))
	if err != nil || !bytes.Equal(gz, eng.Gz) {
		t.Errorf("engine.wasm.gz is not the embedded engine (%d bytes, %v)", len(gz), err)
	}
	for _, f := range []string{"demo.html", "engine.html", "wasm_exec.js"} {
		if _, err := os.Stat(filepath.Join(opts.Out, f)); err != nil {
			t.Errorf("missing %s", f)
		}
	}
	if strings.Contains(stderr(), "compiling") {
		t.Errorf("stderr = %q: it compiled an engine", stderr())
	}
}
