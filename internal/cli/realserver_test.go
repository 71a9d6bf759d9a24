package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/mcpward/mcpward/internal/cli/cmdutil"
	"github.com/mcpward/mcpward/internal/iostreams"
	"github.com/mcpward/mcpward/internal/testenv"
)

// TestRealServersRecordCheck records each real server of ECOSYSTEM.md and
// checks it against its own snapshot. Over HTTP two of them break MUST-level
// transport rules (check exits 3, naming exactly those rules; each is
// verified by hand in the compat tests' evidence); with those rule ids
// ignored, check exits 0. Then it edits the stored snapshot as if the server
// had changed and expects exit 1 with the rule that names the change.
func TestRealServersRecordCheck(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real servers")
	}
	targets := []struct {
		name   string
		target func(t *testing.T) map[string]any
		// violations are the MUST-level rules the server is known to break.
		violations []string
	}{
		{"go-sdk-stdio", func(t *testing.T) map[string]any {
			return map[string]any{"command": testenv.EverythingServer(t)}
		}, nil},
		{"go-sdk-http", func(t *testing.T) map[string]any {
			bin := testenv.EverythingServer(t)
			port := startListening(t, nil, bin, "-http")
			return map[string]any{"url": fmt.Sprintf("http://127.0.0.1:%d/", port)}
		}, []string{
			// Mcp-Name in the =?base64?…?= form is compared undecoded (HDR-B64-SENTINEL).
			"transport.mcp_name_base64_not_decoded",
			// A foreign Origin is served (HTTP-ORIGIN-VALIDATE).
			"transport.origin_invalid_not_403",
			// An unsupported version gets a plain-text 400, no -32022 (HDR-PROTO-VERSION).
			"transport.unsupported_version_not_32022",
		}},
		{"everything-stdio", func(t *testing.T) map[string]any {
			argv := testenv.NPMServer(t, "@modelcontextprotocol/server-everything", "dist/index.js", "stdio")
			return map[string]any{"command": argv[0], "args": argv[1:]}
		}, nil},
		{"everything-http", func(t *testing.T) map[string]any {
			argv := testenv.NPMServer(t, "@modelcontextprotocol/server-everything", "dist/index.js", "streamableHttp")
			port := startListening(t, []string{"PORT"}, argv...)
			return map[string]any{"url": fmt.Sprintf("http://127.0.0.1:%d/mcp", port)}
		}, []string{
			// A foreign Origin is served (HTTP-ORIGIN-VALIDATE).
			"transport.origin_invalid_not_403",
		}},
		{"filesystem-stdio", func(t *testing.T) map[string]any {
			argv := testenv.NPMServer(t, "fs-v2", "dist/index.js", t.TempDir())
			return map[string]any{"command": argv[0], "args": argv[1:]}
		}, nil},
		{"everything-2024-stdio", func(t *testing.T) map[string]any {
			argv := testenv.NPMServer(t, "everything-2025-01", "dist/index.js")
			return map[string]any{"command": argv[0], "args": argv[1:]}
		}, nil},
	}
	edits := []struct {
		name string
		edit func(t *testing.T, snap map[string]any)
		rule string
	}{
		{"tool removed", addGhostTool, "tool.removed"},
		{"description changed", changeDescription, "tool.description.changed"},
		{"required argument added", dropRequired, "tool.input.required.added"},
	}
	for _, tg := range targets {
		t.Run(tg.name, func(t *testing.T) {
			dir := t.TempDir()
			tgt := tg.target(t)
			tgt["probes"] = []any{}
			tgt["timeoutMs"] = 20000
			writeConfig := func() {
				cfg, _ := json.MarshalIndent(map[string]any{"targets": map[string]any{"srv": tgt}}, "", "  ")
				if err := os.WriteFile(filepath.Join(dir, "mcpward.json"), cfg, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			writeConfig()
			if code, out := runIn(t, dir, "record", "srv"); code != 0 {
				t.Fatalf("record exited %d:\n%s", code, out)
			}
			if len(tg.violations) > 0 {
				code, out := runIn(t, dir, "check", "srv", "--json")
				if code != 3 {
					t.Fatalf("check exited %d, want 3 for %v:\n%s", code, tg.violations, out)
				}
				var res struct {
					Violations []struct {
						RuleID string `json:"ruleId"`
						Class  string `json:"class"`
					} `json:"violations"`
				}
				if err := json.Unmarshal([]byte(out), &res); err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, v := range res.Violations {
					if v.Class == "violation" {
						got = append(got, v.RuleID)
					}
				}
				slices.Sort(got)
				if !slices.Equal(got, tg.violations) {
					t.Errorf("violations = %v, want %v", got, tg.violations)
				}
				tgt["ignore"] = tg.violations
				writeConfig()
			}
			if code, out := runIn(t, dir, "check", "srv"); code != 0 {
				t.Fatalf("check against its own snapshot exited %d:\n%s", code, out)
			}
			path := filepath.Join(dir, ".mcpward", "srv.snapshot.json")
			stored, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range edits {
				t.Run(e.name, func(t *testing.T) {
					var snap map[string]any
					if err := json.Unmarshal(stored, &snap); err != nil {
						t.Fatal(err)
					}
					e.edit(t, snap)
					b, _ := json.MarshalIndent(snap, "", "  ")
					if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
						t.Fatal(err)
					}
					defer os.WriteFile(path, stored, 0o644)
					// The conformance rules ran above; here only the drift matters.
					code, out := runIn(t, dir, "check", "srv", "--json", "--no-compat")
					if code != 1 {
						t.Fatalf("check exited %d, want 1:\n%s", code, out)
					}
					var res struct {
						Findings []struct {
							RuleID string `json:"ruleId"`
						} `json:"findings"`
					}
					if err := json.Unmarshal([]byte(out), &res); err != nil {
						t.Fatalf("check --json: %v\n%s", err, out)
					}
					found := false
					for _, f := range res.Findings {
						found = found || f.RuleID == e.rule
					}
					if !found {
						t.Errorf("no %s finding in:\n%s", e.rule, out)
					}
				})
			}
		})
	}
}

