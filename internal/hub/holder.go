package hub

import (
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
)

// A RunningError is returned by New when another hub answers on the
// socket; errors.Is(err, ErrHubRunning) holds. It names the process that
// holds the socket when the system says (Linux: the socket's peer
// credentials and /proc).
type RunningError struct {
	// Socket is the socket another hub answers on.
	Socket string
	// PID is the holder's process id (0: not known).
	PID int
	// Command is the mcpward command that holds the socket, "mcpward ui"
	// or "mcpward serve" ("" when not known, or not one of them).
	Command string
}

func (e *RunningError) Error() string {
	s := fmt.Sprintf("%v on %s", ErrHubRunning, e.Socket)
	if h := e.Holder(); h != "" {
		s += " (" + h + ")"
	}
	return s
}

// Holder names the holder for a message: "`mcpward ui`, pid 12",
// "pid 12", or "" when not known.
func (e *RunningError) Holder() string {
	switch {
	case e.Command != "":
		return fmt.Sprintf("`%s`, pid %d", e.Command, e.PID)
	case e.PID != 0:
		return fmt.Sprintf("pid %d", e.PID)
	}
	return ""
}

// HolderOf is " (HOLDER)" for a RunningError that names its holder
// ("`mcpward serve`, pid 42"), "" for any other error: what `mcpward ui`
// and `mcpward serve` add when they say another hub has the socket.
func HolderOf(err error) string {
	var re *RunningError
	if errors.As(err, &re) && re.Holder() != "" {
		return " (" + re.Holder() + ")"
	}
	return ""
}

// Is makes errors.Is(err, ErrHubRunning) hold.
func (e *RunningError) Is(target error) bool { return target == ErrHubRunning }

// holderOf fills in who answered on c (best effort).
func holderOf(c net.Conn, e *RunningError) {
	pid := peerPID(c)
	if pid <= 0 {
		return
	}
	e.PID = pid
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil {
		return
	}
	e.Command = hubCommand(strings.Split(strings.TrimRight(string(b), "\x00"), "\x00"))
}

// hubCommand names the mcpward command of a command line that runs a
// hub: its first argument that is "ui" or "serve" ("" for none).
func hubCommand(argv []string) string {
	if len(argv) == 0 {
		return ""
	}
	for _, a := range argv[1:] {
		if a == "--" {
			break
		}
		if a == "ui" || a == "serve" {
			return "mcpward " + a
		}
	}
	return ""
}
