package transport

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/jsonrpc"
	"github.com/mcpward/mcpward/internal/testenv"
)

// serverEnv names the behaviour the test binary plays when re-run as a
// child ("the fork and exec trick": no build step).
const serverEnv = "MCPWARD_TRANSPORT_TEST_SERVER"

func TestMain(m *testing.M) {
	testenv.NoRaceExitPause()
	if b := os.Getenv(serverEnv); b != "" {
		os.Exit(runTestServer(b))
	}
	os.Exit(m.Run())
}

func runTestServer(behaviour string) int {
	switch behaviour {
	case "echo":
		return echoServer()
	case "ignore-term":
		signal.Ignore(syscall.SIGTERM)
		// Answer one request, so the test knows SIGTERM is ignored by now.
		r := bufio.NewReader(os.Stdin)
		line, _ := r.ReadBytes('\n')
		out, _ := jsonrpc.EncodeResult(jsonrpc.Decode(line).ID, "ready")
		os.Stdout.Write(append(out, '\n'))
		r.WriteTo(discard{})
		sleepForever()
	case "grandchild":
		child := exec.Command(os.Args[0])
		child.Env = append(os.Environ(), serverEnv+"=sleeper")
		if err := child.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		r := bufio.NewReader(os.Stdin)
		line, _ := r.ReadBytes('\n')
		m := jsonrpc.Decode(line)
		out, _ := jsonrpc.EncodeResult(m.ID, map[string]int{"pid": os.Getpid(), "grandchild": child.Process.Pid})
		os.Stdout.Write(append(out, '\n'))
		r.WriteTo(discard{}) // exit on stdin EOF, leaving the grandchild behind
		return 0
	case "sleeper":
		signal.Ignore(syscall.SIGTERM)
		sleepForever()
	}
	fmt.Fprintln(os.Stderr, "unknown behaviour", behaviour)
	return 2
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

func sleepForever() {
	for {
		time.Sleep(time.Hour)
	}
}

// echoServer answers each request by method:
//
//	env      the environment and working directory it sees
//	stderr   writes to stderr, then answers
//	exit3    writes to stderr and exits with code 3 without answering
//	junk     writes junk lines, a 10 MB line and a notification, then answers
//	ping-me  sends a ping to the client, answers with the client's answer
//	defer    answers only after the next request's answer
//	silent   never answers
//	anything else: {"method":…, "params":…}
func echoServer() int {
	in := jsonrpc.NewLineReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	send := func(b []byte) {
		out.Write(b)
		out.WriteByte('\n')
		out.Flush()
	}
	var deferred *jsonrpc.ID
	for {
		line, err := in.ReadLine()
		if err != nil {
			return 0
		}
		m := jsonrpc.Decode(line)
		if m.Kind != jsonrpc.KindRequest {
			continue
		}
		var result any = map[string]any{"method": m.Method, "params": m.Params}
		switch m.Method {
		case "env":
			wd, _ := os.Getwd()
			result = map[string]string{
				"HOME": os.Getenv("HOME"), "XDG_CONFIG_HOME": os.Getenv("XDG_CONFIG_HOME"),
				"FOO": os.Getenv("FOO"), "BASE": os.Getenv("BASE"), "PATH": os.Getenv("PATH"), "cwd": wd,
			}
		case "stderr":
			fmt.Fprintln(os.Stderr, "hello stderr")
		case "exit3":
			fmt.Fprintln(os.Stderr, "starting\nfatal: boom")
			os.Exit(3)
		case "junk":
			send([]byte("not json"))
			send([]byte(strings.Repeat("x", 10<<20)))
			send([]byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{}}`))
			send([]byte(`{"jsonrpc":"2.0","id":999,"result":{}}`))
		case "ping-me":
			send([]byte(`{"jsonrpc":"2.0","id":"srv-1","method":"ping"}`))
			ans, _ := in.ReadLine()
			result = map[string]json.RawMessage{"answer": ans}
		case "defer":
			id := m.ID
			deferred = &id
			continue
		case "silent":
			continue
		}
		b, _ := jsonrpc.EncodeResult(m.ID, result)
		send(b)
		if deferred != nil && m.Method != "defer" {
			b, _ := jsonrpc.EncodeResult(*deferred, "late")
			send(b)
			deferred = nil
		}
	}
}

// checkGoroutines fails the test if goroutines started during it are
// still running once it ends. Tests using it must not run in parallel.
func checkGoroutines(t *testing.T) {
	t.Helper()
	before := runtime.NumGoroutine()
	t.Cleanup(func() {
		var n int
		for range 500 { // goroutines finish asynchronously; bounded poll
			if n = runtime.NumGoroutine(); n <= before {
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
		buf := make([]byte, 1<<20)
		t.Errorf("%d goroutines leaked:\n%s", n-before, buf[:runtime.Stack(buf, true)])
	})
}