// runIn runs mcpward in dir and returns its exit code and stdout (stderr
// appended when the exit code is not 0 or 1, unless stdout is JSON).
func runIn(t *testing.T, dir string, args ...string) (int, string) {
	t.Helper()
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	ios, _, stdout, stderr := iostreams.Test()
	f := &cmdutil.Factory{
		IOStreams:  ios,
		Version:    "test",
		Now:        time.Now,
		LookupEnv:  os.LookupEnv,
		Environ:    os.Environ,
		Executable: os.Executable,
		Getwd:      os.Getwd,
		Context:    context.Background(),
	}
	code := Run(f, args)
	if code > 1 && !slices.Contains(args, "--json") {
		return code, stdout.String() + "\n[stderr]\n" + stderr.String()
	}
	return code, stdout.String()
}

func tools(t *testing.T, snap map[string]any) []any {
	t.Helper()
	surface, _ := snap["surface"].(map[string]any)
	list, _ := surface["tools"].([]any)
	if len(list) == 0 {
		t.Fatal("snapshot has no tools")
	}
	return list
}

func addGhostTool(t *testing.T, snap map[string]any) {
	surface := snap["surface"].(map[string]any)
	surface["tools"] = append(tools(t, snap), map[string]any{
		"name":        "zz_mcpward_ghost",
		"description": "A tool the live server does not have.",
		"inputSchema": map[string]any{"type": "object"},
	})
}

func changeDescription(t *testing.T, snap map[string]any) {
	tool := tools(t, snap)[0].(map[string]any)
	tool["description"] = "An older wording of this tool's description."
}

// dropRequired removes one required input from the stored snapshot, so the
// live server appears to have added it.
func dropRequired(t *testing.T, snap map[string]any) {
	for _, x := range tools(t, snap) {
		tool := x.(map[string]any)
		schema, _ := tool["inputSchema"].(map[string]any)
		if req, _ := schema["required"].([]any); len(req) > 0 {
			schema["required"] = req[1:]
			return
		}
	}
	t.Skip("no tool of this server has a required input")
}

// startListening starts a server that listens on a free loopback port,
// passed either as an environment variable (envPort) or as the argument
// after argv, and waits for the port to accept connections.
func startListening(t *testing.T, envPort []string, argv ...string) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = os.Environ()
	if len(envPort) > 0 {
		cmd.Env = append(cmd.Env, envPort[0]+"="+strconv.Itoa(port))
	} else {
		cmd.Args = append(cmd.Args, fmt.Sprintf("127.0.0.1:%d", port))
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), 200*time.Millisecond); err == nil {
			c.Close()
			return port
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("%s did not listen within 30s: %s", argv[0], stderr.String())
	return 0
}
