//go:build unix

package proxy

import (
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"
)

// reaperScript waits for the shim: the server's process group on its
// first line, then "done" on the next is a clean end; end of file before
// "done" means the shim died (SIGKILL, a crash), and the group is killed.
// End of file before the group (the server did not start) is a clean end
// too. The parent-death signal reaches the server only, not its children,
// and does not exist outside Linux.
const reaperScript = `read -r g || exit 0; read -r x; [ "$x" = done ] || kill -s KILL -- "-$g" 2>/dev/null`

// reaperWait bounds the wait for the reaper to exit after "done".
const reaperWait = 2 * time.Second

// A reaper is the shim's watchdog: a process that kills the server's
// process group if the shim dies without stopping it first. It is
// /bin/sh in a process group of its own (so that a terminal's SIGINT or
// SIGHUP does not reach it), holding only the read end of a pipe whose
// write end only the shim has. Without /bin/sh there is no watchdog: the
// parent-death signal still ends the server itself.
//
// It is started in the background while the server starts, not between
// the server's start and the relays: its fork and exec took 1.5-2 ms of
// the time to the server's first answer. Until its process exists the
// relays hold back the server's output (ready), so that once the client
// has seen the server speak, the server's children are covered.
type reaper struct {
	w       *os.File
	started chan struct{} // closed once the watchdog is started or failed to
	cmd     *exec.Cmd     // the watchdog; nil if it did not start
	group   bool          // watch was called
}

// startReaper starts the watchdog in the background and returns at once;
// watch tells it the group to kill.
func startReaper() *reaper {
	rp := &reaper{started: make(chan struct{})}
	r, w, err := os.Pipe()
	if err != nil {
		close(rp.started)
		return rp
	}
	rp.w = w
	go func() {
		defer close(rp.started)
		cmd := exec.Command("/bin/sh", "-c", reaperScript, "mcpward-reaper")
		cmd.Stdin = r
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		err := cmd.Start()
		r.Close()
		if err == nil {
			rp.cmd = cmd
		}
	}()
	return rp
}

// watch tells the watchdog the process group to kill. The pipe holds it
// until the watchdog reads it.
func (rp *reaper) watch(pgid int) {
	if rp.w != nil {
		_, _ = rp.w.Write([]byte(strconv.Itoa(pgid) + "\n"))
		rp.group = true
	}
}

// pid is the watchdog's process id (0 when there is none): a child of
// ours that procgroup.EndAdopted must leave to stop.
func (rp *reaper) pid() int {
	if rp.w == nil {
		return 0
	}
	<-rp.started
	if rp.cmd == nil || rp.cmd.Process == nil {
		return 0
	}
	return rp.cmd.Process.Pid
}

// ready is closed once the watchdog's process exists (or could not be
// started).
func (rp *reaper) ready() <-chan struct{} { return rp.started }

// stop ends the watchdog without its killing anything: "done" after the
// group, or end of file if watch was never called.
func (rp *reaper) stop() {
	if rp.w == nil {
		return
	}
	<-rp.started
	if rp.group {
		_, _ = rp.w.Write([]byte("done\n"))
	}
	rp.w.Close()
	if rp.cmd == nil {
		return
	}
	exited := make(chan struct{})
	go func() { _ = rp.cmd.Wait(); close(exited) }()
	t := time.NewTimer(reaperWait)
	defer t.Stop()
	select {
	case <-exited:
	case <-t.C:
		_ = rp.cmd.Process.Kill()
	}
}
