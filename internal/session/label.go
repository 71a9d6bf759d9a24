package session

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// MaxLabel is the longest label in bytes.
const MaxLabel = 64

// launchers are skipped when deriving a label from argv: they run the
// server rather than name it.
var launchers = map[string]bool{
	"npx": true, "npm": true, "pnpm": true, "yarn": true, "bunx": true, "bun": true,
	"node": true, "deno": true, "python": true, "python3": true, "uv": true, "uvx": true,
	"pipx": true, "sh": true, "bash": true, "env": true, "go": true,
}

// DeriveLabel names a stdio server from its command line: launchers (npx,
// node, python, uvx…), flags, `run`/`exec` and K=V assignments are skipped;
// of the rest, the first word that contains "server" or "mcp", starts with
// "@", or ends in .js/.ts/.py wins, else the first remaining word, else
// argv[0]. Only its last path segment is kept, and the result is made safe
// as a file name on every OS ([SanitizeLabel]).
func DeriveLabel(argv []string) string {
	if len(argv) == 0 {
		return "server"
	}
	var rest []string
	for _, w := range argv {
		base := lastSegment(w)
		switch {
		case w == "" || strings.HasPrefix(w, "-") || w == "run" || w == "exec":
			continue
		case strings.Contains(w, "=") && !strings.ContainsAny(w, `/\`):
			continue // env K=V
		case len(rest) == 0 && launchers[strings.TrimSuffix(strings.ToLower(base), ".exe")]:
			continue
		}
		rest = append(rest, w)
	}
	pick := ""
	for _, w := range rest {
		l := strings.ToLower(w)
		if strings.Contains(l, "server") || strings.Contains(l, "mcp") || strings.HasPrefix(w, "@") ||
			strings.HasSuffix(l, ".js") || strings.HasSuffix(l, ".ts") || strings.HasSuffix(l, ".py") {
			pick = w
			break
		}
	}
	if pick == "" && len(rest) > 0 {
		pick = rest[0]
	}
	if pick == "" {
		pick = argv[0]
	}
	return SanitizeLabel(lastSegment(pick))
}

// LabelForHost names an HTTP target from its host and port ("host:port"):
// the colon, invalid in Windows file names, becomes "-".
func LabelForHost(hostport string) string {
	return SanitizeLabel(strings.NewReplacer("[", "", "]", "", ":", "-").Replace(hostport))
}

func lastSegment(w string) string {
	w = strings.TrimRight(w, `/\`)
	if i := strings.LastIndexAny(w, `/\`); i >= 0 {
		return w[i+1:]
	}
	return w
}

func labelByteOK(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '.' || c == '_' || c == '-' || c == '+' || c == '@'
}

// SanitizeLabel maps s to a label that is a valid file name part on Linux,
// macOS and Windows: bytes other than letters, digits and . _ - + @ become
// "_", leading dots and dashes and trailing dots are dropped, a Windows
// device name (CON, NUL, COM1…) gets a "_" prefix, and the result is at
// most MaxLabel bytes. An empty result is "server".
func SanitizeLabel(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !labelByteOK(c) {
			b[i] = '_'
		}
	}
	out := strings.TrimLeft(string(b), ".-")
	if len(out) > MaxLabel {
		out = out[:MaxLabel]
	}
	out = strings.TrimRight(out, ".")
	if out == "" {
		return "server"
	}
	if windowsReserved(out) {
		out = "_" + out
		if len(out) > MaxLabel {
			out = out[:MaxLabel]
		}
	}
	return out
}

// CheckLabel validates a label given by the user (--label): it must already
// be what SanitizeLabel would return, so the file name is what the user
// asked for.
func CheckLabel(s string) error {
	switch {
	case s == "":
		return errors.New("label is empty")
	case len(s) > MaxLabel:
		return fmt.Errorf("label is %d bytes, at most %d allowed", len(s), MaxLabel)
	}
	for i := 0; i < len(s); i++ {
		if !labelByteOK(s[i]) {
			return fmt.Errorf("label %q: character %q is not allowed (use letters, digits and . _ - + @)", s, s[i])
		}
	}
	if SanitizeLabel(s) != s {
		return fmt.Errorf("label %q: must not start with '.' or '-', end with '.', or be a Windows device name", s)
	}
	return nil
}

// windowsReserved reports whether the part of name before its first dot is
// a Windows device name, which Windows refuses as a file name whatever the
// extension.
func windowsReserved(name string) bool {
	stem, _, _ := strings.Cut(name, ".")
	stem = strings.ToUpper(stem)
	switch stem {
	case "CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$":
		return true
	}
	if len(stem) == 4 && (strings.HasPrefix(stem, "COM") || strings.HasPrefix(stem, "LPT")) && stem[3] >= '0' && stem[3] <= '9' {
		return true
	}
	return false
}

// FileName is the log file name of a session: "<label>-<id>.jsonl".
func FileName(label, id string) string {
	return SanitizeLabel(label) + "-" + id + ".jsonl"
}

// StateDir returns mcpward's state directory from the environment:
// $MCPWARD_HOME, else $XDG_STATE_HOME/mcpward (if absolute), else
// $HOME/.local/state/mcpward (the same on every OS). [Layout] names its
// folders (session logs in "sessions").
func StateDir(lookup func(string) (string, bool)) (string, error) {
	get := func(k string) string {
		if lookup == nil {
			return ""
		}
		v, _ := lookup(k)
		return v
	}
	if d := get("MCPWARD_HOME"); d != "" {
		return d, nil
	}
	if d := get("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "mcpward"), nil
	}
	home := get("HOME")
	if home == "" {
		home = get("USERPROFILE")
	}
	if home == "" {
		return "", errors.New("no state directory: set MCPWARD_HOME or HOME")
	}
	return filepath.Join(home, ".local", "state", "mcpward"), nil
}
