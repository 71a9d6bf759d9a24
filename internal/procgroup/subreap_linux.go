package procgroup

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
)

const prSetChildSubreaper = 36 // PR_SET_CHILD_SUBREAPER, linux/prctl.h

// Subreap makes this process the reaper of its orphaned descendants: a
// grandchild of the server that left the process group with setsid, and
// whose parent then died, is reparented here instead of to init, so
// [EndAdopted] can end it. Per process: only the shim, which runs one
// server, calls it.
func Subreap() error {
	if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); e != 0 {
		return e
	}
	return nil
}

// EndAdopted kills every child of this process but keep (SIGKILL: they
// had their chance to end with the server) and reaps them. Once the
// server has been waited for, the children left are what Subreap adopted.
func EndAdopted(keep ...int) {
	for _, pid := range children() {
		if slices.Contains(keep, pid) {
			continue
		}
		_ = syscall.Kill(pid, syscall.SIGKILL)
		var ws syscall.WaitStatus
		_, _ = syscall.Wait4(pid, &ws, 0, nil)
	}
}

// children lists this process's children, from every thread's
// /proc/self/task/TID/children (a child belongs to the thread that forked
// it).
func children() []int {
	files, _ := filepath.Glob("/proc/self/task/*/children")
	var out []int
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, w := range strings.Fields(string(b)) {
			if pid, err := strconv.Atoi(w); err == nil && !slices.Contains(out, pid) {
				out = append(out, pid)
			}
		}
	}
	return out
}
