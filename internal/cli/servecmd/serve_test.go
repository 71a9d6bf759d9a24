package servecmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/cli/cmdtest"
	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/hub"
	"github.com/mcpward/mcpward/internal/iostreams"
)

func TestFlags(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		wantErr string
		check   func(*testing.T, *ServeOptions)
	}{
		{name: "defaults", check: func(t *testing.T, o *ServeOptions) {
			if o.Listen != DefaultListen || o.Public || o.History != 100 || o.CheckConcurrency != 4 {
				t.Errorf("defaults = %+v", o)
			}
		}},
		{name: "loopback listen", args: []string{"--listen", "[::1]:0"}},
		{name: "localhost listen", args: []string{"--listen", "localhost:8080"}},
		{name: "remote listen refused", args: []string{"--listen", "0.0.0.0:8080"}, wantErr: "not a loopback address; add --allow-remote"},
		{name: "remote listen allowed", args: []string{"--listen", "0.0.0.0:8080", "--allow-remote", "--public"}, check: func(t *testing.T, o *ServeOptions) {
			if !o.AllowRemote || !o.Public {
				t.Errorf("opts = %+v", o)
			}
		}},
		{name: "no port", args: []string{"--listen", "127.0.0.1"}, wantErr: "--listen must be host:port"},
		{name: "bad port", args: []string{"--listen", "127.0.0.1:99999"}, wantErr: "--listen must be host:port"},
		{name: "allow-host URL", args: []string{"--allow-host", "https://x.example/"}, wantErr: "--allow-host wants a host name"},
		// proxy's --allow-host check, which serve now shares: a port must be a port.
		{name: "allow-host bad port", args: []string{"--allow-host", "x.example:99999"}, wantErr: "--allow-host wants a host name"},
		{name: "allow-host name:port", args: []string{"--allow-host", "x.example:8443"}},
		{name: "concurrency without public", args: []string{"--check-concurrency", "2"}, wantErr: "applies to --public only"},
		{name: "concurrency zero", args: []string{"--public", "--check-concurrency", "0"}, wantErr: "must be 1 or more"},
		{name: "args", args: []string{"extra"}, wantErr: "unknown command"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := cmdtest.Parse(t, NewCmdServe, tt.args...)
			if tt.wantErr != "" {
				var fe *cmdutil.FlagError
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				if !errors.As(err, &fe) && !strings.Contains(err.Error(), "unknown command") {
					t.Errorf("err %v is not a usage error (exit 4)", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.check != nil {
				tt.check(t, o)
			}
		})
	}
}

// run starts `mcpward serve` in process with opts and returns its URL;
// the command stops when the test ends.
func run(t *testing.T, opts *ServeOptions) (string, func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	opts.Ready = func(u string) { ready <- u }
	done := make(chan error, 1)
	go func() { done <- serveRun(ctx, opts) }()
	var u string
	select {
	case u = <-ready:
	case err := <-done:
		cancel()
		t.Fatalf("serve ended before listening: %v", err)
	}
	stop := sync.OnceValue(func() error { cancel(); return <-done })
	t.Cleanup(func() { stop() })
	return u, stop
}

// get sends GET u, with a Host header when host is set and the access
// token's cookie when token is.
func get(t *testing.T, u, host, token string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", u, nil)
	if host != "" {
		req.Host = host
	}
	if token != "" {
		pu, _ := url.Parse(u)
		req.AddCookie(&http.Cookie{Name: "mcpward_serve_" + pu.Port(), Value: token})
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestServeRefusesForeignHost runs the command on 127.0.0.1:0 and talks
// to it with net/http: its own address is served, a foreign Host header
// (DNS rebinding) is refused; the config's snapshotDir is the one shown.
func TestServeRefusesForeignHost(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	os.WriteFile("mcpward.json", []byte(`{"snapshotDir": "snaps", "targets": {"x": {"fixture": "clean@v1"}}}`), 0o644)
	ios, _, stdout, stderr := iostreams.Test()
	u, stop := run(t, &ServeOptions{IO: ios, Version: "test", Now: time.Now, Listen: "127.0.0.1:0", StateDir: filepath.Join(dir, "state"), History: 10,
		CheckTimeout: time.Minute, CheckConcurrency: 1})
	if !strings.HasPrefix(u, "http://127.0.0.1:") || stdout.String() != u+"\n" {
		t.Errorf("url %q, stdout %q", u, stdout.String())
	}
	pu, _ := url.Parse(u)
	token := pu.Query().Get("token")
	base := "http://" + pu.Host + "/"
	if len(token) < 32 {
		t.Fatalf("printed URL %q carries no access token", u)
	}
	if status, body := get(t, base+"api/info", "", token); status != 200 || !strings.Contains(body, `"snapshots":"snaps"`) || !strings.Contains(body, `"hub":"socket"`) {
		t.Errorf("own host = %d %s", status, body)
	}
	if status, body := get(t, base+"api/sessions", "", ""); status != 401 {
		t.Errorf("without the token = %d %s, want 401", status, body)
	}
	if status, body := get(t, base+"api/sessions", "attacker.example:"+pu.Port(), token); status != 403 || !strings.Contains(body, "attacker.example") {
		t.Errorf("foreign Host = %d %s, want 403", status, body)
	}
	if err := stop(); err != nil {
		t.Errorf("serve ended with %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "state", "hub.sock")); err == nil {
		t.Error("the hub socket is left behind")
	}
	if stderr.Len() != 0 {
		t.Errorf("stderr = %q", stderr)
	}
}

// TestServeFollowsLogsBesideAnotherHub: with `mcpward ui` holding the
// socket, serve still runs, on the session logs.
func TestServeFollowsLogsBesideAnotherHub(t *testing.T) {
	state := filepath.Join(t.TempDir(), "st")
	other, err := hub.New(context.Background(), hub.Options{StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	t.Chdir(t.TempDir())
	ios, _, _, stderr := iostreams.Test()
	u, _ := run(t, &ServeOptions{IO: ios, Version: "test", Now: time.Now, Listen: "127.0.0.1:0", StateDir: state, CheckTimeout: time.Minute, CheckConcurrency: 1, NoToken: true})
	if status, body := get(t, u+"api/info", "", ""); status != 200 || !strings.Contains(body, `"hub":"logs"`) {
		t.Errorf("info = %d %s", status, body)
	}
	// The holder is named (here this test process: a pid, no command).
	if !strings.Contains(stderr.String(), "another hub has the socket") || (runtime.GOOS == "linux" && !strings.Contains(stderr.String(), fmt.Sprintf("(pid %d)", os.Getpid()))) {
		t.Errorf("stderr = %q", stderr)
	}
}

// TestServeBadConfig: a config that does not parse is exit 4, named.
func TestServeBadConfig(t *testing.T) {
	t.Chdir(t.TempDir())
	os.WriteFile("mcpward.json", []byte(`{"snapshotDir": 7}`), 0o644)
	ios, _, _, _ := iostreams.Test()
	err := serveRun(context.Background(), &ServeOptions{IO: ios, Listen: "127.0.0.1:0", StateDir: t.TempDir(), CheckTimeout: time.Minute, CheckConcurrency: 1})
	if err == nil || !strings.Contains(err.Error(), "mcpward.json") {
		t.Errorf("err = %v", err)
	}
}
