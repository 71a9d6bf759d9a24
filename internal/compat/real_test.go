package compat

import (
	"context"
	"fmt"
	"net"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/client"
	"github.com/mcpward/mcpward/internal/connect"
	"github.com/mcpward/mcpward/internal/testenv"
)

func freePort(t *testing.T) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

func waitHTTP(t *testing.T, addr string) {
	for i := 0; i < 100; i++ {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("server at %s never listened", addr)
}

// logReport prints every MUST-level violation with its evidence, for a
// reader to check by hand against the DIGEST.
func logReport(t *testing.T, rep *Report) {
	t.Logf("era %s, versions %v, exit %d", rep.Era, rep.SupportedVersions, rep.ExitCode())
	for _, p := range rep.Problems {
		t.Logf("problem: %s", p)
	}
	for _, f := range rep.Findings() {
		line := fmt.Sprintf("%s %s %s %s: %s", f.Class, f.Level, f.RuleID, f.Subject, f.Message)
		if f.Evidence != nil && f.Class != "info" {
			line += fmt.Sprintf("\n    request %s %v\n    response HTTP %d %s", f.Evidence.Request, f.Evidence.RequestHeader, f.Evidence.Status, f.Evidence.Response)
		}
		t.Log(line)
	}
}

func runReal(t *testing.T, spec *connect.Spec) *Report {
	t.Helper()
	s, err := connect.Connect(context.Background(), spec, connect.Env{}, &client.Options{RequestTimeout: 10 * time.Second})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer s.Close()
	rep, err := Run(context.Background(), s, nil)
	if err != nil {
		t.Fatal(err)
	}
	logReport(t, rep)
	return rep
}

// TestRealServers runs the cases against real servers (go-sdk's
// everything-server, npm's server-everything) side by side, whatever
// -parallel says, as internal/cli's TestRealServers does: a real process
// stays on real time, and these runs spend it waiting out silences (the
// go-sdk server stops reading after a malformed line; compat waits the
// discover timeout for an answer), not on the CPU. The npm cases run one
// after the other, as before: a node start is CPU-heavy, and one slower
// than the request timeout would fail its case on a busy machine.
func TestRealServers(t *testing.T) {
	var wg sync.WaitGroup
	defer wg.Wait() // t.Run from several goroutines: each returns before this test
	wg.Go(func() { t.Run("GoSDKEverything", realGoSDKEverything) })
	wg.Go(func() { t.Run("GoSDKLegacyProfileServesRoots", goSDKLegacyProfileServesRoots) })
	wg.Go(func() { t.Run("GoSDKMissingCapabilityListsDeclared", goSDKMissingCapabilityListsDeclared) })
	wg.Go(func() {
		t.Run("NPMEverything", realNPMEverything)
		t.Run("NPMEverythingLegacyProfileServesRoots", npmEverythingLegacyProfileServesRoots)
	})
}

func realGoSDKEverything(t *testing.T) {
	if testing.Short() {
		t.Skip("real server")
	}
	bin := testenv.EverythingServer(t)
	t.Run("stdio", func(t *testing.T) { runReal(t, &connect.Spec{Command: []string{bin}}) })
	t.Run("http", func(t *testing.T) {
		addr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
		cmd := exec.Command(bin, "-http", addr)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		waitHTTP(t, addr)
		runReal(t, &connect.Spec{URL: "http://" + addr + "/"})
	})
}

func realNPMEverything(t *testing.T) {
	if testing.Short() {
		t.Skip("real server")
	}
	argv := testenv.NPMServer(t, "@modelcontextprotocol/server-everything", "dist/index.js")
	t.Run("stdio", func(t *testing.T) { runReal(t, &connect.Spec{Command: append(argv, "stdio")}) })
	t.Run("http", func(t *testing.T) {
		port := freePort(t)
		cmd := exec.Command(argv[0], append(argv[1:], "streamableHttp")...)
		cmd.Env = append(cmd.Environ(), fmt.Sprintf("PORT=%d", port))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		waitHTTP(t, fmt.Sprintf("127.0.0.1:%d", port))
		rep := runReal(t, &connect.Spec{URL: fmt.Sprintf("http://127.0.0.1:%d/mcp", port)})
		_ = strings.TrimSpace
		_ = rep
	})
}
