package wrap

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
)

// Client names.
const (
	ClaudeDesktop = "claude-desktop"
	ClaudeCode    = "claude-code"
	Cursor        = "cursor"
	VSCode        = "vscode"
)

// Scopes: a user's own config, or the one in the workspace (project).
const (
	ScopeUser      = "user"
	ScopeWorkspace = "workspace"
)

// Clients lists the supported clients.
var Clients = []string{ClaudeDesktop, ClaudeCode, Cursor, VSCode}

// An Env is what locating a client's config depends on.
type Env struct {
	GOOS      string // runtime.GOOS
	Home      string
	Cwd       string
	LookupEnv func(string) (string, bool)
}

func (e Env) get(k string) string {
	if e.LookupEnv == nil {
		return ""
	}
	v, _ := e.LookupEnv(k)
	return v
}

// userConfigDir is os.UserConfigDir computed from Env.
func (e Env) userConfigDir() string {
	switch e.GOOS {
	case "windows":
		if v := e.get("APPDATA"); v != "" {
			return v
		}
		return filepath.Join(e.Home, "AppData", "Roaming")
	case "darwin":
		return filepath.Join(e.Home, "Library", "Application Support")
	}
	if v := e.get("XDG_CONFIG_HOME"); filepath.IsAbs(v) {
		return v
	}
	return filepath.Join(e.Home, ".config")
}

// Locate returns the config file of client in scope (ScopeUser if ""),
// and where in it the servers are. An explicit path (--config) replaces
// the file, not the layout.
func Locate(client, scope, explicit string, env Env) (string, Target, error) {
	if scope == "" {
		scope = ScopeUser
	}
	if scope != ScopeUser && scope != ScopeWorkspace {
		return "", Target{}, fmt.Errorf("unknown scope %q (use user or workspace)", scope)
	}
	mcpServers := [][]string{{"mcpServers"}}
	var path string
	var t Target
	switch client {
	case ClaudeDesktop:
		if scope == ScopeWorkspace {
			return "", Target{}, fmt.Errorf("claude-desktop has no workspace config")
		}
		path = filepath.Join(env.userConfigDir(), "Claude", "claude_desktop_config.json")
		t = Target{Containers: mcpServers}
	case ClaudeCode:
		if scope == ScopeWorkspace {
			path, t = filepath.Join(env.Cwd, ".mcp.json"), Target{Containers: mcpServers}
			break
		}
		// User-wide servers, then the ones Claude Code keeps per project
		// (its "local" scope) for the working directory.
		path = filepath.Join(env.Home, ".claude.json")
		t = Target{Containers: [][]string{{"mcpServers"}, {"projects", env.Cwd, "mcpServers"}}}
	case Cursor:
		if scope == ScopeWorkspace {
			path = filepath.Join(env.Cwd, ".cursor", "mcp.json")
		} else {
			path = filepath.Join(env.Home, ".cursor", "mcp.json")
		}
		t = Target{Containers: mcpServers}
	case VSCode:
		if scope == ScopeWorkspace {
			path, t = filepath.Join(env.Cwd, ".vscode", "mcp.json"), Target{Containers: [][]string{{"servers"}}}
			break
		}
		path = filepath.Join(env.userConfigDir(), "Code", "User", "settings.json")
		t = Target{Containers: [][]string{{"mcp", "servers"}, {"mcp.servers"}}}
	default:
		return "", Target{}, fmt.Errorf("unknown client %q (use %s)", client, strings.Join(Clients, ", "))
	}
	if explicit != "" {
		path = explicit
		// VS Code's own mcp.json (user or workspace) keeps "servers" at
		// the top, whatever the scope said.
		if client == VSCode && filepath.Base(explicit) == "mcp.json" {
			t = Target{Containers: [][]string{{"servers"}}}
		}
	}
	return path, t, nil
}

// UserEnv is the Env of the running user: HOME (USERPROFILE on Windows
// when HOME is empty), the working directory (getwd may be nil) and the
// environment.
func UserEnv(getenv func(string) string, getwd func() (string, error), lookup func(string) (string, bool)) Env {
	home := getenv("HOME")
	if runtime.GOOS == "windows" && home == "" {
		home = getenv("USERPROFILE")
	}
	cwd := ""
	if getwd != nil {
		cwd, _ = getwd()
	}
	return Env{GOOS: runtime.GOOS, Home: home, Cwd: cwd, LookupEnv: lookup}
}
