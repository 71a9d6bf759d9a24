package probe_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/client"
	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/probe"
	"github.com/mcpward/mcpward/internal/snapshot"
	"github.com/mcpward/mcpward/internal/testenv"
)

// These tests observe the real third-party servers of ECOSYSTEM.md and
// assert what the ecosystem document says they are: their era and the size
// of their surface.

type want struct {
	era                       string
	dual                      bool
	version                   string
	tools, resources, prompts int
	minTools                  int // when the count depends on declared capabilities
	resourcePages             int
}

func observe(t *testing.T, spec *connect.Spec) *snapshot.Snapshot {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	env := connect.Env{Environ: os.Environ, LookupEnv: os.LookupEnv}
	sess, err := connect.Connect(ctx, spec, env, &client.Options{RequestTimeout: 20 * time.Second})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer sess.Close()
	ev, err := probe.Observe(ctx, sess, &probe.Options{DualEraCheck: true})
	if err != nil {
		t.Fatalf("observe: %v", err)
	}
	snap, err := snapshot.Build(ev, nil)
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	if snap.Observation.Status != snapshot.StatusOK {
		t.Fatalf("status = %s, coverage %+v", snap.Observation.Status, snap.Observation.Coverage)
	}
	return snap
}

func check(t *testing.T, s *snapshot.Snapshot, w want) {
	t.Helper()
	o := s.Observation
	if o.Era != w.era || o.DualEra != w.dual {
		t.Errorf("era = %s (dual %v), want %s (dual %v)", o.Era, o.DualEra, w.era, w.dual)
	}
	if w.version != "" && o.ProtocolVersion != w.version {
		t.Errorf("protocol version = %s, want %s", o.ProtocolVersion, w.version)
	}
	if w.minTools > 0 {
		if len(s.Surface.Tools) < w.minTools {
			t.Errorf("tools = %d, want at least %d", len(s.Surface.Tools), w.minTools)
		}
	} else if len(s.Surface.Tools) != w.tools {
		t.Errorf("tools = %d, want %d", len(s.Surface.Tools), w.tools)
	}
	if len(s.Surface.Resources) != w.resources {
		t.Errorf("resources = %d, want %d", len(s.Surface.Resources), w.resources)
	}
	if len(s.Surface.Prompts) != w.prompts {
		t.Errorf("prompts = %d, want %d", len(s.Surface.Prompts), w.prompts)
	}
	if w.resourcePages > 0 && o.Coverage.Resources.Pages < w.resourcePages {
		t.Errorf("resources/list pages = %d, want at least %d", o.Coverage.Resources.Pages, w.resourcePages)
	}
	if s.SurfaceDigest == "" {
		t.Error("no surfaceDigest on a complete observation")
	}
}

func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// startHTTP starts a server process that listens on 127.0.0.1:port and
// waits until the port accepts connections.
func startHTTP(t *testing.T, port int, env []string, argv ...string) {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), env...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err == nil {
			c.Close()
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("%s did not listen on %s within 30s", argv[0], addr)
}

func TestRealGoSDKEverythingServer(t *testing.T) {
	bin := testenv.EverythingServer(t)
	w := want{era: "modern", dual: true, version: "2026-07-28", tools: 28, resources: 3, prompts: 5}
	t.Run("stdio", func(t *testing.T) {
		check(t, observe(t, &connect.Spec{Command: []string{bin}, Timeout: 20 * time.Second}), w)
	})
	t.Run("http", func(t *testing.T) {
		port := freePort(t)
		startHTTP(t, port, nil, bin, "-http", fmt.Sprintf("127.0.0.1:%d", port))
		check(t, observe(t, &connect.Spec{URL: fmt.Sprintf("http://127.0.0.1:%d/", port)}), w)
	})
}

func TestRealServerEverything2026(t *testing.T) {
	w := want{era: "legacy", version: "2025-11-25", minTools: 12, resources: 7, prompts: 4}
	t.Run("stdio", func(t *testing.T) {
		argv := testenv.NPMServer(t, "@modelcontextprotocol/server-everything", "dist/index.js", "stdio")
		check(t, observe(t, &connect.Spec{Command: argv}), w)
	})
	t.Run("http", func(t *testing.T) {
		argv := testenv.NPMServer(t, "@modelcontextprotocol/server-everything", "dist/index.js", "streamableHttp")
		port := freePort(t)
		startHTTP(t, port, []string{fmt.Sprintf("PORT=%d", port)}, argv...)
		check(t, observe(t, &connect.Spec{URL: fmt.Sprintf("http://127.0.0.1:%d/mcp", port)}), w)
	})
}

func TestRealServerFilesystem(t *testing.T) {
	argv := testenv.NPMServer(t, "fs-v2", "dist/index.js", t.TempDir())
	s := observe(t, &connect.Spec{Command: argv})
	check(t, s, want{era: "modern", dual: true, version: "2026-07-28", tools: 14})
}

func TestRealServerEverything2024(t *testing.T) {
	argv := testenv.NPMServer(t, "everything-2025-01", "dist/index.js")
	s := observe(t, &connect.Spec{Command: argv})
	check(t, s, want{era: "legacy", version: "2024-11-05", tools: 6, resources: 100, prompts: 2, resourcePages: 10})
}
