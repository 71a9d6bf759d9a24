package connect

import (
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"time"

	"github.com/mcpward/mcpward/internal/config"
	"github.com/mcpward/mcpward/internal/fault"
	"github.com/mcpward/mcpward/internal/transport"
)

// A Source says where a target entry came from and how to resolve it:
// a config file's entry and the entry the target flags build
// (cmdutil.TargetFlags.Entry) resolve through the same [Resolve].
type Source struct {
	// Dir is the config file's directory: a relative cwd and home resolve
	// against it ("": as given, against the working directory).
	Dir string
	// Lookup reads the environment for ${VAR} in header values (nil: no
	// variable is set).
	Lookup func(string) (string, bool)
	// Flags is set when the entry came from the command line: it marks
	// an error of the entry itself as the command line's
	// (cmdutil.FlagErrorWrap), errors name the flags (--header) rather
	// than the file's keys, and a literal credential is not warned about
	// (the user typed it).
	Flags func(error) error
	// Timeout, when positive, replaces the entry's timeoutMs (--timeout
	// given, or the entry came from the flags).
	Timeout time.Duration
	// DefaultTimeout, when positive, is the timeout of an entry that
	// sets none (and no Timeout replaces it).
	DefaultTimeout time.Duration
}

// Resolve turns a target entry into the Spec that reaches it: the one
// place an entry's command, env, cwd, home, isolateHome, headers (${VAR}
// interpolated) and timeout become a connection. It returns the warnings
// the user should read (a literal credential in a file's headers).
//
// An unset ${VAR} in a file's header is a config error (exit 4), not
// incomplete evidence: nothing was asked of the server yet, and the fix is
// in the user's environment or config. Difference from snapgauge, which
// exits 2 (AUTH) here; PRODUCT.md puts config problems at 4.
func Resolve(name string, t *config.Target, src *Source) (*Spec, []string, error) {
	lookup := src.Lookup
	if lookup == nil {
		lookup = func(string) (string, bool) { return "", false }
	}
	s := &Spec{
		Name:        name,
		Fixture:     t.Fixture,
		FixtureHTTP: t.FixtureHTTP,
		URL:         t.URL,
		SSE:         t.SSE,
		Cwd:         inDir(src.Dir, t.Cwd),
		Home:        inDir(src.Dir, t.Home),
		IsolateHome: t.IsolateHome,
	}
	if t.Command != "" {
		s.Command = append([]string{t.Command}, t.Args...)
	}
	for k, v := range t.Env {
		s.Env = append(s.Env, k+"="+v)
	}
	slices.Sort(s.Env)
	switch {
	case src.Timeout > 0:
		s.Timeout = src.Timeout
	case t.TimeoutMs > 0:
		s.Timeout = time.Duration(t.TimeoutMs) * time.Millisecond
	default:
		s.Timeout = src.DefaultTimeout
	}
	var warnings []string
	if len(t.Headers) > 0 {
		s.Headers = http.Header{}
		names := make([]string, 0, len(t.Headers))
		for k := range t.Headers {
			names = append(names, k)
		}
		slices.Sort(names)
		for _, k := range names {
			v, err := transport.ExpandEnv(t.Headers[k], lookup)
			if err != nil {
				if src.Flags != nil {
					return nil, nil, fmt.Errorf("--header %s: %w", k, err)
				}
				// %v, not %w: the kind is decided here (config, exit 4),
				// whatever transport marks its error with.
				return nil, nil, fault.Input(fmt.Errorf("targets.%s.headers.%s: %v", name, k, err))
			}
			s.Headers.Add(k, v)
		}
		if src.Flags == nil {
			for _, k := range t.LiteralSecretHeaders() {
				warnings = append(warnings, fmt.Sprintf("targets.%s.headers.%s holds a literal credential; use ${VAR} so the secret stays out of the repository", name, k))
			}
		}
	}
	if err := s.Validate(); err != nil {
		if src.Flags != nil {
			return nil, nil, src.Flags(err)
		}
		return nil, nil, fault.Input(fmt.Errorf("targets.%s: %w", name, err))
	}
	return s, warnings, nil
}

// inDir resolves a relative path p against dir.
func inDir(dir, p string) string {
	if p == "" || filepath.IsAbs(p) || dir == "" {
		return p
	}
	return filepath.Join(dir, p)
}
