package mcpsnoopfiles

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/session"
	"github.com/mcpward/mcpward/internal/settings"
)

// SettingsFileName is mcpsnoop's settings file. mcpward reads it from the
// working directory when there is no .mcpward.toml there, so a project
// that used mcpsnoop keeps its label, trace file and redaction.
const SettingsFileName = ".mcpsnoop.toml"

// Settings is how internal/settings reads a .mcpsnoop.toml: the commands
// that load settings (the edges) hand it to settings.Load, which knows
// only mcpward's own format.
var Settings = []settings.Foreign{{Name: SettingsFileName, Parse: ParseSettings}}

// mcpsnoopKeys maps each key of .mcpsnoop.toml to its .mcpward.toml
// equivalent, in the order the notice lists them.
var mcpsnoopKeys = []struct{ key, equiv string }{
	{"label", "label"},
	{"trace-file", "trace-file"},
	{"no-trace", "no-trace"},
	{"redact-secrets", "[redact] secrets"},
	{"redact-key", "[redact] keys"},
	{"redact-value", "[redact] values"},
	{"redact-path", "[redact] paths"},
}

// ParseSettings decodes mcpsnoop's .mcpsnoop.toml, which looks like TOML
// but is a line-based format of its own: `key = value` lines, `#` starts a
// comment only at the start of a line, a value is a bare word (no `#` in
// it) or a double-quoted string (no `"` inside, nothing after it), arrays
// are refused, and redact-key, redact-value and redact-path accumulate
// when repeated. Every key it knows maps to one of .mcpward.toml; an
// unknown key is an error, as it was for mcpsnoop. The File's Notices name
// the .mcpward.toml equivalent of each key used. Every error is marked
// fault.Input and names the line.
func ParseSettings(name string, data []byte) (*settings.File, error) {
	f := &settings.File{Path: name}
	if err := parseSettings(f, data); err != nil {
		return nil, fault.Input(fmt.Errorf("config %s: %w", name, err))
	}
	return f, nil
}

func parseSettings(f *settings.File, data []byte) error {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if len(data) > settings.MaxFileSize {
		return fmt.Errorf("larger than %d bytes", settings.MaxFileSize)
	}
	seen := map[string]bool{}
	for n, line := range strings.Split(string(data), "\n") {
		if err := settingsLine(f, strings.TrimSpace(line), seen); err != nil {
			return fmt.Errorf("line %d: %w", n+1, err)
		}
	}
	var renamed string
	if f.Label != "" {
		if err := mcpsnoopCheckLabel(f.Label); err != nil {
			return fmt.Errorf("label: %w", err)
		}
		if session.CheckLabel(f.Label) != nil {
			// mcpsnoop took it; mcpward's labels are file names on every
			// system (mcpsnoop's "host:port" was not, on Windows).
			renamed = f.Label
			f.Label = session.SanitizeLabel(f.Label)
		}
	}
	if err := f.Check(); err != nil {
		return err
	}
	f.Notices = append(f.Notices, fmt.Sprintf("read mcpsnoop's settings file %s; in .mcpward.toml each key is:", f.Path))
	if renamed != "" {
		f.Notices = append(f.Notices, fmt.Sprintf("  (label %q becomes %q: mcpward labels use letters, digits and . _ - + @ only)", renamed, f.Label))
	}
	for _, k := range mcpsnoopKeys {
		if seen[k.key] {
			f.Notices = append(f.Notices, fmt.Sprintf("  %s -> %s", k.key, mcpwardValue(f, k.key, k.equiv)))
		}
	}
	return nil
}

// McpwardTOML is the .mcpward.toml that sets what the .mcpsnoop.toml f
// was read from (by [ParseSettings]) set: the lines its notices name, the
// [redact] keys in their table. A key set to its empty value is left out.
func McpwardTOML(f *settings.File) []byte {
	set := map[string]bool{
		"label": f.Label != "", "trace-file": f.TraceFile != "", "no-trace": f.NoTrace != nil,
		"redact-secrets": f.Redact.Secrets != nil, "redact-key": len(f.Redact.Keys) > 0,
		"redact-value": len(f.Redact.Values) > 0, "redact-path": len(f.Redact.Paths) > 0,
	}
	var top, redact []string
	for _, k := range mcpsnoopKeys {
		if !set[k.key] {
			continue
		}
		line := mcpwardValue(f, k.key, k.equiv)
		if rest, ok := strings.CutPrefix(line, "[redact] "); ok {
			redact = append(redact, rest)
		} else {
			top = append(top, line)
		}
	}
	var b strings.Builder
	b.WriteString("# Converted from .mcpsnoop.toml by 'mcpward migrate'.\n")
	for _, l := range top {
		b.WriteString(l + "\n")
	}
	if len(redact) > 0 {
		b.WriteString("\n[redact]\n")
		for _, l := range redact {
			b.WriteString(l + "\n")
		}
	}
	return []byte(b.String())
}

