// Package testenv finds the real third-party MCP servers of ECOSYSTEM.md
// for integration tests: the npm servers installed by .ci/run under
// internal/testenv/npm, and the go-sdk everything-server, built from the
// module pinned in go.mod. A test that needs a missing server skips with a
// message saying how to install it, except in CI (CI=true), where a missing
// server is a failure: CI installs them, so absence there is a broken
// install step, not a reason to pass.
package testenv

import (
	"fmt"
	"hash/fnv"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

// NPMDir is the folder holding package.json of the npm test servers.
func NPMDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "npm")
}

func missing(t testing.TB, what, how string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s is missing in CI: %s", what, how)
	}
	t.Skipf("%s is not installed here; %s", what, how)
}

// Node returns the path of node, or skips.
func Node(t testing.TB) string {
	t.Helper()
	p, err := exec.LookPath("node")
	if err != nil {
		missing(t, "node", "install Node.js 20")
	}
	return p
}

// NPMServer returns the command that starts one npm test server over
// stdio: name is a folder under node_modules (an alias such as "fs-v2", or
// "@modelcontextprotocol/server-everything"), entry the script inside it.
func NPMServer(t testing.TB, name, entry string, args ...string) []string {
	t.Helper()
	node := Node(t)
	script := filepath.Join(NPMDir(), "node_modules", filepath.FromSlash(name), filepath.FromSlash(entry))
	if _, err := os.Stat(script); err != nil {
		missing(t, name, "run: npm ci --prefix internal/testenv/npm --no-audit --no-fund --ignore-scripts")
	}
	return append([]string{node, script}, args...)
}

var (
	buildOnce sync.Once
	buildPath string
	buildErr  error
	buildOut  []byte
)

// EverythingServer builds the go-sdk conformance everything-server (module
// version pinned by the tool directive in go.mod) once per test binary and
// returns its path.
func EverythingServer(t testing.TB) string {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		missing(t, "the go command", "install Go")
	}
	buildOnce.Do(func() {
		// A stable path: the go build cache makes a rebuild cheap, and no
		// temporary folder is left behind per test run.
		dir := filepath.Join(os.TempDir(), "mcpward-testenv")
		if buildErr = os.MkdirAll(dir, 0o755); buildErr != nil {
			return
		}
		buildPath = filepath.Join(dir, "everything-server")
		cmd := exec.Command(gobin, "build", "-o", buildPath, "github.com/modelcontextprotocol/go-sdk/conformance/everything-server")
		_, file, _, _ := runtime.Caller(0)
		cmd.Dir = filepath.Dir(file)
		buildOut, buildErr = cmd.CombinedOutput()
	})
	if buildErr != nil {
		t.Fatalf("build go-sdk everything-server: %v\n%s", buildErr, buildOut)
	}
	return buildPath
}

// Chromium returns the path of Debian's headless-capable Chromium, or
// skips (fails in CI, which installs the chromium package).
func Chromium(t testing.TB) string {
	t.Helper()
	for _, p := range []string{"/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	missing(t, "chromium", "apt-get install chromium")
	return ""
}

// ChromiumArgs are the flags for a headless run on this closed network: no
// sandbox (root), no GPU, no background connections (they are refused here
// and slow the start), and a fresh profile in a temporary folder.
func ChromiumArgs(t testing.TB) []string {
	t.Helper()
	return []string{
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + t.TempDir(), "--enable-logging=stderr", "--v=0",
	}
}

// ArtifactDir is where tests leave files worth keeping (screenshots):
// $MCPWARD_ARTIFACTS, created if needed, else a temporary folder.
func ArtifactDir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("MCPWARD_ARTIFACTS")
	if dir == "" {
		return t.TempDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

var (
	mcpwardOnce sync.Once
	mcpwardPath string
	mcpwardErr  error
	mcpwardOut  []byte
)

// MCPWard builds the mcpward binary once per test binary and returns its
// path, for tests that run it as a real process under a third-party
// client (the build cache makes it cheap after the first time).
func MCPWard(t testing.TB) string {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		missing(t, "the go command", "install Go")
	}
	mcpwardOnce.Do(func() {
		dir := filepath.Join(os.TempDir(), "mcpward-testenv")
		if mcpwardErr = os.MkdirAll(dir, 0o755); mcpwardErr != nil {
			return
		}
		_, file, _, _ := runtime.Caller(0)
		// One binary per checkout: two worktrees testing at once must not
		// run each other's build.
		h := fnv.New32a()
		h.Write([]byte(filepath.Dir(file)))
		mcpwardPath = filepath.Join(dir, fmt.Sprintf("mcpward-%08x", h.Sum32()))
		cmd := exec.Command(gobin, "build", "-o", mcpwardPath, "github.com/mcpward/mcpward/cmd/mcpward")
		cmd.Dir = filepath.Dir(file)
		mcpwardOut, mcpwardErr = cmd.CombinedOutput()
	})
	if mcpwardErr != nil {
		t.Fatalf("build mcpward: %v\n%s", mcpwardErr, mcpwardOut)
	}
	return mcpwardPath
}
