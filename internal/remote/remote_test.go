package remote

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseResolve(t *testing.T) {
	long := "/" + strings.Repeat("x", 120)
	tests := []struct {
		name, out, want string
		wantErr         bool
	}{
		{"hub-path", "sock\n/home/ann/.local/state/mcpward/hub.sock\n", "/home/ann/.local/state/mcpward/hub.sock", false},
		{"MCPWARD_HOME wins", "env\n/srv/mw\n/xdg\n/root\n", "/srv/mw/hub.sock", false},
		{"XDG_STATE_HOME", "env\n\n/var/state\n/root\n", "/var/state/mcpward/hub.sock", false},
		{"relative XDG ignored", "env\n\nrel\n/root\n", "/root/.local/state/mcpward/hub.sock", false},
		{"macOS home", "env\n\n\n/Users/ann\n", "/Users/ann/.local/state/mcpward/hub.sock", false},
		{"no home", "env\n\n\n\n", "", true},
		{"relative MCPWARD_HOME", "env\nmw\n\n/root\n", "", true},
		{"too long", "env\n" + long + "\n\n/root\n", "", true},
		{"relative hub-path", "sock\nhub.sock\n", "", true},
		{"rc file noise", "Welcome!\nenv\n\n\n/root\n", "/root/.local/state/mcpward/hub.sock", false},
		{"garbage", "Welcome!\n", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseResolve([]byte(tt.out))
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Errorf("ParseResolve(%q) = %q, %v; want %q, error %v", tt.out, got, err, tt.want, tt.wantErr)
			}
		})
	}
}

func TestCheckTarget(t *testing.T) {
	for _, ok := range []string{"ann@box", "box", "ann@10.0.0.1", "ann@[::1]"} {
		if err := CheckTarget(ok); err != nil {
			t.Errorf("CheckTarget(%q) = %v", ok, err)
		}
	}
	for _, bad := range []string{"", "-oProxyCommand=x", "ann@box extra", "a\nb"} {
		if err := CheckTarget(bad); err == nil {
			t.Errorf("CheckTarget(%q): no error", bad)
		}
	}
}

func TestForwardCommandLine(t *testing.T) {
	argv := append([]string{"ssh"}, ForwardArgs("ann@box", "/home/ann/.local/state/mcpward/hub.sock", "/tmp/my dir/box.sock")...)
	want := "ssh -N -o ExitOnForwardFailure=yes -o StreamLocalBindUnlink=yes -o ServerAliveInterval=15 -R '/home/ann/.local/state/mcpward/hub.sock:/tmp/my dir/box.sock' ann@box"
	if d := cmp.Diff(want, CommandLine(argv)); d != "" {
		t.Errorf("CommandLine mismatch (-want +got):\n%s", d)
	}
}

func TestShellQuote(t *testing.T) {
	if got := shellQuote("it's"); got != `'it'\''s'` {
		t.Errorf("shellQuote = %s", got)
	}
	if got := shellQuote(""); got != "''" {
		t.Errorf("shellQuote(\"\") = %s", got)
	}
}

func FuzzParseResolve(f *testing.F) {
	f.Add([]byte("env\n\n\n/root\n"))
	f.Add([]byte("sock\n/x/hub.sock\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := ParseResolve(b)
		if err == nil && (!strings.HasPrefix(p, "/") || !strings.HasSuffix(p, "hub.sock") && !strings.HasPrefix(string(b), "sock\n")) {
			t.Errorf("ParseResolve(%q) = %q", b, p)
		}
	})
}

// TestPrintedCommandRuns runs the printed command through sh with a fake
// ssh that plays the remote machine (it runs the remote command locally,
// after a line of start-up noise) and records the forward's arguments: the
// -R argument must name the socket the remote would report.
func TestPrintedCommandRuns(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("needs sh")
	}
	const fakeSSH = `#!/bin/sh
case "$*" in
*BatchMode=yes*) for a; do last=$a; done; echo 'Welcome to box'; exec sh -c "$last" ;;
esac
printf '%s\n' "$@" > "$FAKE_OUT"
`
	const fakeMcpward = "#!/bin/sh\n[ \"$1\" = hub-path ] && echo /opt/mw/hub.sock\n"
	tests := []struct {
		name     string
		mcpward  bool
		env      []string
		wantSock string
	}{
		{"hub-path", true, []string{"HOME=/home/ann"}, "/opt/mw/hub.sock"},
		{"MCPWARD_HOME", false, []string{"HOME=/home/ann", "MCPWARD_HOME=/srv/mw", "XDG_STATE_HOME=/xdg"}, "/srv/mw/hub.sock"},
		{"XDG_STATE_HOME", false, []string{"HOME=/home/ann", "XDG_STATE_HOME=/xdg"}, "/xdg/mcpward/hub.sock"},
		{"relative XDG ignored", false, []string{"HOME=/home/ann", "XDG_STATE_HOME=rel"}, "/home/ann/.local/state/mcpward/hub.sock"},
		{"HOME", false, []string{"HOME=/home/ann"}, "/home/ann/.local/state/mcpward/hub.sock"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			bin := filepath.Join(dir, "bin")
			if err := os.Mkdir(bin, 0o755); err != nil {
				t.Fatal(err)
			}
			ssh := filepath.Join(bin, "ssh")
			if err := os.WriteFile(ssh, []byte(fakeSSH), 0o755); err != nil {
				t.Fatal(err)
			}
			if tt.mcpward {
				if err := os.WriteFile(filepath.Join(bin, "mcpward"), []byte(fakeMcpward), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			local := filepath.Join(dir, "my dir", "box.sock")
			line := PrintedCommand(ssh, "ann@box", local)
			out := filepath.Join(dir, "out")
			cmd := exec.Command("sh", "-c", line)
			cmd.Env = append([]string{"PATH=" + bin + ":/usr/bin:/bin", "FAKE_OUT=" + out}, tt.env...)
			if b, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("sh -c %s: %v\n%s", line, err, b)
			}
			got, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			want := strings.Join(ForwardArgs("ann@box", tt.wantSock, local), "\n") + "\n"
			if d := cmp.Diff(want, string(got)); d != "" {
				t.Errorf("forward arguments mismatch (-want +got):\n%s\ncommand: %s", d, line)
			}
		})
	}
}
