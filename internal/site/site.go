package site

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mcpward/mcpward/internal/atomicfile"
	"github.com/mcpward/mcpward/internal/board"
	"github.com/mcpward/mcpward/internal/diff"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/report"
	"github.com/mcpward/mcpward/internal/rules"
	"github.com/mcpward/mcpward/internal/site/enginebuild"
)

//go:embed assets
var assets embed.FS

// The Content-Security-Policy of the pages: no inline script or style, no
// connection anywhere, nothing framed, no form sent. The engine page may
// run its own scripts and worker and compile WebAssembly.
const (
	cspStatic = "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'"
	cspEngine = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'"
)

// A Board is one board file (`mcpward board run` writes them).
type Board struct {
	Name string
	Data []byte
}

// Options are what the site is written from.
type Options struct {
	// Version is mcpward's version, shown in the pages' header.
	Version string
	// Now decides whether a board is stale.
	Now func() time.Time
	// Engine is the compiled engine (BuildEngine or ReadEngine).
	Engine *enginebuild.Engine
	// Boards are published under board/, the newest date first.
	Boards []Board
}

// A File is one file written.
type File struct {
	Path string // relative to the site folder, with slashes
	Size int
}

// Write writes the site into dir (created if needed; files of the same
// name are replaced, others left alone) and returns what it wrote.
func Write(dir string, opts *Options) ([]File, error) {
	if opts.Engine == nil || !bytes.HasPrefix(opts.Engine.Wasm, []byte("\x00asm")) {
		return nil, errors.New("write the site: no WebAssembly engine")
	}
	files := map[string][]byte{}
	gz := opts.Engine.Gz
	if gz == nil {
		var err error
		if gz, err = enginebuild.Gzip(opts.Engine.Wasm); err != nil {
			return nil, err
		}
	}
	files["engine.wasm.gz"] = gz
	files["wasm_exec.js"] = opts.Engine.WasmExec
	for _, name := range []string{"style.css", "engine.js", "engine-worker.js"} {
		b, err := assets.ReadFile("assets/" + name)
		if err != nil {
			return nil, err
		}
		files[name] = b
	}
	tmpl, err := template.ParseFS(assets, "assets/*.html")
	if err != nil {
		return nil, err
	}
	page := func(name, file string, data map[string]any) error {
		data["Version"] = opts.Version
		if _, ok := data["Root"]; !ok {
			data["Root"] = ""
		}
		var b bytes.Buffer
		if err := tmpl.ExecuteTemplate(&b, name, data); err != nil {
			return fmt.Errorf("render %s: %w", file, err)
		}
		files[file] = b.Bytes()
		return nil
	}
	all := rules.All()
	if err := page("index.html", "index.html", map[string]any{"Title": "mcpward in the browser", "CSP": cspStatic,
		"RuleCount": len(all), "DiffRuleCount": len(diff.Rules())}); err != nil {
		return nil, err
	}
	if err := page("engine.html", "engine.html", map[string]any{"Title": "Engine", "CSP": cspEngine,
		"Scripts": []string{"engine.js"}, "EngineSize": sizeText(len(gz))}); err != nil {
		return nil, err
	}
	if err := page("demo.html", "demo.html", map[string]any{"Title": "Demo", "CSP": cspEngine,
		"Scripts": []string{"engine.js"}, "EngineSize": sizeText(len(gz))}); err != nil {
		return nil, err
	}
	if err := page("rules.html", "rules.html", map[string]any{"Title": "Rules", "CSP": cspStatic,
		"Groups": ruleGroups(all), "DiffRules": diff.Rules()}); err != nil {
		return nil, err
	}
	boards, err := boardPages(opts, files)
	if err != nil {
		return nil, err
	}
	if err := page("boards.html", "board/index.html", map[string]any{"Title": "Board", "CSP": cspStatic,
		"Root": "../", "Boards": boards}); err != nil {
		return nil, err
	}
	return writeFiles(dir, files)
}

// siteNav is the navigation of layout.html, for the board pages that
// internal/board renders (root is the way back to the site's top).
func siteNav(root string) []board.Link {
	return []board.Link{{Text: "Home", Href: root + "index.html"}, {Text: "Demo", Href: root + "demo.html"},
		{Text: "Engine", Href: root + "engine.html"}, {Text: "Board", Href: root + "board/index.html"}, {Text: "Rules", Href: root + "rules.html"}}
}

type ruleGroup struct {
	Name  string
	Rules []rules.Rule
}

func ruleGroups(all []rules.Rule) []ruleGroup {
	var out []ruleGroup
	for _, g := range rules.Groups() {
		rg := ruleGroup{Name: g}
		for _, r := range all {
			if r.Group == g {
				rg.Rules = append(rg.Rules, r)
			}
		}
		if len(rg.Rules) > 0 {
			out = append(out, rg)
		}
	}
	return out
}

type boardLink struct {
	Date, Page, JSON string
	Rows             int
}

// boardPages renders each board with internal/board (board/<date>.html
// and its JSON), newest first.
func boardPages(opts *Options, files map[string][]byte) ([]boardLink, error) {
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	var links []boardLink
	for _, bf := range opts.Boards {
		b, err := board.ReadBoard(bf.Data)
		if err != nil {
			return nil, fault.Input(fmt.Errorf("board %s: %w", bf.Name, err))
		}
		if !validDate(b.Date) {
			return nil, fault.Input(fmt.Errorf("board %s: date %q is not YYYY-MM-DD", bf.Name, b.Date))
		}
		var html, js bytes.Buffer
		if err := board.RenderNav(&html, b, now(), siteNav("../")); err != nil {
			return nil, err
		}
		if err := report.WriteJSON(&js, b); err != nil {
			return nil, err
		}
		if slices.ContainsFunc(links, func(l boardLink) bool { return l.Date == b.Date }) {
			return nil, fault.Input(fmt.Errorf("board %s: a second board of %s", bf.Name, b.Date))
		}
		files["board/"+b.Date+".html"] = html.Bytes()
		files["board/"+b.Date+".json"] = js.Bytes()
		links = append(links, boardLink{Date: b.Date, Page: b.Date + ".html", JSON: b.Date + ".json", Rows: len(b.Rows)})
	}
	slices.SortFunc(links, func(a, b boardLink) int { return strings.Compare(b.Date, a.Date) })
	return links, nil
}

func validDate(s string) bool {
	_, err := time.Parse(time.DateOnly, s)
	return err == nil
}

func writeFiles(dir string, files map[string][]byte) ([]File, error) {
	var out []File
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, fmt.Errorf("write the site: %w", err)
		}
		if err := atomicfile.Write(path, files[name], 0o644); err != nil {
			return nil, fmt.Errorf("write the site: %s: %w", name, err)
		}
		out = append(out, File{Path: name, Size: len(files[name])})
	}
	return out, nil
}

func sizeText(n int) string {
	return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
}
