package remote

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/feed"
	"github.com/mcpward/mcpward/internal/session"
)

// ResolveScript runs on the remote machine (through sh, whatever the
// login shell) and prints either "sock" and the socket path from
// `mcpward hub-path`, or "env" and the three variables the state
// directory is derived from.
const ResolveScript = `p=$(mcpward hub-path 2>/dev/null) && [ -n "$p" ] && printf 'sock\n%s\n' "$p" || printf 'env\n%s\n%s\n%s\n' "${MCPWARD_HOME-}" "${XDG_STATE_HOME-}" "${HOME-}"`

// PathScript runs on the remote machine (through sh) and prints only its
// hub socket path, by the same rules as [ParseResolve]: `mcpward hub-path`,
// else MCPWARD_HOME, an absolute XDG_STATE_HOME, or HOME. It is what a
// printed command asks the remote when it is run, so that printing it does
// not connect.
const PathScript = `p=$(mcpward hub-path 2>/dev/null) && [ -n "$p" ] || ` +
	`if [ -n "${MCPWARD_HOME-}" ]; then p=$MCPWARD_HOME/` + feed.SocketName + `; ` +
	`else case "${XDG_STATE_HOME-}" in /*) p=$XDG_STATE_HOME/mcpward/` + feed.SocketName + ` ;; ` +
	`*) p=$HOME/.local/state/mcpward/` + feed.SocketName + ` ;; esac; fi; echo "$p"`

// CheckTarget refuses a target that ssh would read as an option or that
// holds spaces or control characters.
func CheckTarget(target string) error {
	switch {
	case target == "":
		return errors.New("no target: give user@host")
	case strings.HasPrefix(target, "-"):
		return fmt.Errorf("target %q starts with '-' (ssh would read it as an option)", target)
	}
	for _, r := range target {
		if r <= ' ' || r == 0x7f {
			return fmt.Errorf("target %q holds a space or control character", target)
		}
	}
	return nil
}

// Host is the host part of user@host (for file names).
func Host(target string) string {
	if i := strings.LastIndexByte(target, '@'); i >= 0 {
		return target[i+1:]
	}
	return target
}

// SocketFromStateDir is the remote hub socket for a remote state
// directory, checked: absolute, and short enough for any OS.
func SocketFromStateDir(dir string) (string, error) {
	if !path.IsAbs(dir) {
		return "", fmt.Errorf("remote state directory %q is not an absolute path", dir)
	}
	sock := path.Join(dir, feed.SocketName)
	if err := feed.CheckSocketPath(sock); err != nil {
		return "", fmt.Errorf("remote %w", err)
	}
	return sock, nil
}

// ParseResolve reads the output of ResolveScript. The state directory
// follows session.StateDir's rules on the remote values, with POSIX paths.
func ParseResolve(out []byte) (string, error) {
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	// Shell start-up files may print before the answer: it is the tail.
	for i := len(lines) - 2; i >= 0; i-- {
		if lines[i] == "sock" && len(lines)-i == 2 || lines[i] == "env" && len(lines)-i == 4 {
			lines = lines[i:]
			break
		}
	}
	switch {
	case len(lines) == 2 && lines[0] == "sock":
		p := strings.TrimSpace(lines[1])
		if !path.IsAbs(p) {
			return "", fmt.Errorf("remote mcpward hub-path printed %q, not an absolute path", p)
		}
		if err := feed.CheckSocketPath(p); err != nil {
			return "", fmt.Errorf("remote %w", err)
		}
		return p, nil
	case len(lines) == 4 && lines[0] == "env":
		home, xdg, h := lines[1], lines[2], lines[3]
		switch {
		case home != "":
			return SocketFromStateDir(home)
		case xdg != "" && path.IsAbs(xdg):
			return SocketFromStateDir(path.Join(xdg, "mcpward"))
		case h != "":
			return SocketFromStateDir(path.Join(h, ".local", "state", "mcpward"))
		}
		return "", errors.New("remote has neither MCPWARD_HOME nor HOME set (use --remote-state-dir)")
	}
	return "", fmt.Errorf("unexpected answer from the remote machine: %q", truncate(out, 200))
}

