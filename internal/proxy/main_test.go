package proxy

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"testing"

	"github.com/mcpward/mcpward/internal/fixture"
)

// serverEnv names the helper server the test binary runs as (the fork and
// exec trick: real subprocesses, no build step).
const serverEnv = "MCPWARD_PROXY_TEST_SERVER"

func TestMain(m *testing.M) {
	if mode := os.Getenv(serverEnv); mode != "" {
		os.Exit(runHelperServer(mode))
	}
	os.Exit(m.Run())
}

// runHelperServer is the body of a helper server process.
//
//	cat        stdin to stdout and to stderr, then exit $MCPWARD_TEST_EXIT
//	crash      read one line, then exit 3 without answering
//	term       print "ready", on SIGTERM print "got SIGTERM" to stderr, exit 42
//	stubborn   ignore SIGTERM, print "ready", wait for stdin EOF
//	fixture:N  serve embedded fixture N on stdio
func runHelperServer(mode string) int {
	switch {
	case mode == "cat":
		if _, err := io.Copy(io.MultiWriter(os.Stdout, os.Stderr), os.Stdin); err != nil {
			return 99
		}
		code, _ := strconv.Atoi(os.Getenv("MCPWARD_TEST_EXIT"))
		return code
	case mode == "crash":
		bufio.NewReader(os.Stdin).ReadString('\n')
		fmt.Fprintln(os.Stderr, "panic: simulated crash")
		return 3
	case mode == "term":
		ch := make(chan os.Signal, 1)
		signal.Notify(ch, syscall.SIGTERM)
		fmt.Println("ready")
		<-ch
		fmt.Fprintln(os.Stderr, "got SIGTERM")
		return 42
	case mode == "stubborn":
		signal.Ignore(syscall.SIGTERM, syscall.SIGINT)
		fmt.Println("ready")
		io.Copy(io.Discard, os.Stdin)
		return 0
	case len(mode) > 8 && mode[:8] == "fixture:":
		f, err := fixture.Lookup(mode[8:])
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 98
		}
		code, err := f.Serve(context.Background(), os.Stdin, os.Stdout, os.Stderr)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
		return code
	}
	fmt.Fprintf(os.Stderr, "unknown helper mode %q\n", mode)
	return 97
}

// helperCommand returns the argv and environment that run this test
// binary as the helper server mode.
func helperCommand(t *testing.T, mode string, env ...string) ([]string, []string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return []string{exe, "-test.run=^$"}, append(append(os.Environ(), serverEnv+"="+mode), env...)
}
