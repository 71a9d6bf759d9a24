package proxy_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/testenv"
)

// These tests put the real mcpward binary between a real MCP client (the
// official go-sdk) and real servers (the go-sdk everything-server over
// stdio and HTTP, the npm server-everything over Streamable HTTP with
// sessions): the client must work exactly as without the proxy, and the
// log must hold every frame in order.

func client() *mcp.Client {
	return mcp.NewClient(&mcp.Implementation{Name: "mcpward-test-client", Version: "1"}, nil)
}

// exercise lists tools and calls the first tool named want, returning the
// number of tools.
func exercise(t *testing.T, ctx context.Context, cs *mcp.ClientSession, call string, args map[string]any) int {
	t.Helper()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("tools/list through the proxy: %v", err)
	}
	if call != "" {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: call, Arguments: args})
		if err != nil {
			t.Fatalf("tools/call %s through the proxy: %v", call, err)
		}
		if res.IsError {
			t.Fatalf("tools/call %s: isError", call)
		}
	}
	return len(tools.Tools)
}

// checkLog reads a session log: seq strictly increasing, every frame valid
// JSON-RPC kept, and at least min client and server frames.
func checkLog(t *testing.T, path string, min int) []*session.Record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rd := session.NewReader(f)
	var recs []*session.Record
	var last uint64
	c2s, s2c := 0, 0
	for {
		r, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if r.Seq <= last {
			t.Errorf("seq %d after %d", r.Seq, last)
		}
		last = r.Seq
		switch r.Dir {
		case session.ClientToServer:
			if r.HasFrame {
				c2s++
			}
		case session.ServerToClient:
			if r.HasFrame {
				s2c++
			}
		}
		recs = append(recs, r)
	}
	if len(rd.Problems()) > 0 {
		t.Errorf("log problems: %v", rd.Problems())
	}
	if c2s < min || s2c < min {
		t.Errorf("log has %d client and %d server frames, want at least %d each", c2s, s2c, min)
	}
	return recs
}

func TestGoSDKClientThroughShim(t *testing.T) {
	mw := testenv.MCPWard(t)
	srv := testenv.EverythingServer(t)
	log := filepath.Join(t.TempDir(), "shim.jsonl")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.Command(mw, "proxy", "--no-feed", "--trace-file", log, "--", srv)
	cs, err := client().Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect through the shim: %v", err)
	}
	n := exercise(t, ctx, cs, "test_simple_text", nil)
	if err := cs.Close(); err != nil {
		t.Logf("close: %v", err)
	}
	if n != 28 {
		t.Errorf("tools through the shim = %d, want 28", n)
	}
	checkLog(t, log, 2)
}

func TestGoSDKClientThroughHTTPProxy(t *testing.T) {
	mw := testenv.MCPWard(t)
	srv := testenv.EverythingServer(t)
	up := listen(t, nil, srv, "-http", "{ADDR}")
	log := filepath.Join(t.TempDir(), "http.jsonl")
	front := listen(t, nil, mw, "proxy", "--no-feed", "--trace-file", log, "--target", fmt.Sprintf("http://%s/", up), "--listen", "{ADDR}")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cs, err := client().Connect(ctx, &mcp.StreamableClientTransport{Endpoint: fmt.Sprintf("http://%s/", front), MaxRetries: -1}, nil)
	if err != nil {
		t.Fatalf("connect through the HTTP proxy: %v", err)
	}
	n := exercise(t, ctx, cs, "test_simple_text", nil)
	cs.Close()
	if n != 28 {
		t.Errorf("tools through the HTTP proxy = %d, want 28", n)
	}
	stopAndWait(t)
	checkLog(t, log, 2)
}

func TestGoSDKClientToServerEverythingWithSessions(t *testing.T) {
	mw := testenv.MCPWard(t)
	argv := testenv.NPMServer(t, "@modelcontextprotocol/server-everything", "dist/index.js", "streamableHttp")
	up := listen(t, []string{"PORT"}, argv...)
	log := filepath.Join(t.TempDir(), "sessions.jsonl")
	front := listen(t, nil, mw, "proxy", "--no-feed", "--trace-file", log, "--target", fmt.Sprintf("http://%s/mcp", up), "--listen", "{ADDR}")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cs, err := client().Connect(ctx, &mcp.StreamableClientTransport{Endpoint: fmt.Sprintf("http://%s/mcp", front), MaxRetries: -1}, nil)
	if err != nil {
		t.Fatalf("connect through the HTTP proxy: %v", err)
	}
	n := exercise(t, ctx, cs, "echo", map[string]any{"message": "through mcpward"})
	cs.Close()
	if n < 12 {
		t.Errorf("tools through the HTTP proxy = %d, want at least 12", n)
	}
	stopAndWait(t)
	recs := checkLog(t, log, 2)
	sessionIDs := 0
	for _, r := range recs {
		if r.MCPSessionID != "" {
			sessionIDs++
		}
	}
	if sessionIDs == 0 {
		t.Error("no record carries the Mcp-Session-Id the legacy server minted")
	}
}

// stopAndWait ends the processes started by listen (the proxy flushes its
// log on SIGTERM) before the log is read.
func stopAndWait(t *testing.T) {
	t.Helper()
	for _, p := range started[t.Name()] {
		p.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { p.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			p.Process.Kill()
			<-done
		}
	}
	delete(started, t.Name())
}

var started = map[string][]*exec.Cmd{}

// listen starts argv with a free loopback address (in place of {ADDR}, or
// as the port in the environment variable envPort) and waits until it
// accepts connections. It returns host:port.
func listen(t *testing.T, envPort []string, argv ...string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	args := make([]string, len(argv))
	for i, a := range argv {
		args[i] = strings.ReplaceAll(a, "{ADDR}", addr)
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = os.Environ()
	if len(envPort) > 0 {
		_, port, _ := net.SplitHostPort(addr)
		cmd.Env = append(cmd.Env, envPort[0]+"="+port)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	started[t.Name()] = append([]*exec.Cmd{cmd}, started[t.Name()]...)
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond); err == nil {
			c.Close()
			return addr
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("%s did not listen on %s: %s", filepath.Base(args[0]), addr, stderr.String())
	return ""
}
