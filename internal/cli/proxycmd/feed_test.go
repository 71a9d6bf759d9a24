package proxycmd

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/feed"
	"github.com/mcpward/mcpward/internal/hub"
	"github.com/mcpward/mcpward/internal/iostreams"
)

// The shim streams its records to a running hub ('mcpward ui') over the
// state directory's socket, and the hub sees the session live.
func TestStdioRunFeedsTheHub(t *testing.T) {
	// Unix socket paths are short: keep the state directory short too.
	home, err := os.MkdirTemp("", "mw")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(home)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	// No polling during the test: records can only arrive over the feed.
	h, err := hub.New(ctx, hub.Options{StateDir: home, Socket: feed.SocketPath(home), PollInterval: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	sub := h.Subscribe()

	exe, _ := os.Executable()
	env := map[string]string{"MCPWARD_HOME": home}
	ios, stdin, _, _ := iostreams.Test()
	stdin.WriteString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}\n")
	opts := &ProxyOptions{
		IO: ios, Now: time.Now, Version: "test",
		LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok },
		Environ:   func() []string { return append(os.Environ(), helperEnv+"=cat") },
		Getwd:     os.Getwd,
		Command:   []string{exe, "-test.run=^$"}, Label: "fed", Grace: time.Second,
	}
	if err := proxyRun(ctx, opts); err != nil {
		t.Fatalf("proxyRun: %v", err)
	}
	got := 0
	for got < 3 { // start, the request, its echo (and stderr, exit)
		b, err := sub.Next(ctx)
		if err != nil {
			t.Fatalf("hub saw %d records before %v", got, err)
		}
		got += len(b.Records)
	}
	ss := h.Sessions()
	if len(ss) != 1 || ss[0].Label != "fed" {
		t.Fatalf("hub sessions = %+v, want the one 'fed' session", ss)
	}
}
