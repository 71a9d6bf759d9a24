package wrap

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/mcpward/mcpward/internal/redact"
)

// McpsnoopBackupSuffix is appended to a config file's name by mcpsnoop for
// the backup it wrote before its first wrap.
const McpsnoopBackupSuffix = ".mcpsnoop.bak"

// mcpsnoop's shim flags and whether each takes a value. All but
// history-limit (which its shim ignored) are mcpward proxy flags of the
// same name and meaning.
var mcpsnoopFlags = map[string]bool{
	"label": true, "trace-file": true, "otlp-endpoint": true, "otlp-header": true,
	"redact-key": true, "redact-value": true, "redact-path": true, "history-limit": true,
	"no-trace": false, "redact-secrets": false,
}

// mcpsnoopCommands are mcpsnoop's subcommands: without "--", such a first
// word ran the subcommand, not a server.
var mcpsnoopCommands = []string{"http", "export", "open", "check", "baseline", "diff", "prune",
	"wrap", "unwrap", "remote", "demo", "version", "help", "completion"}

// A snoopEntry is an entry mcpsnoop wrapped: `"command": "/…/mcpsnoop",
// "args": ["--", cmd, args…]` (mcpsnoop's wrap), possibly with shim flags
// before the "--" (added by hand: its wrap could not).
type snoopEntry struct {
	orig []string // the server's command and args
	// flags are the shim flags as written (one token or two each), except
	// --history-limit; unknown names the first flag mcpward does not know.
	flags   []string
	unknown string
}

// mcpsnoop reports whether the entry runs through mcpsnoop's stdio shim.
func (e *entry) mcpsnoop() (*snoopEntry, bool) {
	base := e.cmd
	if i := strings.LastIndexAny(base, `/\`); i >= 0 {
		base = base[i+1:]
	}
	if strings.TrimSuffix(strings.ToLower(base), ".exe") != "mcpsnoop" {
		return nil, false
	}
	s := &snoopEntry{}
	argv := e.argv
	for i := 0; i < len(argv); i++ {
		a := argv[i]
		if a == "--" {
			s.orig = argv[i+1:]
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			// Interspersed flags were off: the first word starts the
			// server command, unless it names a subcommand.
			if slices.Contains(mcpsnoopCommands, a) {
				return nil, false
			}
			s.orig = argv[i:]
			break
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		takesValue, known := mcpsnoopFlags[name]
		tokens := []string{a}
		if takesValue && !hasValue && i+1 < len(argv) {
			i++
			tokens = append(tokens, argv[i])
		}
		switch {
		case !known && s.unknown == "":
			s.unknown = a
		case name == "history-limit": // the hub's, ignored by the shim
		default:
			s.flags = append(s.flags, tokens...)
		}
	}
	if len(s.orig) == 0 || strings.TrimSpace(s.orig[0]) == "" {
		// No server command to take over (an empty word): the entry is
		// wrapped as it stands, so unwrap never writes "command": "".
		return nil, false
	}
	return s, true
}

// flagNames returns the names of the flags in args ("--label x" → label).
func flagNames(args []string) map[string]bool {
	names := map[string]bool{}
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
			names[name] = true
		}
	}
	return names
}

// fromMcpsnoop is Wrap of an entry mcpsnoop wraps: it runs through mcpward
// instead (not a shim around a shim), with mcpsnoop's flags after spec's
// unless spec sets the same flag.
func fromMcpsnoop(doc []byte, e *entry, s *snoopEntry, server string, spec Spec) ([]byte, error) {
	if s.unknown != "" {
		return doc, fmt.Errorf("server %q runs through mcpsnoop with %s, which mcpward proxy does not take (unwrap it with mcpsnoop, or edit the entry)", server, s.unknown)
	}
	args := append([]string{"proxy"}, spec.Flags...)
	set := flagNames(spec.Flags)
	var rc redact.Config
	for i := 0; i < len(s.flags); i++ {
		a := s.flags[i]
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		n := 1
		if mcpsnoopFlags[name] && !hasValue && i+1 < len(s.flags) {
			n, value = 2, s.flags[i+1]
		}
		switch name {
		case "redact-key":
			rc.Keys = append(rc.Keys, value)
		case "redact-value":
			rc.Values = append(rc.Values, value)
		case "redact-path":
			rc.Paths = append(rc.Paths, value)
		}
		if !set[name] {
			args = append(args, s.flags[i:i+n]...)
		}
		i += n - 1
	}
	// mcpsnoop's JSONPath (ojg) takes forms mcpward's paths do not: an
	// entry that would not start is refused now, not when the client
	// starts it.
	if _, err := redact.New(rc); err != nil {
		return doc, fmt.Errorf("server %q runs through mcpsnoop with a redaction mcpward cannot take: %w", server, err)
	}
	args = append(append(args, "--"), s.orig...)
	return e.rewrite(doc, spec.Mcpward, args), nil
}

// sameJSON reports whether a and b hold the same JSON value: member order
// and white space aside, numbers compared by their literal. JSONC (with
// comments) is never the same.
func sameJSON(a, b []byte) bool {
	decode := func(data []byte) (any, bool) {
		d := json.NewDecoder(bytes.NewReader(data))
		d.UseNumber()
		var v any
		if d.Decode(&v) != nil || d.More() {
			return nil, false
		}
		return v, true
	}
	va, ok := decode(a)
	if !ok {
		return false
	}
	vb, ok := decode(b)
	return ok && reflect.DeepEqual(va, vb)
}
