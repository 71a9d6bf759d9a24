package remotecmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/feed"
	"github.com/mcpward/mcpward/internal/hub"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/remote"
	"github.com/mcpward/mcpward/internal/session"
)

// fakeSSH is an ssh stand-in: it logs its arguments, answers the resolve
// script like a remote whose HOME is /home/ann, and for the forward
// either fails like a refused bind or waits (as ssh -N does), writing its
// pid so the test can check it was reaped. The pid is written to a
// temporary name and renamed, so a reader sees the whole pid or no file.
const fakeSSH = `#!/bin/sh
echo "$*" >> "$FAKE_DIR/args"
case "$*" in
*BatchMode=yes*) printf 'hello from .bashrc\nenv\n\n\n/home/ann\n'; exit 0 ;;
esac
if [ -n "$FAKE_FAIL" ]; then
	echo "Error: remote port forwarding failed for listen path /home/ann/.local/state/mcpward/hub.sock" >&2
	exit 255
fi
echo $$ > "$FAKE_DIR/pid.tmp"
mv "$FAKE_DIR/pid.tmp" "$FAKE_DIR/pid"
exec sleep 60
`

func setup(t *testing.T, extraEnv ...string) (*RemoteOptions, string) {
	t.Helper()
	dir, err := os.MkdirTemp("", "mwr")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	ssh := filepath.Join(dir, "ssh")
	if err := os.WriteFile(ssh, []byte(fakeSSH), 0o755); err != nil {
		t.Fatal(err)
	}
	ios, _, _, _ := iostreams.Test()
	env := append(os.Environ(), append([]string{"FAKE_DIR=" + dir}, extraEnv...)...)
	opts := &RemoteOptions{
		IO: ios, SSH: ssh, Target: "ann@box",
		LookupEnv: func(k string) (string, bool) {
			if k == "MCPWARD_HOME" {
				return filepath.Join(dir, "st"), true
			}
			return "", false
		},
		Environ: func() []string { return env },
	}
	return opts, dir
}

func TestFlags(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		want    RemoteOptions
		wantErr bool
	}{
		{"plain", []string{"ann@box"}, RemoteOptions{Target: "ann@box", SSH: "ssh"}, false},
		{"print", []string{"ann@box", "--print-command", "--remote-state-dir", "/srv/mw"},
			RemoteOptions{Target: "ann@box", SSH: "ssh", PrintCommand: true, RemoteStateDir: "/srv/mw"}, false},
		{"option injection", []string{"--", "-oProxyCommand=touch /tmp/x"}, RemoteOptions{}, true},
		{"relative state dir", []string{"ann@box", "--remote-state-dir", "mw"}, RemoteOptions{}, true},
		{"no target", nil, RemoteOptions{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ios, _, _, _ := iostreams.Test()
			var got *RemoteOptions
			cmd := NewCmdRemote(&cmdutil.Factory{IOStreams: ios}, func(_ context.Context, o *RemoteOptions) error {
				got = o
				return nil
			})
			cmd.SetArgs(tt.args)
			cmd.SetOut(&strings.Builder{})
			cmd.SetErr(&strings.Builder{})
			_, err := cmd.ExecuteC()
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			g := RemoteOptions{Target: got.Target, SSH: got.SSH, PrintCommand: got.PrintCommand, RemoteStateDir: got.RemoteStateDir}
			if d := cmp.Diff(tt.want, g, cmp.FilterPath(func(p cmp.Path) bool { return p.Last().Type().Kind().String() == "func" }, cmp.Ignore())); d != "" {
				t.Errorf("options mismatch (-want +got):\n%s", d)
			}
		})
	}
}

