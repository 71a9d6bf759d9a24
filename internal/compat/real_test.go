package compat

import (
	"context"
	"fmt"
	"net"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/client"
	"github.com/mcpward/mcpward/internal/target"
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

func runReal(t *testing.T, spec *target.Spec) *Report {
	t.Helper()
	s, err := target.Connect(context.Background(), spec, target.Env{}, &client.Options{RequestTimeout: 10 * time.Second})
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

func TestRealGoSDKEverything(t *testing.T) {
	t.Parallel() // a real server: its silences are waited out in real time
	if testing.Short() {
		t.Skip("real server")
	}
	bin := testenv.EverythingServer(t)
	t.Run("stdio", func(t *testing.T) { runReal(t, &target.Spec{Command: []string{bin}}) })
	t.Run("http", func(t *testing.T) {
		addr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
		cmd := exec.Command(bin, "-http", addr)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		waitHTTP(t, addr)
		runReal(t, &target.Spec{URL: "http://" + addr + "/"})
	})
}

func TestRealNPMEverything(t *testing.T) {
	t.Parallel() // a real server: its silences are waited out in real time
	if testing.Short() {
		t.Skip("real server")
	}
	argv := testenv.NPMServer(t, "@modelcontextprotocol/server-everything", "dist/index.js")
	t.Run("stdio", func(t *testing.T) { runReal(t, &target.Spec{Command: append(argv, "stdio")}) })
	t.Run("http", func(t *testing.T) {
		port := freePort(t)
		cmd := exec.Command(argv[0], append(argv[1:], "streamableHttp")...)
		cmd.Env = append(cmd.Environ(), fmt.Sprintf("PORT=%d", port))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		waitHTTP(t, fmt.Sprintf("127.0.0.1:%d", port))
		rep := runReal(t, &target.Spec{URL: fmt.Sprintf("http://127.0.0.1:%d/mcp", port)})
		_ = strings.TrimSpace
		_ = rep
	})
}
