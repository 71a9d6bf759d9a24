package mcpsnoop

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcpward/mcpward/internal/redact"
)

// BackupSuffix is appended to a client config file's name by mcpsnoop for
// the backup it wrote before its first wrap.
const BackupSuffix = ".mcpsnoop.bak"

// mcpsnoop's shim flags and whether each takes a value. All but
// history-limit (which its shim ignored) are mcpward proxy flags of the
// same name and meaning.
var shimFlags = map[string]bool{
	"label": true, "trace-file": true, "otlp-endpoint": true, "otlp-header": true,
	"redact-key": true, "redact-value": true, "redact-path": true, "history-limit": true,
	"no-trace": false, "redact-secrets": false,
}

// commands are mcpsnoop's subcommands: without "--", such a first
// word ran the subcommand, not a server.
var commands = []string{"http", "export", "open", "check", "baseline", "diff", "prune",
	"wrap", "unwrap", "remote", "demo", "version", "help", "completion"}

// A Shim is a client config entry mcpsnoop wrapped: `"command":
// "/…/mcpsnoop", "args": ["--", cmd, args…]` (mcpsnoop's wrap), possibly
// with shim flags before the "--" (added by hand: its wrap could not).
type Shim struct {
	Orig []string // the server's command and args
	// Flags are the shim flags as written (one token or two each), except
	// --history-limit; Unknown names the first flag mcpward does not know.
	Flags   []string
	Unknown string
}

// ParseShim reports whether an entry's command and args run through
// mcpsnoop's stdio shim, and how.
func ParseShim(cmd string, argv []string) (*Shim, bool) {
	base := cmd
	if i := strings.LastIndexAny(base, `/\`); i >= 0 {
		base = base[i+1:]
	}
	if strings.TrimSuffix(strings.ToLower(base), ".exe") != "mcpsnoop" {
		return nil, false
	}
	s := &Shim{}
	for i := 0; i < len(argv); i++ {
		a := argv[i]
		if a == "--" {
			s.Orig = argv[i+1:]
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			// Interspersed flags were off: the first word starts the
			// server command, unless it names a subcommand.
			if slices.Contains(commands, a) {
				return nil, false
			}
			s.Orig = argv[i:]
			break
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		takesValue, known := shimFlags[name]
		tokens := []string{a}
		if takesValue && !hasValue && i+1 < len(argv) {
			i++
			tokens = append(tokens, argv[i])
		}
		switch {
		case !known && s.Unknown == "":
			s.Unknown = a
		case name == "history-limit": // the hub's, ignored by the shim
		default:
			s.Flags = append(s.Flags, tokens...)
		}
	}
	if len(s.Orig) == 0 || strings.TrimSpace(s.Orig[0]) == "" {
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

// ProxyArgs are the arguments of mcpward that run server's entry instead
// of the shim (not a shim around a shim): "proxy", flags, mcpsnoop's flags
// unless flags sets the same one, "--", the server's command and args.
func (s *Shim) ProxyArgs(server string, flags []string) ([]string, error) {
	if s.Unknown != "" {
		return nil, fmt.Errorf("server %q runs through mcpsnoop with %s, which mcpward proxy does not take (unwrap it with mcpsnoop, or edit the entry)", server, s.Unknown)
	}
	args := append([]string{"proxy"}, flags...)
	set := flagNames(flags)
	var rc redact.Config
	for i := 0; i < len(s.Flags); i++ {
		a := s.Flags[i]
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		n := 1
		if shimFlags[name] && !hasValue && i+1 < len(s.Flags) {
			n, value = 2, s.Flags[i+1]
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
			args = append(args, s.Flags[i:i+n]...)
		}
		i += n - 1
	}
	// mcpsnoop's JSONPath (ojg) takes forms mcpward's paths do not: an
	// entry that would not start is refused now, not when the client
	// starts it.
	if _, err := redact.New(rc); err != nil {
		return nil, fmt.Errorf("server %q runs through mcpsnoop with a redaction mcpward cannot take: %w", server, err)
	}
	return append(append(args, "--"), s.Orig...), nil
}
