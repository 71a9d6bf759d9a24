package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/mcpward/mcpward/internal/jsonx"
	"github.com/mcpward/mcpward/internal/snapshot"
)

// FileName is the config file mcpward looks for in the working directory.
const FileName = "mcpward.json"

// DefaultSnapshotDir is where snapshots go when snapshotDir is not set,
// relative to the config file's directory.
const DefaultSnapshotDir = ".mcpward"

// A File is a parsed mcpward.json.
type File struct {
	// Schema is an optional "$schema" URL for editors; it is ignored.
	Schema string `json:"$schema,omitempty"`
	// SnapshotDir is relative to the config file's directory ("" means
	// DefaultSnapshotDir).
	SnapshotDir string `json:"snapshotDir,omitempty"`
	// Targets maps a target name (also the snapshot file stem) to how to
	// reach and judge that server.
	Targets map[string]*Target `json:"targets"`
	// Profiles are custom compat profiles by name, kept as raw JSON objects
	// for the compat engine, which owns their schema.
	Profiles map[string]json.RawMessage `json:"profiles,omitempty"`

	// Source names the format the file was converted from, by
	// internal/migrate ("" for mcpward.json). It is never written.
	Source string `json:"-"`
	// Warnings name what a read file holds that mcpward does not use (a
	// converted file's key with no equivalent); the caller prints them.
	Warnings []string `json:"-"`
}

// A Target is one server. Exactly one of Fixture, URL and Command is set.
// It is also what the target flags build (cmdutil.TargetFlags.Entry), so a
// server named on the command line and one named in the file resolve to a
// connection through the same connect.Resolve.
type Target struct {
	Fixture string `json:"fixture,omitempty"`
	// FixtureHTTP is --fixture-http: the fixture's HTTP framing,
	// in-process. The file has no such key.
	FixtureHTTP bool   `json:"-"`
	URL         string `json:"url,omitempty"`
	Command     string `json:"command,omitempty"`
	// Args are the stdio command's arguments.
	Args []string `json:"args,omitempty"`
	// Env, Cwd, Home and IsolateHome shape a stdio server's process.
	Env         map[string]string `json:"env,omitempty"`
	Cwd         string            `json:"cwd,omitempty"`
	Home        string            `json:"home,omitempty"`
	IsolateHome bool              `json:"isolateHome,omitempty"`
	// Headers are sent to a URL target. Values may reference ${VAR}; a
	// literal credential is accepted but warned about.
	Headers map[string]string `json:"headers,omitempty"`
	// SSE forces the deprecated HTTP+SSE transport for URL.
	SSE bool `json:"sse,omitempty"`
	// ProtocolVersion is the preferred protocol revision.
	ProtocolVersion string `json:"protocolVersion,omitempty"`
	// Capabilities is the ClientCapabilities object to declare.
	Capabilities json.RawMessage `json:"capabilities,omitempty"`
	// Profiles are compat profile names (built-in or custom).
	Profiles []string `json:"profiles,omitempty"`
	// Probes are declared tools/call probes. nil (the key is absent) means
	// a fixture target inherits its fixture's declared probes; an empty
	// list means no probes.
	Probes []Probe `json:"probes"`
	// Volatile are dot-path selectors whose values are replaced by type
	// tokens before digesting and diffing.
	Volatile []string `json:"volatile,omitempty"`
	// FailOn is the gate tier (breaking, risky, compatible, cosmetic).
	FailOn string `json:"failOn,omitempty"`
	// Ignore are rule ids dropped before gating.
	Ignore []string `json:"ignore,omitempty"`
	// TimeoutMs is the per-request timeout in milliseconds (0: default).
	TimeoutMs int64 `json:"timeoutMs,omitempty"`
}