// Issue 13 item 2: --print-command connects nowhere; the printed command
// asks the remote for its socket when it is run.
func TestPrintCommandConnectsNowhere(t *testing.T) {
	opts, dir := setup(t)
	opts.PrintCommand = true
	if err := remoteRun(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	out := opts.IO.Out.(interface{ String() string }).String()
	want := remote.PrintedCommand(opts.SSH, "ann@box", filepath.Join(dir, "st", "remote", "box.sock")) + "\n"
	if d := cmp.Diff(want, out); d != "" {
		t.Errorf("printed command mismatch (-want +got):\n%s", d)
	}
	if _, err := os.Stat(filepath.Join(dir, "args")); !os.IsNotExist(err) {
		t.Errorf("ssh was run: %v", err)
	}
}

// An ssh that cannot ask the remote is incomplete evidence (exit 2) with
// ssh's reason, not an internal error.
func TestResolveFailureIsIncomplete(t *testing.T) {
	opts, _ := setup(t)
	opts.SSH = filepath.Join(t.TempDir(), "no-ssh")
	err := remoteRun(context.Background(), opts)
	if !errors.Is(err, fault.ErrIncomplete) || !strings.Contains(err.Error(), "ask ann@box for its state directory") {
		t.Errorf("err = %v, want an incomplete error naming what was asked", err)
	}
}

func TestPrintCommandWithStateDirRunsNoSSH(t *testing.T) {
	opts, dir := setup(t)
	opts.PrintCommand, opts.RemoteStateDir = true, "/srv/mw"
	if err := remoteRun(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(opts.IO.Out.(interface{ String() string }).String(), "-R /srv/mw/hub.sock:") {
		t.Errorf("output: %s", opts.IO.Out)
	}
	if _, err := os.Stat(filepath.Join(dir, "args")); !os.IsNotExist(err) {
		t.Errorf("ssh was run: %v", err)
	}
}

// The forward runs, a remote proxy's feed (here: dialled straight to the
// local socket, which is what ssh would deliver) reaches the view, and
// ssh is stopped and reaped when the view ends.
func TestRunForwardsAndReaps(t *testing.T) {
	opts, dir := setup(t)
	got := make(chan *session.Record, 1)
	opts.UI = func(ctx context.Context, h *hub.Hub) error {
		// Wait for the fake ssh to be in its forward (it renames its pid
		// file into place first), so that stopping it is what is tested.
		if err := waitFile(ctx, t, filepath.Join(dir, "pid")); err != nil {
			return err
		}
		sink := feed.New(&feed.Options{Socket: h.Socket(), Session: "S1", Label: "weather"})
		defer sink.Close()
		sub := h.Subscribe()
		sink.Record(&session.Record{Session: "S1", Label: "weather", Seq: 1, Dir: session.ClientToServer,
			Frame: []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`), HasFrame: true})
		for {
			b, err := sub.Next(ctx)
			if err != nil {
				return err
			}
			if len(b.Records) > 0 {
				got <- b.Records[0]
				return nil
			}
		}
	}
	if err := remoteRun(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if r := <-got; r.Label != "weather" || r.Seq != 1 {
		t.Errorf("record = %+v", r)
	}
	pidText, err := os.ReadFile(filepath.Join(dir, "pid"))
	if err != nil {
		t.Fatalf("fake ssh did not start the forward: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(pidText)))
	if err != nil || pid <= 0 {
		t.Fatalf("fake ssh pid file = %q: %v", pidText, err)
	}
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("ssh (pid %d) still exists after remote returned: %v", pid, err)
	}
}

// waitFile polls for path until it exists or ctx (bounded by the test's
// deadline) ends; it asserts nothing about how long that takes.
func waitFile(ctx context.Context, t *testing.T, path string) error {
	if d, ok := t.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, d)
		defer cancel()
	}
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for {
		if _, err := os.Stat(path); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s: %w", path, ctx.Err())
		case <-tick.C:
		}
	}
}

func TestRunSSHFailsWithHint(t *testing.T) {
	opts, _ := setup(t, "FAKE_FAIL=1")
	opts.UI = func(ctx context.Context, h *hub.Hub) error {
		<-ctx.Done()
		return ctx.Err()
	}
	err := remoteRun(context.Background(), opts)
	var he *fault.Hint
	if !errors.As(err, &he) || !errors.Is(err, fault.ErrIncomplete) || !strings.Contains(err.Error(), "remote port forwarding failed") ||
		!strings.Contains(he.Line, "rm /home/ann/.local/state/mcpward/hub.sock") {
		t.Errorf("err = %v", err)
	}
}

func TestHubPath(t *testing.T) {
	ios, _, out, _ := iostreams.Test()
	cmd := NewCmdHubPath(&cmdutil.Factory{IOStreams: ios, LookupEnv: func(k string) (string, bool) {
		if k == "HOME" {
			return "/home/ann", true
		}
		return "", false
	}})
	cmd.SetArgs(nil)
	if _, err := cmd.ExecuteC(); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != "/home/ann/.local/state/mcpward/hub.sock\n" {
		t.Errorf("hub-path printed %q", got)
	}
}
