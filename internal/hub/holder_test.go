package hub

import (
	"context"
	"errors"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/mcpward/mcpward/internal/feed"
)

// TestRunningErrorNamesHolder: the second hub's error is ErrHubRunning
// and, on Linux, names the process that holds the socket (here, this
// test), so `mcpward ui` can say what to quit.
func TestRunningErrorNamesHolder(t *testing.T) {
	noLeaks(t)
	sock := feed.SocketPath(shortDir(t))
	h := newHub(t, Options{Socket: sock})
	defer h.Close()
	_, err := New(context.Background(), Options{Socket: sock})
	var re *RunningError
	if !errors.Is(err, ErrHubRunning) || !errors.As(err, &re) {
		t.Fatalf("second hub: err = %v, want a *RunningError that is ErrHubRunning", err)
	}
	if re.Socket != sock || !strings.Contains(err.Error(), sock) {
		t.Errorf("err = %v, want the socket %s named", err, sock)
	}
	if runtime.GOOS == "linux" && re.PID != os.Getpid() {
		t.Errorf("holder pid = %d, want this process %d", re.PID, os.Getpid())
	}
}

func TestHubCommand(t *testing.T) {
	tests := []struct {
		argv []string
		want string
	}{
		{[]string{"/usr/local/bin/mcpward", "serve", "--listen", "127.0.0.1:0"}, "mcpward serve"},
		{[]string{"mcpward", "--state-dir", "/tmp/s", "ui"}, "mcpward ui"},
		{[]string{"./hub.test", "-test.run", "X"}, ""},
		{[]string{"mcpward", "proxy", "--", "node", "ui"}, ""},
		{nil, ""},
	}
	for _, tt := range tests {
		if got := hubCommand(tt.argv); got != tt.want {
			t.Errorf("hubCommand(%q) = %q, want %q", tt.argv, got, tt.want)
		}
	}
}
