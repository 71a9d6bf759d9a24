// Package corpustools collects the tool definitions of the corpus servers
// (testenv.Corpus) once and caches them, for the tests that read tools
// without judging a server: the tool labels (internal/heuristic) and scan's
// benign corpus (internal/scan). Each of them used to start every corpus
// server itself. Tools lists the verdict corpus; AllTools adds the
// ToolsOnly entries, listed for their definitions alone.
//
// The cache is a JSONL file keyed by what decides the definitions: the npm
// lockfile, the Go corpus module (go.mod, go.sum) and the corpus list
// itself. Deleting it only costs time; a clean clone (CI) rebuilds it.
// MCPWARD_CORPUS_CACHE names another folder for it, or "off" to list the
// servers every time.
//
// It is a package of its own, not part of testenv, because it observes a
// server with internal/contract, whose own tests import testenv.
package corpustools

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/atomicfile"
	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/contract"
	"github.com/mcpward/mcpward/internal/snapshot"
	"github.com/mcpward/mcpward/internal/testenv"
)

// A Tool is one tool definition of one corpus server.
type Tool struct {
	// Package is the server's testenv.CorpusServer ID (package@version,
	// or module@version and package path).
	Package string `json:"package"`
	// Tool is the tool's name.
	Tool string `json:"tool"`
	// Def is the definition as mcpward records it in a snapshot: every
	// wire field, keys sorted, numbers as written.
	Def json.RawMessage `json:"def"`
}

// Object decodes Def with numbers kept as json.Number, as a snapshot
// holds a tool.
func (t Tool) Object() (snapshot.Object, error) {
	d := json.NewDecoder(bytes.NewReader(t.Def))
	d.UseNumber()
	var obj snapshot.Object
	if err := d.Decode(&obj); err != nil {
		return nil, fmt.Errorf("%s %s: %w", t.Package, t.Tool, err)
	}
	return obj, nil
}

// A Server is a stdio server to list: Package names it in the result.
type Server struct {
	Package string
	Argv    []string
	Env     []string
}

// workers is how many servers are listed at once: most are node processes
// whose start is CPU-bound, and the machine has 2 cores.
const workers = 3

// Tools returns every tool of every corpus package of the verdict corpus
// (its first stdio entry: an HTTP entry serves the same tools; the
// ToolsOnly entries are left out), sorted by package and tool, from the
// cache when its key matches. A server that lists no tool fails the test
// (and nothing is cached); a missing install skips it, except in CI.
func Tools(t testing.TB) []Tool {
	t.Helper()
	return tools(t, false)
}

// AllTools is Tools with the ToolsOnly entries too: the definitions of
// every corpus package.
func AllTools(t testing.TB) []Tool {
	t.Helper()
	return tools(t, true)
}

func tools(t testing.TB, all bool) []Tool {
	t.Helper()
	file, cached := cacheFile(t, all)
	if cached != nil {
		return cached
	}
	var servers []Server
	seen := map[string]bool{}
	for _, s := range testenv.Corpus() {
		if s.Transport != testenv.Stdio || seen[s.ID] || (s.ToolsOnly && !all) {
			continue
		}
		seen[s.ID] = true
		ct := s.Start(t)
		servers = append(servers, Server{Package: s.ID, Argv: ct.Argv, Env: ct.Env})
	}
	tools, ok := List(t, servers)
	if ok && file != "" {
		if err := writeCache(file, tools); err != nil {
			t.Logf("corpus tools not cached: %v", err)
		}
	}
	return tools
}

// List starts each server (three at a time), lists its tools and returns
// them sorted by package and tool; ok is false when a server failed (the
// failure is reported with t.Errorf).
func List(t testing.TB, servers []Server) (tools []Tool, ok bool) {
	t.Helper()
	var (
		mu   sync.Mutex
		errs []string
		wg   sync.WaitGroup
		work = make(chan Server)
	)
	for range min(workers, len(servers)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for s := range work {
				got, err := list(s)
				mu.Lock()
				tools = append(tools, got...)
				if err != nil {
					errs = append(errs, err.Error())
				}
				mu.Unlock()
			}
		}()
	}
	for _, s := range servers {
		work <- s
	}
	close(work)
	wg.Wait()
	slices.Sort(errs)
	for _, e := range errs {
		t.Errorf("%s", e)
	}
	slices.SortFunc(tools, func(a, b Tool) int {
		return strings.Compare(a.Package+"\x00"+a.Tool, b.Package+"\x00"+b.Tool)
	})
	return tools, len(errs) == 0
}

