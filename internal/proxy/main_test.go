package proxy

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/fixture"
	"github.com/mcpward/mcpward/internal/testenv"
)

// serverEnv names the helper server the test binary runs as (the fork and
// exec trick: real subprocesses, no build step).
const serverEnv = "MCPWARD_PROXY_TEST_SERVER"

func TestMain(m *testing.M) {
	testenv.NoRaceExitPause()
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
//	tree       start a grandchild (sleep), write "<pid> <grandchild pid>"
//	           to $MCPWARD_TEST_PIDFILE, print "ready", sleep; never reads
//	           stdin, so only a signal ends it
//	sleep      sleep (a grandchild with default signal handling)
//	shim       run RunStdio around tree, as mcpward proxy does: catch
//	           ShimSignals, log to $MCPWARD_TEST_LOG, exit with the code
func runHelperServer(mode string) int {
	switch {
	case mode == "tree":
		return runTree()
	case mode == "sleep":
		time.Sleep(helperLifetime)
		return 0
	case mode == "shim":
		return runHelperShim()
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

// helperLifetime bounds how long a helper that waits for a signal lives,
// should a test fail to end it.
const helperLifetime = 5 * time.Minute

func runTree() int {
	exe, err := os.Executable()
	if err != nil {
		return 96
	}
	gc := exec.Command(exe, "-test.run=^$")
	gc.Env = append(os.Environ(), serverEnv+"=sleep")
	if err := gc.Start(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 96
	}
	pidfile := os.Getenv("MCPWARD_TEST_PIDFILE")
	if err := os.WriteFile(pidfile+".tmp", fmt.Appendf(nil, "%d %d\n", os.Getpid(), gc.Process.Pid), 0o600); err != nil {
		return 96
	}
	if err := os.Rename(pidfile+".tmp", pidfile); err != nil {
		return 96
	}
	fmt.Println("ready")
	time.Sleep(helperLifetime)
	return 0
}

func runHelperShim() int {
	exe, err := os.Executable()
	if err != nil {
		return 95
	}
	f, err := os.OpenFile(os.Getenv("MCPWARD_TEST_LOG"), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return 95
	}
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, ShimSignals...)
	lg := NewLog(f, &LogOptions{Session: "S", Label: "tree"})
	st, err := RunStdio(context.Background(), &StdioOptions{
		Command: []string{exe, "-test.run=^$"}, Env: append(os.Environ(), serverEnv+"=tree"),
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Recorder: lg, Signals: sigs, Grace: 10 * time.Second,
	})
	if cerr := lg.Close(); cerr != nil || err != nil {
		fmt.Fprintln(os.Stderr, cerr, err)
		return 95
	}
	return st.Code
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