// settingsLine reads one trimmed line into f.
func settingsLine(f *settings.File, line string, seen map[string]bool) error {
	if line == "" || line[0] == '#' {
		return nil
	}
	key, raw, ok := strings.Cut(line, "=")
	if !ok {
		return fmt.Errorf("want key = value, got %q", line)
	}
	key, raw = strings.TrimSpace(key), strings.TrimSpace(raw)
	known := false
	for _, k := range mcpsnoopKeys {
		known = known || k.key == key
	}
	if !known {
		return fmt.Errorf("unknown config key %q (mcpsnoop's keys: label, trace-file, no-trace, redact-secrets, redact-key, redact-value, redact-path)", key)
	}
	v, err := mcpsnoopValue(raw)
	if err != nil {
		return fmt.Errorf("invalid value for %q: %w", key, err)
	}
	seen[key] = true
	boolean := func() (*bool, error) {
		if v != "true" && v != "false" {
			return nil, fmt.Errorf("invalid value for %q: want true or false, got %q", key, v)
		}
		b := v == "true"
		return &b, nil
	}
	switch key {
	case "label":
		f.Label = v
	case "trace-file":
		f.TraceFile = v
	case "no-trace":
		f.NoTrace, err = boolean()
	case "redact-secrets":
		f.Redact.Secrets, err = boolean()
	case "redact-key":
		f.Redact.Keys = append(f.Redact.Keys, v)
	case "redact-value":
		f.Redact.Values = append(f.Redact.Values, v)
	case "redact-path":
		f.Redact.Paths = append(f.Redact.Paths, v)
	}
	return err
}

// mcpsnoopCheckLabel refuses what mcpsnoop refused in a label: a path
// separator, NUL or another control character, a leading "-", more than
// 200 bytes.
func mcpsnoopCheckLabel(l string) error {
	switch {
	case strings.ContainsAny(l, `/\`):
		return fmt.Errorf("label %q contains a path separator", l)
	case strings.IndexFunc(l, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0:
		return fmt.Errorf("label %q contains a control character", l)
	case strings.HasPrefix(l, "-"):
		return fmt.Errorf("label %q starts with -", l)
	case len(l) > 200:
		return fmt.Errorf("label is %d bytes, at most 200 allowed", len(l))
	}
	return nil
}

// mcpsnoopValue reads a value as mcpsnoop did: "quoted" (no `"` inside, no
// escapes, nothing after it) or bare (no `#`, no array).
func mcpsnoopValue(raw string) (string, error) {
	switch {
	case strings.HasPrefix(raw, "["):
		return "", errors.New("array values are not supported")
	case strings.HasPrefix(raw, `"`):
		end := strings.IndexByte(raw[1:], '"')
		if end < 0 {
			return "", errors.New("unterminated quoted value")
		}
		if rest := strings.TrimSpace(raw[end+2:]); rest != "" {
			return "", fmt.Errorf("unexpected content after quoted value: %q (a comment must be on a line of its own)", rest)
		}
		return raw[1 : end+1], nil
	case strings.Contains(raw, "#"):
		return "", errors.New(`"#" in an unquoted value (a comment must be on a line of its own; quote the value to keep the "#")`)
	}
	return raw, nil
}

// mcpwardValue renders key's value as the .mcpward.toml line that sets it.
func mcpwardValue(f *settings.File, key, equiv string) string {
	list := func(vs []string) string {
		var q []string
		for _, v := range vs {
			if key != "redact-key" {
				q = append(q, tomlString(v))
				continue
			}
			// mcpsnoop's redact-key is comma-separated, as mcpward's.
			for part := range strings.SplitSeq(v, ",") {
				if part = strings.TrimSpace(part); part != "" {
					q = append(q, tomlString(part))
				}
			}
		}
		return "[" + strings.Join(q, ", ") + "]"
	}
	var v string
	switch key {
	case "label":
		v = tomlString(f.Label)
	case "trace-file":
		v = tomlString(f.TraceFile)
	case "no-trace":
		v = strconv.FormatBool(f.NoTrace != nil && *f.NoTrace)
	case "redact-secrets":
		v = strconv.FormatBool(f.Redact.Secrets != nil && *f.Redact.Secrets)
	case "redact-key":
		v = list(f.Redact.Keys)
	case "redact-value":
		v = list(f.Redact.Values)
	case "redact-path":
		v = list(f.Redact.Paths)
	}
	return equiv + " = " + v
}

// tomlString quotes s for TOML: a literal string when it holds a
// backslash (a regexp reads as written), else a basic string.
func tomlString(s string) string {
	if strings.Contains(s, `\`) && !strings.ContainsAny(s, "'\n\r") {
		return "'" + s + "'"
	}
	return strconv.Quote(s)
}
