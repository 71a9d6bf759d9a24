//go:build unix

package feed

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/testenv"
)

// plantEnv makes the test binary the planting user's process: it listens
// on the socket named by the variable and reports every connection.
const plantEnv = "MCPWARD_FEED_TEST_PLANT"

func TestMain(m *testing.M) {
	testenv.NoRaceExitPause()
	if sock := os.Getenv(plantEnv); sock != "" {
		ln, err := net.Listen("unix", sock)
		if err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Stdout.WriteString("ready\n")
		for {
			c, err := ln.Accept()
			if err != nil {
				os.Exit(0)
			}
			os.Stdout.WriteString("connected\n")
			c.Close()
		}
	}
	os.Exit(m.Run())
}

// Issue 26 item 2: a state directory another user can write to let that
// user plant hub.sock and receive the live feed. A directory others may
// write to is refused whoever owns it.
func TestCheckOwnerRefusesWritableDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	sock := SocketPath(dir)
	if err := CheckOwner(sock); err != nil {
		t.Fatalf("own 0700 directory: %v", err)
	}
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := CheckOwner(sock); err == nil || !strings.Contains(err.Error(), "is writable by other users (mode 0777)") {
		t.Errorf("CheckOwner(0777 directory) = %v, want the refusal naming the mode", err)
	}
}

// A socket planted by another user (a child process under uid 65534,
// which needs root to start) is refused, and a Sink never connects to it.
func TestCheckOwnerRefusesPlantedSocket(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("skipped: planting a socket as another user needs root (CI runs as root)")
	}
	const other = 65534
	// A tree the other user can reach, with a copy of the test binary
	// (the build directory is private).
	root, err := os.MkdirTemp("", "mcpward-plant-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	if err := os.Chmod(root, 0o755); err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(root, "feed.test")
	if err := os.WriteFile(exe, b, 0o755); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "state")
	if err := os.Mkdir(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o777); err != nil { // whatever the umask
		t.Fatal(err)
	}
	sock := SocketPath(dir)
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), plantEnv+"="+sock)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: other, Gid: other}}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Skipf("skipped: cannot start a process as uid %d: %v", other, err)
	}
	defer func() {
		cmd.Process.Kill()
		cmd.Wait()
	}()
	buf := make([]byte, len("ready\n"))
	if _, err := out.Read(buf); err != nil || string(buf) != "ready\n" {
		t.Skipf("skipped: the planting process did not listen (%q, %v; %s): the test binary may not be readable by uid %d", buf, err, stderr.String(), other)
	}
	// The directory is made private again: only the socket's owner
	// gives it away now.
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	err = CheckOwner(sock)
	if err == nil || !strings.Contains(err.Error(), "belongs to uid 65534, not to you (uid 0)") {
		t.Fatalf("CheckOwner(planted) = %v, want the refusal naming the owner", err)
	}
	// The Sink's dial is refused the same way, before any connection.
	s := New(&Options{Socket: sock, Session: "s", MinBackoff: time.Millisecond, MaxBackoff: time.Millisecond})
	if _, err := s.opts.Dial(context.Background()); err == nil || !strings.Contains(err.Error(), "belongs to uid 65534") {
		t.Errorf("Sink dial of a planted socket = %v, want the refusal", err)
	}
	s.Close()
	if st := s.Stats(); st.Connects != 0 {
		t.Errorf("Sink connected %d times to a planted socket", st.Connects)
	}
}
