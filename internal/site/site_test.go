package site

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/board"
	"github.com/mcpward/mcpward/internal/diff"
	"github.com/mcpward/mcpward/internal/rules"
	"github.com/mcpward/mcpward/internal/site/enginebuild"
)

var (
	engineOnce sync.Once
	engineVal  *enginebuild.Engine
	engineErr  error
)

// testEngine builds the real engine once per test binary (the go build
// cache makes it a link after the first time).
func testEngine(t *testing.T) *enginebuild.Engine {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("the go command is missing in CI")
		}
		t.Skip("no go command: the engine cannot be built")
	}
	engineOnce.Do(func() {
		start := time.Now()
		engineVal, engineErr = enginebuild.BuildEngine(context.Background(), enginebuild.BuildOptions{Dir: "."})
		t.Logf("engine built in %v", time.Since(start).Round(time.Millisecond))
		if engineErr != nil {
			return
		}
		// Compressed once for every site the tests write, and not at all
		// when the build is the embedded engine (the usual case): gzip at
		// its best level is 15 s of CPU under -race, once per site
		// otherwise.
		if sum, err := EmbeddedSum(); err == nil && enginebuild.WasmSum(engineVal.Wasm) == sum.Wasm {
			engineVal.Gz = embeddedGz
			return
		}
		engineVal.Gz, engineErr = enginebuild.Gzip(engineVal.Wasm)
	})
	if engineErr != nil {
		t.Fatal(engineErr)
	}
	return engineVal
}

// fakeEngine is enough for the tests that do not run it.
var fakeEngine = &enginebuild.Engine{Wasm: []byte("\x00asm\x01\x00\x00\x00"), WasmExec: []byte("// wasm_exec.js\n")}

func testBoard(t *testing.T, date string) Board {
	t.Helper()
	b := &board.Board{Date: date, GeneratedAt: date + "T06:17:00Z", MCPWardVersion: "test", Rows: []board.Row{{
		Server: "clean", URL: "https://mcp.example.com/mcp", CheckedAt: date + "T06:17:00Z",
		Command: "mcpward compat --url https://mcp.example.com/mcp", Status: board.StatusOK,
		SupportedVersions: []string{"2026-07-28"}, Notes: `<b id="injected">vendor</b>`,
	}}}
	data, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	return Board{Name: date + ".json", Data: data}
}

// TestWrite checks what the site holds: every page under a strict CSP
// without inline script or style, the engine compressed, one anchor per
// rule id in the catalogue, and the boards newest first.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	files, err := Write(dir, &Options{Version: "v9", Engine: fakeEngine,
		Boards: []Board{testBoard(t, "2026-11-23"), testBoard(t, "2026-11-30")}})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, f.Path)
	}
	want := "board/2026-11-23.html board/2026-11-23.json board/2026-11-30.html board/2026-11-30.json board/index.html demo.html engine-worker.js engine.html engine.js engine.wasm.gz index.html rules.html style.css wasm_exec.js"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("files:\n got %s\nwant %s", got, want)
	}
	gz, _ := os.ReadFile(filepath.Join(dir, "engine.wasm.gz"))
	if w, err := enginebuild.Gunzip(gz); err != nil || string(w) != string(fakeEngine.Wasm) {
		t.Errorf("engine.wasm.gz does not inflate to the engine: %v", err)
	}
	inline := regexp.MustCompile(`(?i)<script(?:\s[^>]*)?>[^<]|<style|\son[a-z]+=|style=`)
	for _, page := range []string{"index.html", "demo.html", "engine.html", "rules.html", "board/index.html"} {
		b, err := os.ReadFile(filepath.Join(dir, page))
		if err != nil {
			t.Fatal(err)
		}
		html := string(b)
		if !strings.Contains(html, `<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;;`) {
			t.Errorf("%s: no strict CSP meta tag", page)
		}
		if m := inline.FindString(html); m != "" {
			t.Errorf("%s: inline script or style: %q", page, m)
		}
		if !strings.Contains(html, "v9") {
			t.Errorf("%s: no version", page)
		}
	}
	engine, _ := os.ReadFile(filepath.Join(dir, "engine.html"))
	if !strings.Contains(string(engine), "&#39;wasm-unsafe-eval&#39;") || !strings.Contains(string(engine), `<script src="engine.js" defer>`) {
		t.Error("engine.html: no wasm-unsafe-eval or no engine.js")
	}
	rulesPage, _ := os.ReadFile(filepath.Join(dir, "rules.html"))
	ids := map[string]int{}
	for _, m := range regexp.MustCompile(`id="([^"]+)"`).FindAllStringSubmatch(string(rulesPage), -1) {
		ids[m[1]]++
	}
	for _, r := range rules.All() {
		if ids[r.ID] != 1 {
			t.Errorf("rules.html: %d anchors for %s", ids[r.ID], r.ID)
		}
	}
	for _, r := range diff.Rules() {
		if ids[r.ID] != 1 {
			t.Errorf("rules.html: %d anchors for %s", ids[r.ID], r.ID)
		}
	}
	list, _ := os.ReadFile(filepath.Join(dir, "board/index.html"))
	if i, j := strings.Index(string(list), "2026-11-30"), strings.Index(string(list), "2026-11-23"); i < 0 || j < i {
		t.Errorf("board list not newest first:\n%s", list)
	}
	page, _ := os.ReadFile(filepath.Join(dir, "board/2026-11-30.html"))
	if strings.Contains(string(page), `<b id="injected">`) || !strings.Contains(string(page), "row-clean") {
		t.Error("board page: notes not escaped, or row missing")
	}
}

// TestWriteRefusesBadInput: no engine, a corrupt board, two boards of one
// day are errors, and nothing is written for them.
func TestWriteRefusesBadInput(t *testing.T) {
	b := testBoard(t, "2026-11-30")
	for name, opts := range map[string]*Options{
		"no engine":  {},
		"not wasm":   {Engine: &enginebuild.Engine{Wasm: []byte("<html>")}},
		"bad board":  {Engine: fakeEngine, Boards: []Board{{Name: "x.json", Data: []byte("{")}}},
		"same day":   {Engine: fakeEngine, Boards: []Board{b, b}},
		"board date": {Engine: fakeEngine, Boards: []Board{testBoard(t, "../../x")}},
	} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "site")
			if _, err := Write(dir, opts); err == nil {
				t.Fatal("no error")
			}
			if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("something was written: %v", err)
			}
		})
	}
}