// list observes one server as inspect does (no tool is called) and returns
// its tools.
func list(s Server) ([]Tool, error) {
	spec := &connect.Spec{Name: "corpus", Command: s.Argv, Env: s.Env, Timeout: 30 * time.Second, IsolateHome: true}
	tg, err := contract.FromSpec("corpus", spec)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Package, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	obs, err := contract.Observe(ctx, tg, &contract.ObserveOptions{Version: "test", Env: connect.Env{Environ: os.Environ, LookupEnv: os.LookupEnv}})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Package, err)
	}
	if obs.Snapshot == nil || len(obs.Snapshot.Surface.Tools) == 0 {
		return nil, fmt.Errorf("%s listed no tools: %v\n%s", s.Package, obs.Problems, obs.Stderr)
	}
	var out []Tool
	for _, tool := range obs.Snapshot.Surface.Tools {
		def, err := json.Marshal(tool)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.Package, err)
		}
		out = append(out, Tool{Package: s.Package, Tool: snapshot.Str(tool, "name"), Def: def})
	}
	return out, nil
}

// cacheVersion changes when what is cached changes shape or meaning.
const cacheVersion = "corpustools 1"

// Key is the cache key: a hash of the npm lockfile, the Go corpus module,
// the corpus list's source and the list compiled into this test binary
// (the source may change while a test runs: its tools then go under a key
// no other binary computes).
func Key() (string, error) {
	_, self, _, _ := runtime.Caller(0)
	testenvDir := filepath.Dir(filepath.Dir(self))
	h := sha256.New()
	h.Write([]byte(cacheVersion + "\n"))
	for _, s := range testenv.Corpus() {
		fmt.Fprintf(h, "%q %q %q %q %q %q %v\n", s.Name, s.ID, s.SDK, s.Transport, s.Via, s.Note, s.ToolsOnly)
	}
	for _, f := range []string{
		filepath.Join(testenv.CorpusDir(), "package-lock.json"),
		filepath.Join(testenvDir, "gocorpus", "go.mod"),
		filepath.Join(testenvDir, "gocorpus", "go.sum"),
		filepath.Join(testenvDir, "corpus.go"),
	} {
		b, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s %d\n", filepath.Base(f), len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// cacheFile returns the cache's path ("" when caching is off) and its
// tools when it holds the current key; all picks AllTools' file.
func cacheFile(t testing.TB, all bool) (string, []Tool) {
	t.Helper()
	dir := os.Getenv("MCPWARD_CORPUS_CACHE")
	if dir == "off" {
		return "", nil
	}
	if dir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			base = os.TempDir()
		}
		dir = filepath.Join(base, "mcpward-testenv")
	}
	key, err := Key()
	if err != nil {
		t.Logf("corpus tools not cached: %v", err)
		return "", nil
	}
	name := "corpus-tools-" + key
	if all {
		name += "-all"
	}
	file := filepath.Join(dir, name+".jsonl")
	tools, err := readCache(file)
	switch {
	case err == nil:
		t.Logf("corpus tools: %d read from %s (delete it to list the servers again)", len(tools), file)
		return file, tools
	case !os.IsNotExist(err):
		t.Logf("corpus tools: %s is unreadable, listing the servers again: %v", file, err)
	}
	return file, nil
}

func readCache(file string) ([]Tool, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var out []Tool
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<24)
	for n := 1; sc.Scan(); n++ {
		var tool Tool
		if err := json.Unmarshal(sc.Bytes(), &tool); err != nil || tool.Package == "" || len(tool.Def) == 0 {
			return nil, fmt.Errorf("line %d: not a corpus tool (%v)", n, err)
		}
		out = append(out, tool)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no tools")
	}
	return out, nil
}

func writeCache(file string, tools []Tool) error {
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	var b bytes.Buffer
	for _, tool := range tools {
		line, err := json.Marshal(tool)
		if err != nil {
			return err
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	return atomicfile.Write(file, b.Bytes(), 0o644)
}
