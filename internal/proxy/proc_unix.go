//go:build unix

package proxy

import (
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"
)

// reaperScript waits for the shim: "done" on its stdin is a clean end;
// end of file without it means the shim died (SIGKILL, a crash), and the
// server's group is killed. The parent-death signal reaches the server
// only, not its children, and does not exist outside Linux.
const reaperScript = `read -r x; [ "$x" = done ] || kill -s KILL -- "-$1" 2>/dev/null`

// reaperWait bounds the wait for the reaper to exit after "done".
const reaperWait = 2 * time.Second

// startReaper starts a watchdog process that kills the process group pgid
// if the shim dies without stopping it first, and returns the function
// that stops it. The watchdog is /bin/sh in a process group of its own
// (so that a terminal's SIGINT or SIGHUP does not reach it), holding only
// the read end of a pipe whose write end only the shim has. Without
// /bin/sh there is no watchdog: the parent-death signal still ends the
// server itself.
func startReaper(pgid int) (stop func()) {
	r, w, err := os.Pipe()
	if err != nil {
		return func() {}
	}
	cmd := exec.Command("/bin/sh", "-c", reaperScript, "mcpward-reaper", strconv.Itoa(pgid))
	cmd.Stdin = r
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	err = cmd.Start()
	r.Close()
	if err != nil {
		w.Close()
		return func() {}
	}
	return func() {
		_, _ = w.Write([]byte("done\n"))
		w.Close()
		exited := make(chan struct{})
		go func() { _ = cmd.Wait(); close(exited) }()
		t := time.NewTimer(reaperWait)
		defer t.Stop()
		select {
		case <-exited:
		case <-t.C:
			_ = cmd.Process.Kill()
		}
	}
}
