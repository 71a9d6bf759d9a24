package uicmd

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestTmuxScreen starts `mcpward ui` in a tmux pane, runs a proxied
// session against the clean@v1 fixture next to it, and reads the screen
// with capture-pane: the session appears, its frames stream in, a tool:
// filter narrows them and the inspector opens. Skipped without tmux.
// Screen-level, so it polls the pane (with a deadline), as a person would.
func TestTmuxScreen(t *testing.T) {
	if testing.Short() {
		t.Skip("screen-level test")
	}
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed: skipping the screen-level test")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "mcpward")
	build := exec.Command("go", "build", "-o", bin, "github.com/mcpward/mcpward/cmd/mcpward")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	state := filepath.Join(dir, "state")
	sock := filepath.Join(dir, "tmux.sock")
	name := "mcpwardui"
	tm := func(args ...string) string {
		out, err := exec.Command(tmux, append([]string{"-S", sock}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	tm("new-session", "-d", "-s", name, "-x", "160", "-y", "40",
		"env", "MCPWARD_HOME="+state, "NO_COLOR=1", "TERM=xterm-256color", bin, "ui", "--theme", "dark")
	t.Cleanup(func() { exec.Command(tmux, "-S", sock, "kill-server").Run() })
	screenOf := func(pane string) string { return tm("capture-pane", "-p", "-t", pane) }
	screen := func() string { return screenOf(name) }
	waitIn := func(pane, want string) {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for time.Now().Before(deadline) {
			if strings.Contains(screenOf(pane), want) {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Fatalf("%s never showed %q:\n%s", pane, want, screenOf(pane))
	}
	waitFor := func(want string) { t.Helper(); waitIn(name, want) }
	keys := func(k ...string) { tm(append([]string{"send-keys", "-t", name}, k...)...) }
	waitFor("No sessions yet")
	// A second ui while the first holds the hub socket follows the
	// session logs instead, as serve does (issue 25 item 11: it used to
	// refuse to start).
	second := "mcpwardui2"
	tm("new-session", "-d", "-s", second, "-x", "160", "-y", "40",
		"env", "MCPWARD_HOME="+state, "NO_COLOR=1", "TERM=xterm-256color", bin, "ui", "--theme", "dark")
	waitSecond := func(want string) { t.Helper(); waitIn(second, want) }
	waitSecond("following the session logs instead")
	waitSecond("No sessions yet")

	reqs := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"tmux-client","version":"1.0"},"io.modelcontextprotocol/clientCapabilities":{}}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"tmux-client","version":"1.0"},"io.modelcontextprotocol/clientCapabilities":{}}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_weather","arguments":{"location":"Paris"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"tmux-client","version":"1.0"},"io.modelcontextprotocol/clientCapabilities":{}}}}`,
	}, "\n") + "\n"
	proxy := exec.Command(bin, "proxy", "--label", "tmuxclean", "--", bin, "fixture", "serve", "clean@v1")
	proxy.Env = append(os.Environ(), "MCPWARD_HOME="+state)
	proxy.Stdin = strings.NewReader(reqs)
	if out, err := proxy.CombinedOutput(); err != nil {
		t.Logf("proxy: %v\n%s", err, out) // the fixture exits at EOF; the frames are recorded
	}
	waitFor("tmuxclean")
	waitSecond("tmuxclean") // from the log the proxy wrote
	keys("Enter")
	waitFor("tools/list")
	waitFor("get_weather")
	keys("/", "tool:get_weather", "Enter")
	waitFor("filter: tool:get_weather")
	if s := screen(); strings.Contains(s, "tools/list ") {
		t.Errorf("filter left tools/list on screen:\n%s", s)
	}
	keys("g", "Enter")
	waitFor("FRAME 1/")
	waitFor(`"location": "Paris"`)
	keys("C-c")
}

// TestTmuxOpensFiles runs `mcpward ui FILE` on an mcpsnoop log in a tmux
// pane: its session is listed under its label, and its frames (mcpsnoop's
// raw bytes) open in the stream and the inspector. Skipped without tmux.
func TestTmuxOpensFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("screen-level test")
	}
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed: skipping the screen-level test")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "mcpward")
	build := exec.Command("go", "build", "-o", bin, "github.com/mcpward/mcpward/cmd/mcpward")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	log := filepath.Join(dir, "srv-4242-0a1b2c3d4e5f.jsonl")
	data := append(snoopLog(t, []string{"srv"}, "/"),
		`{"session_id":"srv-4242-0a1b2c3d4e5f","server_label":"srv","seq":4,"ts":"2026-08-01T12:00:04Z","direction":"c2s","transport":"stdio","raw":{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"lookup","arguments":{"q":"a<b&c"}}}}`+"\n"...)
	if err := os.WriteFile(log, data, 0o600); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "tmux.sock")
	name := "mcpwardfiles"
	tm := func(args ...string) string {
		out, err := exec.Command(tmux, append([]string{"-S", sock}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	tm("new-session", "-d", "-s", name, "-x", "160", "-y", "40",
		"env", "MCPWARD_HOME="+filepath.Join(dir, "state"), "NO_COLOR=1", "TERM=xterm-256color", bin, "ui", "--theme", "dark", log)
	t.Cleanup(func() { exec.Command(tmux, "-S", sock, "kill-server").Run() })
	screen := func() string { return tm("capture-pane", "-p", "-t", name) }
	waitFor := func(want string) {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for time.Now().Before(deadline) {
			if strings.Contains(screen(), want) {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Fatalf("screen never showed %q:\n%s", want, screen())
	}
	keys := func(k ...string) { tm(append([]string{"send-keys", "-t", name}, k...)...) }
	waitFor("srv")
	keys("Enter")
	waitFor("tools/list")
	waitFor("lookup")
	keys("G", "Enter")
	waitFor(`"q": "a<b&c"`)
	keys("C-c")
}