func truncate(b []byte, n int) string {
	if len(b) > n {
		return string(b[:n]) + "…"
	}
	return string(b)
}

// ResolveArgs are the ssh arguments that ask the remote machine for its
// state: BatchMode, so that a missing key fails instead of prompting.
func ResolveArgs(target string) []string {
	return []string{"-o", "BatchMode=yes", "-T", target, "sh -c " + shellQuote(ResolveScript)}
}

// ForwardArgs are the ssh arguments that forward the remote hub socket to
// the local one. -R because the remote proxies connect to the remote path
// and the hub listening for them is here. ExitOnForwardFailure makes ssh
// fail at once when the remote socket cannot be bound (a hub runs there,
// or a stale socket file: sshd unlinks it only with its own
// StreamLocalBindUnlink).
func ForwardArgs(target, remoteSock, localSock string) []string {
	return []string{"-N", "-o", "ExitOnForwardFailure=yes", "-o", "StreamLocalBindUnlink=yes",
		"-o", "ServerAliveInterval=15", "-R", remoteSock + ":" + localSock, target}
}

// PrintedCommand is the forward command for a person to run, without
// knowing the remote hub socket yet: the -R argument asks the remote for it
// with [PathScript] when the command runs (the last line of its answer, so
// that shell start-up noise is skipped). Printing it connects nowhere.
func PrintedCommand(ssh, target, localSock string) string {
	ask := CommandLine([]string{ssh, "-o", "BatchMode=yes", "-T", target, "sh -c " + shellQuote(PathScript)}) + " | tail -n 1"
	fwd := ForwardArgs(target, "REMOTE", localSock)
	q := make([]string, 0, len(fwd)+1)
	q = append(q, shellQuote(ssh))
	for _, a := range fwd {
		if a == "REMOTE:"+localSock {
			q = append(q, `"$(`+ask+`)":`+shellQuote(localSock))
			continue
		}
		q = append(q, shellQuote(a))
	}
	return strings.Join(q, " ")
}

// Resolve asks the remote machine for its hub socket by running ssh. An
// ssh that fails or an answer that names no socket is marked
// fault.Incomplete (exit 2), with ssh's own words as the reason.
func Resolve(ctx context.Context, ssh, target string, env []string) (string, error) {
	cmd := exec.CommandContext(ctx, ssh, ResolveArgs(target)...)
	cmd.Env = env
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	reap(cmd)
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errOut.String())
		if msg == "" {
			msg = err.Error()
		}
		return "", fault.Incomplete(fmt.Errorf("ask %s for its state directory: %s", target, msg))
	}
	sock, err := ParseResolve(out.Bytes())
	if err != nil {
		return "", fault.Incomplete(fmt.Errorf("ask %s for its state directory: %w", target, err))
	}
	return sock, nil
}

// Forward starts ssh forwarding the sockets. The caller must Wait for it;
// cancelling ctx stops it with SIGTERM, then SIGKILL after 2 s.
func Forward(ctx context.Context, ssh, target, remoteSock, localSock string, env []string) (*exec.Cmd, *bytes.Buffer, error) {
	cmd := exec.CommandContext(ctx, ssh, ForwardArgs(target, remoteSock, localSock)...)
	cmd.Env = env
	errOut := &syncBuffer{}
	cmd.Stderr = errOut
	reap(cmd)
	if err := cmd.Start(); err != nil {
		return nil, nil, fault.Incomplete(fmt.Errorf("start ssh: %w", err))
	}
	return cmd, &errOut.b, nil
}

func reap(cmd *exec.Cmd) {
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 2 * time.Second
}

// shellQuote quotes s for a POSIX shell (and for display).
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("@%+=:,./-_", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// CommandLine renders argv for display, each word quoted as needed.
func CommandLine(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = shellQuote(a)
	}
	return strings.Join(q, " ")
}

// LocalSocket is where the local hub listens for one remote: in the local
// state directory, one socket per host.
func LocalSocket(localState, target string) string {
	return filepath.Join(localState, "remote", session.SanitizeLabel(Host(target))+".sock")
}