// A Probe is one declared tools/call as the config file holds it: the
// probe (snapshot.ProbeDecl, which [Probe.Decl] returns) plus whether it is
// enabled and why. It keeps its own fields, in this order, because they are
// the file's keys in the order init writes them.
type Probe struct {
	ID   string `json:"id"`
	Tool string `json:"tool"`
	// Enabled false keeps the probe in the file without calling it: init
	// writes tools it labels write or destructive that way, and enabling
	// one is an explicit edit to true. nil (the key is absent) means
	// enabled.
	Enabled *bool `json:"enabled,omitempty"`
	// Reason says why the probe is disabled (or anything else the author
	// wants a reviewer to read); mcpward only shows it.
	Reason string `json:"reason,omitempty"`
	// Arguments is a JSON object (nil means {}).
	Arguments json.RawMessage `json:"arguments,omitempty"`
	// Capture is "shape" (default) or "values".
	Capture string `json:"capture,omitempty"`
}

// IsEnabled reports whether record and check call the probe: unless
// "enabled" is false.
func (p *Probe) IsEnabled() bool { return p.Enabled == nil || *p.Enabled }

// Decl returns the probe itself, without the config's enabled and reason.
func (p *Probe) Decl() snapshot.ProbeDecl {
	return snapshot.ProbeDecl{ID: p.ID, Tool: p.Tool, Arguments: p.Arguments, Capture: p.Capture}
}

// EnvOf is K=V pairs (--env, a client config's env) as a target's env: a
// later K wins, as in a process environment; nil when kvs is empty.
func EnvOf(kvs []string) map[string]string {
	var env map[string]string
	for _, kv := range kvs {
		k, v, _ := strings.Cut(kv, "=")
		if env == nil {
			env = map[string]string{}
		}
		env[k] = v
	}
	return env
}

// Transport names how the target is reached: "fixture", "http" or "stdio".
func (t *Target) Transport() string {
	switch {
	case t.Fixture != "":
		return "fixture"
	case t.URL != "":
		return "http"
	}
	return "stdio"
}

var (
	targetNameRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9._@-]+$`) })
	// secretHeaderRe matches header names that usually carry a credential
	secretHeaderRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)authorization|token|key|secret|cookie`) })
	// headerNameRe is an RFC 9110 token.
	headerNameRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$") })
)

// ValidTargetName reports whether name can be a target name: it becomes a
// file stem, so only letters, digits and . _ @ - are allowed.
func ValidTargetName(name string) bool {
	return targetNameRe().MatchString(name) && name != "." && name != ".."
}

// LiteralSecretHeaders returns, sorted, the names of headers that look like
// credentials (authorization, token, key, secret, cookie) but hold a
// literal value instead of a ${VAR} reference: a secret committed to the
// repository. The caller warns; the value is still used.
func (t *Target) LiteralSecretHeaders() []string {
	var out []string
	for name, v := range t.Headers {
		if secretHeaderRe().MatchString(name) && !strings.Contains(v, "${") {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// Names returns the configured target names, sorted.
func (f *File) Names() []string {
	names := make([]string, 0, len(f.Targets))
	for n := range f.Targets {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// ErrNoTarget is returned by [File.Target] when the named target does not
// exist, or no name was given and the file does not have exactly one.
var ErrNoTarget = errors.New("no such target")

// Target selects a target: an explicit name must exist; with no name the
// file must have exactly one target. Errors list the configured names and
// wrap ErrNoTarget (the caller marks them as usage errors).
func (f *File) Target(name string) (string, *Target, error) {
	names := f.Names()
	if name != "" {
		if t, ok := f.Targets[name]; ok {
			return name, t, nil
		}
		if len(names) == 0 {
			return "", nil, fmt.Errorf("%w: target %q is not configured (the config has no targets)", ErrNoTarget, name)
		}
		return "", nil, fmt.Errorf("%w: target %q is not configured (configured: %s)", ErrNoTarget, name, strings.Join(names, ", "))
	}
	switch len(names) {
	case 0:
		return "", nil, fmt.Errorf("%w: the config has no targets", ErrNoTarget)
	case 1:
		return names[0], f.Targets[names[0]], nil
	}
	return "", nil, fmt.Errorf("%w: the config has %d targets, name one (configured: %s)", ErrNoTarget, len(names), strings.Join(names, ", "))
}

// Marshal writes f as mcpward.json: 2-space indent, keys of maps sorted, a
// trailing newline, no HTML escaping.
func Marshal(f *File) ([]byte, error) {
	b, err := jsonx.MarshalIndent(f, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("marshal config: %w", err)
	}
	return append(b, '\n'), nil
}
