//go:build unix

package proxy

import (
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// startSleeper starts a helper that sleeps, in a process group of its own,
// as the shim starts a server.
func startSleeper(t *testing.T) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), serverEnv+"=sleep")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
	})
	return cmd
}

// The watchdog's protocol on its pipe: the group, then "done" (a clean
// end: nothing is killed); the group, then end of file (the shim died:
// the group is killed); end of file alone (the server never started:
// nothing to kill, and the watchdog exits).
func TestReaperProtocol(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh: there is no watchdog")
	}
	t.Run("done", func(t *testing.T) {
		srv := startSleeper(t)
		rp := startReaper()
		rp.watch(srv.Process.Pid)
		<-rp.ready()
		if rp.cmd == nil {
			t.Fatal("the watchdog did not start")
		}
		rp.stop() // waits for the watchdog to exit
		if gone(srv.Process.Pid) {
			t.Fatal("a stopped watchdog killed the group")
		}
	})
	t.Run("shim died", func(t *testing.T) {
		srv := startSleeper(t)
		rp := startReaper()
		rp.watch(srv.Process.Pid)
		<-rp.ready()
		if rp.cmd == nil {
			t.Fatal("the watchdog did not start")
		}
		rp.w.Close() // what the kernel does when the shim dies
		exited := make(chan error, 1)
		go func() { exited <- srv.Wait() }()
		select {
		case <-exited:
		case <-time.After(goneBound):
			t.Fatalf("the group still runs %s after the watchdog's pipe closed", goneBound)
		}
		_ = rp.cmd.Wait()
	})
	t.Run("no server", func(t *testing.T) {
		rp := startReaper()
		<-rp.ready()
		if rp.cmd == nil {
			t.Fatal("the watchdog did not start")
		}
		cmd := rp.cmd
		rp.stop()
		if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 0 {
			t.Fatalf("watchdog without a group ended with %v, want exit 0", cmd.ProcessState)
		}
	})
}
